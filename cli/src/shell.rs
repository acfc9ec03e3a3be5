//! Shell integration: completion scripts and manual pages, both made from
//! the command line's own definition, so they never drift from it.

use crate::cli::Cli;
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::Write;
use std::path::Path;

/// Prints the completion script for `shell`.
pub fn completions(shell: Shell) -> Result<(), String> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "bpvm", &mut out);
    std::io::stdout()
        .write_all(&out)
        .map_err(|e| format!("error: cannot write the completions: {e}"))
}

/// Prints the manual page of `bpvm` (roff), or with `dir` writes one page
/// per command there (`bpvm.1`, `bpvm-render.1`, …), each atomically.
pub fn man(dir: Option<&Path>) -> Result<(), String> {
    let command = Cli::command();
    let Some(dir) = dir else {
        let mut page = Vec::new();
        render(&command, "bpvm", &mut page)?;
        return std::io::stdout()
            .write_all(&page)
            .map_err(|e| format!("error: cannot write the manual page: {e}"));
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("error: cannot create {}: {e}", dir.display()))?;
    let mut pages = vec![("bpvm".to_string(), command.clone())];
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
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
