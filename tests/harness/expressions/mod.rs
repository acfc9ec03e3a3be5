//! Expression cases: every YAML file under `tests/cases/<dialect>/`
//! (nested folders included) lists cases of `{expr | template, env,
//! result | error, at}`; each is the test `<dialect>::<file>::<case>`.
//!
//! - `result` is compared as JSON, so types count (`2` is not `2.0`) and so
//!   does map order.
//! - `error` must occur in the diagnostic's message; `at` is its `line:col`.
//! - `env` names an entry of the file's `envs:` (or is an inline mapping).
//! - Every case is also run with optimisation (constant folding, peephole
//!   rewrites) off, and must agree.
//! - A file's `host:` table answers the functions a renderer adds to the
//!   Windsor dialect ([`host`]).
//! - A file's `logic:` chooses the rules of `&&`, `||`, `!`, `?:` and
//!   predicate bodies for all its cases: `windsor` (the default,
//!   DECISIONS W8) or `expr-lang` (expr-lang's own, as Windsor v0.9
//!   templates are compiled; see `bpvm::Logic`).
//! - A file's `effects:` is what Bluelink's effect functions see
//!   ([`effects`]).
//! - A file's `now:` (an RFC 3339 instant) is what `now()` gives in its
//!   cases, so that they are the same every run.
//! - A Bluelink `expr` case that expects a result also checks clean
//!   ([`checked`]): what a render does, the checker does not refuse.
//! - A case translated from a reference's tests names its test and may
//!   state a deliberate difference ([`reference`]).
//! - A file whose cases sit under `parses:` instead of `cases:` holds
//!   parse-only cases (the syntax tree a substitution parses to, not what
//!   it renders): [`crate::parses`] runs it.
//!
//! Blessing writes `result`, `error` (the whole message) and `at`.

mod checked;
mod effects;
mod host;
mod reference;

use bpvm::{Compiler, Dialect, Environment, Logic, Value, Vm};
use bpvm_harness::{Case, Difference, Failure, Fix, Suite, pretty};
use std::path::Path;
use std::sync::Arc;

/// Each dialect's folder and how many cases it promises at least.
const DIALECTS: &[(&str, Dialect, usize)] = &[("windsor", Dialect::Windsor, 300), ("bluelink", Dialect::Bluelink, 150)];

pub fn add(suite: &mut Suite) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    for &(dir, dialect, minimum) in DIALECTS {
        let run = Arc::new(move |case: &Case| run(case, dialect));
        let (mut total, mut checked_clean) = (0, 0);
        for (prefix, path) in suite.files(dir, &root.join(dir), true) {
            let Some(file) = suite.file(&prefix, &path) else {
                continue;
            };
            if file.get("cases").is_none() && file.get("parses").is_some() {
                continue;
            }
            total += suite.cases(&prefix, &file, "cases", &run);
            if dialect == Dialect::Bluelink {
                checked_clean += checked::count(&file);
            }
        }
        if dialect == Dialect::Windsor {
            reference::contributing_counts(suite, &root.join(dir).join("reference"));
        }
        suite.check(&format!("{dir}::has_at_least_{minimum}_cases"), move || {
            (total >= minimum).then_some(()).ok_or(format!(
                "only {total} {dir} cases; the suite promises at least {minimum}"
            ))
        });
        if dialect == Dialect::Bluelink {
            suite.check("bluelink::more_than_500_cases_are_checked_clean", move || {
                (checked_clean > 500)
                    .then_some(())
                    .ok_or(format!("only {checked_clean} expression cases found"))
            });
        }
    }
}

/// The case's outcome with optimisation on and off: the result, or the
/// diagnostic of the error.
type Outcome = Result<Value, bpvm::Diagnostic>;

fn run(case: &Case, dialect: Dialect) -> Result<(), Failure> {
    let file = &case.file;
    let logic = match file.get("logic").and_then(Value::as_str) {
        None | Some("windsor") => Logic::Windsor,
        Some("expr-lang") => Logic::ExprLang,
        Some(other) => return Err(Failure::problem(format!("unknown logic {other:?}"))),
    };
    let (src, template) = match (case.get("expr"), case.get("template")) {
        (Some(Value::Str(e)), None) => (e.to_string(), false),
        (None, Some(Value::Str(t))) => (t.to_string(), true),
        _ => return Err(Failure::problem("a case needs expr or template")),
    };
    let env = match case.get("env") {
        None => Environment::new(),
        Some(Value::Str(name)) => {
            let envs = file.get("envs").and_then(Value::as_map);
            let v = envs.and_then(|e| e.get(name)).ok_or(format!("no env {name}"))?;
            Environment::from_value(v.clone())?
        }
        Some(v) => Environment::from_value(v.clone())?,
    };
    let host = file.get("host").cloned().unwrap_or(Value::Null);
    let now = match file.get("now") {
        None => None,
        Some(Value::Str(t)) => Some(bpvm::runtime::time::clock::rfc3339(t).map_err(Failure::problem)?),
        Some(_) => return Err(Failure::problem("now: must be an RFC 3339 instant")),
    };
    let mut outcomes: Vec<Outcome> = Vec::new();
    for optimize in [true, false] {
        let mut compiler = Compiler::new(dialect).optimize(optimize).logic(logic);
        if dialect == Dialect::Windsor && host != Value::Null {
            compiler = compiler.library(&host::WINDSOR_HOSTED);
        }
        let prog = if template {
            compiler.compile_template(&src)
        } else {
            compiler.compile(&src)
        };
        let effects = effects::effects_of(file.get("effects"), &file.path);
        let host: &dyn std::any::Any = if dialect == Dialect::Bluelink { &effects } else { &host };
        outcomes.push(prog.and_then(|p| {
            bpvm::runtime::time::clock::pinned(now, || match Vm::new().run_with(&p, &env, host) {
                Ok(v) => Ok(v.to_value()),
                Err(e) => Err(p.diagnose(&e)),
            })
        }));
    }
    let agree = match (&outcomes[0], &outcomes[1]) {
        (Ok(a), Ok(b)) => a.to_json() == b.to_json(),
        (Err(a), Err(b)) => a.message == b.message,
        _ => false,
    };
    if !agree {
        return Err(Failure::problem(format!(
            "optimisation changed the outcome: {:?} vs {:?}",
            outcomes[0], outcomes[1]
        )));
    }
    let mut failure = expected(case, &outcomes[0]);
    if dialect == Dialect::Bluelink {
        checked::check(case, &mut failure);
    }
    if reference::is_reference(case) {
        reference::check(case, &outcomes[0], &mut failure);
    }
    failure.result()
}

/// How `outcome` differs from the case's `result` or `error` and `at`.
fn expected(case: &Case, outcome: &Outcome) -> Failure {
    let mut failure = Failure::default();
    let mut differs =
        |what: &str, expected: String, actual: String, fix: Option<Fix>| failure.differs(what, expected, actual, fix);
    match (outcome, case.get("result"), case.get("error")) {
        (Ok(got), Some(want), None) if got.to_json() == want.to_json() => {}
        (Ok(got), Some(want), None) => failure.differences.push(Difference::field("result", want, got)),
        (Err(d), Some(want), None) => differs("result", pretty(want), format!("an error:\n{d}"), None),
        (Ok(got), None, Some(want)) => differs("error", text(want), format!("a result: {}", got.to_json()), None),
        (Err(d), None, Some(Value::Str(want))) => {
            if !d.message.contains(&**want) {
                let fix = Fix::Field("error".into(), Value::from(d.message.as_str()));
                differs("error", want.to_string(), d.message.clone(), Some(fix));
            }
            let (line, col) = d.line_col();
            let at = format!("{line}:{col}");
            if let Some(Value::Str(want)) = case.get("at") {
                if **want != at {
                    differs(
                        "at",
                        want.to_string(),
                        at.clone(),
                        Some(Fix::Field("at".into(), Value::from(at.as_str()))),
                    );
                }
            }
        }
        _ => failure
            .problems
            .push("a case needs exactly one of result or error".into()),
    }
    failure
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_json(), str::to_string)
}
