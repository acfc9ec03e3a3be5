//! Which values a render computes from a secret (D11): decided statically
//! from the paths each program reads, as Bluelink decides it. A program
//! reads a secret when one of the paths it loads is a sensitive path, lies
//! inside one, or holds one (`${cluster}` holds `cluster.token`); when it
//! reads the whole scope (`$env`, `jsonnet()`); or when it reads a config
//! block value computed from a secret. Masking replaces what such a
//! program gives in the output; the scope keeps the real values, so every
//! other computation is unchanged.

use bpvm_compiler::template::{Part, split};
use bpvm_runtime::{Diagnostic, Map, Value};
use bpvm_vm::{Op, Program, Seg};

/// What a value computed from a secret shows as.
///
/// ```
/// assert_eq!(bpvm_windsor::MASK, "********");
/// ```
pub const MASK: &str = "********";

/// What an error computed from a secret says instead of its details.
pub(crate) const HIDDEN: &str =
    "the expression failed; it reads a secret, so the details are hidden (--show-secrets shows them)";

/// How a render treats values computed from secrets.
///
/// ```
/// use bpvm_windsor::{Secrets, render::Options};
/// // What is printed masks them unless asked.
/// assert_eq!(Options::default().secrets, Secrets::Masked);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Secrets {
    /// Output shows them as `********`, errors from them hide their
    /// details (the default: what is printed or written).
    #[default]
    Masked,
    /// Output holds the real values, errors from them hide their details
    /// (what a test compares against its expectations).
    Compared,
    /// Everything as computed (`--show-secrets`).
    Shown,
}

/// The secret paths of one render and what to do with what reads them.
#[derive(Debug, Clone, Default)]
pub struct Secrecy {
    /// Sensitive paths and config block paths computed from them; `*`
    /// stands for any one key.
    paths: Vec<Vec<Box<str>>>,
    /// How values computed from them are shown.
    pub mode: Secrets,
    /// False while config blocks are evaluated: the scope holds real
    /// values, only what reaches the output is masked.
    pub masking: bool,
}

impl Secrecy {
    /// The secrecy of a render whose schema marks `paths` sensitive.
    pub fn new(paths: &[Vec<String>], mode: Secrets) -> Secrecy {
        Secrecy {
            paths: paths
                .iter()
                .map(|p| p.iter().map(|s| s.as_str().into()).collect())
                .collect(),
            mode,
            masking: true,
        }
    }

    /// True when a program's value must be masked now.
    pub(crate) fn masks(&self, prog: &Program) -> bool {
        self.masking && self.mode == Secrets::Masked && self.reads(prog)
    }

    /// True when a program's failure must hide its details.
    pub(crate) fn hides(&self, prog: &Program) -> bool {
        self.mode != Secrets::Shown && self.reads(prog)
    }

    /// True when `prog` reads a secret (see the module's rules).
    pub(crate) fn reads(&self, prog: &Program) -> bool {
        if self.paths.is_empty() {
            return false;
        }
        // The whole scope: `$env` or Jsonnet, which is given all of it
        // (a mention of `jsonnet` anywhere counts: masking more is safe).
        if prog.code.iter().any(|op| matches!(op, Op::Env)) || prog.source.contains("jsonnet") {
            return true;
        }
        prog.loads().any(|path| {
            let steps = path.segs.iter().map(|s| match s {
                Seg::Key(k, _) => Some(k.as_str()),
                Seg::Index(_) => None,
            });
            self.paths.iter().any(|secret| overlaps(steps.clone(), secret))
        })
    }

    /// Marks `found` (paths of config block values computed from a
    /// secret) as secret too.
    pub(crate) fn mark(&mut self, found: Vec<Vec<Box<str>>>) {
        for p in found {
            // Rounds of config evaluation mark the same paths again.
            if !self.paths.contains(&p) {
                self.paths.push(p);
            }
        }
    }

    /// True when there are no secret paths.
    pub(crate) fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// What a program that reads a secret shows instead of `value`: a
    /// whole `${…}` is `********`; in a string of several parts each
    /// `${…}` part is, the text around them kept.
    pub(crate) fn masked(prog: &Program) -> Value {
        let Ok(parts) = split(&prog.source) else {
            return Value::Str(MASK.into());
        };
        if parts.len() <= 1 {
            return Value::Str(MASK.into());
        }
        let mut out = String::new();
        for part in &parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Expr(_) => out.push_str(MASK),
            }
        }
        Value::Str(out.into())
    }

    /// `diag` without its details, its place kept.
    pub(crate) fn hidden(diag: Diagnostic) -> Diagnostic {
        Diagnostic {
            message: HIDDEN.into(),
            ..diag
        }
    }

    /// `values` with every value at a secret path (or under one) masked,
    /// unless secrets are shown.
    ///
    /// ```
    /// use bpvm_runtime::Value;
    /// use bpvm_windsor::{Secrecy, Secrets};
    /// let paths = vec![vec!["db".to_string(), "password".to_string()]];
    /// let mut values = Value::from_yaml("{db: {host: h, password: p}}").unwrap().as_map().cloned().unwrap();
    /// Secrecy::new(&paths, Secrets::Masked).mask_values(&mut values);
    /// assert_eq!(Value::Map(values).to_json(), r#"{"db":{"host":"h","password":"********"}}"#);
    /// ```
    pub fn mask_values(&self, values: &mut Map) {
        if self.mode != Secrets::Shown && !self.paths.is_empty() {
            self.mask_at(values, &mut Vec::new());
        }
    }

    /// True when the value at `steps` is a secret, lies in one or holds
    /// one.
    pub(crate) fn touches(&self, steps: &[String]) -> bool {
        let steps = steps.iter().map(|s| Some(s.as_str()));
        self.paths.iter().any(|p| overlaps(steps.clone(), p))
    }

    fn mask_at(&self, m: &mut Map, at: &mut Vec<Option<Box<str>>>) {
        for (k, v) in m.iter_mut() {
            at.push(Some(k.as_str().into()));
            let steps = at.iter().map(Option::as_deref);
            if self
                .paths
                .iter()
                .any(|p| p.len() <= at.len() && overlaps(steps.clone(), p))
            {
                *v = Value::Str(MASK.into());
            } else if let Value::Map(inner) = v {
                self.mask_at(inner, at);
            }
            at.pop();
        }
    }
}

/// True when the path `read` (`None`: any index) and the secret path
/// agree on every step both have: one lies inside the other.
fn overlaps<'a>(read: impl Iterator<Item = Option<&'a str>>, secret: &[Box<str>]) -> bool {
    read.zip(secret)
        .all(|(r, s)| &**s == "*" || r.is_none_or(|r| r == &**s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> Vec<Box<str>> {
        p.split('.').map(Into::into).collect()
    }

    #[test]
    fn reads_overlap_secret_paths_either_way() {
        let table: &[(&[Option<&str>], &str, bool)] = &[
            (&[Some("token")], "token", true),
            (&[Some("cluster")], "cluster.token", true),
            (&[Some("cluster"), Some("token"), Some("x")], "cluster.token", true),
            (&[Some("cluster"), Some("name")], "cluster.token", false),
            (&[Some("tokens"), Some("github")], "tokens.*", true),
            (&[Some("nodes"), None, Some("key")], "nodes.key", true),
            (&[Some("other")], "token", false),
        ];
        for (read, secret, want) in table {
            assert_eq!(
                overlaps(read.iter().copied(), &path(secret)),
                *want,
                "{read:?} {secret}"
            );
        }
    }
}
