//! Parse-only conformance for the Bluelink `${..}` substitution language:
//! the syntax tree a host string or an expression parses to, stated as
//! cases translated from the reference implementation's own tests
//! (DECISIONS B12). The files are the YAML files under
//! `tests/cases/bluelink/reference/substitutions/`; their `README.md` says
//! what was translated and what was left out.
//!
//! A file keeps its cases under `parses:`, not `cases:`: they state how a
//! substitution parses, not what it renders, so `tests/conformance.rs`
//! (which walks the same tree and runs every `cases:` list) skips such a
//! file. Each case has
//!
//! - `from`: the reference test it translates, `<file>_test.go: <Test>`
//!   (`/<case>` for one row of a table test);
//! - `template` (a host string with `${..}` parts) or `expr` (one
//!   substitution without `${` `}`);
//! - `parsed`: the syntax tree, unoptimised, as [`Expr::sexpr`] writes it.
//!   A host string that is exactly one `${..}` (whitespace around allowed)
//!   is that expression, so `parsed` is one string; any other host string
//!   is a list of its parts, text written `(text "…")`;
//! - or `error`: text the parse error's message contains, with `at`, its
//!   `line:col`;
//! - `spans` (optional, with `parsed`): `"line:col-line:col": <sexpr>`
//!   entries, each a node of the tree that must cover exactly that range
//!   (end exclusive, columns counting characters). Besides the tree's nodes,
//!   an accessor chain offers each of its prefixes (`(get resources .a)` of
//!   `resources.a.b`), and a named argument offers `name=<sexpr>` from the
//!   name to the end of its value;
//! - `origin` (optional): the `line:col` where the host string starts in
//!   its file, as a reference test that places its input inside a larger
//!   document has it; positions in `spans` and `at` are then the file's;
//! - `seed_wins` (optional): where the reference's expectation contradicts
//!   seed 002/003 or DECISIONS, the case states bpvm's behaviour and this
//!   field quotes the words that decide it;
//! - `note` (optional): anything else a reader needs.

use bpvm::compiler::ast::{Accessor, Expr, Kind, Span};
use bpvm::compiler::template::{self, Part};
use bpvm::{Compiler, Diagnostic, Dialect, Value};
use std::path::Path;

const DIR: &str = "tests/cases/bluelink/reference/substitutions";

/// How many cases the folder promises at least.
const MINIMUM: usize = 30;

/// `src[..at]`'s `line:col` after the end, moved to start at `origin`.
fn position(src: &str, at: usize, origin: (usize, usize)) -> (usize, usize) {
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    if line == 1 {
        (origin.0, col + origin.1 - 1)
    } else {
        (line + origin.0 - 1, col)
    }
}

fn line_col(text: &str) -> (usize, usize) {
    let (l, c) = text
        .split_once(':')
        .unwrap_or_else(|| panic!("{text:?} is not line:col"));
    (l.parse().unwrap(), c.parse().unwrap())
}

/// Every node of `e` with its span and rendering, accessor prefixes and
/// named arguments included (see the module doc).
fn nodes(e: &Expr, out: &mut Vec<(Span, String)>) {
    out.push((e.span, e.sexpr()));
    let mut each = |es: &[&Expr]| es.iter().for_each(|x| nodes(x, out));
    match &e.kind {
        Kind::Access(base, steps) => {
            each(&[base]);
            for k in 1..steps.len() {
                let prefix = Expr::new(
                    Kind::Access(base.clone(), steps[..k].to_vec()),
                    (base.span.0, steps[k - 1].end),
                );
                out.push((prefix.span, prefix.sexpr()));
            }
            for step in steps {
                match &step.op {
                    Accessor::Member(_) => {}
                    Accessor::Index(i) => nodes(i, out),
                    Accessor::Slice(from, to) => [from, to].into_iter().flatten().for_each(|x| nodes(x, out)),
                }
            }
        }
        Kind::Call(call) => {
            call.args.iter().for_each(|a| nodes(a, out));
            for (name, span, value) in &call.named {
                out.push(((span.0, value.span.1), format!("{name}={}", value.sexpr())));
                nodes(value, out);
            }
        }
        Kind::List(items) => items.iter().for_each(|x| nodes(x, out)),
        Kind::Map(pairs) => pairs.iter().for_each(|(k, v)| {
            nodes(k, out);
            nodes(v, out);
        }),
        Kind::Unary(_, x) => each(&[x]),
        Kind::Chain(first, links) => {
            nodes(first, out);
            links.iter().for_each(|l| nodes(&l.rhs, out));
        }
        Kind::Ternary(c, a, b) => each(&[c, a, b]),
        Kind::Predicate(_, args, body) => {
            args.iter().for_each(|a| nodes(a, out));
            nodes(body, out);
        }
        Kind::Let(_, value, body) => each(&[value, body]),
        _ => {}
    }
}

/// A case's input parsed: its rendering as `parsed` states it, and the
/// trees it holds.
fn parse(src: &str, is_template: bool) -> Result<(Value, Vec<Expr>), Diagnostic> {
    let compiler = Compiler::new(Dialect::Bluelink).optimize(false);
    if !is_template {
        let e = compiler.parse(src, 0, src.len())?;
        return Ok((Value::Str(e.sexpr().into()), vec![e]));
    }
    let parts = template::split(src)?;
    if let Some((start, end)) = template::whole(&parts) {
        let e = compiler.parse(src, start as usize, end as usize)?;
        return Ok((Value::Str(e.sexpr().into()), vec![e]));
    }
    let mut shown = Vec::new();
    let mut trees = Vec::new();
    for part in &parts {
        match part {
            Part::Text(t) => shown.push(Value::Str(format!("(text {t:?})").into())),
            Part::Expr((start, end)) => {
                let e = compiler.parse(src, *start as usize, *end as usize)?;
                shown.push(Value::Str(e.sexpr().into()));
                trees.push(e);
            }
        }
    }
    Ok((Value::List(shown), trees))
}

#[derive(Default)]
struct Outcome {
    passed: usize,
    seed_wins: usize,
    failures: Vec<String>,
}

/// Checks one case; `Err` says how it failed.
fn check(case: &bpvm::runtime::Map, out: &mut Outcome) -> Result<(), String> {
    let text = |k: &str| case.get(k).and_then(Value::as_str);
    let from = text("from").ok_or("no `from`")?;
    if !from.contains("_test.go: Test") {
        return Err(format!("`from: {from}` is not `<file>_test.go: <Test>`"));
    }
    if case.get("seed_wins").is_some() {
        text("seed_wins")
            .filter(|w| !w.is_empty())
            .ok_or("`seed_wins` must quote the seed")?;
        out.seed_wins += 1;
    }
    let (src, is_template) = match (text("template"), text("expr")) {
        (Some(t), None) => (t, true),
        (None, Some(e)) => (e, false),
        _ => return Err("needs exactly one of template or expr".into()),
    };
    let origin = text("origin").map_or((1, 1), line_col);
    match (parse(src, is_template), case.get("parsed"), text("error")) {
        (Ok((got, trees)), Some(want), None) => {
            if got.to_json() != want.to_json() {
                return Err(format!("parsed to {}, want {}", got.to_json(), want.to_json()));
            }
            let Some(spans) = case.get("spans") else { return Ok(()) };
            let spans = spans.as_map().ok_or("`spans` is a mapping")?;
            let mut all = Vec::new();
            trees.iter().for_each(|t| nodes(t, &mut all));
            let shown: Vec<(String, &String)> = all
                .iter()
                .map(|((s, e), r)| {
                    let (a, b) = (position(src, *s as usize, origin), position(src, *e as usize, origin));
                    (format!("{}:{}-{}:{}", a.0, a.1, b.0, b.1), r)
                })
                .collect();
            for (range, want) in spans.iter() {
                let (range, want) = (range.to_string(), want.as_str().ok_or("a span's node is a string")?);
                if !shown.iter().any(|(r, s)| *r == range && *s == want) {
                    let there: Vec<_> = shown.iter().filter(|(_, s)| *s == want).map(|(r, _)| r).collect();
                    return Err(format!("no node {want} at {range} (it is at {there:?})"));
                }
            }
            Ok(())
        }
        (Err(d), None, Some(want)) => {
            let src = d.source.clone();
            let (line, col) = position(&src, d.start, origin);
            if !d.message.contains(want) {
                return Err(format!("error {:?} does not contain {want:?}", d.message));
            }
            match text("at") {
                Some(at) if line_col(at) != (line, col) => {
                    Err(format!("error at {line}:{col}, want {at}: {}", d.message))
                }
                _ => Ok(()),
            }
        }
        (Ok((got, _)), None, Some(_)) => Err(format!("parsed to {}, want an error", got.to_json())),
        (Err(d), Some(want), None) => Err(format!("failed, want {}:\n{d}", want.to_json())),
        _ => Err("needs exactly one of parsed or error".into()),
    }
}

#[test]
fn reference_substitution_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut out = Outcome::default();
    for path in &files {
        let doc = Value::from_yaml(&std::fs::read_to_string(path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let Some(Value::List(cases)) = doc.as_map().and_then(|m| m.get("parses")) else {
            panic!("{}: no `parses:` list", path.display())
        };
        let name = path.file_name().unwrap().to_string_lossy();
        for (n, case) in cases.iter().enumerate() {
            let case = case.as_map().expect("a case is a mapping");
            match check(case, &mut out) {
                Ok(()) => out.passed += 1,
                Err(why) => {
                    let from = case.get("from").and_then(Value::as_str).unwrap_or("?");
                    out.failures.push(format!("{name}#{} ({from}): {why}", n + 1));
                }
            }
        }
    }
    let total = out.passed + out.failures.len();
    assert!(
        out.failures.is_empty(),
        "{} of {total} reference substitution cases failed:\n{}",
        out.failures.len(),
        out.failures.join("\n")
    );
    assert!(total >= MINIMUM, "only {total} cases; the folder promises {MINIMUM}");
    println!(
        "{total} reference substitution cases passed ({} where the seed wins)",
        out.seed_wins
    );
}
