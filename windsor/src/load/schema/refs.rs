//! `$ref` targets within the schema: `#` (the whole schema), a JSON
//! pointer (`#/$defs/port`), an `$anchor` (`#port`) or a subschema's
//! `$id`. Nothing outside the schema is fetched (Windsor's templates
//! carry their schema whole).

use bpvm_runtime::Value;

/// The subschema `reference` names in `root`, and its place (steps from
/// the root), or `None` when nothing in the schema is that.
pub(super) fn resolve<'s>(root: &'s Value, reference: &str) -> Option<(&'s Value, Vec<String>)> {
    if let Some(fragment) = reference.strip_prefix('#') {
        if fragment.is_empty() {
            return Some((root, Vec::new()));
        }
        if let Some(pointer) = fragment.strip_prefix('/') {
            return pointed(root, pointer);
        }
        return find(root, &mut Vec::new(), &|m| {
            m.get("$anchor").and_then(Value::as_str) == Some(fragment)
        });
    }
    find(root, &mut Vec::new(), &|m| {
        m.get("$id")
            .and_then(Value::as_str)
            .is_some_and(|id| id == reference || id.trim_start_matches('#') == reference)
    })
}

/// The value at a JSON pointer (without its leading `/`), each step
/// percent-decoded and `~1`/`~0` unescaped.
fn pointed<'s>(root: &'s Value, pointer: &str) -> Option<(&'s Value, Vec<String>)> {
    let steps: Vec<String> = pointer
        .split('/')
        .map(|s| percent_decoded(s).replace("~1", "/").replace("~0", "~"))
        .collect();
    let target = steps.iter().try_fold(root, |v, step| match v {
        Value::Map(m) => m.get(step.as_str()),
        Value::List(l) => step.parse::<usize>().ok().and_then(|i| l.get(i)),
        _ => None,
    })?;
    Some((target, steps))
}

/// `%25`-style escapes decoded (a bad one is kept as written).
fn percent_decoded(step: &str) -> String {
    if !step.contains('%') {
        return step.to_string();
    }
    let bytes = step.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first subschema (depth first, in document order) `wanted` accepts.
fn find<'s>(
    v: &'s Value,
    steps: &mut Vec<String>,
    wanted: &dyn Fn(&bpvm_runtime::Map) -> bool,
) -> Option<(&'s Value, Vec<String>)> {
    let children: Vec<(String, &Value)> = match v {
        Value::Map(m) if wanted(m) => return Some((v, steps.clone())),
        Value::Map(m) => m.iter().map(|(k, v)| (k.as_str().to_string(), v)).collect(),
        Value::List(l) => l.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        _ => return None,
    };
    for (step, child) in children {
        steps.push(step);
        if let Some(found) = find(child, steps, wanted) {
            return Some(found);
        }
        steps.pop();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_anchors_and_ids() {
        let root = Value::from_yaml(
            "$defs:\n  a/b: {type: string}\n  port: {$anchor: port, type: integer}\n  \
             node: {$id: node.json, type: object}\n",
        )
        .unwrap();
        let at = |r: &str| resolve(&root, r).map(|(_, steps)| steps.join("."));
        assert_eq!(at("#"), Some(String::new()));
        assert_eq!(at("#/$defs/a~1b"), Some("$defs.a/b".into()));
        assert_eq!(at("#/%24defs/port"), Some("$defs.port".into()));
        assert_eq!(at("#port"), Some("$defs.port".into()));
        assert_eq!(at("node.json"), Some("$defs.node".into()));
        assert_eq!(at("#/$defs/none"), None);
        assert_eq!(at("https://example.com/schema"), None);
    }
}
