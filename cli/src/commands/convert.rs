//! `bpvm convert`: a Bluelink blueprint from YAML (or JSON) to `.bp`, or
//! from `.bp` to YAML.

use crate::{exit, write};
use bpvm::bluelink::lang::{is_bp, print};
use bpvm::bluelink::node;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The syntax to write.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Syntax {
    /// Bluelink's native blueprint language (.bp).
    Bp,
    /// YAML.
    Yaml,
}

/// Convert a Bluelink blueprint between YAML and .bp.
///
/// --to bp reads a YAML or JSON blueprint and writes its canonical .bp
/// text: declarations and fields in the order the YAML gives them (a
/// declaration's type, and an include's path, go in its header), `${…}`
/// substitutions as .bp expressions. What .bp cannot spell is an error
/// at its file:line:column: a type with a part that is not a letter
/// followed by letters and digits (`aws/api-gateway/rest-api`), a literal
/// `${` (written `$${`), a carriage return, a function's bare name as an
/// argument. A YAML comment on a line of its own just above a key (at
/// its column) goes before what the key becomes; other comments are
/// dropped.
///
/// --to yaml reads a .bp or .blueprint file and writes the YAML
/// blueprint it reads as (what `bpvm render` renders), its comments
/// carried over as YAML comments.
///
/// The result goes to stdout, or with -o to OUT (written atomically; OUT
/// may not be the input).
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm convert examples/bluelink/blueprint.yaml --to bp
  bpvm convert examples/bluelink/storage.yaml --to bp -o storage.bp
  bpvm convert examples/bluelink/storage.yaml --to bp -o s.bp && bpvm convert s.bp --to yaml")]
pub struct Args {
    /// The blueprint to convert.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The syntax to write.
    #[arg(long, value_enum)]
    to: Syntax,
    /// Write to OUT instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    exit::code(convert(&args))
}

fn convert(args: &Args) -> Result<(), String> {
    let name = args.file.display().to_string();
    if let Some(out) = &args.out
        && same_file(out, &args.file)
    {
        return Err(format!(
            "error: -o {}: that is the input; convert writes a new file",
            out.display()
        ));
    }
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("error: {name}: cannot read it: {e}"))?;
    let at = |e: node::ReadError| {
        bpvm::runtime::excerpt::headline(
            Some(&name),
            Some((e.at.line as usize, e.at.col as usize)),
            "error",
            &e.message,
        )
    };
    let bp = is_bp(&name);
    let converted = match args.to {
        Syntax::Bp if bp => return Err(format!("error: {name} is .bp already (bpvm fmt formats it)")),
        Syntax::Yaml if !bp => {
            return Err(format!(
                "error: {name} is YAML already (--to yaml reads a .bp or .blueprint file)"
            ));
        }
        Syntax::Bp => print::to_bp_commented(&node::read(&text).map_err(at)?, &text).map_err(at)?,
        Syntax::Yaml => print::to_yaml(&text).map_err(at)?,
    };
    write::output(args.out.as_deref(), &converted)
}

/// Whether `a` and `b` name the same file (or the same path, when
/// neither is there yet).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
