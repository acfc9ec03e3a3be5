//! `.bp` text written out: the canonical text of a document tree
//! ([`to_bp`], what `bpvm convert --to bp` prints) and the source
//! formatter ([`format()`], `bpvm fmt`); and a `.bp` blueprint as YAML
//! ([`to_yaml`], `bpvm convert --to yaml`).
//!
//! [`to_bp`] keeps the tree's order: declarations as the sections list
//! them, fields as each block lists them (a declaration's `type`, and an
//! include's `path`, go in its header, so they come first when read
//! back). A substitution is parsed with the Bluelink substitution
//! grammar and printed in `.bp` syntax: `${resources.x[1].spec}` as
//! `resources.x[1].spec`, `a-${elem.n}` as `"a-${elem.n}"`. What `.bp`
//! cannot spell is refused at its place: a type part with `-` or `_`, a
//! literal `${` (`$${`), a carriage return, a function value.
//!
//! [`format()`] works on the tokens, so comments, line breaks, and the
//! author's forms (an operator or a call, `x` or `resources.x`) stay as
//! written; only spacing, indentation and blank lines are made canonical.
//! A comment belongs to the line it is on: one on a line of its own stays
//! on its own line, before the token that follows it, indented as the
//! code of the block it is in; one after code stays at the end of that
//! line, after the token it follows.
//!
//! [`to_yaml`] carries comments over where YAML has a place for them: a
//! comment on a line of its own goes before the entry that follows it;
//! one at the end of a line goes at the end of the last entry that starts
//! on that line, or, when no entry starts there (`&& x # why`, a closing
//! `}`), before the next entry. YAML → `.bp` ([`to_bp_commented`])
//! carries a comment on a line of its own when a key follows it at its
//! column: it goes before what that key becomes (a declaration, a field,
//! a block's entry); others are dropped (see `notes`).

mod decls;
mod expr;
mod fields;
mod format;
mod notes;
mod refusal;
mod resource;
mod words;
mod yaml;

use crate::node::{Node, ReadError};

pub use refusal::Refused;

/// The canonical `.bp` text of a blueprint's document tree, or why it
/// cannot be written in `.bp` and where.
///
/// ```
/// use bpvm_bluelink::{lang, node};
/// let doc = node::read("version: 2025-11-02\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      role: ${resources.role.spec.arn}\n").unwrap();
/// let bp = lang::print::to_bp(&doc).unwrap();
/// assert_eq!(bp, "version \"2025-11-02\"\n\nresource fn: aws/lambda/function {\n    spec {\n        role = resources.role.spec.arn\n    }\n}\n");
/// let e = lang::print::to_bp(&node::read("version: 2025-11-02\nresources:\n  a:\n    type: aws/api-gateway/rest-api\n    spec: {}\n").unwrap()).unwrap_err();
/// assert_eq!((e.at.line, e.at.col), (4, 11));
/// ```
pub fn to_bp(doc: &Node) -> Result<String, Refused> {
    decls::document(doc)
}

/// [`to_bp`] of the tree read from `yaml`, with the comments of `yaml`
/// on lines of their own carried over: each goes before what the key
/// just under it (at its column) becomes; others are dropped.
///
/// ```
/// use bpvm_bluelink::{lang, node};
/// let yaml = "version: 2025-11-02\n# storage\nresources:\n  # the bucket\n  b:\n    type: aws/s3/bucket\n    spec:\n      # its name\n      name: logs\n";
/// let bp = lang::print::to_bp_commented(&node::read(yaml).unwrap(), yaml).unwrap();
/// assert_eq!(bp, "version \"2025-11-02\"\n\n# storage\n# the bucket\nresource b: aws/s3/bucket {\n    spec {\n        # its name\n        name = \"logs\"\n    }\n}\n");
/// ```
pub fn to_bp_commented(doc: &Node, yaml: &str) -> Result<String, Refused> {
    let _held = notes::Notes::hold(yaml);
    decls::document(doc)
}

/// `text` (a `.bp` source) formatted: the same blueprint, comments and
/// line breaks kept, spacing and indentation made canonical (see the
/// module's documentation). Formatting formatted text changes nothing.
/// A source that does not read is refused with its first problem.
///
/// ```
/// use bpvm_bluelink::lang::print::format;
/// let src = "version   \"2025-11-02\"\n\n\n# the function\nresource fn: aws/lambda/function{\nspec{ timeout=30 # seconds\n}\n}\n";
/// let out = format(src).unwrap();
/// assert_eq!(out, "version \"2025-11-02\"\n\n# the function\nresource fn: aws/lambda/function {\n    spec { timeout = 30 # seconds\n    }\n}\n");
/// assert_eq!(format(&out).unwrap(), out);
/// ```
pub fn format(text: &str) -> Result<String, ReadError> {
    super::read(text)?;
    let (toks, error) = super::tokens(text);
    if let Some(e) = error {
        return Err(e);
    }
    Ok(format::format(&format::Source::new(text), &toks))
}

/// A `.bp` source as a YAML blueprint (the tree [`read`](super::read)
/// makes), its comments carried over (see the module's documentation).
///
/// ```
/// use bpvm_bluelink::lang::print::to_yaml;
/// let src = "version \"2025-11-02\"\n# settings\nvariable region: string {\n    default = \"eu-west-1\" # the usual\n}\n";
/// assert_eq!(
///     to_yaml(src).unwrap(),
///     "version: \"2025-11-02\"\n# settings\nvariables:\n  region:\n    type: string\n    default: eu-west-1 # the usual\n"
/// );
/// ```
pub fn to_yaml(text: &str) -> Result<String, ReadError> {
    let doc = super::read(text)?;
    let (toks, _) = super::tokens(text);
    let mut comments = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if t.kind == super::TokenKind::Comment {
            let trailing = k > 0 && toks[k - 1].kind != super::TokenKind::Newline;
            comments.push(yaml::Comment {
                line: t.start.line,
                text: t.text.trim_end().to_string(),
                trailing,
            });
        }
    }
    Ok(yaml::write(&doc, comments))
}
