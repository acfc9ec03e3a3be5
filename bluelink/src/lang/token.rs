//! The tokens of the `.bp` language, comments and line ends included, so
//! that a formatter can rebuild the text from them.

use crate::error::Pos;
use compact_str::CompactString;

/// The 37 reserved words: never a bare name, always a field key.
pub const KEYWORDS: [&str; 37] = [
    "variable",
    "value",
    "data",
    "resource",
    "include",
    "export",
    "metadata",
    "spec",
    "select",
    "filter",
    "foreach",
    "as",
    "by",
    "label",
    "version",
    "transform",
    "not",
    "in",
    "has",
    "key",
    "contains",
    "starts",
    "with",
    "ends",
    "string",
    "integer",
    "float",
    "boolean",
    "array",
    "object",
    "variables",
    "values",
    "datasources",
    "resources",
    "children",
    "elem",
    "i",
];

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{` (outside an interpolation's own braces)
    LBrace,
    /// `}`
    RBrace,
    /// `:`
    Colon,
    /// `=`
    Assign,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `==`
    Eq,
    /// `!=`
    Neq,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `!`
    Not,
    /// `/`
    Slash,
    /// `*`
    Star,
    /// An integer, `-` included.
    Int,
    /// A float: digits on both sides of the `.`.
    Float,
    /// `true` or `false`.
    Bool,
    /// `none`.
    None,
    /// `"` or `"""` opening a string.
    StringStart,
    /// `"` or `"""` closing a string.
    StringEnd,
    /// Text of a single-line string (its `\"` read as `"`).
    Text,
    /// Text of a multi-line string (its indentation removed).
    MultilineText,
    /// `${`
    InterpolationStart,
    /// The `}` closing an interpolation.
    InterpolationEnd,
    /// A line end.
    Newline,
    /// `# …` to the end of the line (the text after `#`).
    Comment,
    /// A name.
    Ident,
    /// One of [`KEYWORDS`].
    Keyword(&'static str),
    /// What the lexer could not read (its error says why).
    Invalid,
    /// The end of the text (always the last token).
    Eof,
}

/// A token: what it is, its text (a string's text as read), and where it
/// starts and ends (end exclusive). Positions are those of the text with
/// each `\r\n` read as `\n`.
///
/// ```
/// use bpvm_bluelink::lang::{tokens, TokenKind};
/// let (toks, _) = tokens("a = \"x\\\"y\"");
/// let kinds: Vec<TokenKind> = toks.iter().map(|t| t.kind).collect();
/// assert_eq!(kinds, [TokenKind::Ident, TokenKind::Assign, TokenKind::StringStart,
///                    TokenKind::Text, TokenKind::StringEnd, TokenKind::Eof]);
/// assert_eq!(toks[3].text, "x\"y");
/// assert_eq!((toks[3].start.col, toks[3].end.col), (6, 10));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its text: inline when short, as names and keywords are (a load
    /// takes one per word; see `lex`'s header).
    pub text: CompactString,
    /// Its first character.
    pub start: Pos,
    /// Just after its last character.
    pub end: Pos,
}

/// The index of the token that closes the `open` token at `toks[k]`: the
/// first `close` at its depth (strings and interpolations nest); `None`
/// when the tokens end first.
pub(super) fn closing(toks: &[Token], k: usize, open: TokenKind, close: TokenKind) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(k) {
        if t.kind == open {
            depth += 1;
        } else if t.kind == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

impl TokenKind {
    /// What the token is, for messages: `'{'`, `keyword "by"`, `a string`.
    ///
    /// ```
    /// use bpvm_bluelink::lang::TokenKind;
    /// assert_eq!(TokenKind::LBrace.describe(), "'{'");
    /// assert_eq!(TokenKind::Keyword("by").describe(), "keyword \"by\"");
    /// ```
    pub fn describe(self) -> String {
        use TokenKind::*;
        match self {
            Keyword(word) => format!("keyword {word:?}"),
            Int => "an integer".into(),
            Float => "a float".into(),
            Bool => "a boolean".into(),
            None => "none".into(),
            StringStart | Text => "a string".into(),
            StringEnd => "the end of the string".into(),
            MultilineText => "a multi-line string".into(),
            Newline => "the end of the line".into(),
            Comment => "a comment".into(),
            Ident => "a name".into(),
            Invalid => "an unreadable character".into(),
            Eof => "the end of the file".into(),
            symbol => format!("'{}'", symbol.spelling().unwrap_or_default()),
        }
    }

    /// The one way a punctuation or operator token is written (which the
    /// parser's tokens leave out of their text).
    ///
    /// ```
    /// use bpvm_bluelink::lang::TokenKind;
    /// assert_eq!(TokenKind::Le.spelling(), Some("<="));
    /// assert_eq!(TokenKind::Ident.spelling(), None);
    /// ```
    pub fn spelling(self) -> Option<&'static str> {
        use TokenKind::*;
        Some(match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace | InterpolationEnd => "}",
            Colon => ":",
            Assign => "=",
            Comma => ",",
            Dot => ".",
            Eq => "==",
            Neq => "!=",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            And => "&&",
            Or => "||",
            Not => "!",
            Slash => "/",
            Star => "*",
            InterpolationStart => "${",
            _ => return Option::None,
        })
    }
}
