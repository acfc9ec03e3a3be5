//! The batch's scheduler: one queue of jobs, worked by N threads, where
//! the jobs a job starts go to the front.
//!
//! Loading a template is a job; it starts one job per target of that
//! template. Put at the front, those renders run before the next template
//! is loaded: while one thread loads a template the others render the
//! targets of the one before (no thread waits for a load), and only about
//! one template per thread is in memory at a time, however many targets
//! the batch has. A pool whose spawned jobs go to the back (rayon's
//! `scope_fifo`) loads every template first; one whose threads wait on a
//! shared template while it loads ran 2 workers only 1.4× faster than 1
//! on the corpus monorepo (see docs/performance.md).

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Condvar, Mutex, PoisonError};

/// The jobs waiting, and how many are being worked on.
struct State<J> {
    waiting: VecDeque<J>,
    working: usize,
}

/// Runs `jobs` and every job they start on `threads` threads (the
/// calling one among them), until none is left. `work` does one job and
/// returns the jobs it starts, which are done next, in their order.
/// With one thread, jobs run in order, depth first.
pub(crate) fn drain<J: Send>(threads: usize, jobs: Vec<J>, work: impl Fn(J) -> Vec<J> + Sync) {
    let state = Mutex::new(State {
        waiting: VecDeque::from(jobs),
        working: 0,
    });
    let changed = Condvar::new();
    let worker = || {
        while let Some(job) = next(&state, &changed) {
            let started = catch_unwind(AssertUnwindSafe(|| work(job)));
            let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
            s.working -= 1;
            match started {
                Ok(started) => {
                    for job in started.into_iter().rev() {
                        s.waiting.push_front(job);
                    }
                    drop(s);
                    changed.notify_all();
                }
                // The others finish the batch; the panic goes on once
                // they have (when the scope joins this thread).
                Err(panic) => {
                    drop(s);
                    changed.notify_all();
                    resume_unwind(panic);
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for i in 1..threads {
            // As the main thread's: a render's depth is bounded, not small.
            let spawned = std::thread::Builder::new()
                .name(format!("bpvm-batch-{i}"))
                .stack_size(8 << 20)
                .spawn_scoped(scope, worker);
            // Fewer threads than asked still finish the batch.
            if spawned.is_err() {
                break;
            }
        }
        worker();
    });
}

/// The next job, waiting while others work (they may start more); `None`
/// once nothing waits and nothing is being worked on.
fn next<J>(state: &Mutex<State<J>>, changed: &Condvar) -> Option<J> {
    let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if let Some(job) = s.waiting.pop_front() {
            s.working += 1;
            return Some(job);
        }
        if s.working == 0 {
            return None;
        }
        s = changed.wait(s).unwrap_or_else(PoisonError::into_inner);
    }
}

#[cfg(test)]
mod tests {
    use super::drain;
    use std::sync::Mutex;

    #[test]
    fn started_jobs_run_next_and_in_order() {
        let done = Mutex::new(Vec::new());
        drain(1, vec![1, 2], |job: u32| {
            done.lock().unwrap().push(job);
            if job < 10 {
                vec![job * 10, job * 10 + 1]
            } else {
                Vec::new()
            }
        });
        assert_eq!(*done.lock().unwrap(), [1, 10, 11, 2, 20, 21]);
    }

    #[test]
    fn every_job_runs_once_on_any_number_of_threads() {
        for threads in [1, 2, 5] {
            let done = Mutex::new(Vec::new());
            drain(threads, (0..100).collect(), |job: u32| {
                done.lock().unwrap().push(job);
                if job < 100 { vec![job + 100] } else { Vec::new() }
            });
            let mut done = done.into_inner().unwrap();
            done.sort();
            assert_eq!(done, (0..200).collect::<Vec<_>>(), "{threads} threads");
        }
    }
}
