//! The hover's text: an expression's value, what it read and from where,
//! and whether its facet is included, as Markdown.

use super::evaluated::Evaluated;
use super::expression::Expression;
use bpvm::vm::reads::{Found, reads};
use bpvm::{Compiler, Dialect, PathTable, Vm};
use std::fmt::Write;

/// The hover of `expression`, written in the facet `facet` (its file
/// relative to the project; `None` for another file of the project), in
/// the context `evaluated`.
pub fn shown(evaluated: &mut Evaluated, expression: &Expression, facet: Option<&str>) -> String {
    let mut out = format!("```\n{}\n```\n\n", expression.source);
    let context = format!("context `{}` (chosen by {})", evaluated.context, evaluated.chosen_by);
    let program = Compiler::new(Dialect::Windsor).compile(&expression.source);
    let mut program = match program {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(out, "does not compile: {e}");
            return out;
        }
    };
    let table = PathTable::new();
    program.bind(&table);
    evaluated.scope.bind(&table);
    match bpvm::eval(&mut Vm::new(), &program, &evaluated.scope) {
        Ok(v) => {
            let _ = writeln!(out, "**{}** in {context}\n", v.to_json());
        }
        Err(e) => {
            let _ = writeln!(out, "cannot be evaluated here in {context}: {e}\n");
        }
    }
    for read in reads(&program, evaluated.scope.root()) {
        let value = match &read.found {
            Found::Set(v) => format!("`{}`", v.to_json()),
            Found::Empty => "empty".to_string(),
            Found::Deferred(text) => format!("`{text}` (known once deployed)"),
            Found::NotSet => "not set".to_string(),
        };
        let from = match evaluated.origins.of(&read.path) {
            Some(origin) => format!(", from {origin}"),
            None if matches!(read.found, Found::NotSet) => String::new(),
            None => ", set by a config block".to_string(),
        };
        let _ = writeln!(out, "- `{}` = {value}{from}", read.path);
    }
    out.push('\n');
    match (&evaluated.included, facet) {
        (Some(included), Some(file)) => {
            let is = if included.iter().any(|f| f == file) {
                "included"
            } else {
                "not included"
            };
            let _ = writeln!(out, "This facet is {is} in context `{}`.", evaluated.context);
        }
        (None, _) => {
            let failure = evaluated.failure.as_deref().unwrap_or_default();
            let _ = writeln!(
                out,
                "The render of context `{}` fails:\n\n```\n{failure}\n```",
                evaluated.context
            );
        }
        (Some(_), None) => {}
    }
    out
}
