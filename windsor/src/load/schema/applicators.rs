//! The keywords that apply other schemas to the same value: `allOf`,
//! `anyOf`, `oneOf`, `not` and `if`/`then`/`else`.

use super::walk::{Seen, Walk};
use bpvm_runtime::{Map, Value};

/// Every such keyword of `keywords`, applied to `v`; what they evaluated
/// is added to `seen`.
pub(super) fn check<'s, 'i>(walk: &mut Walk<'s>, keywords: &'s Map, v: &'i Value, seen: &mut Seen<'i>) {
    if let Some(Value::List(all)) = keywords.get("allOf") {
        for schema in all {
            seen.add(walk.node(schema, v));
        }
    }
    if let Some(Value::List(any)) = keywords.get("anyOf") {
        any_of(walk, any, v, seen);
    }
    if let Some(Value::List(one)) = keywords.get("oneOf") {
        one_of(walk, one, v, seen);
    }
    if let Some(not) = keywords.get("not")
        && walk.trial(not, v).is_some()
    {
        walk.fail(format!("{} is not allowed for {}", not.to_json(), v.to_json()));
    }
    if let Some(condition) = keywords.get("if") {
        conditional(walk, keywords, condition, v, seen);
    }
}

fn any_of<'s, 'i>(walk: &mut Walk<'s>, any: &'s [Value], v: &'i Value, seen: &mut Seen<'i>) {
    let mut accepted = false;
    // Every branch, for what each that accepts evaluated.
    for schema in any {
        if let Some(s) = walk.trial(schema, v) {
            accepted = true;
            seen.add(s);
        }
    }
    if !accepted {
        let words = "is not valid under any of the schemas listed in the 'anyOf' keyword";
        walk.fail(format!("{} {words}", v.to_json()));
    }
}

fn one_of<'s, 'i>(walk: &mut Walk<'s>, one: &'s [Value], v: &'i Value, seen: &mut Seen<'i>) {
    // Two accepting branches settle it.
    let mut accepting = Vec::new();
    for schema in one {
        if let Some(s) = walk.trial(schema, v) {
            accepting.push(s);
            if accepting.len() == 2 {
                break;
            }
        }
    }
    let words = match accepting.len() {
        0 => "is not valid under any of the schemas listed in the 'oneOf' keyword",
        1 => return seen.add(accepting.pop().unwrap_or_default()),
        _ => "is valid under more than one of the schemas listed in the 'oneOf' keyword",
    };
    walk.fail(format!("{} {words}", v.to_json()));
}

fn conditional<'s, 'i>(
    walk: &mut Walk<'s>,
    keywords: &'s Map,
    condition: &'s Value,
    v: &'i Value,
    seen: &mut Seen<'i>,
) {
    match walk.trial(condition, v) {
        Some(s) => {
            seen.add(s);
            if let Some(then) = keywords.get("then") {
                seen.add(walk.node(then, v));
            }
        }
        None => {
            if let Some(otherwise) = keywords.get("else") {
                seen.add(walk.node(otherwise, v));
            }
        }
    }
}
