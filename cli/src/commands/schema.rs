//! `bpvm schema`: the JSON Schema of a file kind bpvm reads, for editors.

use crate::exit;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Print the JSON Schema of a file kind bpvm reads, for editors.
///
/// Each schema (JSON Schema draft-07) is made from the same field tables
/// bpvm's loaders check keys against, so an editor using it flags what
/// bpvm would: a misspelt field, a missing required one, a value of the
/// wrong kind. Where bpvm reads a field of a newer Windsor release with a
/// warning, the schema flags it too (as --strict makes it an error).
/// `--list` prints each name with the file names it applies to;
/// `--out DIR` writes every schema into DIR as NAME.json. See
/// docs/editors.md for the editor settings that use them.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm schema --list
  bpvm schema windsor-facet > windsor-facet.schema.json
  bpvm schema bluelink-blueprint
  bpvm schema --out .schemas")]
pub struct Args {
    /// The schema to print (see --list).
    #[arg(
        value_name = "NAME",
        value_parser = clap::builder::PossibleValuesParser::new(bpvm::schema::names()),
        required_unless_present_any = ["list", "out"],
        conflicts_with_all = ["list", "out"]
    )]
    name: Option<String>,
    /// Print every schema's name and the file names it applies to.
    #[arg(long, conflicts_with = "out")]
    list: bool,
    /// Write every schema into DIR as NAME.json (DIR is created).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    exit::code(match (&args.name, &args.out) {
        (Some(name), _) => print(name),
        (None, Some(dir)) => write_all(dir),
        (None, None) => {
            print!("{}", listing());
            Ok(())
        }
    })
}

fn print(name: &str) -> Result<(), String> {
    let text = bpvm::schema::json(name).ok_or_else(|| format!("error: no schema {name:?}"))?;
    print!("{text}");
    Ok(())
}

/// One line per schema: its name, padded, then its file-name globs.
fn listing() -> String {
    let documents = bpvm::schema::documents();
    let width = documents.iter().map(|d| d.name.len()).max().unwrap_or(0);
    documents
        .iter()
        .map(|d| format!("{:width$}  {}\n", d.name, d.globs.join(" ")))
        .collect()
}

/// Every schema into `dir`, each written atomically.
fn write_all(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("error: --out {}: cannot create it: {e}", dir.display()))?;
    for name in bpvm::schema::names() {
        let text = bpvm::schema::json(name).ok_or_else(|| format!("error: no schema {name:?}"))?;
        crate::write::atomically_unsynced("--out", &dir.join(format!("{name}.json")), &text)?;
    }
    crate::write::durable("--out", dir)
}
