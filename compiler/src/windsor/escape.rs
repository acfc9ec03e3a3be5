//! The escapes of quoted literals, as expr-lang's lexer reads them
//! (`parser/lexer/utils.go`): strings (`"…"`, `'…'`) hold text, bytes
//! literals (`b"…"`, `b'…'`) raw bytes, where `\xff` is the one byte 255
//! rather than the character U+00FF.

/// Where in a literal an escape went wrong (a byte offset from the
/// literal's start) and why.
pub type EscapeError = (usize, String);

/// The text of a quoted string literal (`"…"` or `'…'`), its escapes
/// applied.
pub fn unescape(lit: &str) -> Result<crate::ast::Name, EscapeError> {
    // Most literals (`'cilium'`) have no escape and no line break: their
    // text is the body as written, taken without a walk per character
    // (which was 3 % of compiling a short `when`).
    let body = &lit[1..lit.len() - 1];
    if !body.bytes().any(|b| matches!(b, b'\\' | b'\n' | b'\r')) {
        return Ok(crate::ast::Name::from(body));
    }
    let mut out = crate::ast::Name::with_capacity(lit.len());
    each(lit, 1, false, |piece| match piece {
        Piece::Char(c) => out.push(c),
        // A string takes `\xNN` and octal escapes as characters.
        Piece::Byte(b) => out.push(char::from(b)),
    })?;
    Ok(out)
}

/// The bytes of a bytes literal (`b"…"` or `b'…'`, also `B`), its
/// escapes applied: `\x` and octal escapes are single bytes, and the
/// Unicode escapes `\u`/`\U` are not allowed.
pub fn unescape_bytes(lit: &str) -> Result<Vec<u8>, EscapeError> {
    let mut out = Vec::with_capacity(lit.len());
    each(lit, 2, true, |piece| match piece {
        Piece::Char(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        Piece::Byte(b) => out.push(b),
    })?;
    Ok(out)
}

/// What one character or escape of a literal stands for.
enum Piece {
    Char(char),
    Byte(u8),
}

/// Calls `put` with each piece of the literal `lit`, whose body starts at
/// byte `open` and ends one byte before its end. A quoted literal is on
/// one line (expr-lang's `scanString`: "literal not terminated").
fn each(lit: &str, open: usize, bytes: bool, mut put: impl FnMut(Piece)) -> Result<(), EscapeError> {
    let body = &lit[open..lit.len() - 1];
    let quote = lit[open - 1..].chars().next().unwrap_or('"');
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\n' || c == '\r' {
            return Err((
                open + i,
                "a quoted string must end on the line it starts on; write a line break as \\n".into(),
            ));
        }
        if c != '\\' {
            put(Piece::Char(c));
            continue;
        }
        let at = open + i;
        let Some((_, kind)) = chars.next() else {
            return Err((at, "a string cannot end with a backslash".into()));
        };
        let piece = match kind {
            'x' => hex(&mut chars, 2).map(|v| Piece::Byte(v as u8)),
            'u' | 'U' if bytes => None,
            'u' if chars.peek().is_some_and(|&(_, c)| c == '{') => {
                chars.next();
                braced(&mut chars).and_then(char::from_u32).map(Piece::Char)
            }
            'u' => hex(&mut chars, 4).and_then(char::from_u32).map(Piece::Char),
            'U' => hex(&mut chars, 8).and_then(char::from_u32).map(Piece::Char),
            '0'..='7' => octal(kind, &mut chars).map(Piece::Byte),
            other => simple(other, quote).map(Piece::Char),
        };
        match piece {
            Some(p) => put(p),
            None => return Err((at, invalid(body, i, bytes))),
        }
    }
    Ok(())
}

type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

/// The one-letter escapes; of the quotes, only the literal's own.
fn simple(c: char, quote: char) -> Option<char> {
    Some(match c {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\x07',
        'b' => '\x08',
        'f' => '\x0c',
        'v' => '\x0b',
        '\\' => c,
        _ if c == quote => c,
        _ => return None,
    })
}

/// `n` hex digits.
fn hex(chars: &mut Chars, n: usize) -> Option<u32> {
    let mut v = 0;
    for _ in 0..n {
        v = v << 4 | chars.next()?.1.to_digit(16)?;
    }
    Some(v)
}

/// `\u{…}`: one to six hex digits, after the `{`.
fn braced(chars: &mut Chars) -> Option<u32> {
    let mut v = 0;
    for digits in 0..=6 {
        match chars.next()?.1 {
            '}' if digits > 0 => return Some(v),
            c if digits < 6 => v = v << 4 | c.to_digit(16)?,
            _ => return None,
        }
    }
    None
}

/// `\NNN`: three octal digits, the first (`first`) taken already.
fn octal(first: char, chars: &mut Chars) -> Option<u8> {
    let mut v = first.to_digit(8)?;
    for _ in 0..2 {
        v = v * 8 + chars.next()?.1.to_digit(8)?;
    }
    u8::try_from(v).ok()
}

/// The message for the escape at byte `i` of `body`.
fn invalid(body: &str, i: usize, bytes: bool) -> String {
    let escape: String = body[i..].chars().take(2).collect();
    match escape.as_str() {
        "\\u" | "\\U" if bytes => format!("'{escape}' cannot be used in a bytes literal; write each byte as '\\xNN'"),
        _ if escape.len() == 2 && "xuU01234567".contains(&escape[1..]) => format!("invalid escape '{escape}…'"),
        _ => format!("unknown escape '{escape}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        assert_eq!(unescape(r#""a\n\"b\u00e9""#).unwrap(), "a\n\"bé");
        assert_eq!(unescape(r"'it\'s'").unwrap(), "it's");
        assert_eq!(unescape(r"'\101\x41\u{41}'").unwrap(), "AAA");
        assert!(unescape(r#"'\"'"#).is_err());
        assert_eq!(unescape(r"'\xff'").unwrap(), "ÿ");
        assert!(unescape(r#""\q""#).is_err());
        assert!(unescape(r#""\0""#).is_err());
    }

    #[test]
    fn bytes() {
        assert_eq!(unescape_bytes(r"b'\xff\x00'").unwrap(), [255, 0]);
        assert_eq!(unescape_bytes(r"B'\377é'").unwrap(), [255, 0xc3, 0xa9]);
        assert!(unescape_bytes(r"b'\u00e9'").is_err());
    }
}
