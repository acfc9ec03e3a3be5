//! `$ref` targets within the schema: `#` (the whole schema), a JSON
//! pointer (`#/$defs/port`), an `$anchor` (`#port`) or a subschema's
//! `$id`. Nothing outside the schema is fetched (Windsor's templates
//! carry their schema whole).

use bpvm_runtime::Value;

/// The subschema `reference` names in `root`, or `None` when nothing in
/// the schema is that.
///
/// ```
/// use bpvm_runtime::Value;
/// let schema = Value::from_yaml("$defs: {port: {type: integer}}\n").unwrap();
/// let port = bpvm_windsor::resolve_reference(&schema, "#/$defs/port").unwrap();
/// assert_eq!(port.as_map().unwrap().get("type").and_then(Value::as_str), Some("integer"));
/// assert!(bpvm_windsor::resolve_reference(&schema, "#/$defs/none").is_none());
/// ```
pub fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    if let Some(fragment) = reference.strip_prefix('#') {
        if fragment.is_empty() {
            return Some(root);
        }
        if let Some(pointer) = fragment.strip_prefix('/') {
            return pointed(root, pointer);
        }
        return find(root, &|m| m.get("$anchor").and_then(Value::as_str) == Some(fragment));
    }
    find(root, &|m| {
        m.get("$id")
            .and_then(Value::as_str)
            .is_some_and(|id| id == reference || id.trim_start_matches('#') == reference)
    })
}

/// The value at a JSON pointer (without its leading `/`), each step
/// percent-decoded and `~1`/`~0` unescaped.
fn pointed<'s>(root: &'s Value, pointer: &str) -> Option<&'s Value> {
    pointer.split('/').try_fold(root, |v, step| {
        let step = percent_decoded(step).replace("~1", "/").replace("~0", "~");
        match v {
            Value::Map(m) => m.get(step.as_str()),
            Value::List(l) => step.parse::<usize>().ok().and_then(|i| l.get(i)),
            _ => None,
        }
    })
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
fn find<'s>(v: &'s Value, wanted: &dyn Fn(&bpvm_runtime::Map) -> bool) -> Option<&'s Value> {
    match v {
        Value::Map(m) if wanted(m) => Some(v),
        Value::Map(m) => m.iter().find_map(|(_, child)| find(child, wanted)),
        Value::List(l) => l.iter().find_map(|child| find(child, wanted)),
        _ => None,
    }
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
        let defs = root
            .as_map()
            .and_then(|m| m.get("$defs"))
            .and_then(Value::as_map)
            .unwrap();
        let at = |r: &str| resolve(&root, r).map(|v| v as *const Value);
        let def = |name: &str| defs.get(name).map(|v| v as *const Value);
        assert_eq!(at("#"), Some(&root as *const Value));
        assert_eq!(at("#/$defs/a~1b"), def("a/b"));
        assert_eq!(at("#/%24defs/port"), def("port"));
        assert_eq!(at("#port"), def("port"));
        assert_eq!(at("node.json"), def("node"));
        assert_eq!(at("#/$defs/none"), None);
        assert_eq!(at("https://example.com/schema"), None);
    }
}
