//! Upper and lower case, for both dialects (`upper`/`lower`,
//! `to_upper`/`to_lower`).

use crate::func::Ctx;
use crate::val::Val;

/// `s` in upper case (Unicode rules).
pub fn upper<'a>(c: &Ctx<'a>, s: &'a str) -> Val<'a> {
    recase::<true>(c, s)
}

/// `s` in lower case (Unicode rules).
pub fn lower<'a>(c: &Ctx<'a>, s: &'a str) -> Val<'a> {
    recase::<false>(c, s)
}

/// `s` in upper case (`UPPER`) or lower case. Called once per item by
/// Bluelink's `map` and expr-lang's predicates, so ASCII text (nearly all names in blueprints) is converted in the
/// arena without a heap string, and text already in that case is returned
/// as it is.
fn recase<'a, const UPPER: bool>(c: &Ctx<'a>, s: &'a str) -> Val<'a> {
    let changes = |b: &u8| {
        if UPPER {
            b.is_ascii_lowercase()
        } else {
            b.is_ascii_uppercase()
        }
    };
    if !s.is_ascii() {
        return c.str(&if UPPER { s.to_uppercase() } else { s.to_lowercase() });
    }
    let Some(first) = s.as_bytes().iter().position(changes) else {
        return Val::Str(s);
    };
    let out = c.arena.alloc_str(s);
    if UPPER {
        out[first..].make_ascii_uppercase();
    } else {
        out[first..].make_ascii_lowercase();
    }
    Val::Str(out)
}
