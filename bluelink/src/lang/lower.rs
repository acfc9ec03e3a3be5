//! Expressions lowered to the tree a YAML author would write: literals to
//! typed scalars, arrays and objects to sequences and mappings, and
//! everything else to bpvm's `${…}` substitution text, written out in full
//! (`resources.x`, `eq(a, b)`, `list(…)`, `object(k = v)`).

use super::ast::{Expr, ExprKind, Part, Text};
use super::build::{Builder, Entries, Written, scalar, text};
use super::cursor::{Parsed, fail};
use crate::error::Pos;
use crate::node::{Kind, Node};
use bpvm_runtime::Value;

impl Written {
    /// The substitution written from byte `from` (its pieces from span
    /// `first_span`) replaced by `text`, its layout as written, when that
    /// differs only in spaces and line breaks.
    fn keep_layout(&mut self, from: usize, first_span: usize, text: &str) {
        let canonical = self.out[from..].to_string();
        if !super::layout::same_tokens(&canonical, text) {
            return;
        }
        for span in &mut self.spans[first_span..] {
            span.0 = from + super::layout::moved(&canonical, text, span.0 - from);
        }
        self.out.truncate(from);
        self.out.push_str(text);
    }
}

/// `src`, a `.bp` expression, as the substitution text it is lowered to
/// (`None` when it is not one expression).
pub(super) fn substitution_text(src: &str) -> Option<String> {
    let (toks, error) = super::lex::lex(src, true);
    if error.is_some() {
        return None;
    }
    let mut c = super::cursor::Cursor::new(toks);
    let e = c.expr().ok()?;
    c.skip_newlines();
    if c.kind() != super::token::TokenKind::Eof {
        return None;
    }
    let mut w = Written::default();
    substitution(e, &mut w).ok()?;
    Some(w.out)
}

impl Builder<'_> {
    /// `e` where a value goes (a variable's value, a spec field): an array
    /// or object literal is a sequence or mapping.
    pub(super) fn value(&mut self, e: Expr) -> Parsed<Node> {
        match e.kind {
            ExprKind::List(items) => {
                let items = items.into_iter().map(|i| self.value(i)).collect::<Parsed<_>>()?;
                Ok(Node {
                    at: e.at,
                    kind: Kind::List(items),
                })
            }
            ExprKind::Object(fields) => {
                let mut entries = Entries::default();
                for f in fields {
                    let v = self.value(f.value)?;
                    self.add(&mut entries, &f.key, f.key_at, v, "the key")?;
                }
                Ok(Builder::map(e.at, entries))
            }
            _ => self.string_or_sub(e),
        }
    }

    /// `e` where a string or a substitution goes (`foreach`, a filter's
    /// search, an annotation): an array or object literal is `list(…)` or
    /// `object(…)`.
    pub(super) fn string_or_sub(&mut self, e: Expr) -> Parsed<Node> {
        let at = e.at;
        match e.kind {
            ExprKind::Str(s) => Ok(text(at, &s)),
            ExprKind::Int(i) => Ok(scalar(at, Value::Int(i))),
            ExprKind::Float(f, _) => Ok(scalar(at, Value::Float(f))),
            ExprKind::Bool(b) => Ok(scalar(at, Value::Bool(b))),
            ExprKind::None => Ok(scalar(at, Value::Null)),
            ExprKind::Interpolated(parts) => self.interpolated(at, parts),
            kind => {
                let mut w = self.take_written();
                w.out.push_str("${");
                substitution(Expr { at, kind }, &mut w)?;
                w.out.push('}');
                Ok(self.recorded(at, w))
            }
        }
    }

    /// A string with interpolations: its text and `${…}` in turn.
    pub(super) fn interpolated(&mut self, at: Pos, parts: Vec<Part>) -> Parsed<Node> {
        let mut w = self.take_written();
        let mut parts = parts.into_iter().peekable();
        while let Some(part) = parts.next() {
            match part {
                Part::Text(t) => {
                    // `$` just before `${` would read as bpvm's escape `$${`:
                    // the trailing `$`s are written as a string of their own.
                    let before_sub = matches!(parts.peek(), Some(Part::Sub(..)));
                    let kept = if before_sub { t.trim_end_matches('$') } else { &t };
                    w.out.push_str(kept);
                    if kept.len() < t.len() {
                        w.out.push_str(&format!("${{\"{}\"}}", &t[kept.len()..]));
                    }
                }
                Part::Sub(e, laid_out) => {
                    w.out.push_str("${");
                    let (from, first_span) = (w.out.len(), w.spans.len());
                    substitution(e, &mut w)?;
                    if let Some(text) = laid_out {
                        w.keep_layout(from, first_span, &text);
                    }
                    w.out.push('}');
                }
            }
        }
        Ok(self.recorded(at, w))
    }

    /// The builder's [`Written`], empty.
    fn take_written(&mut self) -> Written {
        // Replaced by an empty one, which allocates nothing.
        let empty = Written {
            out: String::new(),
            spans: Vec::new(),
        };
        let mut w = std::mem::replace(&mut self.written, empty);
        w.out.clear();
        w.spans.clear();
        w
    }

    /// The string `w` wrote, its pieces recorded; `w` kept for the next.
    fn recorded(&mut self, at: Pos, w: Written) -> Node {
        self.origins.record(at, &w.spans);
        let node = text(at, &w.out);
        self.written = w;
        node
    }
}

/// Writes `e` as bpvm substitution text.
fn substitution(e: Expr, w: &mut Written) -> Parsed<()> {
    w.spans.push((w.out.len(), e.at));
    match e.kind {
        ExprKind::Str(s) => w.out.push_str(&string_literal(&s, e.at)?),
        ExprKind::Int(i) => w.out.push_str(&i.to_string()),
        ExprKind::Float(_, t) => w.out.push_str(&t),
        ExprKind::Bool(b) => w.out.push_str(if b { "true" } else { "false" }),
        ExprKind::None => w.out.push_str("none"),
        ExprKind::List(items) => call(w, "list", items.into_iter().map(|i| (None, i)).collect(), "")?,
        ExprKind::Object(fields) => {
            let mut args = Vec::with_capacity(fields.len());
            for f in fields {
                if !is_name(&f.key) {
                    let message = format!(
                        "the key {:?} cannot be written inside an expression (it becomes a named argument of object(), which takes letters, digits, '_' and '-')",
                        f.key
                    );
                    return fail(f.key_at, message);
                }
                args.push((Some((f.key, f.key_at)), f.value));
            }
            call(w, "object", args, "")?;
        }
        ExprKind::Interpolated(parts) => {
            // Inside an expression: join(list(parts…), "").
            w.out.push_str("join(list(");
            for (k, part) in parts.into_iter().enumerate() {
                if k > 0 {
                    w.out.push_str(", ");
                }
                match part {
                    Part::Text(t) => w.out.push_str(&string_literal(&t, e.at)?),
                    Part::Sub(s, _) => substitution(s, w)?,
                }
            }
            w.out.push_str("), \"\")");
        }
        ExprKind::Ref(r) => w.out.push_str(&r.text),
        ExprKind::Call(c) => call(w, &c.name, c.args, &c.path)?,
        ExprKind::Op(name, args) => call(w, name, args.into_iter().map(|a| (None, a)).collect(), "")?,
    }
    Ok(())
}

fn call(w: &mut Written, name: &str, args: Vec<(Option<(Text, Pos)>, Expr)>, path: &str) -> Parsed<()> {
    w.out.push_str(name);
    w.out.push('(');
    for (k, (arg_name, value)) in args.into_iter().enumerate() {
        if k > 0 {
            w.out.push_str(", ");
        }
        if let Some((n, at)) = arg_name {
            w.spans.push((w.out.len(), at));
            w.out.push_str(&n);
            w.out.push_str(" = ");
        }
        substitution(value, w)?;
    }
    w.out.push(')');
    w.out.push_str(path);
    Ok(())
}

fn is_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// `s` as a string literal of bpvm's substitution language, where only the
/// quote is escaped and a backslash pairs with the character after it: in
/// double quotes when it reads back as `s`, else in single quotes, else
/// (a string ending in an odd run of backslashes) with a space added and
/// taken off again.
fn string_literal(s: &str, at: Pos) -> Parsed<String> {
    for q in ['"', '\''] {
        if reads_back(s, q) {
            return Ok(quoted(s, q));
        }
    }
    let padded = format!("{s} ");
    if reads_back(&padded, '"') {
        return Ok(format!("trimsuffix({}, \" \")", quoted(&padded, '"')));
    }
    fail(
        at,
        "this string cannot be written inside an expression: it has a backslash before both kinds of quote and ends with one",
    )
}

fn quoted(s: &str, q: char) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        if c == q {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(q);
    out
}

/// True when every run of backslashes just before `q`, or at the end, is
/// of even length (so that, written with `q` escaped, it reads back).
fn reads_back(s: &str, q: char) -> bool {
    let mut run = 0;
    for c in s.chars() {
        if c == q && run % 2 == 1 {
            return false;
        }
        run = if c == '\\' { run + 1 } else { 0 };
    }
    run % 2 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_literals_read_back_in_the_substitution_language() {
        let at = Pos::default();
        assert_eq!(string_literal(r#"a"b"#, at).unwrap(), r#""a\"b""#);
        assert_eq!(string_literal(r"a\nb", at).unwrap(), r#""a\nb""#);
        assert_eq!(string_literal(r#"a\"b"#, at).unwrap(), r#"'a\"b'"#);
        assert_eq!(string_literal(r"C:\", at).unwrap(), r#"trimsuffix("C:\ ", " ")"#);
    }
}
