//! The file events of the watched folders, and Ctrl-C, as one stream:
//! each editor's save burst one set of changed paths. On `notify`,
//! `signal-hook` and the crate's `write` (Ctrl-C during a run ends it as
//! any write is ended).

use notify::event::{EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// A burst ends after this long without an event: an editor's save
/// (a temporary file written, renamed over the file) takes a few
/// milliseconds, a person's next save far longer.
const QUIET: Duration = Duration::from_millis(150);

/// A burst that never goes quiet (a file written to continuously) is cut
/// after this long, so that a run still happens.
const LONGEST: Duration = Duration::from_secs(1);

/// Changed paths, each with whether it was created, removed or renamed
/// (its folder gained or lost an entry) rather than only written.
pub type Changes = BTreeMap<PathBuf, bool>;

/// What came next.
pub enum Next {
    /// A burst of changes, outputs left out.
    Changed(Changes),
    /// SIGINT (Ctrl-C) or SIGTERM: the signal's number.
    Stop(i32),
}

enum Message {
    File(notify::Result<notify::Event>),
    Signal(i32),
}

/// The watched folders' events, and the signals that stop watching.
pub struct Events {
    received: Receiver<Message>,
    watcher: RecommendedWatcher,
    /// The folders watched now, each with whether its tree is.
    watched: BTreeMap<PathBuf, bool>,
    /// What bpvm writes: events there are not changes.
    outputs: Vec<PathBuf>,
    /// Whether a run is under way (see [`Events::running`]).
    running: Arc<AtomicBool>,
    /// A sender kept, so that receiving never finds every sender gone.
    _sender: Sender<Message>,
}

impl Events {
    /// Events with nothing watched yet; changes at or under `outputs` are
    /// left out.
    pub fn new(outputs: Vec<PathBuf>) -> Result<Events, String> {
        let (sender, received) = channel();
        let files = sender.clone();
        let watcher = notify::recommended_watcher(move |event| {
            let _ = files.send(Message::File(event));
        })
        .map_err(|e| format!("error: --watch: cannot watch files: {e}"))?;
        let mut signals =
            Signals::new([SIGINT, SIGTERM]).map_err(|e| format!("error: --watch: cannot handle Ctrl-C: {e}"))?;
        let signalled = sender.clone();
        let running = Arc::new(AtomicBool::new(false));
        let during_run = Arc::clone(&running);
        std::thread::spawn(move || {
            for signal in signals.forever() {
                // A run would only end first: stop now, as without --watch.
                if during_run.load(Ordering::SeqCst) {
                    crate::write::interrupted(signal);
                }
                let _ = signalled.send(Message::Signal(signal));
            }
        });
        Ok(Events {
            received,
            watcher,
            watched: BTreeMap::new(),
            outputs,
            running,
            _sender: sender,
        })
    }

    /// Says whether a run is under way: Ctrl-C then ends the process at
    /// once (its temporary files removed) instead of after the run.
    pub fn running(&self, yes: bool) {
        self.running.store(yes, Ordering::SeqCst);
    }

    /// Watches `folders` (each with whether its whole tree is) and no
    /// others; those among `changed` are watched anew (a folder removed
    /// and made again is a new folder to the system). Folders that cannot
    /// be watched are said in one line on stderr.
    pub fn watch(&mut self, folders: &[(PathBuf, bool)], changed: &Changes) {
        let wanted: BTreeMap<PathBuf, bool> = folders.iter().cloned().collect();
        let gone: Vec<PathBuf> = self
            .watched
            .iter()
            .filter(|(f, tree)| wanted.get(*f) != Some(tree) || changed.contains_key(*f))
            .map(|(f, _)| f.clone())
            .collect();
        for folder in gone {
            // A folder removed is unwatched already.
            let _ = self.watcher.unwatch(&folder);
            self.watched.remove(&folder);
        }
        let mut failed = Vec::new();
        for (folder, tree) in wanted {
            if self.watched.contains_key(&folder) {
                continue;
            }
            let mode = if tree {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            match self.watcher.watch(&folder, mode) {
                Ok(()) => {
                    self.watched.insert(folder, tree);
                }
                Err(e) => failed.push(format!("{}: {e}", folder.display())),
            }
        }
        // One line, not one per folder: past the system's limit on
        // watches, every further folder fails alike.
        if let Some(first) = failed.first() {
            let more = match failed.len() {
                1 => String::new(),
                n => format!(" (and {} more folders)", n - 1),
            };
            let line = format!("warning: --watch: cannot watch {first}{more}; changes there are not seen");
            eprintln!("{}", crate::paint::safe(&line));
        }
    }

    /// The folders watched now.
    pub fn count(&self) -> usize {
        self.watched.len()
    }

    /// Waits for the next burst of changes (outputs left out) or signal.
    pub fn next(&self) -> Next {
        let mut changes = Changes::new();
        let mut started: Option<Instant> = None;
        loop {
            let message = match started {
                None => self.received.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(start) => {
                    let left = LONGEST.saturating_sub(start.elapsed());
                    self.received.recv_timeout(QUIET.min(left))
                }
            };
            match message {
                Ok(Message::Signal(signal)) => return Next::Stop(signal),
                Ok(Message::File(Ok(event))) => {
                    if self.note(&mut changes, event) && started.is_none() {
                        started = Some(Instant::now());
                    }
                }
                Ok(Message::File(Err(e))) => {
                    eprintln!("{}", crate::paint::safe(&format!("warning: --watch: {e}")));
                }
                Err(RecvTimeoutError::Timeout) => return Next::Changed(changes),
                // Unreachable (a sender is kept); stop as Ctrl-C would.
                Err(RecvTimeoutError::Disconnected) => return Next::Stop(SIGINT),
            }
        }
    }

    /// Adds the paths of `event` that are changes to `changes`: whether
    /// there was one.
    fn note(&self, changes: &mut Changes, event: notify::Event) -> bool {
        let entry = match event.kind {
            EventKind::Create(_) | EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_)) => true,
            // Reading a file, or its times and mode changing, changes no
            // render.
            EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)) => return false,
            _ => false,
        };
        let mut any = false;
        for path in event.paths {
            if self.is_output(&path) {
                continue;
            }
            *changes.entry(path).or_default() |= entry;
            any = true;
        }
        any
    }

    fn is_output(&self, path: &Path) -> bool {
        self.outputs.iter().any(|o| path.starts_with(o)) || is_temporary(path)
    }
}

/// A temporary file bpvm writes output through (`.bpvm-*.tmp`, renamed
/// over the output).
fn is_temporary(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(".bpvm-") && n.ends_with(".tmp"))
}

/// `path` as file events name it: links resolved in its folder, which may
/// not exist yet (then from the root, as given).
pub fn resolved(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent().map(Path::canonicalize), absolute.file_name()) {
        (Some(Ok(folder)), Some(name)) => folder.join(name),
        _ => absolute,
    }
}
