//! The keywords about a list: its items (by position, the rest, those it
//! must contain), how many, whether they are unique, and what the
//! keywords before left unevaluated.

use super::json::count;
use super::walk::{Seen, Walk};
use bpvm_runtime::{Map, Value};

/// Every such keyword of `keywords`, applied to `v`, the list `items`;
/// what they evaluated is added to `seen`.
pub(super) fn check<'s, 'i>(
    walk: &mut Walk<'s>,
    keywords: &'s Map,
    v: &'i Value,
    items: &'i [Value],
    seen: &mut Seen<'i>,
) {
    positions(walk, keywords, items, seen);
    if let Some(schema) = keywords.get("contains") {
        contains(walk, keywords, schema, v, items, seen);
    }
    sizes(walk, keywords, v, items);
    if let Some(rest) = keywords.get("unevaluatedItems")
        && !seen.all_items
    {
        let left: Vec<usize> = (seen.items..items.len())
            .filter(|i| !seen.matched.contains(i))
            .collect();
        rest_of(walk, rest, items, &left);
        seen.all_items = true;
    }
}

/// `prefixItems` (or `items` as a list, as older drafts write it), then
/// `items` (or `additionalItems`) for the rest.
fn positions<'s, 'i>(walk: &mut Walk<'s>, keywords: &'s Map, items: &'i [Value], seen: &mut Seen<'i>) {
    let (prefix, rest) = match keywords.get("items") {
        Some(Value::List(prefix)) => (Some(prefix), keywords.get("additionalItems")),
        rest => (keywords.get("prefixItems").and_then(as_list), rest),
    };
    let mut done = 0;
    for (i, (schema, item)) in prefix.into_iter().flatten().zip(items).enumerate() {
        walk.under(i.to_string(), schema, item);
        done = i + 1;
    }
    seen.items = seen.items.max(done);
    if let Some(rest) = rest {
        let left: Vec<usize> = (done..items.len()).collect();
        rest_of(walk, rest, items, &left);
        seen.all_items = true;
    }
}

fn as_list(v: &Value) -> Option<&Vec<Value>> {
    match v {
        Value::List(l) => Some(l),
        _ => None,
    }
}

/// `schema` applied to the items at `left`; where it allows none, they
/// are named at once.
fn rest_of<'s>(walk: &mut Walk<'s>, schema: &'s Value, items: &[Value], left: &[usize]) {
    if matches!(schema, Value::Bool(false)) {
        if !left.is_empty() {
            let shown: Vec<String> = left.iter().map(|&i| items[i].to_json()).collect();
            let verb = if left.len() == 1 { "was" } else { "were" };
            walk.fail(format!(
                "Additional items are not allowed ({} {verb} unexpected)",
                shown.join(", ")
            ));
        }
        return;
    }
    for &i in left {
        walk.under(i.to_string(), schema, &items[i]);
    }
}

fn contains<'s, 'i>(
    walk: &mut Walk<'s>,
    keywords: &'s Map,
    schema: &'s Value,
    v: &Value,
    items: &'i [Value],
    seen: &mut Seen<'i>,
) {
    let matched: Vec<usize> = (0..items.len())
        .filter(|&i| walk.trial(schema, &items[i]).is_some())
        .collect();
    let min = keywords.get("minContains").and_then(count).unwrap_or(1);
    let max = keywords.get("maxContains").and_then(count);
    if matched.is_empty() && min > 0 {
        walk.fail(format!("None of {} are valid under the given schema", v.to_json()));
    } else if matched.len() < min {
        walk.fail(format!(
            "{} has fewer than {min} items valid under the given schema",
            v.to_json()
        ));
    }
    if let Some(max) = max.filter(|&max| matched.len() > max) {
        walk.fail(format!(
            "{} has more than {max} items valid under the given schema",
            v.to_json()
        ));
    }
    seen.matched.extend(matched);
}

fn sizes(walk: &mut Walk, keywords: &Map, v: &Value, items: &[Value]) {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if let Some(min) = keywords.get("minItems").and_then(count)
        && items.len() < min
    {
        walk.fail(format!("{} has less than {min} item{}", v.to_json(), plural(min)));
    }
    if let Some(max) = keywords.get("maxItems").and_then(count)
        && items.len() > max
    {
        walk.fail(format!("{} has more than {max} item{}", v.to_json(), plural(max)));
    }
    let unique = matches!(keywords.get("uniqueItems"), Some(Value::Bool(true)));
    if unique && items.iter().enumerate().any(|(i, a)| items[..i].contains(a)) {
        walk.fail(format!("{} has non-unique elements", v.to_json()));
    }
}
