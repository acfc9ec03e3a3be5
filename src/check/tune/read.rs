//! Reading a `check:` section: each key, rule id and severity checked,
//! each mistake at its line and column with what was probably meant.

use super::{ConfigError, Level, Scoped, Tuning};
use bpvm_bluelink::Pos;
use bpvm_bluelink::node::{self, Entry, Kind, Node};
use bpvm_checker::Severity;
use bpvm_runtime::Value;
use bpvm_runtime::suggest::closest;
use std::path::PathBuf;

use super::shape::LEVELS;

/// The section's keys.
const SECTION: &[&str] = bpvm_runtime::field_names!(super::shape::SECTION);

/// A `paths` entry's keys.
const ENTRY: &[&str] = bpvm_runtime::field_names!(super::shape::ENTRY);

/// `bpvm.yaml`'s keys.
const FILE: &[&str] = bpvm_runtime::field_names!(super::shape::FILE);

/// The configuration in `text` (the file shown as `file`, in `folder`):
/// `None` when it has no `check:` section. In a `bpvm.yaml` (`whole`),
/// `check` is the only key; `bpvm-batch.yaml`'s other keys are the
/// batch's. `known` lists the rule ids.
pub(super) fn read(
    text: &str,
    file: &str,
    folder: PathBuf,
    whole: bool,
    known: &[&str],
) -> Result<Option<Tuning>, Vec<ConfigError>> {
    let mut r = Reader {
        file,
        known,
        errors: Vec::new(),
    };
    let doc = match node::read(text) {
        Ok(doc) => doc,
        Err(e) => {
            r.fail(e.at, format!("invalid YAML: {}", e.message));
            return Err(r.errors);
        }
    };
    let tuning = r.document(&doc, whole).map(|(rules, paths)| Tuning {
        file: file.to_string(),
        folder,
        rules,
        paths,
    });
    r.errors.sort_by_key(|e| (e.line, e.column));
    if r.errors.is_empty() { Ok(tuning) } else { Err(r.errors) }
}

struct Reader<'a> {
    file: &'a str,
    known: &'a [&'a str],
    errors: Vec<ConfigError>,
}

type Rules = Vec<(String, Level)>;

impl Reader<'_> {
    fn fail(&mut self, at: Pos, message: String) {
        self.errors.push(ConfigError {
            file: self.file.to_string(),
            line: at.line as usize,
            column: at.col as usize,
            message,
        });
    }

    /// A mistake for each key of `entries` not in `keys`.
    fn keys(&mut self, entries: &[Entry], keys: &[&str], what: &str) {
        for e in entries.iter().filter(|e| !keys.contains(&e.key.as_str())) {
            let hint = hint(closest(e.key.as_str(), keys));
            let message = format!("unknown key {}{hint} ({what} has: {})", e.key.as_str(), keys.join(", "));
            self.fail(e.key_at, message);
        }
    }

    fn mapping<'n>(&mut self, n: &'n Node, what: &str) -> Option<&'n [Entry]> {
        if n.entries().is_none() {
            self.fail(n.at, format!("{what}: expected a mapping, found {}", n.describe()));
        }
        n.entries()
    }

    fn document(&mut self, doc: &Node, whole: bool) -> Option<(Rules, Vec<Scoped>)> {
        if matches!(&doc.kind, Kind::Scalar(Value::Null)) && whole {
            return None;
        }
        let entries = self.mapping(doc, "the file")?;
        if whole {
            self.keys(entries, FILE, "bpvm.yaml");
        }
        let check = doc.get("check")?;
        let section = self.mapping(check, "check")?;
        self.keys(section, SECTION, "check");
        let rules = check
            .get("rules")
            .map(|n| self.rules(n, "check.rules"))
            .unwrap_or_default();
        let paths = check.get("paths").map(|n| self.paths(n)).unwrap_or_default();
        Some((rules, paths))
    }

    fn rules(&mut self, n: &Node, what: &str) -> Rules {
        let Some(entries) = self.mapping(n, what) else {
            return Vec::new();
        };
        let mut rules = Vec::new();
        for e in entries {
            let id = e.key.as_str();
            if !self.known.contains(&id) {
                let message = format!("unknown rule {id}{}", hint(closest(id, self.known)));
                self.fail(e.key_at, message);
                continue;
            }
            if let Some(level) = self.level(&e.value) {
                rules.push((id.to_string(), level));
            }
        }
        rules
    }

    fn level(&mut self, n: &Node) -> Option<Level> {
        // YAML reads a bare `off` as text (the core schema's false is `false`).
        let text = match &n.kind {
            Kind::Scalar(Value::Str(s)) => s.to_string(),
            Kind::Scalar(Value::Bool(false)) => "off".to_string(),
            _ => String::new(),
        };
        let level = match text.as_str() {
            "off" => Level::Off,
            "note" => Level::On(Severity::Note),
            "warning" => Level::On(Severity::Warning),
            "error" => Level::On(Severity::Error),
            _ => {
                let shown = if text.is_empty() {
                    n.describe().to_string()
                } else {
                    text.clone()
                };
                // `warn` is too short for `closest` to reach `warning`.
                let prefix = || {
                    LEVELS
                        .iter()
                        .copied()
                        .find(|l| !text.is_empty() && l.starts_with(&text))
                };
                let meant = closest(&text, LEVELS).or_else(prefix);
                let message = format!(
                    "unknown severity {shown}{} (one of: {})",
                    hint(meant),
                    LEVELS.join(", ")
                );
                self.fail(n.at, message);
                return None;
            }
        };
        Some(level)
    }

    fn paths(&mut self, n: &Node) -> Vec<Scoped> {
        let Kind::List(items) = &n.kind else {
            self.fail(n.at, format!("check.paths: expected a list, found {}", n.describe()));
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let what = format!("check.paths[{i}]");
            let Some(entries) = self.mapping(item, &what) else {
                continue;
            };
            self.keys(entries, ENTRY, "a paths entry");
            let rules = item.get("rules").map(|r| self.rules(r, &format!("{what}.rules")));
            let glob = match item.get("glob") {
                Some(g) => self.glob(g, &what),
                None => {
                    self.fail(
                        item.at,
                        format!("{what}: glob is missing: the files its rules apply to"),
                    );
                    None
                }
            };
            if let (Some(glob), Some(rules)) = (glob, rules) {
                out.push(Scoped { glob, rules });
            }
        }
        out
    }

    fn glob(&mut self, n: &Node, what: &str) -> Option<globset::GlobMatcher> {
        let Some(text) = n.as_str().filter(|t| !t.is_empty()) else {
            self.fail(
                n.at,
                format!(
                    "{what}.glob: expected a glob such as \"contexts/*/tests/**\", found {}",
                    n.describe()
                ),
            );
            return None;
        };
        match crate::batch::discover::path_glob(text.trim_start_matches("./")) {
            Ok(glob) => Some(glob),
            Err(e) => {
                let reason = e.kind().to_string();
                self.fail(n.at, format!("{what}.glob: {text:?} is no glob: {reason}"));
                None
            }
        }
    }
}

/// `; did you mean X?`, or nothing.
fn hint(closest: Option<&str>) -> String {
    closest.map(|c| format!("; did you mean {c}?")).unwrap_or_default()
}
