//! A test binary's cases, and its checks of the cases as a whole, run as
//! `cargo test` runs tests: filtered by name, listed with `--list`, each
//! passing or failing on its own.

use crate::bless::bless;
use crate::case::{Case, CaseFile, Failure};
use crate::report::report;
use crate::spans;
use crate::{discover, naming};
use bpvm_runtime::Value;
use libtest_mimic::{Arguments, Trial};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

/// What runs a case: `Ok` when it gives what it expects.
pub trait Runner: Fn(&Case) -> Result<(), Failure> + Send + Sync + 'static {}

impl<R: Fn(&Case) -> Result<(), Failure> + Send + Sync + 'static> Runner for R {}

/// The tests of one binary.
pub struct Suite {
    trials: Vec<Trial>,
    names: HashSet<String>,
    blessing: bool,
}

impl Default for Suite {
    fn default() -> Suite {
        Suite::new()
    }
}

impl Suite {
    /// No tests yet; blessing when `BPVM_BLESS=1`.
    pub fn new() -> Suite {
        Suite {
            trials: Vec::new(),
            names: HashSet::new(),
            blessing: std::env::var("BPVM_BLESS").is_ok_and(|v| v == "1"),
        }
    }

    /// The case file at `path`, read for the tests named `prefix::…`; when
    /// it is not YAML, a failing test named `prefix` says so.
    pub fn file(&mut self, prefix: &str, path: &Path) -> Option<Arc<CaseFile>> {
        let read = std::fs::read_to_string(path).map_err(|e| e.to_string());
        match read.and_then(|text| Value::from_yaml(&text)) {
            Ok(doc) => Some(Arc::new(CaseFile {
                path: path.to_path_buf(),
                doc,
            })),
            Err(e) => {
                let why = format!("{}: {e}", shown(path));
                self.check(prefix, move || Err(why));
                None
            }
        }
    }

    /// Each case of the list `list` of `file` as a test named
    /// `prefix::<case>` (as the crate doc says), run by `run`; how many
    /// there are. A file without that list is a failing test named `prefix`.
    pub fn cases(&mut self, prefix: &str, file: &Arc<CaseFile>, list: &str, run: &Arc<impl Runner>) -> usize {
        let Some(Value::List(items)) = file.get(list) else {
            let why = format!("{}: no `{list}:` list", shown(&file.path));
            self.check(prefix, move || Err(why));
            return 0;
        };
        let mut names = naming::Names::default();
        for (index, item) in items.iter().enumerate() {
            let name = format!("{prefix}::{}", names.of(item.as_map(), index + 1));
            let case = Case {
                file: file.clone(),
                list: list.to_string(),
                index,
                fields: item.as_map().cloned().unwrap_or_default(),
            };
            let (run, blessing, mapping) = (run.clone(), self.blessing, item.as_map().is_some());
            self.add(Trial::test(name, move || {
                let outcome = if mapping {
                    run(&case)
                } else {
                    Err(Failure::problem("a case is a mapping"))
                };
                match outcome {
                    Ok(()) => Ok(()),
                    Err(failure) if blessing && failure.blessable() => {
                        let fixes: Vec<_> = failure.differences.into_iter().filter_map(|d| d.fix).collect();
                        bless(&case, &fixes)?;
                        eprintln!("blessed {}", place(&case));
                        Ok(())
                    }
                    Err(failure) => Err(report(&place(&case), &failure, blessing).into()),
                }
            }));
        }
        items.len()
    }

    /// A check of the cases as a whole (that each rule has cases, that a
    /// folder has as many as it promises), named `name`.
    pub fn check(&mut self, name: &str, body: impl FnOnce() -> Result<(), String> + Send + 'static) {
        self.add(Trial::test(name, move || body().map_err(Into::into)));
    }

    /// The case files under `dir` (in its subfolders too when `nested`),
    /// each with the test-name prefix `kind::<path under dir>`.
    pub fn files(&self, kind: &str, dir: &Path, nested: bool) -> Vec<(String, std::path::PathBuf)> {
        discover::yaml_files(dir, nested)
            .into_iter()
            .map(|path| (naming::prefix(kind, dir, &path), path))
            .collect()
    }

    fn add(&mut self, trial: Trial) {
        assert!(
            self.names.insert(trial.name().to_string()),
            "two tests are named {}",
            trial.name()
        );
        self.trials.push(trial);
    }

    /// Runs the tests the command line selects, and exits.
    pub fn run(self) -> ! {
        libtest_mimic::run(&Arguments::from_args(), self.trials).exit()
    }
}

/// `file:line` of a case, for a person to open.
fn place(case: &Case) -> String {
    let file = shown(&case.file.path);
    let text = std::fs::read_to_string(&case.file.path).unwrap_or_default();
    let line = spans::read(&text)
        .ok()
        .and_then(|root| Some(root.entry(&case.list)?.1.item(case.index)?.start))
        .map(|at| text[..at].matches('\n').count() + 1);
    match line {
        Some(line) => format!("{file}:{line}"),
        None => file,
    }
}

/// `path` relative to the current folder (the crate's, under cargo test).
fn shown(path: &Path) -> String {
    let here = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&here).unwrap_or(path).display().to_string()
}
