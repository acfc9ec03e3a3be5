//! `bpvm diff REV [PATH]...`: what a change does to the rendered output
//! of every target, for a reviewer. The library (`bpvm::diff`) renders
//! both sides and compares them; this prints the result in the format
//! asked for (`colour` styles the unified form on a terminal) and gives
//! the exit status. Imports the crate's shared modules only.

mod colour;

use crate::args::ExcludeArgs;
use bpvm::diff::{COMMENT_LIMIT, Diff, Request};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Show what a change does to the rendered output of every target
///
/// Renders every Windsor context and Bluelink blueprint under each PATH
/// (default: the current folder) twice, at the git revision REV and in
/// the work tree, and prints what changed in each target's output: a
/// unified diff per target, in id order, headed `diff --bpvm a/<id>
/// b/<id>` and `source:` with what the target renders. Targets are
/// found at both sides as `bpvm batch` finds them (the same exclusions,
/// bpvm-batch.yaml); a target found only at REV is a deleted target,
/// one found only in the work tree a new target.
/// REV's files are read from git without a checkout into a temporary
/// folder (bpvm-diff-…), removed when the command ends, failing, passing
/// or interrupted (SIGINT, SIGTERM: exit 130, 143); nothing is written
/// in the work tree. REV is any revision git reads: HEAD, main, HEAD~1, a
/// hash, origin/main...HEAD (the merge base: what a pull request
/// changes).
///
/// Secrets stay masked at both sides: the values a Windsor schema marks
/// `sensitive: true` show as ******** wherever they appear, and Bluelink
/// masks what it computes from `secret: true` variables; when only a
/// secret value changed, the target says "secret changed" and names it,
/// never the value.
///
/// A target that fails to render at either side shows the error
/// (file:line:column: error: …) instead of a diff.
///
/// Exit status: 0 when no target's output differs, 1 when some target
/// changed, was added or removed, 2 when a target failed to render, on
/// any other error (not in a git repository, an unknown revision) and
/// on bad usage.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm diff HEAD examples
  bpvm diff HEAD examples --format markdown > diff.md
  bpvm diff HEAD examples/windsor --format json

In a pull request, compare with the merge base of the target branch:
bpvm diff origin/main...HEAD (the clone needs that history: fetch-depth: 0
with actions/checkout). Other revisions: main, HEAD~1, a tag, a hash.

The unified form is coloured on a terminal (NO_COLOR turns colour off,
CLICOLOR_FORCE=1 keeps it through a pipe). The Markdown form is for a
pull-request comment: a table of the targets that changed, were added,
removed or failed, then each diff folded in a <details> block, cut to
--max-chars (GitHub's limit for a comment) with a note saying what was
left out. See docs/ci.md for a workflow that posts it.")]
pub struct Args {
    /// The revision to compare the work tree with.
    #[arg(value_name = "REV")]
    pub rev: String,
    /// Folders whose targets are compared (default: the current one).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// How to print the diff: a unified diff per target, Markdown for a
    /// pull-request comment, or JSON for programs.
    #[arg(long, value_enum, default_value = "unified")]
    pub format: Format,
    /// The most characters the Markdown may have; what does not fit is
    /// cut and the cut is said.
    #[arg(long, value_name = "CHARS", default_value_t = COMMENT_LIMIT as u32, value_parser = clap::value_parser!(u32).range(1000..))]
    pub max_chars: u32,
    /// Render threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    #[command(flatten)]
    pub exclude: ExcludeArgs,
}

/// How `bpvm diff` prints.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// A unified diff per target, as git prints one per file
    Unified,
    /// A summary table and folded diffs, for a pull-request comment
    Markdown,
    /// One JSON document: counts, and each target's change and diff
    Json,
}

pub fn run(args: Args) -> ExitCode {
    // The revision's files: removed on SIGINT and SIGTERM too.
    let scratch = match crate::write::TrackedDir::create("bpvm-diff-") {
        Ok(dir) => dir,
        Err(e) => return trouble(&format!("error: cannot make a folder for the revision's files: {e}")),
    };
    let request = Request {
        rev: args.rev.clone(),
        paths: args.paths.clone(),
        exclude: args.exclude.globs.clone(),
        jobs: args.jobs.map_or(0, usize::from),
        scratch: Some(scratch.path().to_path_buf()),
    };
    let diff = match bpvm::diff::diff(&request) {
        Ok(diff) => diff,
        Err(e) => return trouble(&e.to_string()),
    };
    for w in &diff.warnings {
        anstream::eprintln!("{}", crate::paint::diagnostic(&format!("warning: {w}")));
    }
    let text = printed(&diff, &args);
    let mut out = anstream::stdout().lock();
    // A closed pipe (`| head`) ends the output, not the command's verdict.
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    if diff.failed() {
        ExitCode::from(2)
    } else if diff.differs() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The diff in the format asked for.
fn printed(diff: &Diff, args: &Args) -> String {
    // Outputs come from templates: a control character among them
    // would reach the terminal as a command.
    use crate::paint::escaped;
    match args.format {
        Format::Unified => colour::unified(&escaped(&diff.unified())),
        Format::Markdown => escaped(&diff.markdown(args.max_chars as usize)),
        Format::Json => diff.json(),
    }
}

/// An error that stops the diff: printed, exit 2.
fn trouble(message: &str) -> ExitCode {
    anstream::eprintln!("{}", crate::paint::diagnostic(message).trim_end());
    ExitCode::from(2)
}
