//! Table-driven conformance: every YAML file under `tests/cases/<dialect>/`
//! (nested folders included) lists cases of `{expr | template, env,
//! result | error, at}`.
//!
//! - `result` is compared as JSON, so types count (`2` is not `2.0`) and so
//!   does map order.
//! - `error` must occur in the diagnostic's message; `at` is its `line:col`.
//! - `env` names an entry of the file's `envs:` (or is an inline mapping).
//! - Every case is also run with optimisation (constant folding, peephole
//!   rewrites) off, and must agree.
//! - A file's `host:` table answers the functions a renderer adds to the
//!   Windsor dialect (`jsonnet`, `file`, `yamlString`, `terraform_output`):
//!   the expressions that call them are the engine's to compile and run,
//!   the files and outputs behind them are the renderer's.
//! - A file's `logic:` chooses the rules of `&&`, `||`, `!`, `?:` and
//!   predicate bodies for all its cases: `windsor` (the default,
//!   DECISIONS W8) or `expr-lang` (expr-lang's own, as Windsor v0.9
//!   templates are compiled; see `bpvm::Logic`).
//! - A file whose cases sit under `parses:` instead of `cases:` holds
//!   parse-only cases (the syntax tree a substitution parses to, not what
//!   it renders); this runner skips it and `tests/reference_substitutions.rs`
//!   runs it.

use bpvm::runtime::builtins::effects::Effects;
use bpvm::runtime::builtins::{cidr, windsor};
use bpvm::runtime::root::Root;
use bpvm::runtime::{Builtin, Ctx, FnError, Library, Val};
use bpvm::{Compiler, Dialect, Environment, Logic, Value, Vm};
use std::path::Path;

/// Host functions answered from the case file's `host:` table.
static HOSTED: &[Builtin] = &[
    Builtin {
        name: "jsonnet",
        min: 1,
        max: 1,
        f: |c, a| hosted(c, "jsonnet", a),
        pure: false,
    },
    Builtin {
        name: "file",
        min: 1,
        max: 1,
        f: |c, a| hosted(c, "file", a),
        pure: false,
    },
    Builtin {
        name: "yamlString",
        min: 1,
        max: 2,
        f: |c, a| hosted(c, "yamlString", a),
        pure: false,
    },
    Builtin {
        name: "terraform_output",
        min: 2,
        max: 2,
        f: |c, a| hosted(c, "terraform_output", a),
        pure: false,
    },
];

static WINDSOR_HOSTED: Library = Library::new(&[windsor::FUNCTIONS, cidr::FUNCTIONS, HOSTED]);

/// `host.<function>.<arg 1>[.<arg 2>]`; a missing terraform output is nil,
/// any other missing entry is an error naming it.
fn hosted<'a>(c: &mut Ctx<'a>, name: &str, args: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let host = c.host.downcast_ref::<Value>().and_then(|h| h.as_map());
    let mut at = host.and_then(|h| h.get(name));
    let keys = if name == "terraform_output" {
        &args[..2]
    } else {
        &args[..1]
    };
    for k in keys {
        let Val::Str(k) = k else {
            return Err(FnError::new(format!("{name}() needs string arguments")));
        };
        at = at.and_then(Value::as_map).and_then(|m| m.get(k));
    }
    match at {
        Some(v) => Ok(c.import(v)),
        None if name == "terraform_output" => Ok(Val::Nil),
        None => Err(FnError::new(format!(
            "{name}() has no host entry for {}",
            args[0].to_value().to_json()
        ))),
    }
}

struct Outcome {
    passed: usize,
    failures: Vec<String>,
}

/// A file's `effects:` for Bluelink's effect functions: `seed`, `now`,
/// `cwd`, `root` (relative to the case file), `links`.
fn effects_of(v: Option<&Value>, file: &Path) -> Effects {
    let m = v.and_then(Value::as_map);
    let text = |k: &str| m.and_then(|m| m.get(k)).and_then(Value::as_str);
    Effects {
        seed: match m.and_then(|m| m.get("seed")) {
            Some(Value::Int(n)) => Some(*n as u64),
            _ => None,
        },
        now: text("now").map(|t| t.parse().expect("effects.now is RFC 3339")),
        cwd: text("cwd").map(Into::into),
        root: text("root").map(|r| Root::new(&file.parent().unwrap().join(r), "root").expect("effects.root exists")),
        links: m.and_then(|m| m.get("links")).cloned().unwrap_or(Value::Null),
        ..Effects::default()
    }
}

fn run_file(path: &Path, dialect: Dialect, out: &mut Outcome) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = Value::from_yaml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let root = doc.as_map().expect("a case file is a mapping");
    if root.get("cases").is_none() && root.get("parses").is_some() {
        return;
    }
    let envs = root.get("envs").and_then(Value::as_map);
    let host = root.get("host").cloned().unwrap_or(Value::Null);
    let logic = match root.get("logic").and_then(Value::as_str) {
        None | Some("windsor") => Logic::Windsor,
        Some("expr-lang") => Logic::ExprLang,
        Some(other) => panic!("{}: unknown logic {other:?}", path.display()),
    };
    let Some(Value::List(cases)) = root.get("cases") else {
        panic!("{}: no cases", path.display())
    };
    for (n, case) in cases.iter().enumerate() {
        let case = case.as_map().expect("a case is a mapping");
        let (src, template) = match (case.get("expr"), case.get("template")) {
            (Some(Value::Str(e)), None) => (e.to_string(), false),
            (None, Some(Value::Str(t))) => (t.to_string(), true),
            _ => panic!("{}: case {n} needs expr or template", path.display()),
        };
        let env = match case.get("env") {
            None => Environment::new(),
            Some(Value::Str(name)) => {
                let v = envs
                    .and_then(|e| e.get(name))
                    .unwrap_or_else(|| panic!("{}: no env {name}", path.display()));
                Environment::from_value(v.clone()).unwrap()
            }
            Some(v) => Environment::from_value(v.clone()).unwrap(),
        };
        let label = format!("{}#{} `{}`", path.file_name().unwrap().to_string_lossy(), n + 1, src);
        let mut results = Vec::new();
        for optimize in [true, false] {
            let mut compiler = Compiler::new(dialect).optimize(optimize).logic(logic);
            if dialect == Dialect::Windsor && host != Value::Null {
                compiler = compiler.library(&WINDSOR_HOSTED);
            }
            let prog = if template {
                compiler.compile_template(&src)
            } else {
                compiler.compile(&src)
            };
            let effects = effects_of(root.get("effects"), path);
            let host: &dyn std::any::Any = if dialect == Dialect::Bluelink { &effects } else { &host };
            let r = prog.and_then(|p| match Vm::new().run_with(&p, &env, host) {
                Ok(v) => Ok(v.to_value()),
                Err(e) => Err(p.diagnose(&e)),
            });
            results.push(r);
        }
        let agree = match (&results[0], &results[1]) {
            (Ok(a), Ok(b)) => a.to_json() == b.to_json(),
            (Err(a), Err(b)) => a.message == b.message,
            _ => false,
        };
        if !agree {
            out.failures.push(format!(
                "{label}: optimisation changed the outcome: {:?} vs {:?}",
                results[0], results[1]
            ));
            continue;
        }
        let failure = match (&results[0], case.get("result"), case.get("error")) {
            (Ok(got), Some(want), None) if got.to_json() == want.to_json() => None,
            (Ok(got), Some(want), None) => Some(format!("got {}, want {}", got.to_json(), want.to_json())),
            (Err(d), Some(want), None) => Some(format!("failed, want {}:\n{d}", want.to_json())),
            (Ok(got), None, Some(_)) => Some(format!("got {}, want an error", got.to_json())),
            (Err(d), None, Some(Value::Str(want))) => {
                let (line, col) = d.line_col();
                let at = format!("{line}:{col}");
                match case.get("at") {
                    _ if !d.message.contains(&**want) => {
                        Some(format!("error {:?} does not contain {want:?}", d.message))
                    }
                    Some(Value::Str(w)) if **w != at => Some(format!("error at {at}, want {w}: {}", d.message)),
                    _ => None,
                }
            }
            _ => Some("case needs exactly one of result or error".into()),
        };
        match failure {
            Some(f) => out.failures.push(format!("{label}: {f}")),
            None => out.passed += 1,
        }
    }
}

/// The YAML files under `dir`, nested folders included, in path order.
fn yaml_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn run_dialect(dir: &str, dialect: Dialect, minimum: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases").join(dir);
    let mut files = Vec::new();
    yaml_files(&root, &mut files);
    files.sort();
    let mut out = Outcome {
        passed: 0,
        failures: Vec::new(),
    };
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "yaml")) {
        run_file(f, dialect, &mut out);
    }
    let total = out.passed + out.failures.len();
    assert!(
        out.failures.is_empty(),
        "{} of {total} {dir} cases failed:\n{}",
        out.failures.len(),
        out.failures.join("\n")
    );
    assert!(
        total >= minimum,
        "only {total} {dir} cases; the suite promises at least {minimum}"
    );
    println!("{dir}: {total} cases passed");
}

#[test]
fn windsor_cases() {
    run_dialect("windsor", Dialect::Windsor, 300);
}

#[test]
fn bluelink_cases() {
    run_dialect("bluelink", Dialect::Bluelink, 150);
}
