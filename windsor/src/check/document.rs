//! The expressions of one file of a template, found by walking its
//! document as written: each `when`, each string with `${…}` and each
//! path a `requires` names, with its YAML path.

use bpvm_runtime::Value;

/// What an expression is to Windsor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A `when:` condition.
    Condition,
    /// A string with `${…}` parts.
    Template,
    /// A dotted path a `requires` names.
    Required,
}

/// One expression of a file.
#[derive(Debug, Clone)]
pub struct Site {
    /// Its YAML path (`terraform[2].inputs.cidr`).
    pub path: String,
    /// As written.
    pub src: String,
    /// What it is.
    pub form: Form,
}

/// Keys whose values are data handed on as they are: a `when` inside
/// them is a field of the data, not a condition.
const DATA: &[&str] = &["inputs", "values", "value", "substitutions", "patches", "data"];

/// Documents are walked no deeper than this.
const DEPTH: usize = 64;

/// Every expression of `doc`, in document order.
pub fn sites(doc: &Value) -> Vec<Site> {
    let mut out = Vec::new();
    walk(doc, String::new(), false, 0, &mut out);
    out
}

fn walk(v: &Value, path: String, data: bool, depth: usize, out: &mut Vec<Site>) {
    if depth > DEPTH {
        return;
    }
    match v {
        Value::Str(s) if s.contains("${") => out.push(Site {
            path,
            src: s.to_string(),
            form: Form::Template,
        }),
        Value::List(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, format!("{path}[{i}]"), data, depth + 1, out);
            }
        }
        Value::Map(m) => {
            for (k, x) in m.iter() {
                let key = k.as_str();
                // A key with dots or brackets is quoted, so the path reads back.
                let step = if key.contains(['.', '[', ']', '"']) {
                    format!("{key:?}")
                } else {
                    key.to_string()
                };
                let at = if path.is_empty() {
                    step
                } else {
                    format!("{path}.{step}")
                };
                match (key, x) {
                    ("when", Value::Str(s)) if !data && !s.trim().is_empty() => out.push(Site {
                        path: at,
                        src: s.to_string(),
                        form: Form::Condition,
                    }),
                    ("requires", Value::List(items)) if !data => {
                        for (i, item) in items.iter().enumerate() {
                            let item_at = format!("{at}[{i}]");
                            requirement(item, &item_at, out);
                            walk(item, item_at, data, depth + 1, out);
                        }
                    }
                    _ => walk(x, at, data || DATA.contains(&key), depth + 1, out),
                }
            }
        }
        _ => {}
    }
}

/// The paths of one `requires` item.
fn requirement(item: &Value, at: &str, out: &mut Vec<Site>) {
    let Some(Value::List(paths)) = item.as_map().and_then(|m| m.get("paths")) else {
        return;
    };
    for (j, p) in paths.iter().enumerate() {
        if let Value::Str(s) = p {
            out.push(Site {
                path: format!("{at}.paths[{j}]"),
                src: s.to_string(),
                form: Form::Required,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_templates_and_required_paths_are_found_with_their_paths() {
        let doc = Value::from_yaml(
            "when: a == 1\n\
             terraform:\n- name: n\n  when: b\n  inputs: {x: '${c}', when: not-a-condition}\n\
             requires:\n- paths: [d.e]\n  when: f\n",
        )
        .unwrap();
        let found: Vec<(String, String, Form)> = sites(&doc).into_iter().map(|s| (s.path, s.src, s.form)).collect();
        assert_eq!(
            found,
            [
                ("when".into(), "a == 1".into(), Form::Condition),
                ("terraform[0].when".into(), "b".into(), Form::Condition),
                ("terraform[0].inputs.x".into(), "${c}".into(), Form::Template),
                ("requires[0].paths[0]".into(), "d.e".into(), Form::Required),
                ("requires[0].when".into(), "f".into(), Form::Condition),
            ]
        );
    }
}
