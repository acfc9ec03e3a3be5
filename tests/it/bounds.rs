//! Bounded work: no input crashes bpvm through unbounded recursion. Long
//! chains (of operators, of accessors) are flat and work at a million
//! terms; real nesting (parentheses, prefix operators, documents, function
//! values, accumulators, includes) stops at a limit with an error that
//! names it. Every case here overflowed the stack before.

use bpvm::{Compiler, Dialect, Environment, Logic, Value, Vm};
use std::path::Path;

const MILLION: usize = 1_000_000;

/// The result of `src` as JSON, or the error's message.
fn run(dialect: Dialect, src: &str, env: &str) -> Result<String, String> {
    let prog = Compiler::new(dialect).compile(src).map_err(|d| d.message)?;
    let env = Environment::from_yaml(env).unwrap();
    bpvm::eval(&mut Vm::new(), &prog, &env)
        .map(|v| v.to_json())
        .map_err(|d| d.message)
}

fn windsor(src: &str, env: &str) -> Result<String, String> {
    run(Dialect::Windsor, src, env)
}

/// Like [`windsor`], with expr-lang's rules for boolean positions.
fn expr_lang(src: &str, env: &str) -> Result<String, String> {
    let compiler = Compiler::new(Dialect::Windsor).logic(Logic::ExprLang);
    let prog = compiler.compile(src).map_err(|d| d.message)?;
    let env = Environment::from_yaml(env).unwrap();
    bpvm::eval(&mut Vm::new(), &prog, &env)
        .map(|v| v.to_json())
        .map_err(|d| d.message)
}

/// `n` copies of `term` joined by `op`.
fn chain(term: &str, op: &str, n: usize) -> String {
    vec![term; n].join(op)
}

/// `open` `n` times, `inner`, `close` `n` times.
fn nest(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// Runs `f` on a thread with a `kib` KiB stack.
fn on_stack<T: Send + 'static>(kib: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(kib * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

// ── flat chains ──────────────────────────────────────────────────────

#[test]
fn a_million_term_sum() {
    // Literals fold to one constant; names are added up by the VM.
    assert_eq!(windsor(&chain("1", "+", MILLION), "{}"), Ok("1000000".into()));
    assert_eq!(windsor(&chain("n", " + ", MILLION), "n: 1"), Ok("1000000".into()));
    assert_eq!(
        windsor(&format!("{} - 1", chain("n", " + ", MILLION)), "n: 2"),
        Ok("1999999".into())
    );
}

#[test]
fn a_million_term_when_condition() {
    // A `when:` condition as Windsor facets write them, all true and
    // then false at the very end.
    let env = "{provider: aws, cluster: {nodes: 3}}";
    let all = chain("provider == 'aws' && cluster.nodes >= 3", " && ", MILLION / 2);
    assert_eq!(windsor(&all, env), Ok("true".into()));
    let last_false = format!("{all} && cluster.nodes > 3");
    assert_eq!(windsor(&last_false, env), Ok("false".into()));
}

#[test]
fn a_million_term_or_chain() {
    let none = chain("n == 2", " || ", MILLION);
    assert_eq!(windsor(&none, "n: 1"), Ok("false".into()));
    assert_eq!(windsor(&format!("{none} || n == 1"), "n: 1"), Ok("true".into()));
}

#[test]
fn a_million_step_member_chain() {
    let src = format!("a{}", ".b".repeat(MILLION));
    // Windsor reads a member of nil as nil.
    assert_eq!(windsor(&src, "a: {b: null}"), Ok("null".into()));
    let index = format!("xs{}", "[0]".repeat(MILLION));
    assert_eq!(windsor(&index, "xs: [null]"), Ok("null".into()));
}

#[test]
fn a_million_step_bluelink_reference() {
    let src = format!("${{values.cfg{}}}", ".b".repeat(MILLION));
    let prog = Compiler::new(Dialect::Bluelink).compile_template(&src).unwrap();
    let env = Environment::from_yaml("values: {cfg: {b: {b: 1}}}").unwrap();
    let d = bpvm::eval(&mut Vm::new(), &prog, &env).unwrap_err();
    // The path is quoted by its two ends.
    let quoted = format!("values.cfg{}…{}", ".b".repeat(20), ".b".repeat(25));
    assert_eq!(d.message, format!("cannot read 'b' of an integer (in '{quoted}')"));
    // The caret line is a window of the two-megabyte line.
    assert!(d.to_string().len() < 600, "{} bytes", d.to_string().len());
}

#[test]
fn a_million_part_template() {
    let src = "${n}-".repeat(MILLION);
    let prog = Compiler::new(Dialect::Windsor).compile_template(&src).unwrap();
    let env = Environment::from_yaml("n: 1").unwrap();
    let text = bpvm::eval(&mut Vm::new(), &prog, &env).unwrap();
    assert_eq!(text, Value::Str("1-".repeat(MILLION).into()));
}

// ── real nesting ─────────────────────────────────────────────────────

#[test]
fn deep_parentheses_are_an_error_naming_the_limit() {
    let src = nest("(", "1", ")", 100_000);
    let d = Compiler::new(Dialect::Windsor).compile(&src).unwrap_err();
    // The error shows a window of the line, the caret on the first
    // parenthesis past the limit.
    let window = format!("…{}…", "(".repeat(100));
    let caret = format!("{}^", " ".repeat(51));
    assert_eq!(
        d.to_string(),
        format!("1:101: expression nested too deeply (more than 100 levels)\n  |\n1 | {window}\n  | {caret}\n")
    );
}

#[test]
fn deep_prefix_operators_are_an_error_naming_the_limit() {
    for op in ["!", "-", "not "] {
        let src = format!("{}x", op.repeat(100_000));
        let d = Compiler::new(Dialect::Windsor).compile(&src).unwrap_err();
        let col = 100 * op.len() + 1;
        assert_eq!(
            (d.line_col(), d.message.as_str()),
            ((1, col), "expression nested too deeply (more than 100 levels)"),
            "{op}"
        );
    }
}

#[test]
fn deep_bluelink_substitutions_are_an_error_naming_the_limit() {
    for (open, close) in [("[", "]"), ("trim(", ")")] {
        let src = format!("${{{}}}", nest(open, "'x'", close, 100_000));
        let d = Compiler::new(Dialect::Bluelink).compile_template(&src).unwrap_err();
        let col = 2 + 100 * open.len() + 1;
        assert_eq!(
            (d.line_col(), d.message.as_str()),
            ((1, col), "substitution nested too deeply (more than 100 levels)"),
            "{open}"
        );
    }
}

/// The deepest expression of each shape compiles and runs on a 256 KiB
/// stack, even in a debug build; one level more is the nesting error.
#[test]
fn the_deepest_expressions_allowed_run_on_a_small_stack() {
    let env = "{xs: [0], t: true, n: 1}";
    let windsor = Dialect::Windsor;
    let bluelink = Dialect::Bluelink;
    type Shape = (&'static str, Dialect, fn(usize) -> String, fn(usize) -> String);
    let shapes: [Shape; 13] = [
        ("parentheses", windsor, |n| nest("(", "1", ")", n - 1), |_| "1".into()),
        (
            "not",
            windsor,
            |n| nest("!", "t", "", n - 1),
            |n| (n % 2 == 1).to_string(),
        ),
        (
            "minus",
            windsor,
            |n| nest("- ", "n", "", n - 1),
            |n| if n % 2 == 1 { "1" } else { "-1" }.into(),
        ),
        ("power", windsor, |n| chain("n", " ** ", n), |_| "1.0".into()),
        (
            "conditional",
            windsor,
            |n| format!("{}0", "t ? 1 : ".repeat(n - 1)),
            |_| "1".into(),
        ),
        (
            "list",
            windsor,
            |n| nest("[", "1", "]", n - 1),
            |n| nest("[", "1", "]", n - 1),
        ),
        (
            "map",
            windsor,
            |n| nest("{a: ", "1", "}", n - 1),
            |n| nest("{\"a\":", "1", "}", n - 1),
        ),
        ("call", windsor, |n| nest("abs(", "n", ")", n - 1), |_| "1".into()),
        ("index", windsor, |n| nest("xs[", "0", "]", n - 1), |_| "0".into()),
        (
            "predicate",
            windsor,
            |n| nest("map(xs, ", "#", ")", n - 1),
            |n| nest("[", "0", "]", n - 1),
        ),
        (
            "let",
            windsor,
            // Each `let` names a new variable (a name cannot be declared twice).
            |n| (1..n).map(|i| format!("let a{i} = 1; ")).collect::<String>() + "a1",
            |_| "1".into(),
        ),
        (
            "bluelink list",
            bluelink,
            |n| nest("[", "1", "]", n - 1),
            |n| nest("[", "1", "]", n - 1),
        ),
        (
            "bluelink compose",
            bluelink,
            |n| format!("map(['a'], {})", nest("compose(", "to_upper", ")", n - 2)),
            |_| "[\"A\"]".into(),
        ),
    ];
    let deepest = bpvm::runtime::limits::EXPRESSION_DEPTH as usize;
    for (name, dialect, src, result) in shapes {
        let ok = on_stack(256, move || run(dialect, &src(deepest), env));
        assert_eq!(ok, Ok(result(deepest)), "{name}");
        let what = if dialect == windsor {
            "expression"
        } else {
            "substitution"
        };
        let too_deep = run(dialect, &src(deepest + 1), env);
        assert_eq!(
            too_deep,
            Err(format!("{what} nested too deeply (more than 100 levels)")),
            "{name}"
        );
    }
}

/// expr-lang's rules check, rewrite and compile the same shapes within
/// the same bounds: flat chains of a million operands, and the deepest
/// nesting allowed on a 256 KiB stack.
#[test]
fn expr_lang_logic_is_bounded_too() {
    let env = "{provider: aws, cluster: {nodes: 3}, t: true, xs: [1]}";
    let all = chain("provider == 'aws' && cluster.nodes >= 3", " && ", MILLION / 2);
    assert_eq!(expr_lang(&all, env), Ok("true".into()));
    let last = format!("{} && missing", chain("t", " && ", MILLION));
    assert_eq!(expr_lang(&last, env), Ok("null".into()));
    // The optimiser's rewrite drops every `&& true`.
    let rewritten = format!("missing{}", " && true".repeat(MILLION));
    assert_eq!(expr_lang(&rewritten, env), Ok("null".into()));
    let deepest = bpvm::runtime::limits::EXPRESSION_DEPTH as usize;
    type Shape = (&'static str, fn(usize) -> String, fn(usize) -> String);
    let shapes: [Shape; 6] = [
        ("not", |n| nest("!", "t", "", n - 1), |n| (n % 2 == 1).to_string()),
        (
            "if in if",
            |n| nest("if t { ", "1", " } else { 0 }", n - 1),
            |_| "1".into(),
        ),
        (
            "else if",
            |n| format!("{}{{ 1 }}", "if t { 0 } else ".repeat(n - 1)),
            |_| "0".into(),
        ),
        (
            "conditional",
            |n| format!("{}0", "t ? 1 : ".repeat(n - 1)),
            |_| "1".into(),
        ),
        ("predicate", |n| nest("any(xs, ", "t", ")", n - 1), |_| "true".into()),
        (
            "let",
            |n| (1..n).map(|i| format!("let a{i} = t; ")).collect::<String>() + "a1",
            |_| "true".into(),
        ),
    ];
    for (name, src, result) in shapes {
        let ok = on_stack(256, move || expr_lang(&src(deepest), env));
        assert_eq!(ok, Ok(result(deepest)), "{name}");
        let too_deep = expr_lang(&src(deepest + 1), env);
        assert_eq!(
            too_deep,
            Err("expression nested too deeply (more than 100 levels)".into()),
            "{name}"
        );
    }
    // `&&` and `||` nested in parentheses, as deep as they parse.
    let nested = |n: usize| format!("{}t{}", "t && (t || (".repeat(n), "))".repeat(n));
    let n = (1..deepest).rev().find(|&n| windsor(&nested(n), env).is_ok()).unwrap();
    assert_eq!(on_stack(256, move || expr_lang(&nested(n), env)), Ok("true".into()));
}

// ── evaluation ───────────────────────────────────────────────────────

#[test]
fn function_values_calling_each_other_are_bounded() {
    // A reduce that composes a function per item: calling the result
    // would recurse once per item.
    let fs = chain("to_upper", ", ", 100_000);
    let src = format!("map(['a'], reduce([{fs}], compose, to_upper))");
    assert_eq!(
        run(Dialect::Bluelink, &src, "{}"),
        Err("calls of function values nested too deeply (more than 100 levels)".into())
    );
}

#[test]
fn accumulators_cannot_nest_past_the_limit() {
    let xs = chain("1", ", ", 100_000);
    let limit = "builds a value nested too deeply (more than 64 levels)";
    assert_eq!(
        windsor(&format!("reduce([{xs}], [#acc], [])"), "{}"),
        Err(format!("'reduce' {limit}"))
    );
    assert_eq!(
        run(Dialect::Bluelink, &format!("reduce([{xs}], list, [])"), "{}"),
        Err(format!("reduce() {limit}"))
    );
    let wraps = chain("list", ", ", 1000);
    assert_eq!(
        run(Dialect::Bluelink, &format!("map([1], compose({wraps}))"), "{}"),
        Err(format!("compose() {limit}"))
    );
    // Parts shared between levels are looked at once, not once a path.
    assert_eq!(
        windsor(&format!("reduce([{xs}], [#acc, #acc], [])"), "{}"),
        Err(format!("'reduce' {limit}"))
    );
    // Only depth counts: an accumulator may grow wide.
    assert_eq!(
        windsor(&format!("reduce([{xs}], #acc + #, 0)"), "{}"),
        Ok("100000".into())
    );
}

// ── documents ────────────────────────────────────────────────────────

#[test]
fn deep_yaml_and_json_are_an_error_naming_the_limit_and_where() {
    // Reading YAML takes much stack per level in a debug build; the
    // deepest document allowed needs more than a test thread's 2 MiB.
    let text = nest("[", "1", "]", 100_000);
    let (yaml, json) = on_stack(8192, move || (Value::from_yaml(&text), Value::from_json(&text)));
    let expected = "1:65: document nested too deeply (more than 64 levels)";
    assert_eq!(yaml.unwrap_err(), expected);
    assert_eq!(json.unwrap_err(), expected);
    // The YAML scanner reads ahead of the values read, and stops flow
    // collections at the 65th level of their own.
    let maps = format!("top:\n  {}", nest("{a: ", "1", "}", 100_000));
    let yaml = on_stack(8192, move || Value::from_yaml(&maps));
    assert_eq!(
        yaml.unwrap_err(),
        format!("2:{}: document nested too deeply (more than 64 levels)", 3 + 64 * 4)
    );
}

#[test]
fn a_deep_blueprint_is_an_error_naming_the_limit() {
    let text = format!(
        "version: 2023-04-20\nresources:\n  r:\n    type: t/r\n    spec: {}\n",
        nest("[", "1", "]", 100_000)
    );
    let errors = bpvm::bluelink::load::parse(&text, "bp.yaml", Path::new("/bp.yaml")).unwrap_err();
    // (Each error's first line: the file's line under it is a window
    // of brackets.)
    let lines: Vec<String> = errors
        .0
        .iter()
        .map(|e| e.to_string().lines().next().unwrap().into())
        .collect();
    // The reader stops flow collections at 255 levels, before they reach
    // the blueprint reader's own count.
    assert_eq!(
        lines,
        ["bp.yaml:5:266: error: the document is nested too deeply (more than 64 levels)"]
    );
    let block: String = (0..70).map(|i| format!("{}- \n", " ".repeat(i + 4))).collect();
    let text = format!("version: 2023-04-20\nresources:\n  r:\n    type: t/r\n    spec:\n{block}");
    let errors = bpvm::bluelink::load::parse(&text, "bp.yaml", Path::new("/bp.yaml")).unwrap_err();
    assert_eq!(
        errors.0[0].to_string().lines().next(),
        Some("bp.yaml:67:66: error: the document is nested too deeply (more than 64 levels)")
    );
}

#[test]
fn reference_chains_are_bounded() {
    // Each value reads the next: resolving the first waits on them all
    // (a thousand levels took 8 MiB of stack).
    let mut text = String::from("version: 2023-04-20\nvalues:\n");
    let n = 1000;
    for i in 0..n - 1 {
        text.push_str(&format!(
            "  v{i}: {{type: integer, value: \"${{values.v{}}}\"}}\n",
            i + 1
        ));
    }
    text.push_str(&format!("  v{}: {{type: integer, value: 1}}\n", n - 1));
    text.push_str("resources:\n  r: {type: t/r, spec: {a: \"${values.v0}\"}}\n");
    let bp = bpvm::bluelink::load::parse(&text, "bp.yaml", Path::new("/bp.yaml")).unwrap();
    let errors = bpvm::bluelink::render::render(&bp, &Default::default()).unwrap_err();
    assert_eq!(
        errors.0[0].to_string(),
        "bp.yaml:103:3: error: values.v100: references nested too deeply (more than 100 levels)\n    |\n\
         103 |   v100: {type: integer, value: \"${values.v101}\"}\n    |   ^\n"
    );
}

#[test]
fn includes_are_bounded() {
    use bpvm::bluelink::{load, render};
    let dir = std::env::temp_dir().join(format!("bpvm-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = 100;
    for i in 0..n {
        let body = if i + 1 < n {
            format!("version: 2023-04-20\ninclude:\n  c: {{path: b{}.yaml}}\n", i + 1)
        } else {
            "version: 2023-04-20\n".to_string()
        };
        std::fs::write(dir.join(format!("b{i}.yaml")), body).unwrap();
    }
    let root = dir.canonicalize().unwrap();
    let bp = load::load(&root.join("b0.yaml"), "b0.yaml").unwrap();
    let opts = render::Options {
        root: Some(root),
        ..render::Options::default()
    };
    let errors = render::render(&bp, &opts).unwrap_err();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        errors.0[0].to_string(),
        "b15.yaml:3:3: error: include.c: child blueprints nested too deeply (more than 16 levels)\n  |\n\
         3 |   c: {path: b16.yaml}\n  |   ^\n"
    );
}
