//! `bpvm completions`: a shell's completion script, made from the command
//! line's own definition (handed in by the caller), so it never drifts
//! from it.

use crate::exit;
use std::io::Write;
use std::process::ExitCode;

/// Print the completion script of a shell.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  source <(bpvm completions bash)
  bpvm completions zsh > _bpvm
  bpvm completions fish > bpvm.fish
  bpvm completions powershell > bpvm.ps1")]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Prints the completion script of `cli`, the whole command line.
pub fn run(args: Args, mut cli: clap::Command) -> ExitCode {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cli, "bpvm", &mut out);
    let written = std::io::stdout()
        .write_all(&out)
        .map_err(|e| format!("error: cannot write the completions: {e}"));
    exit::code(written)
}
