//! The lexer: text to tokens, comments and line ends kept. Strings are a
//! `StringStart`, their text and `${ … }` interpolations, and a
//! `StringEnd`; inside an interpolation the lexer reads expressions again,
//! counting braces so that an object literal does not close it.

use super::token::{KEYWORDS, Token, TokenKind};
use crate::error::Pos;
use crate::node::ReadError;

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
/// The last token is always [`TokenKind::Eof`].
pub(super) fn lex(text: &str, stop: bool) -> (Vec<Token>, Option<ReadError>) {
    let mut l = Lexer {
        chars: text.replace("\r\n", "\n").chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        modes: vec![Mode::Code],
        tokens: Vec::new(),
    };
    let mut first = None;
    while l.i < l.chars.len() {
        let (before, at) = (l.i, l.pos());
        if let Err(e) = l.next() {
            if stop {
                let at = e.at;
                l.tokens.push(Token {
                    kind: TokenKind::Invalid,
                    text: String::new(),
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
        text: String::new(),
        start: end,
        end,
    });
    (l.tokens, first)
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: u32,
    col: u32,
    modes: Vec<Mode>,
    tokens: Vec<Token>,
}

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn ident_char(c: char) -> bool {
    ident_start(c) || c.is_ascii_digit() || c == '-'
}

impl Lexer {
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
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

    fn push(&mut self, kind: TokenKind, text: String, start: Pos) {
        let end = self.pos();
        self.tokens.push(Token { kind, text, start, end });
    }

    fn next(&mut self) -> Result<(), ReadError> {
        match self.modes.last().cloned().unwrap_or(Mode::Code) {
            Mode::Code | Mode::Interpolation(_) => self.code(),
            Mode::Line => self.string_text(None),
            Mode::Lines(strip) => self.string_text(Some(&strip)),
        }
    }

    fn code(&mut self) -> Result<(), ReadError> {
        while matches!(self.peek(0), Some(' ' | '\t')) {
            self.bump();
        }
        let start = self.pos();
        let Some(c) = self.peek(0) else {
            return Ok(());
        };
        match c {
            '\n' => {
                self.bump();
                self.push(TokenKind::Newline, "\n".into(), start);
            }
            '#' => {
                self.bump();
                let mut text = String::new();
                while let Some(c) = self.peek(0).filter(|c| *c != '\n') {
                    text.push(c);
                    self.bump();
                }
                self.push(TokenKind::Comment, text, start);
            }
            c if ident_start(c) => self.word(start),
            '"' => return self.open_string(start),
            c if c.is_ascii_digit() || c == '-' => return self.number(start),
            _ => return self.punctuation(start),
        }
        Ok(())
    }

    fn word(&mut self, start: Pos) {
        let mut text = String::new();
        while let Some(c) = self.peek(0).filter(|c| ident_char(*c)) {
            text.push(c);
            self.bump();
        }
        let kind = match text.as_str() {
            "true" | "false" => TokenKind::Bool,
            "none" => TokenKind::None,
            w => match KEYWORDS.iter().find(|k| **k == w) {
                Some(k) => TokenKind::Keyword(k),
                None => TokenKind::Ident,
            },
        };
        self.push(kind, text, start);
    }

    fn number(&mut self, start: Pos) -> Result<(), ReadError> {
        let mut text = String::new();
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

    fn digits(&mut self, text: &mut String) {
        while let Some(c) = self.peek(0).filter(|c| c.is_ascii_digit()) {
            text.push(c);
            self.bump();
        }
    }

    fn punctuation(&mut self, start: Pos) -> Result<(), ReadError> {
        use TokenKind::*;
        for (op, kind) in [("==", Eq), ("!=", Neq), ("<=", Le), (">=", Ge), ("&&", And), ("||", Or)] {
            if self.starts(op) {
                self.bump();
                self.bump();
                self.push(kind, op.into(), start);
                return Ok(());
            }
        }
        let c = self.peek(0).unwrap_or(' ');
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
        self.push(kind, c.to_string(), start);
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
        while k < self.chars.len() {
            if self.chars[k..].starts_with(&['"', '"', '"']) {
                let indent = &self.chars[line_start..k];
                if indent.iter().any(|c| !matches!(c, ' ' | '\t')) {
                    return Err(self.error(self.pos(), "a closing \"\"\" must be on a line of its own"));
                }
                return Ok(indent.to_vec());
            }
            if self.chars[k] == '\n' {
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
        let mut text = String::new();
        while let Some(c) = self.peek(0) {
            let closes = match strip {
                Some(_) => self.starts("\"\"\""),
                None => c == '"',
            };
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
                self.push(TokenKind::StringEnd, closer.into(), start);
                return Ok(());
            }
            if strip.is_none() && c == '\n' {
                return Err(self.error(self.pos(), "this string is not closed before the end of the line"));
            }
            if self.starts("${") {
                if !text.is_empty() {
                    self.push(kind, text, start);
                    return Ok(());
                }
                self.bump();
                self.bump();
                self.modes.push(Mode::Interpolation(1));
                self.push(TokenKind::InterpolationStart, "${".into(), start);
                return Ok(());
            }
            // `\"` is the only escape, in single-line strings only.
            if strip.is_none() && self.starts("\\\"") {
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
    use super::*;
    use TokenKind::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        lex(text, false).0.into_iter().map(|t| t.kind).collect()
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
