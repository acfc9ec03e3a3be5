//! The tokens of the `.bp` language, comments and line ends included, so
//! that a formatter can rebuild the text from them.

use crate::error::Pos;

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
    /// Its text.
    pub text: String,
    /// Its first character.
    pub start: Pos,
    /// Just after its last character.
    pub end: Pos,
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
        let symbol = match self {
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
            Keyword(word) => return format!("keyword {word:?}"),
            Int => return "an integer".into(),
            Float => return "a float".into(),
            Bool => return "a boolean".into(),
            None => return "none".into(),
            StringStart | Text => return "a string".into(),
            StringEnd => return "the end of the string".into(),
            MultilineText => return "a multi-line string".into(),
            Newline => return "the end of the line".into(),
            Comment => return "a comment".into(),
            Ident => return "a name".into(),
            Invalid => return "an unreadable character".into(),
            Eof => return "the end of the file".into(),
        };
        format!("'{symbol}'")
    }
}
