//! A case file's `effects:`, what Bluelink's effect functions see.

use bpvm::Value;
use bpvm::runtime::builtins::effects::Effects;
use bpvm::runtime::root::Root;
use std::path::Path;

/// `effects:` of the case file `file`: `seed`, `now`, `cwd`, `root`
/// (relative to the case file), `links`.
pub fn effects_of(v: Option<&Value>, file: &Path) -> Effects {
    let m = v.and_then(Value::as_map);
    let text = |k: &str| m.and_then(|m| m.get(k)).and_then(Value::as_str);
    Effects {
        seed: match m.and_then(|m| m.get("seed")) {
            Some(Value::Int(n)) => Some(*n as u64),
            _ => None,
        },
        now: text("now").map(|t| t.parse().expect("effects.now is RFC 3339")),
        cwd: text("cwd").map(Into::into),
        root: text("root").map(|r| Root::new(&file.parent().unwrap().join(r), "root").expect("effects.root exists")),
        links: m.and_then(|m| m.get("links")).cloned().unwrap_or(Value::Null),
        ..Effects::default()
    }
}
