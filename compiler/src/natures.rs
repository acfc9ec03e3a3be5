//! What expr-lang's checker (`checker/checker.go`) refuses when it knows
//! the types of both sides of an operation — with no environment type,
//! that is for literals and what is made of them: `1 == "1"`,
//! `"abc"[0]`, `[1, 2][1.5]`, `(nil).a`, `1 in {a: 1}`. [`crate::logic`]
//! works out the types and calls these.

use crate::ast::Binary;
use bpvm_runtime::{Kind as Type, Vocabulary};

/// What the checker knows of a value's type: `None` when nothing.
pub(crate) type Nature = Option<Type>;

fn name(t: Type) -> &'static str {
    t.name(Vocabulary::Expr)
}

/// Whether `==`/`!=` accepts operands of these types (`ComparableTo` in
/// `checker/nature/nature.go`): either unknown or nil, both numbers, both
/// lists (bytes are a list of bytes there), or the same type.
pub(crate) fn comparable(l: Nature, r: Nature) -> bool {
    let number = |t| matches!(t, Type::Int | Type::Float);
    let list = |t| matches!(t, Type::List | Type::Bytes);
    match (l, r) {
        (Some(l), Some(r)) => {
            l == Type::Nil || r == Type::Nil || number(l) && number(r) || list(l) && list(r) || l == r
        }
        _ => true,
    }
}

/// Why `==` (or `!=`, `op`) refuses its operands, written `left` and
/// `right`.
pub(crate) fn incomparable(op: &str, l: Type, left: &str, r: Type, right: &str) -> String {
    format!(
        "'{op}' cannot compare {} (from '{left}') with {} (from '{right}'): they are never equal",
        name(l),
        name(r)
    )
}

/// Why `x in m` is refused when `m` is a map and `x` is known not to be a
/// string (`binaryNode`, `case "in"`: the key must be assignable to the
/// map's key type, and nil is not).
pub(crate) fn in_map(needle: Nature, haystack: Nature) -> Option<String> {
    match (needle, haystack) {
        (Some(n), Some(Type::Map)) if n != Type::Str => Some(format!(
            "'in' looks up a key of a map, and map keys are strings, not {}",
            name(n)
        )),
        _ => None,
    }
}

/// Why `x in list` is refused when the list's items are all of a type
/// `x` can never equal (`binaryNode`, `case "in"`: `ComparableTo` the
/// array's item type).
pub(crate) fn in_list(needle: Nature, items: Nature) -> Option<String> {
    match (needle, items) {
        (Some(n), Some(i)) if !comparable(needle, items) => Some(format!(
            "'in' looks for {} among items of type {}: it is never there",
            article(n),
            name(i)
        )),
        _ => None,
    }
}

/// Why an arithmetic, ordering or string operator refuses its operands
/// (`binaryNode`): both known and of types it does not take, or one
/// unknown and the other of a type it never takes (`MaybeCompatible`).
/// nil is a type of its own here, taken by none of them.
pub(crate) fn operands(op: Binary, l: Nature, r: Nature) -> Option<String> {
    let classes: &[fn(Type) -> bool] = match op {
        Binary::Add | Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge => &[is_number, is_string],
        Binary::Sub | Binary::Mul | Binary::Div | Binary::Pow => &[is_number],
        Binary::Mod => &[|t| t == Type::Int],
        Binary::Matches | Binary::Contains | Binary::StartsWith | Binary::EndsWith => &[is_string],
        _ => return None,
    };
    // `matches` also takes bytes on its left.
    let left = match (op, l) {
        (Binary::Matches, Some(Type::Bytes)) => Some(Type::Str),
        _ => l,
    };
    let fine = match (left, r) {
        (Some(a), Some(b)) => classes.iter().any(|c| c(a) && c(b)),
        (None, Some(t)) | (Some(t), None) => classes.iter().any(|c| c(t)),
        (None, None) => true,
    };
    let known = |t: Nature| t.map_or("unknown", name);
    (!fine).then(|| format!("'{}' cannot be applied to {} and {}", op.text(), known(l), known(r)))
}

fn is_number(t: Type) -> bool {
    matches!(t, Type::Int | Type::Float)
}

fn is_string(t: Type) -> bool {
    t == Type::Str
}

/// Whether either operand is a function (its own message says so).
pub(crate) fn has_func(l: Nature, r: Nature) -> bool {
    l == Some(Type::Func) || r == Some(Type::Func)
}

/// Why a unary `-` or `+` refuses an operand of a known type that is not
/// a number (`unaryNode`).
pub(crate) fn sign(op: &str, t: Nature) -> Option<String> {
    match t {
        Some(t) if !matches!(t, Type::Int | Type::Float) => Some(format!("'{op}' cannot be applied to {}", name(t))),
        _ => None,
    }
}

/// Why `a..b` is refused: a bound known not to be an int
/// (`binaryNode`, `case ".."`).
pub(crate) fn range_bounds(l: Nature, r: Nature) -> Option<String> {
    let bad = [l, r].into_iter().flatten().find(|t| *t != Type::Int)?;
    Some(format!("'..' needs int bounds, not {}", article(bad)))
}

/// What one accessor makes of a base of known type (`memberNode`,
/// `sliceNode`): the nature of the result, or why it is refused.
pub(crate) enum Step<'s> {
    /// `.name` or `["name"]`.
    Member(&'s str),
    /// `[i]`, `i` of the nature given.
    Index(Nature),
    /// `[from:to]`, the bounds' natures (`None` inside when left out).
    Slice(Nature, Nature),
}

/// The nature of `base` read with `step`, or why the checker refuses it.
pub(crate) fn access(base: Nature, step: Step<'_>) -> Result<Nature, String> {
    let Some(base) = base else { return Ok(None) };
    match step {
        Step::Member(_) if base == Type::Map => Ok(None),
        Step::Member(field) => Err(format!("{} has no field '{field}'", article(base))),
        Step::Index(i) => match (base, i) {
            (Type::List | Type::Bytes, None | Some(Type::Int)) | (Type::Map, None | Some(Type::Str)) => Ok(None),
            (Type::List | Type::Bytes, Some(i)) => Err(format!("a list is indexed by an int, not {}", article(i))),
            (Type::Map, Some(i)) => Err(format!("a map is indexed by a string key, not {}", article(i))),
            (base, i) => Err(format!(
                "{} cannot be indexed (type {}[{}] is undefined)",
                article(base),
                name(base),
                i.map_or("unknown", name)
            )),
        },
        Step::Slice(from, to) => match base {
            Type::Str | Type::List | Type::Bytes => match [from, to].into_iter().flatten().find(|t| *t != Type::Int) {
                Some(t) => Err(format!("a slice bound must be an int, not {}", article(t))),
                None => Ok(Some(base)),
            },
            _ => Err(format!("{} cannot be sliced", article(base))),
        },
    }
}

/// `a string`, `an int`, `nil`.
/// Why a builtin refuses its first argument of known type `t`, as
/// expr-lang's checker does for literals (`first(3)`, `sort('ab')`,
/// `map({a: 1}, #)`, `keys(1)`); at run time such a value gives nil or
/// an empty list instead. Bytes and unknown types pass.
pub(crate) fn first_argument(f: &str, t: Nature) -> Option<String> {
    let t = t.filter(|t| *t != Type::Bytes)?;
    let fits = match f {
        "first" | "last" | "reverse" | "uniq" | "flatten" | "take" | "concat" | "sort" | "join" | "sum" => {
            t == Type::List
        }
        "keys" | "values" | "toPairs" => t == Type::Map,
        "len" => matches!(t, Type::Str | Type::List | Type::Map),
        "mean" | "median" => matches!(t, Type::List | Type::Int | Type::Float),
        _ => true,
    };
    let wanted = match f {
        "keys" | "values" | "toPairs" => "a map",
        "len" => "a string, list or map",
        "mean" | "median" => "a number or a list of numbers",
        _ => "a list",
    };
    (!fits).then(|| format!("{f}() argument 1 must be {wanted}, got {}", name(t)))
}

/// Why a predicate builtin refuses a list of known type `t` that is not
/// one (`builtinNode`: "takes only array").
pub(crate) fn predicate_list(f: &str, t: Nature) -> Option<String> {
    match t {
        Some(Type::List | Type::Bytes) | None => None,
        Some(t) => Some(format!("'{f}' needs a list, got {}", name(t))),
    }
}

fn article(t: Type) -> String {
    match t {
        Type::Nil => "nil".into(),
        Type::Int => "an int".into(),
        other => format!("a {}", name(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_needs_types_that_can_be_equal() {
        assert!(comparable(Some(Type::Int), Some(Type::Float)));
        assert!(comparable(Some(Type::Nil), Some(Type::Str)));
        assert!(comparable(None, Some(Type::Str)));
        assert!(comparable(Some(Type::Bytes), Some(Type::List)));
        assert!(!comparable(Some(Type::Int), Some(Type::Str)));
        assert!(!comparable(Some(Type::List), Some(Type::Map)));
    }

    #[test]
    fn accessors_of_known_bases() {
        assert!(access(Some(Type::Str), Step::Index(Some(Type::Int))).is_err());
        assert!(access(Some(Type::List), Step::Index(Some(Type::Float))).is_err());
        assert_eq!(access(None, Step::Index(Some(Type::Float))), Ok(None));
        assert_eq!(
            access(Some(Type::Str), Step::Slice(None, Some(Type::Int))),
            Ok(Some(Type::Str))
        );
    }
}
