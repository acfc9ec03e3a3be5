//! `bpvm fmt`: `.bp` blueprints written in their canonical layout, their
//! comments, line breaks and forms kept.

use crate::{exit, write};
use bpvm::bluelink::lang::{is_bp, print};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Format .bp blueprints in place.
///
/// Each PATH is a `.bp` or `.blueprint` file, or a folder searched for
/// them (hidden folders and `target` left out); no PATH is the current
/// folder, and `-` reads a blueprint on stdin and writes it formatted to
/// stdout. Indentation (four spaces a level), the spaces between tokens
/// and blank lines (at most one in a row) are made canonical; comments,
/// line breaks and the forms written (an operator or a call, `x` or
/// `resources.x`) are kept, and the blueprint reads the same as before.
/// A changed file is replaced atomically; when any file cannot be read
/// or is not a valid blueprint, its problem is reported at
/// file:line:column and no file is written. With --check nothing is
/// written: each file that would change is listed with a unified diff,
/// and the exit status is 1 when any would.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm fmt examples
  bpvm convert examples/bluelink/storage.yaml --to bp > storage.bp && bpvm fmt storage.bp
  bpvm convert examples/bluelink/storage.yaml --to bp | bpvm fmt --check -")]
pub struct Args {
    /// Files or folders to format; `-` for stdin to stdout [default: .]
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Write nothing: list the files that would change, with a diff, and
    /// exit 1 when any would.
    #[arg(long)]
    check: bool,
}

pub fn run(args: Args) -> ExitCode {
    if args.paths.iter().any(|p| p.as_os_str() == "-") {
        if args.paths.len() > 1 {
            return exit::usage("error: `-` (stdin) is given alone");
        }
        return exit::passed(stdin(args.check));
    }
    exit::passed(files(&args))
}

fn stdin(check: bool) -> Result<bool, String> {
    let text = std::io::read_to_string(std::io::stdin()).map_err(|e| format!("error: cannot read stdin: {e}"))?;
    let formatted = format("<stdin>", &text)?;
    if check {
        return Ok(report("<stdin>", &text, &formatted));
    }
    print!("{formatted}");
    Ok(true)
}

/// `text` formatted, or its problem at `name`:line:column.
fn format(name: &str, text: &str) -> Result<String, String> {
    print::format(text).map_err(|e| {
        bpvm::runtime::excerpt::headline(
            Some(name),
            Some((e.at.line as usize, e.at.col as usize)),
            "error",
            &e.message,
        )
    })
}

/// Under --check: whether `name` is formatted; if not, says so and
/// prints the diff.
fn report(name: &str, old: &str, new: &str) -> bool {
    if old == new {
        return true;
    }
    let diff = similar::TextDiff::from_lines(old, new);
    let unified = diff
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .to_string();
    println!("would reformat {name}\n{unified}");
    false
}

fn files(args: &Args) -> Result<bool, String> {
    let roots = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut found = Vec::new();
    for root in &roots {
        found.extend(blueprints(root)?);
    }
    // Everything is read and formatted before anything is written.
    let mut problems = Vec::new();
    let mut changes = Vec::new();
    for path in found {
        let name = path.display().to_string();
        let outcome = std::fs::read_to_string(&path)
            .map_err(|e| format!("error: {name}: cannot read it: {e}"))
            .and_then(|text| format(&name, &text).map(|new| (text, new)));
        match outcome {
            Ok((old, new)) if old != new => changes.push((path, old, new)),
            Ok(_) => {}
            Err(e) => problems.push(e),
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    if args.check {
        let mut clean = true;
        for (path, old, new) in &changes {
            clean &= report(&path.display().to_string(), old, new);
        }
        return Ok(clean);
    }
    for (path, _, new) in &changes {
        write::atomically("fmt", path, new)?;
    }
    Ok(true)
}

/// The `.bp` files `root` names: itself, or those in the folder.
fn blueprints(root: &Path) -> Result<Vec<PathBuf>, String> {
    let shown = root.display();
    let meta = std::fs::metadata(root).map_err(|e| format!("error: {shown}: {e}"))?;
    if meta.is_file() {
        if !is_bp(&root.to_string_lossy()) {
            return Err(format!(
                "error: {shown}: not a .bp blueprint (fmt formats .bp and .blueprint files)"
            ));
        }
        return Ok(vec![root.to_path_buf()]);
    }
    let mut out = Vec::new();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .hidden(true)
        .filter_entry(|e| e.file_name() != "target")
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for entry in walker {
        let entry = entry.map_err(|e| format!("error: {shown}: {e}"))?;
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        if is_file && is_bp(&entry.file_name().to_string_lossy()) {
            out.push(entry.into_path());
        }
    }
    Ok(out)
}
