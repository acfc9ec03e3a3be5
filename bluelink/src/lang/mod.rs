//! Bluelink's native blueprint language (`.bp`, `.blueprint`), read into
//! the same document tree as a YAML blueprint: [`read`] gives exactly the
//! tree a YAML author would write for the same blueprint, entries in the
//! order written, every node and key at its place in the `.bp` text, so
//! that loading, validation and rendering do not know which was read.
//!
//! Expressions become bpvm's `${…}` substitutions, written out in full:
//! operators as the core functions they stand for (`a == b` is
//! `eq(a, b)`, `a != b` is `not(eq(a, b))`), arrays and objects inside an
//! expression as `list(…)` and `object(k = v)`, an interpolated string
//! inside an expression as `join(list(…), "")`, and a bare name `x` as
//! `resources.x`. [`tokens`] gives the tokens, comments and line ends
//! included, for a formatter.
//!
//! Here: the tokens (`token`) and lexer (`lex`); the parser's cursor
//! (`cursor`), expressions (`ast`, `expr`, `refs`), names and plain
//! strings (`names`), the declarations (`decl`, `fields`, `resource`,
//! `data`), and the tree they build (`build`, `lower`, and `layout` for a
//! substitution written over several lines). It imports the
//! document tree (`node`) and nothing of the loader.

mod ast;
mod build;
mod cursor;
mod data;
mod decl;
mod expr;
mod fields;
mod layout;
mod lex;
mod lower;
mod names;
pub mod print;
mod refs;
mod resource;
mod token;

pub(crate) use build::Origins;
pub use token::{KEYWORDS, Token, TokenKind};

use crate::key_table::KeyTable;
use crate::node::{Node, ReadError};

/// Reads a `.bp` blueprint into its document tree. The first problem
/// stops the reading, at its line:column.
///
/// ```
/// use bpvm_bluelink::lang::read;
/// let doc = read("version \"2025-11-02\"\nresource fn: aws/lambda/function {\n  spec { timeout = 30 }\n}\n").unwrap();
/// let r = doc.get("resources").unwrap().get("fn").unwrap();
/// assert_eq!(r.get("type").unwrap().as_str(), Some("aws/lambda/function"));
/// assert_eq!((r.get("type").unwrap().at.line, r.get("type").unwrap().at.col), (2, 14));
/// let e = read("version \"2025-11-02\"\nresorce fn: a/b { spec {} }\n").unwrap_err();
/// assert!(e.message.contains("did you mean \"resource\"?"));
/// ```
pub fn read(text: &str) -> Result<Node, ReadError> {
    read_keys(text, &mut KeyTable::default()).map(|(doc, _)| doc)
}

/// [`read`], the keys made by `keys` (which a loader goes on sharing),
/// and where the lowered substitution text came from.
pub(crate) fn read_keys(text: &str, keys: &mut KeyTable) -> Result<(Node, Origins), ReadError> {
    let (toks, lex_error) = lex::lex(text, true);
    let builder = build::Builder {
        keys,
        origins: Origins::default(),
        written: build::Written::default(),
    };
    let parsed = decl::Reader::new(cursor::Cursor::new(toks), builder).file();
    match (parsed, lex_error) {
        // The lexer stopped at its error: a problem found before it is
        // the first; at it, the parser only met where the lexer stopped.
        (Err(p), Some(l)) if p.at < l.at => Err(p),
        (_, Some(l)) => Err(l),
        (Err(p), None) => Err(p),
        (Ok((doc, b)), None) => Ok((doc, b.origins)),
    }
}

/// True when the file `name` is written in the `.bp` language: its name
/// ends in `.bp` or `.blueprint` (`app.blueprint.yaml` is YAML).
///
/// ```
/// use bpvm_bluelink::lang::is_bp;
/// assert!(is_bp("app.bp") && is_bp("dir/app.blueprint"));
/// assert!(!is_bp("app.blueprint.yaml") && !is_bp("app.yaml"));
/// ```
pub fn is_bp(name: &str) -> bool {
    name.ends_with(".bp") || name.ends_with(".blueprint")
}

/// The tokens of `text`, comments and line ends included, ending with
/// [`TokenKind::Eof`]; after a lexical error the lexer goes on, and the
/// first error is returned too.
///
/// ```
/// use bpvm_bluelink::lang::{tokens, TokenKind};
/// let (toks, error) = tokens("resource myTable: aws/s3/bucket {} # note\n");
/// assert!(error.is_none());
/// assert_eq!(toks[0].kind, TokenKind::Keyword("resource"));
/// assert_eq!((toks[0].start.col, toks[0].end.col), (1, 9));
/// assert!(toks.iter().any(|t| t.kind == TokenKind::Comment && t.text == " note"));
/// ```
pub fn tokens(text: &str) -> (Vec<Token>, Option<ReadError>) {
    lex::lex(text, false)
}

/// Bluelink's `lang/tokenize_test.go`, translated.
#[cfg(test)]
mod tests {
    use super::*;

    fn has(toks: &[Token], kind: TokenKind) -> bool {
        toks.iter().any(|t| t.kind == kind)
    }

    #[test]
    fn tokenizes_a_resource_declaration() {
        // from: "lang/tokenize_test.go: Test_tokenizes_a_resource_declaration"
        let src = "version \"2025-05-12\"\n\nresource myTable: aws/dynamodb/table {\n    spec {\n        tableName = \"orders\"\n    }\n}\n";
        let (toks, error) = tokens(src);
        assert!(error.is_none());
        assert_eq!(toks.last().map(|t| t.kind), Some(TokenKind::Eof));
        for kind in [
            TokenKind::Newline,
            TokenKind::Keyword("resource"),
            TokenKind::Keyword("spec"),
            TokenKind::LBrace,
            TokenKind::RBrace,
            TokenKind::Assign,
        ] {
            assert!(has(&toks, kind), "{kind:?}");
        }
    }

    #[test]
    fn tokens_carry_source_positions() {
        // from: "lang/tokenize_test.go: Test_tokens_carry_source_positions"
        let (toks, error) = tokens("resource myTable: aws/s3/bucket {}\n");
        assert!(error.is_none());
        let first = &toks[0];
        assert_eq!(first.kind, TokenKind::Keyword("resource"));
        assert_eq!((first.start.line, first.start.col, first.end.col), (1, 1, 9));
    }

    #[test]
    fn returns_tokens_and_error_on_lexical_failure() {
        // from: "lang/tokenize_test.go: Test_returns_tokens_and_error_on_lexical_failure"
        let (toks, error) = tokens("variable region: string {\n    default = \"oops\n}\n");
        let error = error.expect("an unterminated string is an error");
        assert_eq!((error.at.line, error.at.col), (2, 20));
        assert!(toks.len() > 1);
        assert_eq!(toks.last().map(|t| t.kind), Some(TokenKind::Eof));
    }

    #[test]
    fn comments_are_tokens_the_parser_skips() {
        let (toks, _) = tokens("# top\nversion \"2025-11-02\" # after\n");
        let comments: Vec<&str> = toks
            .iter()
            .filter(|t| t.kind == TokenKind::Comment)
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(comments, [" top", " after"]);
        assert!(read("# top\nversion \"2025-11-02\" # after\n").is_ok());
    }

    #[test]
    fn every_prefix_of_a_blueprint_is_read_or_refused_without_a_panic() {
        let text = "version \"2025-11-02\" # c\r\nvariable \"a.b\": aws/x/y { default = -1.5, allowedValues = [1] }\n\
                    value v: object { value = { k = [none, !x.y[0] || a != \"q\\\"\" && b <= 2] } }\n\
                    resource r: a/b { foreach f(n = 1, [2], {a = \"${i}\"}), select by label { exclude = x }\n\
                    metadata { labels = { a = \"b\" } }, spec { s = \"\"\"\n  $${elem.k} ${children.c.o}\n  \"\"\" } }\n\
                    data d: a/b { filter \"f\" not starts with datasources.d.f[1], export * }\n";
        for (end, _) in text.char_indices() {
            let _ = read(&text[..end]);
            let _ = tokens(&text[..end]);
        }
        assert!(read(text).is_ok(), "{:?}", read(text));
    }

    #[test]
    fn a_late_duplicate_in_a_large_block_is_refused_where_it_is() {
        let keys: String = (0..20_000).map(|i| format!("  k{i} = {i}\n")).collect();
        let text = format!("version \"2025-11-02\"\nmetadata {{\n{keys}  k7 = 0\n}}\n");
        let e = read(&text).unwrap_err();
        assert_eq!(
            (e.at.line, e.message.as_str()),
            (20_003, "the key \"k7\" is already given at 10:3")
        );
    }

    #[test]
    fn a_lexical_error_before_a_parse_error_is_the_one_reported() {
        let e = read("version \"2025-11-02\"\nmetadata { a = @ }\n").unwrap_err();
        assert_eq!(
            (e.at.line, e.at.col, e.message.as_str()),
            (2, 16, "unexpected character '@'")
        );
    }
}
