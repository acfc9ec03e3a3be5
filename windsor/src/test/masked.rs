//! A failing case's messages without secrets: a case compares the real
//! rendered values with its expectations (which may hold a secret's real
//! value), but what it prints masks them. The texts masked are those of
//! every value the render computed from a sensitive value (found by
//! rendering the case again with masking) and of the sensitive values
//! themselves, each replaced wherever it stands in a message.

use crate::load::project::Project;
use crate::render::outcome::Options;
use crate::render::render;
use crate::template::secrecy::{MASK, Secrets};
use bpvm_runtime::{Map, Value, text};

/// `messages` with the texts of the case's secret values masked: a value
/// the render computed shows as the masked render shows it
/// (`token-********`), a sensitive value as `********`.
pub(super) fn mask(project: &Project, ctx: &Value, opts: &Options, real: &Value, messages: &mut [String]) {
    if project.sensitive.paths().is_empty() || messages.is_empty() {
        return;
    }
    let mut texts = Vec::new();
    if let Some(values) = ctx.as_map() {
        sensitive_texts(project, values, &mut texts);
    }
    let masked_opts = Options {
        secrets: Secrets::Masked,
        ..opts.clone()
    };
    if let Ok(masked) = render(project, "test", ctx.clone(), &masked_opts) {
        differing(real, &masked.blueprint, &mut texts);
    }
    texts.retain(|(t, _)| !t.is_empty() && t != MASK);
    // The longest first, so that a secret holding another is masked whole.
    texts.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
    texts.dedup();
    for m in messages.iter_mut() {
        for (real, shown) in &texts {
            for (form, by) in [(real.clone(), shown.clone()), (escaped(real), escaped(shown))] {
                if m.contains(&form) {
                    *m = m.replace(&form, &by);
                }
            }
        }
    }
}

/// The texts of the context's values at sensitive paths.
fn sensitive_texts(project: &Project, values: &Map, out: &mut Vec<(String, String)>) {
    let marker = "\u{0}bpvm-sensitive\u{0}";
    let mut marked = values.clone();
    project.sensitive.mask(&mut marked, marker);
    let (real, marked) = (Value::Map(values.clone()), Value::Map(marked));
    let mut found = Vec::new();
    differing(&real, &marked, &mut found);
    out.extend(found.into_iter().map(|(real, _)| (real, MASK.to_string())));
}

/// The texts of the leaves of `real` where `masked` differs, each with
/// what `masked` holds there (`********` where it holds no text).
fn differing(real: &Value, masked: &Value, out: &mut Vec<(String, String)>) {
    match (real, masked) {
        (Value::Map(r), Value::Map(m)) => {
            for (k, rv) in r.iter() {
                match m.get(k.as_str()) {
                    Some(mv) => differing(rv, mv, out),
                    None => leaves(rv, MASK, out),
                }
            }
        }
        (Value::List(r), Value::List(m)) if r.len() == m.len() => {
            r.iter().zip(m).for_each(|(rv, mv)| differing(rv, mv, out));
        }
        (r, Value::Str(m)) if r != masked && matches!(r, Value::Str(_)) => {
            out.push((text::to_text(r), m.to_string()));
        }
        (r, m) if r != m => leaves(r, MASK, out),
        _ => {}
    }
}

/// Every scalar of `v` as text. Booleans and nulls say too little to
/// mask (masking every `true` would hide the message).
fn leaves(v: &Value, shown: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Null | Value::Bool(_) => {}
        Value::Map(m) => m.values().for_each(|v| leaves(v, shown, out)),
        Value::List(items) => items.iter().for_each(|v| leaves(v, shown, out)),
        other => out.push((text::to_text(other), shown.to_string())),
    }
}

/// `t` as a message quotes it inside a JSON or Rust string.
fn escaped(t: &str) -> String {
    let json = serde_json::to_string(t).unwrap_or_default();
    json.get(1..json.len().saturating_sub(1))
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differing_leaves_are_the_real_texts() {
        let v = |y: &str| Value::from_yaml(y).unwrap();
        let mut out = Vec::new();
        differing(
            &v("{a: {token: s3cret, n: 1}, l: [x-s3cret, y], m: {k: [1, 2]}}"),
            &v("{a: {token: '********', n: 1}, l: [x-********, y], m: '********'}"),
            &mut out,
        );
        let pairs: Vec<(&str, &str)> = out.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        assert_eq!(
            pairs,
            [("s3cret", MASK), ("x-s3cret", "x-********"), ("1", MASK), ("2", MASK)]
        );
    }
}
