//! Facets (`kind: Facet`, and the older `kind: Feature`): parsed,
//! checked and compiled once when the project loads.

use crate::error::Error;
use crate::fields::check_fields;
use crate::flux::System;
use crate::host::compiler_for;
use crate::kind::{Kind, Strategy};
use crate::load::requires::Requirement;
use crate::template::condition::{Cond, condition};
use crate::template::tmpl::{Tmpl, TmplError};
use bpvm_runtime::Map;
use bpvm_runtime::Value;

/// A named config block: a body evaluated late, in dependency order (W3).
#[derive(Debug, Clone)]
pub struct Block {
    /// The name it is read by (`talos.controlplanes`).
    pub name: String,
    /// Its condition.
    pub when: Option<Cond>,
    /// Every other key (v0.9: its `value`).
    pub body: Tmpl,
    /// How it folds into a same-name block of a lower ordinal (v0.9).
    pub strategy: Strategy,
    /// Its own ordinal (v0.9; none: the facet's).
    pub ordinal: Option<i64>,
    /// What it needs set (v0.9).
    pub requires: Vec<Requirement>,
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
    /// What it needs set (v0.9).
    pub requires: Vec<Requirement>,
}

/// A message of a facet: text shown after a deploy, when its condition
/// holds (v0.9).
#[derive(Debug, Clone)]
pub struct Message {
    /// Its condition.
    pub when: Option<Cond>,
    /// Its text, with `${…}` parts.
    pub text: Tmpl,
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
    /// What the facet needs set (v0.9).
    pub requires: Vec<Requirement>,
    /// Flux systems (v0.9).
    pub flux: Vec<System>,
    /// CRD layer references (v0.9).
    pub crds: Option<Tmpl>,
    /// Blueprint-wide substitutions (v0.9).
    pub substitutions: Option<Tmpl>,
    /// Messages shown after a deploy (v0.9).
    pub messages: Vec<Message>,
    /// The terraform component that holds the state backend (v0.9).
    pub backend: Option<String>,
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

struct Reader<'f> {
    file: &'f str,
    v09: bool,
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
            Some(Value::Str(s)) => match condition(s, self.v09) {
                Ok(c) => Some(c),
                Err(d) => {
                    self.fail(&format!("{at}when"), d.to_string());
                    None
                }
            },
            Some(Value::Bool(b)) => condition(if *b { "true" } else { "false" }, self.v09).ok(),
            Some(other) => {
                self.fail(
                    &format!("{at}when"),
                    format!("a condition must be a string, got {}", other.type_name()),
                );
                None
            }
        }
    }

    fn strategy(&mut self, v: Option<&Value>, at: &str) -> Strategy {
        match v {
            None | Some(Value::Null) => Strategy::Merge,
            Some(Value::Str(s)) => Strategy::parse(s).unwrap_or_else(|| {
                self.fail(
                    &format!("{at}.strategy"),
                    format!("unknown strategy {s:?} (merge, replace or remove)"),
                );
                Strategy::Merge
            }),
            Some(other) => {
                self.fail(
                    &format!("{at}.strategy"),
                    format!("a strategy must be a string, got {}", other.type_name()),
                );
                Strategy::Merge
            }
        }
    }

    fn ordinal(&mut self, v: Option<&Value>, at: &str) -> Option<i64> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Int(n)) => Some(*n),
            Some(other) => {
                self.fail(
                    &format!("{at}.ordinal"),
                    format!("an ordinal must be an integer, got {}", other.type_name()),
                );
                None
            }
        }
    }

    fn requires(&mut self, v: Option<&Value>, at: &str) -> Vec<Requirement> {
        let file = self.file;
        let errors = &mut self.errors;
        crate::load::requires::parse(v, at, &mut |a, m| errors.push(Error::new(Some(file), a, m)))
    }

    fn tmpl(&mut self, v: &Value, at: &str) -> Tmpl {
        let rewrite: Option<crate::template::tmpl::Rewrite> = if self.v09 {
            Some(crate::template::shorthand::expand)
        } else {
            None
        };
        match Tmpl::compile_rewritten(v, &compiler_for(self.v09), rewrite) {
            Ok(t) => t,
            Err(TmplError { at: inner, diag }) => {
                self.fail(&format!("{at}{inner}"), diag.to_string());
                Tmpl::Lit(Value::Null)
            }
        }
    }
}

/// The top-level fields of a v0.9 facet.
const FACET_FIELDS: &[&str] = &[
    "kind",
    "apiVersion",
    "metadata",
    "ordinal",
    "when",
    "backend",
    "config",
    "requires",
    "terraform",
    "kustomize",
    "flux",
    "crds",
    "substitutions",
    "messages",
];

/// The fields of a v0.9 config block.
const BLOCK_FIELDS: &[&str] = &["name", "value", "when", "strategy", "ordinal", "requires"];

/// Parses a facet document. `file` is its path relative to the project;
/// `v09` selects the Windsor v0.9 format (W10).
pub fn parse(doc: &Value, file: &str, v09: bool) -> Result<Facet, Vec<Error>> {
    let base = file.rsplit('/').next().unwrap_or(file);
    let mut r = Reader {
        file,
        v09,
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
    if v09 {
        let file = r.file;
        let errors = &mut r.errors;
        check_fields(root, FACET_FIELDS, "", &mut |at, m| {
            errors.push(Error::new(Some(file), at, m))
        });
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
            let (body, strategy, ordinal, requires) = if v09 {
                let file = r.file;
                let errors = &mut r.errors;
                check_fields(m, BLOCK_FIELDS, &at, &mut |a, msg| {
                    errors.push(Error::new(Some(file), a, msg))
                });
                let value = match m.get("value") {
                    Some(Value::Null) => Value::Map(Map::new()),
                    Some(v) => v.clone(),
                    None => {
                        r.fail(&at, "a config block needs a value (a scalar, list or mapping)");
                        Value::Null
                    }
                };
                let body = r.tmpl(&value, &format!("{at}.value"));
                let strategy = r.strategy(m.get("strategy"), &at);
                let ordinal = r.ordinal(m.get("ordinal"), &at);
                let requires = r.requires(m.get("requires"), &format!("{at}.requires"));
                (body, strategy, ordinal, requires)
            } else {
                let mut body = Map::new();
                for (k, v) in m.iter().filter(|(k, _)| !matches!(k.as_str(), "name" | "when")) {
                    body.insert(k.clone(), v.clone());
                }
                (r.tmpl(&Value::Map(body), &at), Strategy::Merge, None, Vec::new())
            };
            config.push(Block {
                name: block.to_string(),
                when,
                body,
                strategy,
                ordinal,
                requires,
            });
        }
    }
    let parts = parts_of(&mut r, root, v09);
    let mut facet = Facet {
        name,
        file: file.to_string(),
        ordinal,
        when,
        config,
        parts,
        requires: Vec::new(),
        flux: Vec::new(),
        crds: None,
        substitutions: None,
        messages: Vec::new(),
        backend: None,
    };
    if v09 {
        facet.requires = r.requires(root.get("requires"), "requires");
        if let Some(list) = list_at(&mut r, root, "flux") {
            facet.flux = crate::flux::parse(list, file, &mut r.errors);
        }
        if let Some(list) = list_at(&mut r, root, "crds") {
            facet.crds = Some(r.tmpl(&Value::List(list.to_vec()), "crds"));
        }
        match root.get("substitutions") {
            None | Some(Value::Null) => {}
            Some(v @ Value::Map(_)) => facet.substitutions = Some(r.tmpl(v, "substitutions")),
            Some(other) => r.fail("substitutions", format!("must be a mapping, got {}", other.type_name())),
        }
        if let Some(list) = list_at(&mut r, root, "messages") {
            for (i, m) in list.iter().enumerate() {
                let at = format!("messages[{i}]");
                let Some(m) = m.as_map() else {
                    r.fail(&at, format!("a message must be a mapping, got {}", m.type_name()));
                    continue;
                };
                let file = r.file;
                let errors = &mut r.errors;
                check_fields(m, &["when", "text"], &at, &mut |a, msg| {
                    errors.push(Error::new(Some(file), a, msg))
                });
                let Some(text) = m.get("text").filter(|t| t.as_str().is_some_and(|t| !t.is_empty())) else {
                    continue;
                };
                let when = r.when(m.get("when"), &at);
                let text = r.tmpl(text, &format!("{at}.text"));
                facet.messages.push(Message { when, text });
            }
        }
        match root.get("backend") {
            None | Some(Value::Null) => {}
            Some(Value::Str(b)) => facet.backend = Some(b.to_string()).filter(|b| !b.is_empty()),
            Some(other) => r.fail(
                "backend",
                format!("must be a component name, got {}", other.type_name()),
            ),
        }
    }
    if r.errors.is_empty() { Ok(facet) } else { Err(r.errors) }
}

/// The components of the base `blueprint.yaml`, compiled like a facet's
/// (their inputs may have `${…}` too).
pub fn base_parts(doc: &Value, file: &str, v09: bool) -> Result<Vec<Part>, Vec<Error>> {
    let mut r = Reader {
        file,
        v09,
        errors: Vec::new(),
    };
    let parts = doc
        .as_map()
        .map(|root| parts_of(&mut r, root, false))
        .unwrap_or_default();
    if r.errors.is_empty() { Ok(parts) } else { Err(r.errors) }
}

/// The terraform components, then the kustomizations, of a document.
fn parts_of(r: &mut Reader, root: &Map, v09: bool) -> Vec<Part> {
    let mut parts = Vec::new();
    for kind in [Kind::Terraform, Kind::Kustomize] {
        let Some(list) = list_at(r, root, kind.key()) else {
            continue;
        };
        for (i, item) in list.iter().enumerate() {
            if let Some(p) = part(r, kind, item, i, v09) {
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

fn part(r: &mut Reader, kind: Kind, item: &Value, i: usize, v09: bool) -> Option<Part> {
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
    let strategy = r.strategy(m.get("strategy"), &at);
    let ordinal = r.ordinal(m.get("ordinal"), &at);
    let requires = if v09 {
        r.requires(m.get("requires"), &format!("{at}.requires"))
    } else {
        Vec::new()
    };
    let when = r.when(m.get("when"), &at);
    let mut body = Map::new();
    for (k, v) in m
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "when" | "strategy" | "ordinal" | "requires"))
    {
        body.insert(k.clone(), v.clone());
    }
    let body = if v09 {
        let known: Vec<&str> = match kind {
            Kind::Terraform => crate::fields::TERRAFORM.to_vec(),
            Kind::Kustomize => crate::fields::KUSTOMIZATION.to_vec(),
        };
        let known: Vec<&str> = known
            .into_iter()
            .chain(crate::fields::FACET_ONLY.iter().copied())
            .collect();
        let file = r.file;
        let errors = &mut r.errors;
        check_fields(m, &known, &at, &mut |a, msg| {
            errors.push(Error::new(Some(file), a, msg))
        });
        // Windsor v0.9 never evaluates these: `enabled` is decided at
        // deploy time, patches are applied as written.
        let raw: &[&str] = match kind {
            Kind::Terraform => &["enabled"],
            Kind::Kustomize => &[
                "enabled",
                "patches",
                "interval",
                "retryInterval",
                "timeout",
                "decryption",
            ],
        };
        match Tmpl::compile_except(
            &body,
            raw,
            &compiler_for(true),
            Some(crate::template::shorthand::expand),
        ) {
            Ok(t) => t,
            Err(TmplError { at: inner, diag }) => {
                r.fail(&format!("{at}{inner}"), diag.to_string());
                Tmpl::Lit(Value::Null)
            }
        }
    } else {
        r.tmpl(&Value::Map(body), &at)
    };
    Some(Part {
        kind,
        id: id.to_string(),
        when,
        strategy,
        ordinal,
        body,
        requires,
    })
}
