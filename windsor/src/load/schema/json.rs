//! Values as JSON Schema sees them: their types and numbers, and an
//! enum's options as a message lists them.

use bpvm_runtime::Value;

/// The type names JSON Schema has.
pub(super) const TYPES: &[&str] = &["array", "boolean", "integer", "null", "number", "object", "string"];

/// Whether `v` is of the JSON Schema type `name` (an integral float is an
/// integer, as the specification counts numbers by value).
pub(super) fn is_type(name: &str, v: &Value) -> bool {
    match (name, v) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) => true,
        ("integer", Value::Int(_)) | ("number", Value::Int(_) | Value::Float(_)) => true,
        ("integer", Value::Float(f)) => f.is_finite() && f.fract() == 0.0,
        ("string", Value::Str(_) | Value::Bytes(_)) => true,
        ("array", Value::List(_)) | ("object", Value::Map(_)) => true,
        _ => false,
    }
}

/// A number's value, for comparing with a limit.
pub(super) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// A non-negative whole number (a length, a count), as a keyword gives it.
pub(super) fn count(v: &Value) -> Option<usize> {
    match v {
        Value::Int(i) => usize::try_from(*i).ok(),
        Value::Float(f) if *f >= 0.0 && f.fract() == 0.0 && *f < usize::MAX as f64 => Some(*f as usize),
        _ => None,
    }
}

/// `a` compared with `b`, exactly for two integers.
pub(super) fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        _ => number(a)?.partial_cmp(&number(b)?),
    }
}

/// Whether `v` is a whole multiple of `of`.
pub(super) fn is_multiple(v: &Value, of: &Value) -> bool {
    if let (Value::Int(x), Value::Int(y)) = (v, of) {
        return *y != 0 && x % y == 0;
    }
    let (Some(x), Some(y)) = (number(v), number(of)) else {
        return true;
    };
    let q = x / y;
    // A quotient past the floats is no multiple (the specification's own
    // test: 1e308 by 0.123456789).
    q.is_finite() && (q.fract() == 0.0 || (q - q.round()).abs() <= f64::EPSILON * q.abs())
}

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"`, or the first two and how many
/// others: the options an `enum` offers.
pub(super) fn options(list: &[Value]) -> String {
    let texts: Vec<String> = list.iter().map(Value::to_json).collect();
    match texts.len() {
        0 => String::new(),
        1 => texts[0].clone(),
        n if n <= 3 => format!("{} or {}", texts[..n - 1].join(", "), texts[n - 1]),
        n => format!("{}, {} or {} other candidates", texts[0], texts[1], n - 2),
    }
}

/// The number of Unicode scalar values in a string (JSON Schema's length).
pub(super) fn length(v: &Value) -> Option<usize> {
    match v {
        Value::Str(s) => Some(s.chars().count()),
        Value::Bytes(b) => Some(String::from_utf8_lossy(b).chars().count()),
        _ => None,
    }
}

/// A string's text.
pub(super) fn text(v: &Value) -> Option<std::borrow::Cow<'_, str>> {
    match v {
        Value::Str(s) => Some(std::borrow::Cow::Borrowed(s)),
        Value::Bytes(b) => Some(String::from_utf8_lossy(b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integral_float_is_an_integer() {
        assert!(is_type("integer", &Value::Float(1.0)));
        assert!(!is_type("integer", &Value::Float(1.5)));
        assert!(is_type("number", &Value::Int(1)));
        assert!(!is_type("integer", &Value::Bool(true)));
    }

    #[test]
    fn multiples_by_value() {
        assert!(is_multiple(&Value::Int(10), &Value::Int(5)));
        assert!(!is_multiple(&Value::Int(7), &Value::Int(2)));
        assert!(is_multiple(&Value::Float(0.0075), &Value::Float(0.0001)));
        assert!(!is_multiple(&Value::Float(0.00751), &Value::Float(0.0001)));
        assert!(!is_multiple(&Value::Float(1e308), &Value::Float(0.123456789)));
    }

    #[test]
    fn options_read_as_a_list() {
        let v = |s: &str| Value::from(s);
        assert_eq!(options(&[v("a")]), "\"a\"");
        assert_eq!(options(&[v("a"), v("b")]), "\"a\" or \"b\"");
        assert_eq!(options(&[v("a"), v("b"), v("c")]), "\"a\", \"b\" or \"c\"");
        assert_eq!(
            options(&[v("a"), v("b"), v("c"), v("d")]),
            "\"a\", \"b\" or 2 other candidates"
        );
    }
}
