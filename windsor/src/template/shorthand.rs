//! Secret shorthands (Windsor v0.9): a `${…}` whose expression starts
//! with `secret.`, `secrets.`, `op.` or `sops.` names a secret by path and
//! stands for a `secret(vault, item, field)` call, resolved at deploy
//! time like any `secret()`:
//!
//! - `op.<vault>.<item>.<field>` (also after `secret.` or `secrets.`)
//!   is `secret("<vault>", "<item>", "<field>")`;
//! - `sops.<path>` (also after `secret.` or `secrets.`) is
//!   `secret("sops", "<path>", "")`.
//!
//! Segments are separated by dots or written in brackets (`op["my
//! vault"].item.field`), where they may hold dots. Anything else is left
//! as written.

use bpvm_compiler::template::{Part, split};

/// `src` with each shorthand `${…}` written as its `secret()` call, or
/// `None` when it has none.
///
/// ```
/// use bpvm_windsor::shorthand::expand;
/// assert_eq!(expand("${op.prod.db.password}").as_deref(), Some(r#"${secret("prod", "db", "password")}"#));
/// assert_eq!(expand("k=${secret.sops.db.key}").as_deref(), Some(r#"k=${secret("sops", "db.key", "")}"#));
/// assert_eq!(expand("${options.x}"), None);
/// ```
pub fn expand(src: &str) -> Option<String> {
    // Most strings cannot hold one: skip splitting them.
    if !(src.contains("op.") || src.contains("op[") || src.contains("sops")) {
        return None;
    }
    let parts = split(src).ok()?;
    let mut changed = false;
    let mut out = String::with_capacity(src.len());
    let mut last = 0;
    for p in parts {
        let Part::Expr((start, end)) = p else { continue };
        let (start, end) = (start as usize, end as usize);
        if let Some(call) = call(&src[start..end]) {
            out.push_str(&src[last..start]);
            out.push_str(&call);
            last = end;
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    out.push_str(&src[last..]);
    Some(out)
}

/// The `secret()` call a shorthand expression stands for.
fn call(expr: &str) -> Option<String> {
    let e = expr.trim();
    let e = e
        .strip_prefix("secret.")
        .or_else(|| e.strip_prefix("secrets."))
        .unwrap_or(e);
    let segs = segments(e)?;
    let quote = |s: &str| format!("{s:?}");
    match segs.first().map(String::as_str) {
        Some("op") if segs.len() == 4 => Some(format!(
            "secret({}, {}, {})",
            quote(&segs[1]),
            quote(&segs[2]),
            quote(&segs[3])
        )),
        Some("sops") if segs.len() >= 2 => Some(format!("secret(\"sops\", {}, \"\")", quote(&segs[1..].join(".")))),
        _ => None,
    }
}

/// `a.b["c.d"].e` → `[a, b, c.d, e]`; `None` for anything that is not a
/// plain path of names and quoted keys.
fn segments(e: &str) -> Option<Vec<String>> {
    let b = e.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' {
            let q = *b.get(i + 1)?;
            if q != b'"' && q != b'\'' {
                return None;
            }
            let close = e[i + 2..].find(q as char)? + i + 2;
            if b.get(close + 1) != Some(&b']') {
                return None;
            }
            out.push(e[i + 2..close].to_string());
            i = close + 2;
            if b.get(i) == Some(&b'.') {
                i += 1;
            }
        } else {
            let end = e[i..].find(['.', '[']).map_or(e.len(), |j| i + j);
            let name = &e[i..end];
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                return None;
            }
            out.push(name.to_string());
            i = if b.get(end) == Some(&b'.') { end + 1 } else { end };
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorthands_and_what_they_are_not() {
        for (src, want) in [
            ("${secrets.op.v.i.f}", Some(r#"${secret("v", "i", "f")}"#)),
            (
                r#"${op["my vault"].item["a.b"]}"#,
                Some(r#"${secret("my vault", "item", "a.b")}"#),
            ),
            ("${sops.a.b.c}", Some(r#"${secret("sops", "a.b.c", "")}"#)),
            ("${op.v.i}", None),
            ("${op.v.i.f ?? 'x'}", None),
            ("${operator.x}", None),
            ("${secret('v', 'i', 'f')}", None),
        ] {
            assert_eq!(expand(src).as_deref(), want, "{src}");
        }
    }
}
