//! How a command's outcome becomes the process's exit status: 0 on
//! success, 1 on a failure (its message printed, styled), 2 on bad usage.
//! Imports `paint` only.

use std::process::ExitCode;

/// Exit 0, or print the error and exit 1.
pub fn code(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(mut message) => {
            if !message.ends_with('\n') {
                message.push('\n');
            }
            anstream::eprint!("{}", crate::paint::diagnostic(&message));
            ExitCode::from(1)
        }
    }
}

/// A command that reports its own failures: exit 1 when it found any.
pub fn passed(result: Result<bool, String>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => code(Err(e)),
    }
}

/// A usage error clap cannot see: `message` as given, and exit 2.
pub fn usage(message: &str) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(2)
}
