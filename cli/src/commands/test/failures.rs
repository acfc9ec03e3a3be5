//! The failed cases again, after the summary line: a long CI log ends
//! with what failed, one line each, in the `file:line:column: error: …`
//! form editors and CI annotators link to the case.

use crate::paint;
use bpvm::batch::{Record, Status};
use bpvm::runtime::locate::Located;
use bpvm::windsor::{Project, test};

/// Prints `failed cases:` and a line per failed case of `cases` (whose
/// records are `records`, in the same order), or nothing when all passed.
pub fn print(project: &Project, cases: &[&test::Case], records: &[Record]) {
    let failed: Vec<(&test::Case, &Record)> = cases
        .iter()
        .copied()
        .zip(records)
        .filter(|(_, r)| r.status != Status::Ok)
        .collect();
    if failed.is_empty() {
        return;
    }
    println!("failed cases:");
    let mut files = Files::default();
    for (case, record) in failed {
        let file = project.root.shown(&case.file);
        let message = format!("{}: {}", case.name, reason(record));
        let line = bpvm::runtime::excerpt::headline(Some(&file), files.place(project, case), "error", &message);
        println!("  {}", paint::escaped(&line));
    }
}

/// What went wrong, on one line: the first line of the first diagnostic,
/// and how many more there are.
fn reason(record: &Record) -> String {
    let Some(first) = record.diagnostics.first() else {
        return "failed".into();
    };
    let line = first.lines().next().unwrap_or("").trim();
    match record.diagnostics.len() - 1 {
        0 => line.to_string(),
        1 => format!("{line} (and 1 more)"),
        more => format!("{line} (and {more} more)"),
    }
}

/// The test files read so far, each once, to find where a case starts.
#[derive(Default)]
struct Files {
    read: Vec<(String, Option<Located>)>,
}

impl Files {
    /// The line and column `case` starts at in its file.
    fn place(&mut self, project: &Project, case: &test::Case) -> Option<(usize, usize)> {
        let i = match self.read.iter().position(|(f, _)| *f == case.file) {
            Some(i) => i,
            None => {
                let text = project.root.read_string(project.root.dir(), &case.file).ok();
                self.read
                    .push((case.file.clone(), text.as_deref().and_then(Located::new)));
                self.read.len() - 1
            }
        };
        self.read[i].1.as_ref()?.find(&format!("cases[{}]", case.index))
    }
}
