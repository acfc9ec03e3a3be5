//! `--allow-empty`: a run that found nothing to check, render or test
//! fails unless asked not to, so that a CI job pointed at the wrong
//! folder (or one whose templates an ignore file hides) is not green.

use std::path::PathBuf;

/// Whether finding nothing is accepted.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct AllowEmpty {
    /// Exit 0 when nothing is found (by default an empty run fails, so
    /// that a job pointed at the wrong folder is not green).
    #[arg(long)]
    pub allow_empty: bool,
}

impl AllowEmpty {
    /// `Err(message)` when discovery under `paths` found nothing and
    /// that is not accepted: `what` was looked for there, and what
    /// discovery passes over.
    pub fn discovered(self, found: usize, what: &str, paths: &[PathBuf]) -> Result<(), String> {
        let wher: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let note = "note: hidden folders, .git, target and node_modules are not searched, \
                    nor what .gitignore or .ignore files ignore";
        self.accepts(found, &format!("error: {what} under {}\n{note}", wher.join(", ")))
    }

    /// `Err` with `message` and how to accept it when `found` is 0 and
    /// that is not accepted.
    pub fn accepts(self, found: usize, message: &str) -> Result<(), String> {
        if found > 0 || self.allow_empty {
            return Ok(());
        }
        Err(format!(
            "{message}\nnote: --allow-empty accepts a run that finds nothing"
        ))
    }
}
