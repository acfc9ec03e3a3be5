//! The hover of a key in a Windsor context's `values.yaml`: what the
//! template's `schema.yaml` says of it (its type, description and
//! default), found by the walk completion uses through nested properties,
//! `$ref`s and list items.

use crate::complete::{KeyAt, Nest, Step, default_of, description_of, key_at, properties_at, type_of};
use crate::text::Lines;
use bpvm::Value;
use lsp_types::{Position, Range};

/// A key of a values file under the cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct ValuesKey {
    /// The mappings and list items it is nested in, outermost first.
    pub steps: Vec<Step>,
    /// Its name.
    pub name: String,
    /// Where the name is written.
    pub range: Range,
}

/// The block-style key whose name `position` of `text` is on.
///
/// ```
/// use bpvm_lsp::complete::Step;
/// use bpvm_lsp::hover::values_key_at;
/// use bpvm_lsp::text::Lines;
/// let text = "cluster:\n  workers:\n    - count: 3\n";
/// let key = values_key_at(text, &Lines::new(text), lsp_types::Position::new(2, 8)).unwrap();
/// assert_eq!(key.name, "count");
/// assert_eq!(key.steps, [Step::Key("cluster".into()), Step::Key("workers".into()), Step::Item]);
/// assert!(values_key_at(text, &Lines::new(text), lsp_types::Position::new(2, 14)).is_none());
/// ```
pub fn values_key_at(text: &str, lines: &Lines, position: Position) -> Option<ValuesKey> {
    let index = position.line as usize;
    let line = lines.line(text, index);
    let line_start = lines.offset(text, Position::new(position.line, 0))?;
    let at = lines.offset(text, position)? - line_start;
    let colon = line
        .find(": ")
        .or_else(|| line.trim_end().strip_suffix(':').map(str::len))?;
    let start = colon - line[..colon].trim_start_matches([' ', '-']).len();
    if !(start..=colon).contains(&at) || start == colon {
        return None;
    }
    let all: Vec<&str> = (0..lines.count()).map(|i| lines.line(text, i)).collect();
    let KeyAt { nest, partial, .. } = key_at(&all, index, colon)?;
    let steps = nest
        .into_iter()
        .map(|n| match n {
            Nest::Key(k) => Step::Key(k),
            Nest::Item => Step::Item,
        })
        .collect();
    let place = |i: usize| lines.position(text, line_start + i);
    Some(ValuesKey {
        steps,
        name: partial,
        range: Range::new(place(start), place(colon)),
    })
}

/// The hover of `key` by the schema `schema`; `None` when the schema
/// declares no such property.
pub fn key_shown(schema: &Value, key: &ValuesKey) -> Option<String> {
    let (_, property) = properties_at(schema, &key.steps)
        .into_iter()
        .find(|(name, _)| *name == key.name)?;
    let mut path = String::new();
    for step in &key.steps {
        match step {
            Step::Key(k) => {
                path.push_str(k);
                path.push('.');
            }
            Step::Item => path.insert_str(path.len().saturating_sub(1), "[]"),
        }
    }
    path.push_str(&key.name);
    let mut parts = vec![match type_of(schema, property) {
        Some(ty) => format!("**`{path}`**: `{ty}`"),
        None => format!("**`{path}`**"),
    }];
    parts.extend(description_of(schema, property).map(|d| d.trim().to_string()));
    parts.extend(default_of(schema, property).map(|d| format!("Default: `{}`", d.to_json())));
    let out = parts.join("\n\n") + "\n";
    Some(out)
}
