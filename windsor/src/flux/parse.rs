//! A facet's `flux:` list read into systems: fields checked, conditions
//! and templates compiled, everything else kept as written.

use super::{System, Tier};
use crate::error::Error;
use crate::fields::{FLUX_SYSTEM as FIELDS, KUSTOMIZATION, Sink, Unknown, check_fields};
use crate::host::compiler_for;
use crate::kind::Strategy;
use crate::template::condition::{Cond, condition};
use crate::template::tmpl::{Tmpl, TmplError};
use bpvm_runtime::{Map, Value};

struct Parse<'a> {
    file: &'a str,
    errors: &'a mut Vec<Error>,
    warnings: &'a mut Vec<Error>,
}

impl Parse<'_> {
    fn fail(&mut self, at: &str, message: impl Into<crate::Why>) {
        self.errors.push(Error::new(Some(self.file), at, message));
    }

    /// The keys of `m` not in `known`: typos are errors, the others
    /// warned about and kept (their names given).
    fn fields(&mut self, m: &Map, known: &[&str], at: &str) -> Vec<String> {
        let file = self.file;
        let (errors, warnings) = (&mut *self.errors, &mut *self.warnings);
        let mut sink = Sink {
            fail: &mut |a, msg| errors.push(Error::new(Some(file), a, msg)),
            warn: &mut |a, msg| warnings.push(Error::new(Some(file), a, msg)),
        };
        check_fields(m, known, at, Unknown::Kept, &mut sink)
    }

    fn tmpl(&mut self, v: Option<&Value>, at: &str) -> Option<Tmpl> {
        let v = v.filter(|v| !matches!(v, Value::Null))?;
        match Tmpl::compile_rewritten(v, &compiler_for(true), Some(crate::template::shorthand::expand)) {
            Ok(t) => Some(t),
            Err(TmplError { at: inner, diag }) => {
                self.fail(&format!("{at}{inner}"), diag);
                None
            }
        }
    }

    fn when(&mut self, v: Option<&Value>, at: &str) -> Option<Cond> {
        match v {
            Some(Value::Str(s)) if !s.trim().is_empty() => match condition(s, true) {
                Ok(c) => Some(c),
                Err(d) => {
                    self.fail(&format!("{at}.when"), d);
                    None
                }
            },
            Some(Value::Bool(b)) => condition(if *b { "true" } else { "false" }, true).ok(),
            _ => None,
        }
    }

    fn tier(&mut self, v: &Value, at: &str, variant: bool) -> Option<Tier> {
        let Some(m) = v.as_map() else {
            self.fail(at, format!("must be a mapping, got {}", v.type_name()));
            return None;
        };
        let mut known: Vec<&str> = KUSTOMIZATION.to_vec();
        if variant {
            known.push("when");
        }
        // A newer Windsor's field stays in `raw`, passed through as written.
        self.fields(m, &known, at);
        let subs = match (m.get("substitutions"), m.get("substitute")) {
            (Some(Value::Map(a)), Some(Value::Map(b))) => {
                let mut s = a.clone();
                for (k, v) in b.iter() {
                    s.insert(k.clone(), v.clone());
                }
                Some(Value::Map(s))
            }
            (Some(a @ Value::Map(_)), _) => Some(a.clone()),
            (_, Some(b @ Value::Map(_))) => Some(b.clone()),
            _ => None,
        };
        let mut raw = Map::new();
        for (k, v) in m.iter() {
            if !matches!(
                k.as_str(),
                "when" | "components" | "dependsOn" | "substitutions" | "substitute"
            ) {
                raw.insert(k.clone(), v.clone());
            }
        }
        Some(Tier {
            when: if variant { self.when(m.get("when"), at) } else { None },
            components: self.tmpl(m.get("components"), &format!("{at}.components")),
            depends_on: if variant {
                self.tmpl(m.get("dependsOn"), &format!("{at}.dependsOn"))
            } else {
                None
            },
            substitutions: self.tmpl(subs.as_ref(), &format!("{at}.substitutions")),
            declares_substitutions: m.contains_key("substitutions"),
            raw,
        })
    }
}

/// Parses a facet's `flux:` list; fields of a newer Windsor go to
/// `warnings`.
pub fn parse(list: &[Value], file: &str, errors: &mut Vec<Error>, warnings: &mut Vec<Error>) -> Vec<System> {
    let mut p = Parse { file, errors, warnings };
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let Some(m) = item.as_map() else {
            p.fail(
                &format!("flux[{i}]"),
                format!("a flux system must be a mapping, got {}", item.type_name()),
            );
            continue;
        };
        let Some(name) = m.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) else {
            p.fail(&format!("flux[{i}]"), "a flux system needs a name");
            continue;
        };
        let at = format!("flux[{name}]");
        let newer = p.fields(m, FIELDS, &at);
        let strategy = match m.get("strategy").and_then(Value::as_str) {
            None => Strategy::Merge,
            Some(s) => match Strategy::parse(s) {
                Some(s) => s,
                None => {
                    p.fail(
                        &format!("{at}.strategy"),
                        format!("unknown strategy {s:?} (merge, replace or remove)"),
                    );
                    Strategy::Merge
                }
            },
        };
        let ordinal = match m.get("ordinal") {
            None | Some(Value::Null) => None,
            Some(Value::Int(n)) => Some(*n),
            Some(other) => {
                p.fail(
                    &format!("{at}.ordinal"),
                    format!("an ordinal must be an integer, got {}", other.type_name()),
                );
                None
            }
        };
        let install = m
            .get("install")
            .filter(|v| !matches!(v, Value::Null))
            .and_then(|v| p.tier(v, &format!("{at}.install"), false));
        let mut resources = Vec::new();
        match m.get("resources") {
            None | Some(Value::Null) => {}
            Some(Value::List(vs)) => {
                for (j, v) in vs.iter().enumerate() {
                    if let Some(t) = p.tier(v, &format!("{at}.resources[{j}]"), true) {
                        resources.push(t);
                    }
                }
            }
            Some(other) => p.fail(
                &format!("{at}.resources"),
                format!("must be a list of variants, got {}", other.type_name()),
            ),
        }
        if let Some(s) = m.get("secrets").filter(|v| !matches!(v, Value::Null))
            && !matches!(s, Value::Map(_))
        {
            p.fail(
                &format!("{at}.secrets"),
                format!("must be a mapping of secret names, got {}", s.type_name()),
            );
        }
        let mut raw = Map::new();
        for key in ["path", "source", "enabled", "destroy", "globalDependency", "secrets"] {
            if let Some(v) = m.get(key).filter(|v| !matches!(v, Value::Null)) {
                raw.insert(key, v.clone());
            }
        }
        let mut extra = Map::new();
        for key in &newer {
            if let Some(v) = m.get(key) {
                extra.insert(key.as_str(), v.clone());
            }
        }
        out.push(System {
            extra,
            name: name.to_string(),
            when: p.when(m.get("when"), &at),
            strategy,
            ordinal,
            depends_on: p.tmpl(m.get("dependsOn"), &format!("{at}.dependsOn")),
            install,
            resources,
            raw,
        });
    }
    out
}
