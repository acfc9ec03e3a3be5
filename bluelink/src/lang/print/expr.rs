//! Values of the document tree as `.bp` expressions: scalars as
//! literals, sequences and mappings as `[…]` and `{…}`, and a string with
//! substitutions parsed with the Bluelink substitution grammar and
//! printed back in `.bp` syntax: a whole `${e}` as the bare expression,
//! text with `${…}` as an interpolated string.

use super::refusal::{Refused, refused};
use super::words::{self, float, is_ident, is_quotable_name, needs_block, pad, push_escaped, unwritable};
use crate::error::Pos;
use crate::node::{Kind, Node};
use bpvm_compiler::ast::{Accessor, Expr, Kind as E, Step};
use bpvm_compiler::template::{Part, split};
use bpvm_compiler::{Compiler, Dialect};
use bpvm_runtime::Value;

/// `node` where a value goes (a spec field, a value's `value`): lists
/// and mappings are literals, one item per line.
pub(super) fn value(node: &Node, level: usize) -> Result<String, Refused> {
    match &node.kind {
        Kind::List(items) if items.is_empty() => Ok("[]".into()),
        Kind::Map(entries) if entries.is_empty() => Ok("{}".into()),
        Kind::List(items) => {
            let mut out = String::from("[\n");
            for (k, item) in items.iter().enumerate() {
                out.push_str(&pad(level + 1));
                out.push_str(&value(item, level + 1)?);
                out.push_str(if k + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(level));
            out.push(']');
            Ok(out)
        }
        Kind::Map(entries) => {
            let mut out = String::from("{\n");
            for (k, e) in entries.iter().enumerate() {
                out.push_str(&pad(level + 1));
                out.push_str(&super::notes::above(e.key_at, level + 1));
                out.push_str(&words::key(&e.key, e.key_at)?);
                out.push_str(" = ");
                out.push_str(&value(&e.value, level + 1)?);
                out.push_str(if k + 1 < entries.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(level));
            out.push('}');
            Ok(out)
        }
        Kind::Scalar(v) => scalar(v, node.at, level),
    }
}

/// A scalar: a literal, a string, or the expression of its `${…}`.
pub(super) fn scalar(v: &Value, at: Pos, level: usize) -> Result<String, Refused> {
    match v {
        Value::Null => Ok("none".into()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Int(i) => Ok(i.to_string()),
        Value::Float(f) => float(*f, at),
        Value::Str(s) => string(s, at, level, true),
        _ => Err(refused(at, "this value cannot be written in .bp")),
    }
}

/// A string that may hold substitutions. `bare`: a string that is one
/// `${e}` is written as `e` (where an expression is read).
pub(super) fn string(s: &str, at: Pos, level: usize, bare: bool) -> Result<String, Refused> {
    if s.contains("$${") {
        return Err(refused(
            at,
            "a literal '${' (written '$${') cannot be written in .bp, whose strings have no escape for it",
        ));
    }
    if !s.contains("${") {
        return text(s, at, level, "");
    }
    let parts = split(s).map_err(|d| refused(at, format!("this substitution does not parse: {}", d.message)))?;
    let mut body = String::new();
    for part in &parts {
        match part {
            Part::Text(t) => body.push_str(t),
            Part::Expr((start, end)) => {
                let e = parse(s, *start as usize, *end as usize, at)?;
                let written = s[*start as usize..*end as usize].trim();
                // Over several lines, kept as written inside a string (the
                // reader keeps an interpolation's layout, not a bare
                // expression's, which `fmt` indents).
                let laid_out = keeps_layout(written);
                let printed = if laid_out {
                    written.to_string()
                } else {
                    expr(s, &e, at)?
                };
                if bare && parts.len() == 1 && !is_literal(&e) && !laid_out {
                    return Ok(printed);
                }
                body.push_str("${");
                body.push_str(&printed);
                body.push('}');
            }
        }
    }
    text(&body, at, level, s)
}

/// `body` (text, its `${…}` already in `.bp` syntax) as a string literal;
/// `source` is the string as written, for the checks.
fn text(body: &str, at: Pos, level: usize, source: &str) -> Result<String, Refused> {
    let block = needs_block(body);
    if let Some(why) = unwritable(if source.is_empty() { body } else { source }, block) {
        return Err(refused(
            at,
            format!("this string cannot be written in .bp: it has {why}"),
        ));
    }
    if !block {
        let mut out = String::from("\"");
        // Only the text is escaped: the `${…}` pieces are already .bp.
        push_text_escaped(&mut out, body);
        out.push('"');
        return Ok(out);
    }
    let inner = pad(level + 1);
    let mut out = String::from("\"\"\"\n");
    for line in body.split('\n') {
        if !line.is_empty() {
            out.push_str(&inner);
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str(&inner);
    out.push_str("\"\"\"");
    Ok(out)
}

/// Escapes `"` in the text of `body`, not inside its `${…}` (whose
/// strings are escaped already).
fn push_text_escaped(out: &mut String, body: &str) {
    let mut rest = body;
    while let Some(open) = rest.find("${") {
        push_escaped(out, &rest[..open]);
        let close = interpolation_end(&rest[open..]).map_or(rest.len(), |c| open + c);
        out.push_str(&rest[open..close]);
        rest = &rest[close..];
    }
    push_escaped(out, rest);
}

/// Where the `${…}` at the start of `s` ends (just after its `}`),
/// skipping strings and nested braces.
fn interpolation_end(s: &str) -> Option<usize> {
    let (mut depth, mut in_str) = (0usize, false);
    let mut chars = s.char_indices().skip(1).peekable();
    while let Some((k, c)) = chars.next() {
        match (in_str, c) {
            // `\"` is the one escape of a .bp string.
            (true, '\\') if chars.peek().is_some_and(|(_, n)| *n == '"') => {
                chars.next();
            }
            (true, '"') => in_str = false,
            (false, '"') => in_str = true,
            (false, '{') => depth += 1,
            (false, '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// True when `written`, a substitution over several lines, is already
/// `.bp` that reads back as itself: substitution text as the reader
/// writes it, with only line breaks and spaces between its pieces, and
/// nothing the reader does not lay out (strings, braces, tabs, spaces at
/// a line's end).
fn keeps_layout(written: &str) -> bool {
    written.contains('\n')
        && !written.contains(['"', '\'', '{', '}', '#', '\t', '\r', '$'])
        && !written.contains(" \n")
        && super::super::lower::substitution_text(written)
            .is_some_and(|c| super::super::layout::same_tokens(&c, written))
}

/// True when `e`, written bare where a value goes, would not read back
/// as one substitution: a literal is read as a scalar, and an array or
/// object literal as a sequence or mapping.
fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        E::Nil | E::Bool(_) | E::Int(_) | E::Float(_) | E::Str(_) | E::List(_) => true,
        E::Call(c) => c.name == "object" && c.args.is_empty() && !c.named.is_empty(),
        _ => false,
    }
}

fn parse(s: &str, start: usize, end: usize, at: Pos) -> Result<Expr, Refused> {
    Compiler::new(Dialect::Bluelink)
        .optimize(false)
        .parse(s, start, end)
        .map_err(|d| refused(at, format!("this substitution does not parse: {}", d.message)))
}

/// The `.bp` text of a substitution's expression (`src` is the string it
/// is in, for the text of its numbers).
fn expr(src: &str, e: &Expr, at: Pos) -> Result<String, Refused> {
    let spelt = |e: &Expr| &src[e.span.0 as usize..e.span.1 as usize];
    Ok(match &e.kind {
        E::Nil => "none".into(),
        E::Bool(b) => b.to_string(),
        E::Int(i) => i.to_string(),
        E::Float(f) => {
            let t = spelt(e);
            let (whole, frac) = t.trim_start_matches('-').split_once('.').unwrap_or(("", ""));
            let digits = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit());
            if digits(whole) && digits(frac) {
                t.to_string()
            } else {
                float(*f, at)?
            }
        }
        E::Str(s) => string_in_expr(s, at)?,
        E::Ident(root) => root.to_string(),
        E::Access(base, steps) => access(src, base, steps, at)?,
        E::List(items) => {
            let items: Vec<String> = items.iter().map(|i| expr(src, i, at)).collect::<Result<_, _>>()?;
            format!("[{}]", items.join(", "))
        }
        E::Call(call) if call.name == "object" && call.args.is_empty() && !call.named.is_empty() => {
            // An object literal lowers to object(k = v, …), and its keys
            // may be keywords, which a named argument's may not.
            let mut fields = Vec::new();
            for (name, _, v) in &call.named {
                fields.push(format!("{name} = {}", expr(src, v, at)?));
            }
            format!("{{ {} }}", fields.join(", "))
        }
        E::Call(call) => {
            if let Some((name, ..)) = call
                .named
                .iter()
                .find(|(n, ..)| super::super::token::KEYWORDS.contains(&n.as_str()))
            {
                return Err(refused(
                    at,
                    format!("the named argument {name:?} cannot be written in .bp, where it is a keyword"),
                ));
            }
            let mut args: Vec<String> = call.args.iter().map(|a| expr(src, a, at)).collect::<Result<_, _>>()?;
            for (name, _, v) in &call.named {
                args.push(format!("{name} = {}", expr(src, v, at)?));
            }
            format!("{}({})", call.name, args.join(", "))
        }
        E::FuncRef(name) => {
            return Err(refused(
                at,
                format!(
                    "the function value '{name}' (a function's bare name as an argument) cannot be written in .bp, where a bare name is a resource"
                ),
            ));
        }
        _ => return Err(refused(at, "this substitution cannot be written in .bp")),
    })
}

/// A string inside an expression: one line, no `${`, not ending in `\`.
fn string_in_expr(s: &str, at: Pos) -> Result<String, Refused> {
    if s.contains("${") || s.contains('\n') || s.contains('\r') || s.ends_with('\\') {
        return Err(refused(
            at,
            format!(
                "the string {s:?} inside a substitution cannot be written in .bp: inside an expression a string is one line, without '${{', not ending in a backslash"
            ),
        ));
    }
    Ok(words::quote(s))
}

/// A reference or a call with accessors.
fn access(src: &str, base: &Expr, steps: &[Step], at: Pos) -> Result<String, Refused> {
    let mut out = expr(src, base, at)?;
    // After these roots, the first name (and a data source's field) is
    // a name that may not be a keyword.
    let names = match &base.kind {
        E::Ident(r) if r == "datasources" => 2,
        E::Ident(r) if matches!(r.as_str(), "variables" | "values" | "resources" | "children") => 1,
        _ => 0,
    };
    let mut from = base.span.1 as usize;
    for (k, step) in steps.iter().enumerate() {
        // As written: `["name"]` stays in brackets (the text of a
        // reference known only at deploy time is kept as written).
        let written = src.get(from..step.end as usize).unwrap_or("").trim_start();
        from = step.end as usize;
        match &step.op {
            Accessor::Member(name) if written.starts_with('[') && is_quotable_name(name) => {
                out.push_str(&format!("[\"{name}\"]"));
            }
            Accessor::Member(name) => {
                let keyword = super::super::token::KEYWORDS.contains(&name.as_str());
                let reserved = matches!(name.as_str(), "true" | "false" | "none");
                if is_ident(name) && !reserved && !(k < names && keyword) {
                    out.push('.');
                    out.push_str(name);
                } else if is_quotable_name(name) {
                    out.push_str(&format!("[\"{name}\"]"));
                } else {
                    return Err(refused(
                        at,
                        format!("the name {name:?} in a reference cannot be written in .bp"),
                    ));
                }
            }
            Accessor::Index(i) => match &i.kind {
                E::Int(n) if *n >= 0 => out.push_str(&format!("[{n}]")),
                _ => return Err(refused(at, "an index that is not a number cannot be written in .bp")),
            },
            Accessor::Slice(..) => return Err(refused(at, "a slice cannot be written in .bp")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bp(s: &str) -> String {
        string(s, Pos::default(), 0, true).unwrap_or_else(|e| format!("refused: {}", e.message))
    }

    #[test]
    fn substitutions_print_as_bp_expressions() {
        assert_eq!(bp("${eq(variables.a, \"b\")}"), "eq(variables.a, \"b\")");
        assert_eq!(bp("${fn.spec.arn}"), "resources.fn.spec.arn");
        assert_eq!(bp("${resources.x[1].spec}"), "resources.x[1].spec");
        assert_eq!(bp("${datasources.d.f[0]}"), "datasources.d.f[0]");
        assert_eq!(bp("${children.c.o}"), "children.c.o");
        assert_eq!(bp("${elem.name}-${i}"), "\"${elem.name}-${i}\"");
        assert_eq!(bp("${resources[\"data\"].spec}"), "resources[\"data\"].spec");
        assert_eq!(bp("${5}"), "\"${5}\"");
        assert_eq!(bp("say \"${elem}\""), "\"say \\\"${elem}\\\"\"");
        assert!(bp("a $${b}").starts_with("refused: a literal '${'"));
        assert_eq!(bp("a\nb ${i}"), "\"\"\"\n    a\n    b ${i}\n    \"\"\"");
        assert_eq!(bp("${object(logs = 1, data = 2)}"), "\"${{ logs = 1, data = 2 }}\"");
        assert_eq!(bp("${[1, 2]}"), "\"${[1, 2]}\"");
        assert_eq!(bp("C:\\"), "\"\"\"\n    C:\\\n    \"\"\"");
    }

    #[test]
    fn what_bp_cannot_spell_is_refused_saying_why() {
        for (text, why) in [
            (
                "a\r\nb",
                "refused: this string cannot be written in .bp: it has a carriage return",
            ),
            (
                "x\n\"\"\"",
                "refused: this string cannot be written in .bp: it has '\"\"\"'",
            ),
            ("${map(values.xs, trim)}", "refused: the function value 'trim'"),
            (
                "${f(data = 1)}",
                "refused: the named argument \"data\" cannot be written in .bp",
            ),
            (
                "${join(\"a\nb\", \",\")}",
                "refused: the string \"a\\nb\" inside a substitution",
            ),
            ("${resources[\"a b\"]}", "refused: this substitution does not parse"),
        ] {
            assert!(bp(text).starts_with(why), "{text:?}: {}", bp(text));
        }
    }
}
