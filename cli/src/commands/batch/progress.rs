//! Progress of a batch on stderr: a bar on a terminal, one summary line
//! otherwise.

use bpvm::batch::{Record, RecordKind, Status};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Targets done, failures, and test cases, as a batch runs.
pub struct Progress {
    bar: ProgressBar,
    failed: AtomicUsize,
    tests: AtomicUsize,
}

impl Progress {
    /// A bar over `targets` targets, drawn only when stderr is a terminal.
    pub fn new(targets: usize) -> Progress {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(targets as u64), target);
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} targets · {msg} · {per_sec} · {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message("0 failed");
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress {
            bar,
            failed: AtomicUsize::new(0),
            tests: AtomicUsize::new(0),
        }
    }

    /// A target or test case is done.
    pub fn done(&self, record: &Record) {
        let failing = usize::from(record.status != Status::Ok);
        let failed = self.failed.fetch_add(failing, Ordering::Relaxed) + failing;
        if record.kind == RecordKind::Test {
            let tests = self.tests.fetch_add(1, Ordering::Relaxed) + 1;
            self.bar.set_message(format!("{failed} failed · {tests} test cases"));
        } else {
            self.bar.set_message(format!("{failed} failed"));
            self.bar.inc(1);
        }
    }

    /// Removes the bar, before the batch's results are printed.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
