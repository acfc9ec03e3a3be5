//! One test case run, printed as it goes, and kept as a report record.

use crate::paint;
use bpvm::batch::{Record, RecordKind, Status};
use bpvm::windsor::{Project, test, warning_line};
use std::time::Instant;

/// Runs `case`, prints its mark, what differed and its warnings (values
/// the schema refuses: errors with `strict`), and gives its record: the
/// one `bpvm batch --test` makes of it.
pub fn run(project: &Project, case: &test::Case, schema_defaults: bool, strict: bool, show_secrets: bool) -> Record {
    let start = Instant::now();
    let refused = bpvm::windsor::validate::case(project, &case.file, case.index, case.values());
    // By --strict a refused value fails the render, as in Windsor's own
    // runner: a case that expects an error then passes.
    let refusing = strict && !refused.is_empty();
    let diffs = if refusing {
        Vec::new()
    } else {
        test::run_with(
            project,
            case,
            schema_defaults,
            crate::load::windsor::secrets(show_secrets),
        )
    };
    let passed = if refusing {
        case.expects_error()
    } else {
        diffs.is_empty()
    };
    let seconds = start.elapsed().as_secs_f64();
    anstream::println!("{} {}", paint::mark(passed), paint::escaped(&case.name));
    let refused: Vec<String> = refused.iter().map(|r| warning_line(r, strict)).collect();
    let warned: Vec<String> = case.warnings.iter().map(|w| warning_line(w, false)).collect();
    for line in diffs.iter().chain(&refused).chain(&warned) {
        println!("    {}", paint::escaped(line));
    }
    let mut record = Record::new(
        id(case),
        RecordKind::Test,
        if passed { Status::Ok } else { Status::Failed },
    );
    record.seconds = seconds;
    // Why it failed: what differed, or under --strict the refused values.
    let (why, noted) = if refusing {
        (refused, Vec::new())
    } else {
        (diffs, refused)
    };
    record.notes = noted.into_iter().chain(warned).collect();
    if passed {
        record.notes.extend(why);
    } else {
        record.diagnostics = why;
    }
    record
}

/// A case's id in a report: `<test file>::<case name>`, as in the report
/// of a batch run on the project's folder.
fn id(case: &test::Case) -> String {
    format!("{}::{}", case.file, case.name)
}
