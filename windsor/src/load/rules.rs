//! Which rules a project is loaded by: the ones asked for, else the ones
//! its facets' forms select (W10), with the reason a reader is shown.

use crate::error::Error;
use crate::format::{self, Form, Format};
use crate::texts::Texts;
use bpvm_runtime::Value;
use bpvm_runtime::root::Root;
use std::sync::Arc;

/// The rules, and why: `forced` when given, else what `docs` (each facet
/// file with its document) select. Mixing both formats is an error naming
/// one place of each.
pub(crate) fn select(
    root: &Root,
    forced: Option<Format>,
    docs: &[(String, Arc<Value>)],
) -> Result<(Format, String), Error> {
    if let Some(format) = forced {
        return Ok((format, "given".to_string()));
    }
    let docs: Vec<(String, &Value)> = docs.iter().map(|(f, d)| (f.clone(), &**d)).collect();
    let mut texts = Texts::new(root);
    match format::detect(&docs) {
        Ok(found) => {
            let why = match &found.by {
                Some(form) => located(&mut texts, form),
                None => "no facet uses a form only one of the two formats has".to_string(),
            };
            Ok((found.format, why))
        }
        Err(both) => Err(mixed(&mut texts, &both.seed, &both.v09)),
    }
}

/// `form` as `file:line:column: path, what`.
fn located(texts: &mut Texts<'_>, form: &Form) -> String {
    let file = texts.shown(&form.file);
    let at = texts.locate(&form.file, &form.at);
    bpvm_runtime::excerpt::place(Some(&file), at) + &form.described()
}

/// The error for a template whose facets use forms of both formats.
fn mixed(texts: &mut Texts<'_>, seed: &Form, v09: &Form) -> Error {
    let message = format!(
        "the facets mix two formats: this is {}, but {}; write every facet in one format \
         (or choose the rules with --rules seed or --rules v0.9)",
        seed.what,
        located(texts, v09)
    );
    Error::new(Some(&seed.file), seed.at.clone(), message)
}
