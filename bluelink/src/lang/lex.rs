//! The lexer: text to tokens, comments and line ends kept. Strings are a
//! `StringStart`, their text and `${ … }` interpolations, and a
//! `StringEnd`; inside an interpolation the lexer reads expressions again,
//! counting braces so that an object literal does not close it.
//!
//! A token's text is a `CompactString`: names, keywords and numbers fit
//! inline. Loading the 1,000-resource `.bp` blueprint of the `blueprint`
//! bench with a `String` per token took 221.9 M instructions; with inline
//! texts moved on into the parser's tree, the lowering's reused buffer
//! and runs scanned as slices, 187.3 M (callgrind; the YAML form of the
//! same blueprint takes 134.4 M). Reading an ASCII text in place rather
//! than as a `Vec<char>` costs 3.4 M instructions more (190.7 M) and
//! saves writing and reading 2.4 MB per load; the parser's precedence
//! climbing brings the load to 182.3 M (1.36× the YAML load).

use super::token::{Token, TokenKind};
use crate::error::Pos;
use crate::node::ReadError;
use compact_str::CompactString;

/// What the lexer is reading.
#[derive(Debug, Clone, PartialEq)]
enum Mode {
    /// Declarations and expressions.
    Code,
    /// An interpolation, with how many braces are open in it (1: its own).
    Interpolation(usize),
    /// A single-line string.
    Line,
    /// A multi-line string, and the indentation each line loses.
    Lines(Vec<char>),
}

/// The tokens of `text` and its first lexical error. After an error the
/// lexer goes on (a formatter reads as much as it can) unless `stop` is
/// set, when the error's place becomes one [`TokenKind::Invalid`] token.
/// The last token is always [`TokenKind::Eof`]. With `stop` (for the
/// parser, which tells them by kind) line ends, punctuation, operators and
/// the ends of strings and interpolations are left without their text.
pub(super) fn lex(text: &str, stop: bool) -> (Vec<Token>, Option<ReadError>) {
    // Most blueprints are ASCII without `\r`: each byte is a character,
    // and a token's text is a slice of `text` as it is.
    let ascii = !text.contains('\r') && text.is_ascii();
    let chars = if ascii {
        Chars::Ascii(text)
    } else {
        Chars::Decoded(text.replace("\r\n", "\n").chars().collect())
    };
    let mut l = Lexer {
        // Room for one token in three characters, which dense blueprints
        // reach (the bench's: one in 3.4): growing a vector of 150,000
        // tokens copies 9 MB.
        tokens: Vec::with_capacity(chars.len() / 3),
        chars,
        i: 0,
        line: 1,
        col: 1,
        modes: vec![Mode::Code],
        bare: stop,
    };
    let mut first = None;
    while l.i < l.chars.len() {
        let (before, at) = (l.i, l.pos());
        if let Err(e) = l.next() {
            if stop {
                let at = e.at;
                l.tokens.push(Token {
                    kind: TokenKind::Invalid,
                    text: CompactString::default(),
                    start: at,
                    end: at,
                });
                first.get_or_insert(e);
                break;
            }
            first.get_or_insert(e);
            if l.i == before && l.pos() == at {
                l.bump();
            }
        }
    }
    let end = l.pos();
    l.tokens.push(Token {
        kind: TokenKind::Eof,
        text: CompactString::default(),
        start: end,
        end,
    });
    (l.tokens, first)
}

/// The text, one character per index: an ASCII text's own bytes (no
/// copy: a `Vec<char>` of a 1,000-resource blueprint is 2.4 MB written
/// and read again on every load), any other text decoded once.
enum Chars<'t> {
    Ascii(&'t str),
    Decoded(Vec<char>),
}

impl Chars<'_> {
    #[inline]
    fn get(&self, i: usize) -> Option<char> {
        match self {
            Chars::Ascii(text) => text.as_bytes().get(i).map(|&b| char::from(b)),
            Chars::Decoded(chars) => chars.get(i).copied(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Chars::Ascii(text) => text.len(),
            Chars::Decoded(chars) => chars.len(),
        }
    }

    /// Where the run from `i` of characters that `keep` accepts ends.
    fn run_end(&self, i: usize, keep: impl Fn(char) -> bool) -> usize {
        let rest = match self {
            Chars::Ascii(text) => text.as_bytes()[i..].iter().position(|&b| !keep(char::from(b))),
            Chars::Decoded(chars) => chars[i..].iter().position(|&c| !keep(c)),
        };
        rest.map_or(self.len(), |n| i + n)
    }

    /// The characters from `from` to `to`, appended to `out`.
    fn push_to(&self, from: usize, to: usize, out: &mut CompactString) {
        match self {
            Chars::Ascii(text) => out.push_str(&text[from..to]),
            Chars::Decoded(chars) => out.extend(&chars[from..to]),
        }
    }
}

struct Lexer<'t> {
    chars: Chars<'t>,
    i: usize,
    line: u32,
    col: u32,
    modes: Vec<Mode>,
    tokens: Vec<Token>,
    /// Whether tokens told by their kind alone go without their text.
    bare: bool,
}

/// The keyword `w` is, found as a `match` finds it (by length, then
/// bytes): the lexer asks for every word. Kept to [`KEYWORDS`] by a test.
fn keyword(w: &str) -> Option<&'static str> {
    Some(match w {
        "variable" => "variable",
        "value" => "value",
        "data" => "data",
        "resource" => "resource",
        "include" => "include",
        "export" => "export",
        "metadata" => "metadata",
        "spec" => "spec",
        "select" => "select",
        "filter" => "filter",
        "foreach" => "foreach",
        "as" => "as",
        "by" => "by",
        "label" => "label",
        "version" => "version",
        "transform" => "transform",
        "not" => "not",
        "in" => "in",
        "has" => "has",
        "key" => "key",
        "contains" => "contains",
        "starts" => "starts",
        "with" => "with",
        "ends" => "ends",
        "string" => "string",
        "integer" => "integer",
        "float" => "float",
        "boolean" => "boolean",
        "array" => "array",
        "object" => "object",
        "variables" => "variables",
        "values" => "values",
        "datasources" => "datasources",
        "resources" => "resources",
        "children" => "children",
        "elem" => "elem",
        "i" => "i",
        _ => return None,
    })
}

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn ident_char(c: char) -> bool {
    ident_start(c) || c.is_ascii_digit() || c == '-'
}

impl Lexer<'_> {
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead)
    }

    /// Moves past the run of characters that `keep` accepts, none a line
    /// end (the caller counts their columns). A slice scan: the lexer's
    /// runs (names, digits, string text, spaces) are most of its work.
    fn skip_run(&mut self, keep: impl Fn(char) -> bool) {
        self.i = self.chars.run_end(self.i, keep);
    }

    fn starts(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(k, c)| self.peek(k) == Some(c))
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn error(&self, at: Pos, message: impl Into<String>) -> ReadError {
        ReadError {
            at,
            message: message.into(),
        }
    }

    fn push(&mut self, kind: TokenKind, text: CompactString, start: Pos) {
        let end = self.pos();
        self.tokens.push(Token { kind, text, start, end });
    }

    /// A token told by its kind alone: its text only when kept.
    fn push_fixed(&mut self, kind: TokenKind, text: &str, start: Pos) {
        let text = if self.bare {
            CompactString::default()
        } else {
            text.into()
        };
        self.push(kind, text, start);
    }

    fn next(&mut self) -> Result<(), ReadError> {
        match self.modes.last() {
            None | Some(Mode::Code | Mode::Interpolation(_)) => self.code(),
            Some(Mode::Line) => self.string_text(None),
            Some(Mode::Lines(strip)) => {
                let strip = strip.clone();
                self.string_text(Some(&strip))
            }
        }
    }

    fn code(&mut self) -> Result<(), ReadError> {
        let from = self.i;
        self.skip_run(|c| matches!(c, ' ' | '\t'));
        self.col += (self.i - from) as u32;
        let start = self.pos();
        let Some(c) = self.peek(0) else {
            return Ok(());
        };
        match c {
            '\n' => {
                self.bump();
                self.push_fixed(TokenKind::Newline, "\n", start);
            }
            '#' => {
                self.bump();
                let from = self.i;
                self.skip_run(|c| c != '\n');
                let text = self.taken(from);
                self.push(TokenKind::Comment, text, start);
            }
            c if ident_start(c) => self.word(start),
            '"' => return self.open_string(start),
            c if c.is_ascii_digit() || c == '-' => return self.number(start),
            _ => return self.punctuation(start),
        }
        Ok(())
    }

    /// The characters from `from` to here, as a string (none is a line
    /// end: the column counts them).
    fn taken(&mut self, from: usize) -> CompactString {
        let mut text = CompactString::default();
        self.take_into(from, &mut text);
        text
    }

    /// [`Lexer::taken`] appended to `text`: no string of its own.
    fn take_into(&mut self, from: usize, text: &mut CompactString) {
        self.col += (self.i - from) as u32;
        self.chars.push_to(from, self.i, text);
    }

    fn word(&mut self, start: Pos) {
        let from = self.i;
        self.skip_run(ident_char);
        let text = self.taken(from);
        let kind = match text.as_str() {
            "true" | "false" => TokenKind::Bool,
            "none" => TokenKind::None,
            w => match keyword(w) {
                Some(k) => TokenKind::Keyword(k),
                None => TokenKind::Ident,
            },
        };
        self.push(kind, text, start);
    }

    fn number(&mut self, start: Pos) -> Result<(), ReadError> {
        let mut text = CompactString::default();
        if self.peek(0) == Some('-') {
            self.bump();
            text.push('-');
        }
        if !self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error(self.pos(), "expected a digit after '-'"));
        }
        self.digits(&mut text);
        // Both sides of the '.' are required: `5.` is 5 then '.'.
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            text.push('.');
            self.digits(&mut text);
            self.push(TokenKind::Float, text, start);
        } else {
            self.push(TokenKind::Int, text, start);
        }
        Ok(())
    }

    fn digits(&mut self, text: &mut CompactString) {
        let from = self.i;
        self.skip_run(|c| c.is_ascii_digit());
        self.take_into(from, text);
    }

    fn punctuation(&mut self, start: Pos) -> Result<(), ReadError> {
        use TokenKind::*;
        let c = self.peek(0).unwrap_or(' ');
        let pair = match (c, self.peek(1)) {
            ('=', Some('=')) => Some(("==", Eq)),
            ('!', Some('=')) => Some(("!=", Neq)),
            ('<', Some('=')) => Some(("<=", Le)),
            ('>', Some('=')) => Some((">=", Ge)),
            ('&', Some('&')) => Some(("&&", And)),
            ('|', Some('|')) => Some(("||", Or)),
            _ => Option::None,
        };
        if let Some((op, kind)) = pair {
            self.bump();
            self.bump();
            self.push_fixed(kind, op, start);
            return Ok(());
        }
        let kind = match c {
            '[' => LBracket,
            ']' => RBracket,
            '(' => LParen,
            ')' => RParen,
            '{' => {
                if let Some(Mode::Interpolation(depth)) = self.modes.last_mut() {
                    *depth += 1;
                }
                LBrace
            }
            '}' => self.close_brace(),
            ':' => Colon,
            '=' => Assign,
            ',' => Comma,
            '.' => Dot,
            '<' => Lt,
            '>' => Gt,
            '*' => Star,
            '/' => Slash,
            '!' => Not,
            _ => return Err(self.error(start, format!("unexpected character {c:?}"))),
        };
        self.bump();
        self.push_fixed(kind, c.encode_utf8(&mut [0; 4]), start);
        Ok(())
    }

    /// A `}`: the end of an interpolation when it closes the brace that
    /// opened it.
    fn close_brace(&mut self) -> TokenKind {
        if let Some(Mode::Interpolation(depth)) = self.modes.last_mut() {
            *depth -= 1;
            if *depth == 0 {
                self.modes.pop();
                return TokenKind::InterpolationEnd;
            }
        }
        TokenKind::RBrace
    }

    fn open_string(&mut self, start: Pos) -> Result<(), ReadError> {
        if !self.starts("\"\"\"") {
            self.bump();
            self.modes.push(Mode::Line);
            self.push(TokenKind::StringStart, "\"".into(), start);
            return Ok(());
        }
        for _ in 0..3 {
            self.bump();
        }
        if self.peek(0) != Some('\n') {
            return Err(self.error(self.pos(), "an opening \"\"\" must be followed by a line break"));
        }
        self.bump();
        let strip = self.closing_indent()?;
        self.skip_indent(&strip)?;
        self.modes.push(Mode::Lines(strip));
        self.push(TokenKind::StringStart, "\"\"\"".into(), start);
        Ok(())
    }

    /// The indentation of the `"""` that closes the multi-line string
    /// starting here: the first `"""` in the rest of the text, which must
    /// be alone on its line.
    fn closing_indent(&self) -> Result<Vec<char>, ReadError> {
        let mut line_start = self.i;
        let mut k = self.i;
        let at = |k: usize| self.chars.get(k);
        while k < self.chars.len() {
            if (0..3).all(|n| at(k + n) == Some('"')) {
                let indent: Vec<char> = (line_start..k).filter_map(at).collect();
                if indent.iter().any(|c| !matches!(c, ' ' | '\t')) {
                    return Err(self.error(self.pos(), "a closing \"\"\" must be on a line of its own"));
                }
                return Ok(indent);
            }
            if at(k) == Some('\n') {
                line_start = k + 1;
            }
            k += 1;
        }
        Err(self.error(self.pos(), "this multi-line string has no closing \"\"\""))
    }

    /// Skips a multi-line string line's indentation (a shorter blank line
    /// is allowed).
    fn skip_indent(&mut self, strip: &[char]) -> Result<(), ReadError> {
        for c in strip {
            match self.peek(0) {
                None | Some('\n') => return Ok(()),
                Some(x) if x == *c => {
                    self.bump();
                }
                Some(_) => {
                    return Err(self.error(
                        self.pos(),
                        "this line of the multi-line string is not indented like its closing \"\"\"",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The text of a string up to its end or its next `${`; `strip` is a
    /// multi-line string's indentation.
    fn string_text(&mut self, strip: Option<&[char]>) -> Result<(), ReadError> {
        let start = self.pos();
        let kind = if strip.is_some() {
            TokenKind::MultilineText
        } else {
            TokenKind::Text
        };
        let mut text = CompactString::default();
        loop {
            // A run of plain characters is taken whole: one copy, no
            // growing one character at a time.
            let from = self.i;
            self.skip_run(|c| !matches!(c, '"' | '\n' | '$' | '\\'));
            if text.is_empty() {
                text = self.taken(from);
            } else {
                self.take_into(from, &mut text);
            }
            let Some(c) = self.peek(0) else { break };
            let closes = c == '"' && (strip.is_none() || self.starts("\"\"\""));
            if closes {
                if !text.is_empty() {
                    if strip.is_some() {
                        // The line break before the closing """ is not text.
                        if text.ends_with('\n') {
                            text.pop();
                        }
                    }
                    self.push(kind, text, start);
                    return Ok(());
                }
                let closer = if strip.is_some() { "\"\"\"" } else { "\"" };
                for _ in 0..closer.len() {
                    self.bump();
                }
                self.modes.pop();
                self.push_fixed(TokenKind::StringEnd, closer, start);
                return Ok(());
            }
            if strip.is_none() && c == '\n' {
                return Err(self.error(self.pos(), "this string is not closed before the end of the line"));
            }
            if c == '$' && self.peek(1) == Some('{') {
                if !text.is_empty() {
                    self.push(kind, text, start);
                    return Ok(());
                }
                self.bump();
                self.bump();
                self.modes.push(Mode::Interpolation(1));
                self.push_fixed(TokenKind::InterpolationStart, "${", start);
                return Ok(());
            }
            // `\"` is the only escape, in single-line strings only.
            if strip.is_none() && c == '\\' && self.peek(1) == Some('"') {
                self.bump();
                self.bump();
                text.push('"');
                continue;
            }
            self.bump();
            text.push(c);
            if let (Some(strip), '\n') = (strip, c) {
                self.skip_indent(strip)?;
            }
        }
        Err(self.error(self.pos(), "the file ends inside a string"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::token::KEYWORDS;
    use super::*;
    use TokenKind::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        lex(text, false).0.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn every_keyword_and_only_they_are_found() {
        for k in KEYWORDS {
            assert_eq!(keyword(k), Some(k));
        }
        assert_eq!(keyword("variables2"), Option::None);
        assert_eq!(keyword("Spec"), Option::None);
    }

    #[test]
    fn numbers_need_digits_on_both_sides_of_the_point() {
        assert_eq!(kinds("5. .5 1e5 -2.25"), [Int, Dot, Dot, Int, Int, Ident, Float, Eof]);
    }

    #[test]
    fn a_multi_line_string_loses_its_closing_indentation() {
        let toks = lex("x = \"\"\"\n    a\n      b\n    \"\"\"", false).0;
        assert_eq!(toks[3].kind, MultilineText);
        assert_eq!(toks[3].text, "a\n  b");
    }

    #[test]
    fn braces_inside_an_interpolation_do_not_close_it() {
        assert_eq!(
            kinds("\"${ {a = 1} }\""),
            [
                StringStart,
                InterpolationStart,
                LBrace,
                Ident,
                Assign,
                Int,
                RBrace,
                InterpolationEnd,
                StringEnd,
                Eof
            ]
        );
    }

    #[test]
    fn a_crlf_is_one_line_end_and_a_lone_cr_is_refused() {
        assert_eq!(kinds("a\r\nb"), [Ident, Newline, Ident, Eof]);
        let (_, e) = lex("a\rb", false);
        assert_eq!(e.unwrap().message, "unexpected character '\\r'");
    }
}
