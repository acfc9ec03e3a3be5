//! Facets (`kind: Facet`, and the older `kind: Feature`): parsed,
//! checked and compiled once when the project loads.

use super::error::Error;
use super::host::compiler;
use super::tmpl::{Tmpl, TmplError};
use bpvm_runtime::Map;
use bpvm_runtime::Value;
use bpvm_vm::Program;

/// A `when:` condition, compiled.
#[derive(Debug, Clone)]
pub struct Cond {
    /// As written.
    pub src: String,
    /// The compiled expression (a template when it has `${…}`).
    pub prog: Program,
}

/// A named config block: a body evaluated late, in dependency order (W3).
#[derive(Debug, Clone)]
pub struct Block {
    /// The name it is read by (`talos.controlplanes`).
    pub name: String,
    /// Its condition.
    pub when: Option<Cond>,
    /// Every other key.
    pub body: Tmpl,
}

/// Which list a component belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `terraform:`
    Terraform,
    /// `kustomize:`
    Kustomize,
}

impl Kind {
    /// The list's key in a blueprint.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Terraform => "terraform",
            Kind::Kustomize => "kustomize",
        }
    }
}

/// How a contribution folds into what lower ordinals built (W4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Overlay.
    Merge,
    /// Replace the whole component.
    Replace,
    /// Delete the listed items (or the whole component if only its
    /// identity is listed).
    Remove,
}

/// A terraform component or kustomization of a facet.
#[derive(Debug, Clone)]
pub struct Part {
    /// Terraform or kustomize.
    pub kind: Kind,
    /// Its identity: terraform `name`, else `path`; kustomize `name`.
    pub id: String,
    /// Its own condition (none: it goes with its facet).
    pub when: Option<Cond>,
    /// How it folds.
    pub strategy: Strategy,
    /// Its own ordinal, overriding the facet's for this component.
    pub ordinal: Option<i64>,
    /// The component without `when`, `strategy`, `ordinal`, compiled.
    pub body: Tmpl,
}

/// One facet file.
#[derive(Debug, Clone)]
pub struct Facet {
    /// `metadata.name`.
    pub name: String,
    /// The file, relative to the project root.
    pub file: String,
    /// Ordinal: explicit, or from the file name (W1).
    pub ordinal: i64,
    /// Its condition.
    pub when: Option<Cond>,
    /// Config blocks.
    pub config: Vec<Block>,
    /// Terraform components, then kustomizations.
    pub parts: Vec<Part>,
}

/// The ordinal a facet file's basename gives it (seed 000; `option-` and
/// `addon-` are accepted as the reference accepts them).
///
/// ```
/// use bpvm_windsor::ordinal_from_basename;
/// assert_eq!(ordinal_from_basename("config-talos.yaml"), 100);
/// assert_eq!(ordinal_from_basename("provider-base.yaml"), 199);
/// assert_eq!(ordinal_from_basename("platform-aws.yaml"), 200);
/// assert_eq!(ordinal_from_basename("option-dev.yaml"), 300);
/// assert_eq!(ordinal_from_basename("addons-x.yaml"), 400);
/// assert_eq!(ordinal_from_basename("base.yaml"), 0);
/// ```
pub fn ordinal_from_basename(base: &str) -> i64 {
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| base.starts_with(p));
    if starts(&["config-"]) {
        100
    } else if starts(&["provider-", "platform-"]) {
        if base.contains("-base") { 199 } else { 200 }
    } else if starts(&["options-", "option-"]) {
        300
    } else if starts(&["addons-", "addon-"]) {
        400
    } else {
        0
    }
}

/// Compiles a condition: bare expr-lang, or a template when it has `${`.
pub fn condition(src: &str) -> Result<Cond, bpvm_runtime::Diagnostic> {
    let c = compiler();
    let prog = if src.contains("${") {
        c.compile_template(src)?
    } else {
        c.compile(src)?
    };
    Ok(Cond {
        src: src.to_string(),
        prog,
    })
}

struct Reader<'f> {
    file: &'f str,
    errors: Vec<Error>,
}

impl Reader<'_> {
    fn fail(&mut self, at: &str, message: impl Into<String>) {
        self.errors.push(Error::new(Some(self.file), at, message));
    }

    fn when(&mut self, v: Option<&Value>, at: &str) -> Option<Cond> {
        let at = if at.is_empty() { String::new() } else { format!("{at}.") };
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Str(s)) if s.trim().is_empty() => None,
            Some(Value::Str(s)) => match condition(s) {
                Ok(c) => Some(c),
                Err(d) => {
                    self.fail(&format!("{at}when"), d.to_string());
                    None
                }
            },
            Some(Value::Bool(b)) => condition(if *b { "true" } else { "false" }).ok(),
            Some(other) => {
                self.fail(
                    &format!("{at}when"),
                    format!("a condition must be a string, got {}", other.type_name()),
                );
                None
            }
        }
    }

    fn tmpl(&mut self, v: &Value, at: &str) -> Tmpl {
        match Tmpl::compile(v, &compiler()) {
            Ok(t) => t,
            Err(TmplError { at: inner, diag }) => {
                self.fail(&format!("{at}{inner}"), diag.to_string());
                Tmpl::Lit(Value::Null)
            }
        }
    }
}

/// Parses a facet document. `file` is its path relative to the project.
pub fn parse(doc: &Value, file: &str) -> Result<Facet, Vec<Error>> {
    let base = file.rsplit('/').next().unwrap_or(file);
    let mut r = Reader {
        file,
        errors: Vec::new(),
    };
    let Some(root) = doc.as_map() else {
        r.fail("", format!("a facet must be a mapping, got {}", doc.type_name()));
        return Err(r.errors);
    };
    match root.get("kind").and_then(Value::as_str) {
        Some("Facet" | "Feature") => {}
        Some(other) => r.fail("kind", format!("unknown kind {other:?} (expected Facet or Feature)")),
        None => r.fail("kind", "missing kind (expected Facet or Feature)"),
    }
    let name = match root.get("metadata").and_then(Value::as_map).and_then(|m| m.get("name")) {
        Some(Value::Str(n)) if !n.is_empty() => n.to_string(),
        _ => {
            r.fail("metadata.name", "a facet needs a name");
            String::new()
        }
    };
    let ordinal = match root.get("ordinal") {
        None | Some(Value::Null) => ordinal_from_basename(base),
        Some(Value::Int(n)) => *n,
        Some(other) => {
            r.fail(
                "ordinal",
                format!("an ordinal must be an integer, got {}", other.type_name()),
            );
            0
        }
    };
    let when = r.when(root.get("when"), "");
    let mut config = Vec::new();
    if let Some(list) = list_at(&mut r, root, "config") {
        for (i, item) in list.iter().enumerate() {
            let at = format!("config[{i}]");
            let Some(m) = item.as_map() else {
                r.fail(
                    &at,
                    format!("a config block must be a mapping, got {}", item.type_name()),
                );
                continue;
            };
            let Some(block) = m.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) else {
                r.fail(&at, "a config block needs a name");
                continue;
            };
            let at = format!("config[{block}]");
            let when = r.when(m.get("when"), &at);
            let mut body = Map::new();
            for (k, v) in m.iter().filter(|(k, _)| !matches!(k.as_str(), "name" | "when")) {
                body.insert(k.clone(), v.clone());
            }
            let body = r.tmpl(&Value::Map(body), &at);
            config.push(Block {
                name: block.to_string(),
                when,
                body,
            });
        }
    }
    let parts = parts_of(&mut r, root);
    if r.errors.is_empty() {
        Ok(Facet {
            name,
            file: file.to_string(),
            ordinal,
            when,
            config,
            parts,
        })
    } else {
        Err(r.errors)
    }
}

/// The components of the base `blueprint.yaml`, compiled like a facet's
/// (their inputs may have `${…}` too).
pub fn base_parts(doc: &Value, file: &str) -> Result<Vec<Part>, Vec<Error>> {
    let mut r = Reader {
        file,
        errors: Vec::new(),
    };
    let parts = doc.as_map().map(|root| parts_of(&mut r, root)).unwrap_or_default();
    if r.errors.is_empty() { Ok(parts) } else { Err(r.errors) }
}

/// The terraform components, then the kustomizations, of a document.
fn parts_of(r: &mut Reader, root: &Map) -> Vec<Part> {
    let mut parts = Vec::new();
    for kind in [Kind::Terraform, Kind::Kustomize] {
        let Some(list) = list_at(r, root, kind.key()) else {
            continue;
        };
        for (i, item) in list.iter().enumerate() {
            if let Some(p) = part(r, kind, item, i) {
                parts.push(p);
            }
        }
    }
    parts
}

fn list_at<'v>(r: &mut Reader, root: &'v Map, key: &str) -> Option<&'v [Value]> {
    match root.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::List(items)) => Some(items),
        Some(other) => {
            r.fail(key, format!("must be a list, got {}", other.type_name()));
            None
        }
    }
}

fn part(r: &mut Reader, kind: Kind, item: &Value, i: usize) -> Option<Part> {
    let key = kind.key();
    let Some(m) = item.as_map() else {
        r.fail(
            &format!("{key}[{i}]"),
            format!("must be a mapping, got {}", item.type_name()),
        );
        return None;
    };
    let text = |k: &str| m.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let id = match kind {
        Kind::Terraform => text("name").or(text("path")),
        Kind::Kustomize => text("name"),
    };
    let Some(id) = id else {
        let need = if kind == Kind::Terraform {
            "a name or a path"
        } else {
            "a name"
        };
        r.fail(&format!("{key}[{i}]"), format!("a component needs {need}"));
        return None;
    };
    let at = format!("{key}[{id}]");
    let strategy = match m.get("strategy") {
        None | Some(Value::Null) => Strategy::Merge,
        Some(Value::Str(s)) => match &**s {
            "merge" => Strategy::Merge,
            "replace" => Strategy::Replace,
            "remove" => Strategy::Remove,
            other => {
                r.fail(
                    &format!("{at}.strategy"),
                    format!("unknown strategy {other:?} (merge, replace or remove)"),
                );
                Strategy::Merge
            }
        },
        Some(other) => {
            r.fail(
                &format!("{at}.strategy"),
                format!("a strategy must be a string, got {}", other.type_name()),
            );
            Strategy::Merge
        }
    };
    let ordinal = match m.get("ordinal") {
        None | Some(Value::Null) => None,
        Some(Value::Int(n)) => Some(*n),
        Some(other) => {
            r.fail(
                &format!("{at}.ordinal"),
                format!("an ordinal must be an integer, got {}", other.type_name()),
            );
            None
        }
    };
    let when = r.when(m.get("when"), &at);
    let mut body = Map::new();
    for (k, v) in m
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "when" | "strategy" | "ordinal"))
    {
        body.insert(k.clone(), v.clone());
    }
    let body = r.tmpl(&Value::Map(body), &at);
    Some(Part {
        kind,
        id: id.to_string(),
        when,
        strategy,
        ordinal,
        body,
    })
}
