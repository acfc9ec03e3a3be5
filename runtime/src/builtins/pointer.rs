//! RFC 6901 JSON pointers over JSON text, for `fromjson`.
//!
//! The document is read once: it is validated from end to end, and the
//! text of the value the pointer names is remembered on the way. Nothing
//! is allocated unless a key or a pointer step holds an escape, so a small
//! value is found in a large document for the cost of one scan.

/// Why a document could not be read.
#[derive(Debug, PartialEq)]
pub struct Invalid {
    /// What was wrong.
    pub message: &'static str,
    /// 1-based line and column of the offending byte.
    pub line: usize,
    /// See `line`.
    pub column: usize,
}

/// The text of the value `pointer` names in the JSON document `text`, or
/// `None` when nothing is there. `pointer` is `""` (the whole document) or
/// starts with `/`; a repeated key names its last occurrence.
///
/// ```
/// use bpvm_runtime::builtins::pointer::find;
/// let doc = r#"{"a": {"b": [10, {"c~d": true}]}}"#;
/// assert_eq!(find(doc, "/a/b/0"), Ok(Some("10")));
/// assert_eq!(find(doc, "/a/b/1/c~0d"), Ok(Some("true")));
/// assert_eq!(find(doc, "/a/x"), Ok(None));
/// assert_eq!(find("{\"a\": tru}", "/a").unwrap_err().column, 7);
/// ```
pub fn find<'t>(text: &'t str, pointer: &str) -> Result<Option<&'t str>, Invalid> {
    let mut scan = Scan {
        b: text.as_bytes(),
        at: 0,
        found: None,
    };
    scan.space();
    scan.value(Some(pointer), 0)?;
    scan.space();
    if scan.at < scan.b.len() {
        return Err(scan.fail("trailing characters after the document"));
    }
    Ok(scan.found.map(|(from, to)| &text[from..to]))
}

/// Deeper documents are refused rather than risk the stack.
const MAX_DEPTH: usize = 256;

struct Scan<'t> {
    b: &'t [u8],
    at: usize,
    /// Byte range of the value the pointer names, once seen.
    found: Option<(usize, usize)>,
}

impl<'t> Scan<'t> {
    fn fail(&self, message: &'static str) -> Invalid {
        let before = &self.b[..self.at.min(self.b.len())];
        let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
        let column = 1 + before.iter().rev().take_while(|&&c| c != b'\n').count();
        Invalid { message, line, column }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn expect(&mut self, c: u8, message: &'static str) -> Result<(), Invalid> {
        self.space();
        if self.peek() != Some(c) {
            return Err(self.fail(message));
        }
        self.at += 1;
        Ok(())
    }

    /// Reads one value. `rest` is the part of the pointer still to follow
    /// inside it (`None` when the pointer does not lead here).
    fn value(&mut self, rest: Option<&str>, depth: usize) -> Result<(), Invalid> {
        if depth > MAX_DEPTH {
            return Err(self.fail("the document is nested too deeply"));
        }
        let start = self.at;
        match self.peek() {
            Some(b'{') => self.object(rest, depth)?,
            Some(b'[') => self.array(rest, depth)?,
            Some(b'"') => {
                self.string()?;
            }
            Some(b't') => self.word(b"true")?,
            Some(b'f') => self.word(b"false")?,
            Some(b'n') => self.word(b"null")?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.fail("expected a value")),
            None => return Err(self.fail("unexpected end of the document")),
        }
        if rest == Some("") {
            self.found = Some((start, self.at));
        }
        Ok(())
    }

    fn object(&mut self, rest: Option<&str>, depth: usize) -> Result<(), Invalid> {
        let (step, after) = split_step(rest);
        self.at += 1;
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return Err(self.fail("expected a string key"));
            }
            let key = self.string()?;
            self.expect(b':', "expected ':' after an object key")?;
            self.space();
            let leads = step.is_some_and(|s| key_is(key, s));
            if leads {
                // A repeated key names its last occurrence.
                self.found = None;
            }
            self.value(if leads { after } else { None }, depth + 1)?;
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.fail("expected ',' or '}' in an object")),
            }
        }
    }

    fn array(&mut self, rest: Option<&str>, depth: usize) -> Result<(), Invalid> {
        let (step, after) = split_step(rest);
        let wanted = step.and_then(array_index);
        self.at += 1;
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(());
        }
        let mut i = 0;
        loop {
            self.space();
            self.value(if wanted == Some(i) { after } else { None }, depth + 1)?;
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.fail("expected ',' or ']' in an array")),
            }
            i += 1;
        }
    }

    /// Reads a string and returns its raw text between the quotes.
    fn string(&mut self) -> Result<&'t [u8], Invalid> {
        self.at += 1;
        let from = self.at;
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(&self.b[from..self.at - 1]);
                }
                Some(b'\\') => {
                    self.at += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.at += 1,
                        Some(b'u') => {
                            let hex = self.b.get(self.at + 1..self.at + 5);
                            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                return Err(self.fail("invalid \\u escape in a string"));
                            }
                            self.at += 5;
                        }
                        _ => return Err(self.fail("invalid escape in a string")),
                    }
                }
                Some(0..0x20) => return Err(self.fail("control character in a string")),
                Some(_) => self.at += 1,
                None => return Err(self.fail("unterminated string")),
            }
        }
    }

    fn word(&mut self, word: &[u8]) -> Result<(), Invalid> {
        if !self.b[self.at..].starts_with(word) {
            return Err(self.fail("expected a value"));
        }
        self.at += word.len();
        Ok(())
    }

    fn number(&mut self) -> Result<(), Invalid> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.fail("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
    }
}

/// The pointer's next step and what follows it; `None` when the pointer
/// does not lead into this container or ends at it.
fn split_step(rest: Option<&str>) -> (Option<&str>, Option<&str>) {
    match rest.and_then(|r| r.strip_prefix('/')) {
        Some(r) => match r.find('/') {
            Some(i) => (Some(&r[..i]), Some(&r[i..])),
            None => (Some(r), Some("")),
        },
        None => (None, None),
    }
}

/// An array step: `0` or digits without a leading zero (RFC 6901 §4).
fn array_index(step: &str) -> Option<usize> {
    let digits = !step.is_empty() && step.bytes().all(|b| b.is_ascii_digit());
    if !digits || (step.len() > 1 && step.starts_with('0')) {
        return None;
    }
    step.parse().ok()
}

/// True when the raw JSON key (escapes as written) equals the raw pointer
/// step (`~1` for `/`, `~0` for `~`).
fn key_is(key: &[u8], step: &str) -> bool {
    if !key.contains(&b'\\') && !step.contains('~') {
        return key == step.as_bytes();
    }
    let step = step.replace("~1", "/").replace("~0", "~");
    let mut quoted = Vec::with_capacity(key.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(key);
    quoted.push(b'"');
    serde_json::from_slice::<String>(&quoted).is_ok_and(|k| k == step)
}

#[cfg(test)]
mod tests {
    use super::find;

    #[test]
    fn follows_objects_and_arrays() {
        let doc = r#" { "a" : { "b" : [ 1 , { "c" : null } ] , "b": [7] } } "#;
        assert_eq!(find(doc, ""), Ok(Some(doc.trim())));
        assert_eq!(
            find(doc, "/a/b/0"),
            Ok(Some("7")),
            "a repeated key names its last occurrence"
        );
        assert_eq!(find(doc, "/a/b/1"), Ok(None));
        assert_eq!(find(r#"{"a": [1, 2]}"#, "/a/01"), Ok(None), "no leading zeros");
        assert_eq!(find(r#"{"a": [1, 2]}"#, "/a/-"), Ok(None));
        assert_eq!(find(r#"{"": 1}"#, "/"), Ok(Some("1")));
        assert_eq!(find(r#"{"a/b": 1}"#, "/a~1b"), Ok(Some("1")));
        assert_eq!(find(r#"{"\u0061": "x\"y"}"#, "/a"), Ok(Some(r#""x\"y""#)));
        assert_eq!(find(r#"{"a": 1}"#, "/a/b"), Ok(None));
    }

    #[test]
    fn validates_the_whole_document() {
        for (doc, message, column) in [
            (r#"{"a": 1, "b": }"#, "expected a value", 15),
            (r#"{"a": 1} x"#, "trailing characters after the document", 10),
            (r#"{"a": 01}"#, "expected ',' or '}' in an object", 8),
            (r#"{"a": 1."#, "invalid number", 9),
            (r#"{"a": "\x"}"#, "invalid escape in a string", 9),
            (r#"{"a": [1 2]}"#, "expected ',' or ']' in an array", 10),
            (r#"{a: 1}"#, "expected a string key", 2),
            (r#"{"a" 1}"#, "expected ':' after an object key", 6),
            ("{\"a\": \"\t\"}", "control character in a string", 8),
            (r#"{"a": "x"#, "unterminated string", 9),
            ("", "unexpected end of the document", 1),
        ] {
            let e = find(doc, "/a").unwrap_err();
            assert_eq!((e.message, e.column), (message, column), "{doc}");
        }
        let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
        assert_eq!(
            find(&deep, "").unwrap_err().message,
            "the document is nested too deeply"
        );
    }
}
