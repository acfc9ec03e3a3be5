//! Parse-only cases of the Bluelink `${..}` substitution language: the
//! syntax tree a host string or an expression parses to, stated as cases
//! translated from the reference implementation's own tests (DECISIONS
//! B12). The files are the YAML files directly under
//! `tests/cases/bluelink/reference/substitutions/`; their `README.md` says
//! what was translated and what was left out. Each case is the test
//! `parses::<file>::<case>`.
//!
//! A file keeps its cases under `parses:`, not `cases:`: they state how a
//! substitution parses, not what it renders, so the expression cases
//! (which walk the same tree) skip such a file. Each case has
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
//!
//! Blessing writes `parsed`, `error` (the whole message) and `at`.

use bpvm::compiler::ast::{Accessor, Expr, Kind, Span};
use bpvm::compiler::template::{self, Part};
use bpvm::{Compiler, Diagnostic, Dialect, Value};
use bpvm_harness::{Case, Difference, Failure, Fix, Suite, pretty};
use std::path::Path;
use std::sync::Arc;

const DIR: &str = "tests/cases/bluelink/reference/substitutions";

/// How many cases the folder promises at least.
const MINIMUM: usize = 30;

pub fn add(suite: &mut Suite) {
    let run = Arc::new(run);
    let mut total = 0;
    for (prefix, path) in suite.files("parses", &Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR), false) {
        if let Some(file) = suite.file(&prefix, &path) {
            total += suite.cases(&prefix, &file, "parses", &run);
        }
    }
    suite.check(&format!("parses::has_at_least_{MINIMUM}_cases"), move || {
        (total >= MINIMUM)
            .then_some(())
            .ok_or(format!("only {total} cases; the folder promises {MINIMUM}"))
    });
}

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

fn line_col(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once(':')
        .and_then(|(l, c)| Some((l.parse().ok()?, c.parse().ok()?)));
    parsed.ok_or(format!("{text:?} is not line:col"))
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

fn run(case: &Case) -> Result<(), Failure> {
    let from = case.text("from").ok_or("no `from`".to_string())?;
    if !from.contains("_test.go: Test") {
        return Err(Failure::problem(format!(
            "`from: {from}` is not `<file>_test.go: <Test>`"
        )));
    }
    if case.get("seed_wins").is_some() && case.text("seed_wins").is_none_or(str::is_empty) {
        return Err(Failure::problem("`seed_wins` must quote the seed"));
    }
    let (src, is_template) = match (case.text("template"), case.text("expr")) {
        (Some(t), None) => (t, true),
        (None, Some(e)) => (e, false),
        _ => return Err(Failure::problem("needs exactly one of template or expr")),
    };
    let origin = case.text("origin").map_or(Ok((1, 1)), line_col)?;
    let mut failure = Failure::default();
    match (parse(src, is_template), case.get("parsed"), case.text("error")) {
        (Ok((got, trees)), Some(want), None) => {
            if got.to_json() != want.to_json() {
                failure.differences.push(Difference::field("parsed", want, &got));
            } else if let Some(spans) = case.get("spans") {
                spans_cover(src, origin, &trees, spans, &mut failure)?;
            }
        }
        (Err(d), None, Some(want)) => {
            let (line, col) = position(&d.source, d.start, origin);
            if !d.message.contains(want) {
                let fix = Fix::Field("error".into(), Value::from(d.message.as_str()));
                failure.differences.push(Difference {
                    what: "error".into(),
                    expected: want.into(),
                    actual: d.message.clone(),
                    fix: Some(fix),
                });
            }
            let at = format!("{line}:{col}");
            if let Some(want) = case.text("at") {
                if line_col(want)? != (line, col) {
                    failure.differences.push(Difference {
                        what: "at".into(),
                        expected: want.into(),
                        actual: at.clone(),
                        fix: Some(Fix::Field("at".into(), Value::from(at.as_str()))),
                    });
                }
            }
        }
        (Ok((got, _)), None, Some(want)) => failure.differences.push(Difference {
            what: "error".into(),
            expected: want.into(),
            actual: format!("parsed to {}", got.to_json()),
            fix: None,
        }),
        (Err(d), Some(want), None) => failure.differences.push(Difference {
            what: "parsed".into(),
            expected: pretty(want),
            actual: format!("an error:\n{d}"),
            fix: None,
        }),
        _ => failure.problems.push("needs exactly one of parsed or error".into()),
    }
    failure.result()
}

/// Checks that each `spans` entry is a node of `trees` covering its range.
fn spans_cover(
    src: &str,
    origin: (usize, usize),
    trees: &[Expr],
    spans: &Value,
    failure: &mut Failure,
) -> Result<(), String> {
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
            failure
                .problems
                .push(format!("no node {want} at {range} (it is at {there:?})"));
            return Ok(());
        }
    }
    Ok(())
}
