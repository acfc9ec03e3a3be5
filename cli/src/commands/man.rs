//! `bpvm man`: manual pages made from the command line's own definition
//! (handed in by the caller), so they never drift from it.

use crate::exit;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Print the manual page (roff), or write one per command to a folder.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm man > bpvm.1
  bpvm man --out man/man1")]
pub struct Args {
    /// Write bpvm.1 and bpvm-<command>.1 into DIR instead.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// The manual of `cli`, the whole command line.
pub fn run(args: Args, cli: clap::Command) -> ExitCode {
    exit::code(match &args.out {
        None => print_page(&cli),
        Some(dir) => write_pages(&cli, dir),
    })
}

/// Prints the manual page of `bpvm` (roff).
fn print_page(cli: &clap::Command) -> Result<(), String> {
    let mut page = Vec::new();
    render(cli, "bpvm", &mut page)?;
    std::io::stdout()
        .write_all(&page)
        .map_err(|e| format!("error: cannot write the manual page: {e}"))
}

/// Writes one page per command into `dir` (`bpvm.1`, `bpvm-render.1`, …),
/// each atomically.
fn write_pages(cli: &clap::Command, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("error: cannot create {}: {e}", dir.display()))?;
    let mut pages = vec![("bpvm".to_string(), cli.clone())];
    for sub in cli
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
    {
        // A command's page is named by its full name, as `man bpvm-render`
        // finds it, and its synopsis reads `bpvm render …`.
        let name = format!("bpvm-{}", sub.get_name());
        let sub = sub
            .clone()
            .display_name(name.clone())
            .bin_name(format!("bpvm {}", sub.get_name()));
        pages.push((name, sub));
    }
    for (name, page_command) in pages {
        let mut page = Vec::new();
        render(&page_command, &name, &mut page)?;
        let text = String::from_utf8(page).map_err(|_| format!("error: the page of {name} is not UTF-8"))?;
        crate::write::atomically("--out", &dir.join(format!("{name}.1")), &text)?;
    }
    Ok(())
}

fn render(command: &clap::Command, title: &str, out: &mut Vec<u8>) -> Result<(), String> {
    clap_mangen::Man::new(command.clone())
        .title(title.to_string())
        .render(out)
        .map_err(|e| format!("error: cannot make the manual page: {e}"))
}
