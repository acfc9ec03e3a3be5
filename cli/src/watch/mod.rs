//! `--watch` (render, test, batch): after the first run, wait for saved
//! files and run again what a saved file affects.
//!
//! A command's [`Session`] runs with its inputs tracked, and says what
//! its last run read ([`Reads`]); the folders holding those inputs are
//! watched (`events`), each editor's burst of events is one set of
//! changes, and the session runs again when a change affects what it
//! read. Files bpvm writes (`--out`, `--report`) are not changes. Ctrl-C
//! (SIGINT) or SIGTERM ends watching with the shell's status for that
//! signal, 130 or 143, as it ends any bpvm command: between runs after
//! the loop returns, during one at once.
//!
//! `reads` is a leaf, `events` imports `write` (Ctrl-C during a run);
//! the commands import this file.

mod events;
mod reads;

pub use events::{Changes, resolved};
pub use reads::Reads;

use crate::paint;
use events::{Events, Next};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A command under `--watch`, after its first run.
pub trait Session {
    /// What the last run read.
    fn reads(&self) -> Reads;
    /// Runs again if `changes` affect the last run, first saying so with
    /// [`announce`]; whether it ran.
    fn changed(&mut self, changes: &Changes) -> bool;
}

/// Watches what `session` read and runs it again on each change that
/// affects it, until Ctrl-C or SIGTERM: the exit status for that signal.
/// Nothing at or under `outputs` is a change.
pub fn watch(session: &mut dyn Session, outputs: &[PathBuf]) -> ExitCode {
    let outputs = outputs.iter().map(|o| resolved(o)).collect();
    let mut events = match Events::new(outputs) {
        Ok(events) => events,
        Err(e) => return crate::exit::code(Err(e)),
    };
    let mut changes = Changes::new();
    loop {
        let reads = session.reads();
        events.watch(&reads.folders(), &changes);
        eprintln!(
            "watching {} in {}… (Ctrl-C to stop)",
            counted(reads.file_count(), "file"),
            counted(events.count(), "folder")
        );
        loop {
            match events.next() {
                Next::Stop(signal) => return ExitCode::from((128 + signal) as u8),
                Next::Changed(burst) if burst.is_empty() => {}
                Next::Changed(burst) => {
                    events.running(true);
                    let ran = session.changed(&burst);
                    events.running(false);
                    if ran {
                        changes = burst;
                        break;
                    }
                    eprintln!("{}", paint::safe(&ignored(&burst)));
                }
            }
        }
    }
}

/// Says on stderr that `changes` affect the last run, and what is done
/// again (`what`, e.g. "rendering again"): a blank line, then the time
/// and the changed files.
pub fn announce(changes: &Changes, what: &str) {
    let line = format!("{} changed: {}; {what}", now(), listed(changes));
    eprintln!("\n{}", paint::safe(&line));
}

/// The quiet line for changes nothing read.
fn ignored(changes: &Changes) -> String {
    format!("{} changed: {} (not read; nothing to do)", now(), listed(changes))
}

/// The local time of day, to the second.
fn now() -> String {
    chrono::Local::now().format("%H:%M:%S").to_string()
}

/// The first few changed paths, from the current folder when under it.
fn listed(changes: &Changes) -> String {
    const SHOWN: usize = 3;
    let here = std::env::current_dir().ok().and_then(|d| d.canonicalize().ok());
    let shown = |p: &Path| match here.as_deref().and_then(|h| p.strip_prefix(h).ok()) {
        Some(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => p.display().to_string(),
    };
    let mut text: Vec<String> = changes.keys().take(SHOWN).map(|p| shown(p)).collect();
    if changes.len() > SHOWN {
        text.push(format!("and {} more", changes.len() - SHOWN));
    }
    text.join(", ")
}

/// `n` and `what`, plural unless one.
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
