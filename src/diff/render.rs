//! One side's targets rendered with the batch library, as `bpvm batch`
//! renders them; each output kept, and each failure's message.

use super::secrets::{self, Secrets};
use super::sides::{Found, Side};
use crate::batch::{Options, Output, Sink, Status, Target, Verdict, run};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};

/// A target rendered on one side.
#[derive(Debug, Clone)]
pub(crate) struct Rendered {
    /// Its output as rendered (what is computed from a secret masked),
    /// or its error as `bpvm batch` prints it.
    pub raw: Result<String, String>,
    /// The secret values it reads.
    pub secrets: Secrets,
    /// What it renders (its template, context or variable file).
    pub source: String,
}

/// Keeps each target's text.
#[derive(Default)]
struct Texts(Mutex<HashMap<String, String>>);

impl Sink for Texts {
    fn output(&self, target: &Target, output: &Output) -> Verdict {
        let mut texts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        texts.insert(target.id.clone(), output.text.clone());
        Verdict::Ok
    }
}

/// `found` rendered on `side` with `jobs` threads (0: one per core), by
/// the id shown.
pub(crate) fn render(side: &Side, found: Vec<Found>, jobs: usize) -> BTreeMap<String, Rendered> {
    let targets: Vec<Target> = found.iter().map(|f| f.target.clone()).collect();
    let texts = Texts::default();
    let options = Options {
        jobs,
        ..Options::default()
    };
    let records = run(&targets, &options, &texts);
    let mut texts = texts.0.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut errors: HashMap<String, String> = records
        .into_iter()
        .filter(|r| r.status != Status::Ok)
        .map(|r| (r.id, r.diagnostics.join("\n")))
        .collect();
    let secrets = secrets::of_all(&targets.iter().collect::<Vec<_>>(), jobs);
    found
        .into_iter()
        .zip(secrets)
        .map(|(f, secrets)| {
            let id = &f.target.id;
            let raw = match (errors.remove(id), texts.remove(id)) {
                (None, Some(text)) => Ok(text),
                (Some(e), _) => Err(side.shown(&e)),
                (None, None) => Err(format!("error: {}: no output", f.shown)),
            };
            (
                f.shown,
                Rendered {
                    raw,
                    secrets,
                    source: f.source,
                },
            )
        })
        .collect()
}
