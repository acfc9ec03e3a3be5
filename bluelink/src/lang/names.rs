//! Strings that hold no interpolation, names, keys and types.

use super::ast::Text;
use super::cursor::{Cursor, Parsed, fail};
use super::token::TokenKind as T;
use crate::error::Pos;

/// True for a name a reference can write in quotes.
fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl Cursor {
    /// A single-line string without interpolation, and where it starts.
    pub(super) fn plain_string(&mut self) -> Parsed<(Text, Pos)> {
        self.literal_string(false)
    }

    /// A string without interpolation, single- or multi-line.
    pub(super) fn static_string(&mut self) -> Parsed<(Text, Pos)> {
        self.literal_string(true)
    }

    fn literal_string(&mut self, multiline: bool) -> Parsed<(Text, Pos)> {
        let start = self.expect(T::StringStart, "a string")?;
        if start.text == "\"\"\"" && !multiline {
            return fail(start.start, "a multi-line string is not allowed here");
        }
        let mut text = Text::default();
        loop {
            match self.kind() {
                T::Text | T::MultilineText => text.push_str(&self.advance().text),
                T::InterpolationStart => {
                    return fail(
                        self.peek().start,
                        "an interpolation '${…}' is not allowed in this string",
                    );
                }
                T::StringEnd => {
                    self.advance();
                    return Ok((text, start.start));
                }
                _ => return self.unexpected("the end of the string"),
            }
        }
    }

    /// A name in quotes: letters, digits, `_`, `-` and `.`.
    pub(super) fn quoted_name(&mut self) -> Parsed<(Text, Pos)> {
        let (name, at) = self.plain_string()?;
        if !valid_name(&name) {
            let message = format!("{name:?} is not a valid name: a name has letters, digits, '_', '-' and '.'");
            return fail(at, message);
        }
        Ok((name, at))
    }

    /// The name of a declaration: a bare name, or one in quotes.
    pub(super) fn element_name(&mut self) -> Parsed<(Text, Pos)> {
        match self.kind() {
            T::Ident => {
                let t = self.advance();
                Ok((t.text, t.start))
            }
            T::StringStart => self.quoted_name(),
            T::Keyword(word) => {
                let message = format!(
                    "{word:?} is a keyword and cannot be a bare name; write it in quotes (\"{word}\") to use it as a name"
                );
                fail(self.peek().start, message)
            }
            _ => self.unexpected("a name"),
        }
    }

    /// The key of a field in a declaration's block: a name, a keyword, or
    /// a name in quotes.
    pub(super) fn field_key(&mut self) -> Parsed<(Text, Pos)> {
        match self.kind() {
            T::Ident | T::Keyword(_) => {
                let t = self.advance();
                Ok((t.text, t.start))
            }
            T::StringStart => self.quoted_name(),
            _ => self.unexpected("a field name"),
        }
    }

    /// The key of an object or free-form block: a name, a keyword, or any
    /// string without interpolation.
    pub(super) fn object_key(&mut self) -> Parsed<(Text, Pos)> {
        match self.kind() {
            T::Ident | T::Keyword(_) => {
                let t = self.advance();
                Ok((t.text, t.start))
            }
            T::StringStart => self.plain_string(),
            _ => self.unexpected("a key"),
        }
    }

    /// A field key and its `=`.
    pub(super) fn assignment(&mut self) -> Parsed<(Text, Pos)> {
        let key = self.field_key()?;
        self.expect(T::Assign, "'='")?;
        Ok(key)
    }

    /// An element type, `a/b{/c}`: two segments or more, each a letter
    /// then letters and digits.
    pub(super) fn element_type(&mut self) -> Parsed<(Text, Pos)> {
        let (mut text, at) = self.segment()?;
        self.expect(T::Slash, "'/' (a type has two parts or more: 'aws/s3/bucket')")?;
        loop {
            text.push('/');
            text.push_str(&self.segment()?.0);
            if self.eat(T::Slash).is_none() {
                return Ok((text, at));
            }
        }
    }

    fn segment(&mut self) -> Parsed<(Text, Pos)> {
        if !matches!(self.kind(), T::Ident | T::Keyword(_) | T::Bool | T::None) {
            return self.unexpected("a part of a type (letters and digits)");
        }
        let t = self.advance();
        let valid =
            t.text.starts_with(|c: char| c.is_ascii_alphabetic()) && t.text.chars().all(|c| c.is_ascii_alphanumeric());
        if !valid {
            let message = format!(
                "{:?} is not a valid part of a type: a part is a letter followed by letters or digits",
                t.text
            );
            return fail(t.start, message);
        }
        Ok((t.text, t.start))
    }
}
