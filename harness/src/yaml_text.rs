//! A value written as YAML text for a case file: on one line in flow style
//! (inside `{…}` or `[…]`, or for a short value after its key), or as
//! indented block lines.

use bpvm_runtime::Value;

/// `v` on one line: plain scalars where they read back as the same text,
/// JSON's quoting where they would not.
pub fn flow(v: &Value) -> String {
    written(v, false)
}

/// `v` on one line as JSON (every string quoted), spaced as YAML's flow
/// style is: for a file that writes its values so.
pub fn json(v: &Value) -> String {
    written(v, true)
}

fn written(v: &Value, quoted: bool) -> String {
    let string = |s: &str| {
        if !quoted && plain(s) {
            s.to_string()
        } else {
            Value::Str(s.into()).to_json()
        }
    };
    match v {
        Value::Str(s) => string(s),
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(|i| written(i, quoted)).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Map(m) => {
            let entries: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", string(k.as_str()), written(v, quoted)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        other => other.to_json(),
    }
}

/// `v` as block lines, each indented by `indent` spaces, without a final
/// newline (multi-line strings are literal blocks).
pub fn block(v: &Value, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let yaml = bpvm_runtime::text::to_yaml(v);
    let lines: Vec<String> = yaml
        .trim_end_matches('\n')
        .lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{pad}{l}")
            }
        })
        .collect();
    lines.join("\n")
}

/// Whether `s` may be written unquoted: a word-like text that YAML reads
/// back as the same string (not as a number, a boolean or null).
fn plain(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && !s.ends_with(' ')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || " _./-".contains(c))
        && matches!(Value::from_yaml(s), Ok(Value::Str(t)) if *t == *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        Value::from_yaml(text).unwrap()
    }

    #[test]
    fn flow_quotes_only_what_would_read_differently() {
        let v = yaml("[node-1, '1', 'true', 'a: b', '', 2, 2.5, null, {k: v}]");
        assert_eq!(flow(&v), r#"[node-1, "1", "true", "a: b", "", 2, 2.5, null, {k: v}]"#);
    }

    #[test]
    fn json_quotes_every_string() {
        assert_eq!(json(&yaml("{k: [v, 1]}")), r#"{"k": ["v", 1]}"#);
    }

    #[test]
    fn block_lines_are_indented_and_read_back() {
        let v = yaml("a: 1\nb: [x, 'line\\nnext']\n");
        let text = block(&v, 4);
        assert!(text.lines().all(|l| l.starts_with("    ")), "{text}");
        assert_eq!(
            yaml(&format!("k:\n{text}\n"))
                .as_map()
                .unwrap()
                .get("k")
                .unwrap()
                .to_json(),
            v.to_json()
        );
    }
}
