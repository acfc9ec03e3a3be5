//! Plain scalars as Windsor reads them: goccy/go-yaml v1.19.2 (the
//! version Windsor v0.9.0 pins) types a plain scalar by its keyword
//! tables and its number rules, which differ from the YAML 1.2 core
//! schema: `0644` is octal (420), `1e3` is text (an exponent needs a
//! dot), `_` may stand anywhere after the first character, only
//! lower-case `0x`/`0o`/`0b` prefixes count, and a numeral out of range
//! is text.

use crate::value::Value;

/// A plain scalar's value by go-yaml's rules; `Err` for what bpvm does
/// not represent (infinities, not-a-number, integers past `i64`).
pub(super) fn plain(text: &str) -> Result<Value, String> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN" | ".NAN" => {
            return Err(format!("{text} is not a finite number (numbers stay finite)"));
        }
        _ => {}
    }
    Ok(match number(text) {
        Some(Number::Int(i)) => Value::Int(i),
        Some(Number::Float(f)) => Value::Float(f),
        // Windsor reads it as an unsigned integer; bpvm's are signed.
        Some(Number::Unsigned) => {
            return Err(format!(
                "{text} is larger than the largest integer, {} (integers are signed 64-bit)",
                i64::MAX
            ));
        }
        None => Value::Str(text.into()),
    })
}

/// A numeral's value.
#[derive(Debug, PartialEq)]
enum Number {
    Int(i64),
    Float(f64),
    /// Past `i64::MAX` but within `u64`: a number to go-yaml, not to bpvm.
    Unsigned,
}

/// go-yaml's number rules: at most one `.`, no leading `_`; one leading
/// `+` and then one `-` are dropped (only `-` makes it negative) and
/// every `_` removed; then `0x`, `0o`, `0b` or a leading `0` (without a
/// dot) choose the radix, a dot makes a float, else decimal. A numeral
/// its radix cannot parse, or out of range, is no number.
fn number(text: &str) -> Option<Number> {
    if text.is_empty() || text.starts_with('_') {
        return None;
    }
    let dots = text.bytes().filter(|&b| b == b'.').count();
    if dots > 1 {
        return None;
    }
    let negative = text.starts_with('-');
    let unsigned = text.strip_prefix('+').unwrap_or(text);
    let unsigned = unsigned.strip_prefix('-').unwrap_or(unsigned);
    let normalized: String = unsigned.chars().filter(|&c| c != '_').collect();
    let (radix, digits) = if let Some(d) = normalized.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = normalized.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = normalized.strip_prefix("0b") {
        (2, d)
    } else if normalized.starts_with('0') && normalized.len() > 1 && dots == 0 {
        (8, normalized.as_str())
    } else if dots == 1 {
        return float(&normalized, negative);
    } else {
        (10, normalized.as_str())
    };
    integer(digits, radix, negative)
}

/// Digits of `radix` only (no sign, as Go's `ParseUint`), within 64 bits.
fn integer(digits: &str, radix: u32, negative: bool) -> Option<Number> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        let value = 0i128 - i128::from(magnitude);
        return i64::try_from(value).ok().map(Number::Int);
    }
    Some(i64::try_from(magnitude).map_or(Number::Unsigned, Number::Int))
}

/// A numeral with one dot, as Go's `ParseFloat` reads it; past `f64`
/// (Go's range error) it is no number.
fn float(normalized: &str, negative: bool) -> Option<Number> {
    // Go's words for infinity and not-a-number never have a dot; Rust's
    // reader has no others.
    let text = if negative {
        format!("-{normalized}")
    } else {
        normalized.to_string()
    };
    let f = text.parse::<f64>().ok()?;
    f.is_finite().then_some(Number::Float(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Value, String> {
        plain(text)
    }

    #[test]
    fn octal_hex_and_binary() {
        assert_eq!(read("0644"), Ok(Value::Int(420)));
        assert_eq!(read("0o644"), Ok(Value::Int(420)));
        assert_eq!(read("-0644"), Ok(Value::Int(-420)));
        assert_eq!(read("00"), Ok(Value::Int(0)));
        assert_eq!(read("0x1F"), Ok(Value::Int(31)));
        assert_eq!(read("-0x1f"), Ok(Value::Int(-31)));
        assert_eq!(read("+0x10"), Ok(Value::Int(16)));
        assert_eq!(read("0b101"), Ok(Value::Int(5)));
        assert_eq!(read("-0b11"), Ok(Value::Int(-3)));
    }

    #[test]
    fn what_the_radix_cannot_read_is_text() {
        for t in [
            "09", "0_9", "0b102", "0x", "0o", "0b", "0X1F", "0O17", "0B1", "0xg", "1e3", "0e5", "+", "-",
        ] {
            assert_eq!(read(t), Ok(Value::Str(t.into())), "{t}");
        }
    }

    #[test]
    fn underscores_anywhere_but_first() {
        assert_eq!(read("1_000"), Ok(Value::Int(1000)));
        assert_eq!(read("1__0"), Ok(Value::Int(10)));
        assert_eq!(read("1_"), Ok(Value::Int(1)));
        assert_eq!(read("0x_ff"), Ok(Value::Int(255)));
        assert_eq!(read("0_644"), Ok(Value::Int(420)));
        assert_eq!(read("1_000.5"), Ok(Value::Float(1000.5)));
        assert_eq!(read("-_1"), Ok(Value::Int(-1)));
        assert_eq!(read("_1"), Ok(Value::Str("_1".into())));
    }

    #[test]
    fn signs() {
        assert_eq!(read("+5"), Ok(Value::Int(5)));
        assert_eq!(read("-0"), Ok(Value::Int(0)));
        // go-yaml drops a `+` and then a `-`: only a leading `-` negates.
        assert_eq!(read("+-5"), Ok(Value::Int(5)));
        assert_eq!(read("--5"), Ok(Value::Str("--5".into())));
        assert_eq!(read("++5"), Ok(Value::Str("++5".into())));
        assert_eq!(read("-9223372036854775808"), Ok(Value::Int(i64::MIN)));
    }

    #[test]
    fn floats_need_a_dot() {
        assert_eq!(read("1.5"), Ok(Value::Float(1.5)));
        assert_eq!(read(".5"), Ok(Value::Float(0.5)));
        assert_eq!(read("-.5"), Ok(Value::Float(-0.5)));
        assert_eq!(read("5."), Ok(Value::Float(5.0)));
        assert_eq!(read("0.5"), Ok(Value::Float(0.5)));
        assert_eq!(read("1.0e3"), Ok(Value::Float(1000.0)));
        assert_eq!(read("1.5E-2"), Ok(Value::Float(0.015)));
        assert_eq!(read("1.2.3"), Ok(Value::Str("1.2.3".into())));
        assert_eq!(read("."), Ok(Value::Str(".".into())));
        assert_eq!(read("1.0e400"), Ok(Value::Str("1.0e400".into())));
    }

    #[test]
    fn an_integer_is_never_a_float() {
        assert_eq!(read("12"), Ok(Value::Int(12)));
        assert_eq!(read("9223372036854775807"), Ok(Value::Int(i64::MAX)));
        assert_eq!(
            read("9223372036854775808"),
            Err("9223372036854775808 is larger than the largest integer, 9223372036854775807 (integers are signed 64-bit)".into())
        );
        // Past u64 go-yaml's parse fails with a range error: text.
        assert_eq!(
            read("18446744073709551616"),
            Ok(Value::Str("18446744073709551616".into()))
        );
    }

    #[test]
    fn keywords() {
        assert_eq!(read("~"), Ok(Value::Null));
        assert_eq!(read("NULL"), Ok(Value::Null));
        assert_eq!(read("True"), Ok(Value::Bool(true)));
        assert_eq!(read("yes"), Ok(Value::Str("yes".into())));
        assert_eq!(read("inf"), Ok(Value::Str("inf".into())));
        assert_eq!(read("+.inf"), Ok(Value::Str("+.inf".into())));
        assert_eq!(read("-.nan"), Ok(Value::Str("-.nan".into())));
        assert!(read(".inf").is_err());
        assert!(read("-.Inf").is_err());
        assert!(read(".NaN").is_err());
    }
}

/// go-yaml's own decoding cases (`decode_test.go`, `token_test.go` at
/// v1.19.2) for plain numbers decoded into an `any`.
#[cfg(test)]
mod go_yaml_cases {
    use super::plain;
    use crate::value::Value;

    #[test]
    fn integers() {
        let ones = "1".repeat(63);
        let cases: &[(&str, i64)] = &[
            ("10", 10),
            ("-10", -10),
            ("0b10", 2),
            ("-0b101010", -42),
            ("0xA", 10),
            ("4294967296", 4_294_967_296),
            ("685230", 685_230),
            ("+685_230", 685_230),
            ("02472256", 685_230),
            ("0o2472256", 685_230),
            ("0x_0A_74_AE", 685_230),
            ("0b1010_0111_0100_1010_1110", 685_230),
            ("2147483647", 2_147_483_647),
            ("-2147483648", -2_147_483_648),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
            ("0", 0),
        ];
        for (text, want) in cases {
            assert_eq!(plain(text), Ok(Value::Int(*want)), "{text}");
        }
        let min = format!("-0b1{}", "0".repeat(63));
        assert_eq!(plain(&min), Ok(Value::Int(i64::MIN)));
        assert_eq!(plain(&format!("0b{ones}")), Ok(Value::Int(i64::MAX)));
        assert_eq!(plain(&format!("-0b{ones}")), Ok(Value::Int(-i64::MAX)));
    }

    #[test]
    fn floats() {
        let cases: &[(&str, f64)] = &[
            ("1.234", 1.234),
            (".1", 0.1),
            ("-.1", -0.1),
            ("0.1", 0.1),
            ("-0.1", -0.1),
            ("2.5", 2.5),
            ("6.8523e+5", 6.8523e+5),
            ("685.230_15e+03", 685.230_15e+03),
            ("685_230.15", 685_230.15),
            ("1.0e3", 1000.0),
            ("1.0e-3", 0.001),
            ("1.0e+3", 1000.0),
            (
                "3.40282346638528859811704183484516925440e+38",
                3.402_823_466_385_288_6e38,
            ),
            ("1.797693134862315708145274237317043567981e+308", f64::MAX),
            ("4.940656458412465441765687928682213723651e-324", 5e-324),
        ];
        for (text, want) in cases {
            assert_eq!(plain(text), Ok(Value::Float(*want)), "{text}");
        }
    }

    #[test]
    fn text() {
        let too_wide = [
            "0b1".to_string() + &"1".repeat(65),
            "0o".to_string() + &"7".repeat(40),
            "0x".to_string() + &"f".repeat(40),
        ];
        for t in [
            "1e3",
            "1e-3",
            "1e-06",
            "_1",
            "_",
            "1.1.1.1",
            "+",
            "-",
            "18446744073709551616",
            "999999999999999999999999999999999999999999",
        ]
        .into_iter()
        .map(str::to_string)
        .chain(too_wide)
        {
            assert_eq!(plain(&t), Ok(Value::Str(t.as_str().into())), "{t}");
        }
        // Within u64 go-yaml reads an unsigned integer; bpvm's integers are signed.
        assert!(plain("18446744073709551615").is_err());
        assert!(plain("4294967295").is_ok());
    }
}
