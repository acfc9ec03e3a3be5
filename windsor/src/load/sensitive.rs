//! Sensitive values must not become substitutions (Windsor v0.9): a
//! substitution is written to a ConfigMap, so one whose value is a bare
//! reference to a property the schema marks `sensitive: true` is refused;
//! such a value belongs in a flux system's `secrets:`.

use crate::template::tmpl::Tmpl;
use bpvm_runtime::{Map, Value};

/// The schema's sensitive property paths; `*` stands for any one key
/// (`additionalProperties`, `patternProperties`).
#[derive(Debug, Clone, Default)]
pub struct Sensitive(Vec<Vec<String>>);

impl Sensitive {
    /// The sensitive paths of `schema`.
    pub fn of(schema: Option<&Value>) -> Sensitive {
        let mut out = Vec::new();
        if let Some(s) = schema.and_then(Value::as_map) {
            collect(s, &mut Vec::new(), &mut out, 0);
        }
        Sensitive(out)
    }

    /// The paths, each a list of keys (`*`: any key).
    pub fn paths(&self) -> &[Vec<String>] {
        &self.0
    }

    fn holds(&self, path: &[&str]) -> bool {
        self.0
            .iter()
            .any(|p| p.len() == path.len() && p.iter().zip(path).all(|(a, b)| a == "*" || a == b))
    }

    /// Replaces each value of `values` at a sensitive path with `marker`,
    /// as Windsor's `show values` redacts them: the value is shown to be
    /// set, never what it is; no key is added.
    ///
    /// ```
    /// use bpvm_runtime::Value;
    /// use bpvm_windsor::Project;
    /// # let dir = tempfile::tempdir().unwrap();
    /// # std::fs::create_dir_all(dir.path().join("contexts/_template")).unwrap();
    /// # std::fs::write(dir.path().join("windsor.yaml"), "").unwrap();
    /// # std::fs::write(dir.path().join("contexts/_template/schema.yaml"), "properties: {token: {sensitive: true}}\n").unwrap();
    /// let project = Project::load(dir.path()).unwrap();
    /// let mut values = Value::from_yaml("{token: abc, name: x}").unwrap().as_map().cloned().unwrap();
    /// project.sensitive.mask(&mut values, "<sensitive>");
    /// assert_eq!(Value::Map(values).to_json(), r#"{"token":"<sensitive>","name":"x"}"#);
    /// ```
    pub fn mask(&self, values: &mut Map, marker: &str) {
        if !self.0.is_empty() {
            self.mask_at(values, &mut Vec::new(), marker);
        }
    }

    fn mask_at(&self, m: &mut Map, at: &mut Vec<String>, marker: &str) {
        for (k, v) in m.iter_mut() {
            at.push(k.as_str().to_string());
            let steps: Vec<&str> = at.iter().map(String::as_str).collect();
            if self.holds(&steps) {
                *v = Value::Str(marker.into());
            } else if let Value::Map(inner) = v {
                self.mask_at(inner, at, marker);
            }
            at.pop();
        }
    }

    /// The first substitution of `subs` whose value reads a sensitive
    /// property as a bare reference, as Windsor's error words it.
    pub fn check(&self, subs: &Tmpl) -> Result<(), String> {
        if self.0.is_empty() {
            return Ok(());
        }
        let Tmpl::Map(entries) = subs else { return Ok(()) };
        for (key, t) in entries {
            let Tmpl::Text { src, .. } = t else { continue };
            for path in bare_references(src) {
                let steps: Vec<&str> = path.split('.').collect();
                if self.holds(&steps) {
                    return Err(format!(
                        "substitution {key:?} references sensitive property {path:?}; move it to the flux system's secrets: key instead of a plaintext substitution, which would be written to a ConfigMap"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Schemas nest no deeper than this (a schema is a document of the
/// template, so its depth is already bounded; this bounds the walk).
const DEPTH: usize = 64;

fn collect(schema: &Map, at: &mut Vec<String>, out: &mut Vec<Vec<String>>, depth: usize) {
    if depth > DEPTH {
        return;
    }
    if matches!(schema.get("sensitive"), Some(Value::Bool(true))) && !at.is_empty() {
        out.push(at.clone());
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_map) {
        for (k, v) in props.iter() {
            if let Some(v) = v.as_map() {
                at.push(k.as_str().to_string());
                collect(v, at, out, depth + 1);
                at.pop();
            }
        }
    }
    let any = |v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>| {
        if let Some(v) = v.as_map() {
            at.push("*".to_string());
            collect(v, at, out, depth + 1);
            at.pop();
        }
    };
    if let Some(v) = schema.get("additionalProperties") {
        any(v, at, out);
    }
    if let Some(p) = schema.get("patternProperties").and_then(Value::as_map) {
        for v in p.values() {
            any(v, at, out);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::List(branches)) = schema.get(key) {
            for b in branches.iter().filter_map(Value::as_map) {
                collect(b, at, out, depth + 1);
            }
        }
    }
}

/// The `${…}` parts of `text` that are bare paths (`${a.b}`, not
/// `${a.b ?? ''}`), each from a `${` to the next `}`.
fn bare_references(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        let inner = after[..end].trim();
        if !inner.is_empty() && !inner.contains(['(', ')', '{', '}', '"', '\'', ' ', '\t', '\r', '\n']) {
            out.push(inner);
        }
        rest = &after[end + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_references_only() {
        assert_eq!(bare_references("${a.b}-${c ?? ''}-${ d }${e(f)}"), ["a.b", "d"]);
    }

    #[test]
    fn sensitive_paths_follow_properties_maps_and_branches() {
        let schema = Value::from_yaml(
            "properties:\n  pki: {properties: {key: {sensitive: true}}}\n  tokens: {additionalProperties: {sensitive: true}}\nallOf:\n  - properties: {x: {properties: {y: {sensitive: true}}}}\n",
        )
        .unwrap();
        let s = Sensitive::of(Some(&schema));
        assert!(s.holds(&["pki", "key"]));
        assert!(s.holds(&["tokens", "github"]));
        assert!(s.holds(&["x", "y"]));
        assert!(!s.holds(&["pki"]));
    }
}
