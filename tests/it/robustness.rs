//! No input makes the compiler or the VM panic, and neither optimisation
//! (constant folding, fused tests and the other peephole rewrites) nor
//! binding paths to slots changes a result or an error. Inputs come from a seeded generator, so a failure
//! reproduces exactly. Each test runs on a small stack (256 KiB), where
//! unbounded recursion would overflow.

use bpvm::{Compiler, Dialect, Environment, Logic, PathTable, Program, Value, Vm};

/// Runs a test's body on a thread with a 256 KiB stack, so that any
/// recursion not held to a small bound shows up here as a crash.
fn on_small_stack(body: fn()) {
    let thread = std::thread::Builder::new().stack_size(256 * 1024).spawn(body).unwrap();
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
}

/// xorshift64*: small, seeded, good enough to spray inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const PIECES: &[&str] = &[
    "a",
    "b.c",
    "x",
    "1",
    "-2",
    "2.5",
    "'s'",
    "\"t\"",
    "nil",
    "none",
    "true",
    "false",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ";",
    ".",
    "?.",
    "?",
    "??",
    "+",
    "-",
    "*",
    "/",
    "%",
    "**",
    "==",
    "!=",
    "<",
    ">=",
    "&&",
    "||",
    "!",
    "not",
    "in",
    "matches",
    "contains",
    "let",
    "=",
    "#",
    "#acc",
    "#index",
    "len(",
    "map(",
    "filter(",
    "reduce(",
    "split(",
    "variables",
    "values",
    "elem",
    "i",
    "resources",
    "children",
    "datasources",
    "trim(",
    "object(",
    "${",
    "$${",
    "'",
    "\"",
    "\\",
    "é",
    "\u{0}",
    " ",
    "\n",
    "9999999999999999999999",
    "0x",
    "1e",
];

fn soup(rng: &mut Rng) -> String {
    let n = rng.below(12) + 1;
    (0..n)
        .map(|_| rng.pick(PIECES))
        .collect::<Vec<_>>()
        .join(if rng.below(2) == 0 { "" } else { " " })
}

fn bytes(rng: &mut Rng) -> String {
    let n = rng.below(24);
    let raw: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
    String::from_utf8_lossy(&raw).into_owned()
}

#[test]
fn random_input_never_panics() {
    on_small_stack(random_input_never_panics_body);
}

fn random_input_never_panics_body() {
    let env = Environment::from_yaml("a: 1\nb: {c: [1, 2]}\nx: [1, 'two', null]\nvariables: {v: 1}").unwrap();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut vm = Vm::new();
    for round in 0..40_000 {
        let src = if round % 3 == 0 {
            bytes(&mut rng)
        } else {
            soup(&mut rng)
        };
        for dialect in [Dialect::Windsor, Dialect::Bluelink] {
            let c = Compiler::new(dialect);
            for prog in [c.compile(&src), c.compile_template(&src)].into_iter().flatten() {
                if let Err(e) = vm.run(&prog, &env) {
                    let d = prog.diagnose(&e);
                    assert!(!d.message.is_empty());
                    let _ = d.to_string();
                }
            }
            if let Err(d) = c.compile(&src) {
                let _ = d.to_string();
            }
        }
    }
}

/// Random well-formed expressions over literals, operators and a few names.
fn expression(rng: &mut Rng, depth: u32) -> String {
    if depth == 0 || rng.below(4) == 0 {
        return rng
            .pick(&[
                "1", "2", "-3", "2.5", "0", "'a'", "'b'", "true", "false", "nil", "n", "s", "t", "missing", "m.k",
                "m.n.x", "s.x",
            ])
            .to_string();
    }
    let a = expression(rng, depth - 1);
    let b = expression(rng, depth - 1);
    match rng.below(14) {
        0 => format!("!({a})"),
        1 => format!("-({a})"),
        2 => format!("({a}) ? ({b}) : ({})", expression(rng, depth - 1)),
        3 => format!("[{a}, {b}][0]"),
        4 | 5 => unrun_failure(rng, a),
        6 => {
            let c = expression(rng, depth - 1);
            expr_lang_form(rng, a, b, c)
        }
        7 => builtin_call(rng, a, b),
        8 => value_form(rng, a, b),
        _ => {
            let op = rng.pick(&[
                "+", "-", "*", "/", "%", "**", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "??", "contains",
            ]);
            format!("({a}) {op} ({b})")
        }
    }
}

/// `a`, `b` and `c` in one of expr-lang's forms that the parser rewrites
/// into others: if/else, `?:`, chained comparisons, pipes, sequences,
/// `let`.
fn expr_lang_form(rng: &mut Rng, a: String, b: String, c: String) -> String {
    match rng.below(7) {
        0 => format!("if ({a}) {{ {b} }} else {{ {c} }}"),
        1 => format!("({a}) ?: ({b})"),
        2 => {
            let (x, y) = (rng.pick(&["<", "<=", ">", ">="]), rng.pick(&["<", "<=", ">", ">="]));
            format!("({a}) {x} ({b}) {y} ({c})")
        }
        3 => format!(
            "[{a}, {b}] | {}",
            rng.pick(&["len()", "filter(# != nil) | len()", "first()", "map(#)"])
        ),
        4 => format!("({a}) | string()"),
        5 => format!("({a}; {b})"),
        _ => format!("(let v = {a}; v ?? ({b}))"),
    }
}

/// `a` and `b` among the values expr-lang adds to the document's: the
/// whole environment (`$env`), bytes, times and durations and their
/// methods, indexes and slices of any value, JSON text.
fn value_form(rng: &mut Rng, a: String, b: String) -> String {
    match rng.below(10) {
        0 => format!("$env[{a}]"),
        1 => rng
            .pick(&["$env.n", "keys($env)", "len($env)", "'m' in $env", "$env?.m.k"])
            .to_string(),
        2 => format!("{} == ({a})", rng.pick(&["b'ab'", "b'\\x00'", "[97, 98]"])),
        3 => format!("date('2024-01-02') {} ({a})", rng.pick(&["+", "-", "<", "=="])),
        4 => format!("duration('1h30m') {} ({a})", rng.pick(&["*", "+", "-", ">"])),
        5 => format!("({a}).{}()", rng.pick(&["Year", "Hours", "String", "Unix"])),
        6 => format!("({a})[{b}]"),
        7 => format!("({a})[{}]", rng.pick(&["1:", ":1", "0:2", "1.0", "-1"])),
        8 => format!("fromJSON(toJSON({a}))"),
        _ => format!("splitAfter({a}, {b})"),
    }
}

/// A builtin over `a` and `b` whose argument rules differ by type: the
/// nil-tolerant string predicates, bit functions, median and sum's forms,
/// findIndex, one-argument trims, Unicode case mapping.
fn builtin_call(rng: &mut Rng, a: String, b: String) -> String {
    match rng.below(9) {
        0 => format!(
            "({a}) {} ({b})",
            rng.pick(&["startsWith", "endsWith", "contains", "matches"])
        ),
        1 => format!(
            "{}({a}, {b})",
            rng.pick(&["bitand", "bitor", "bitxor", "bitshl", "bitshr", "bitushr"])
        ),
        2 => format!("bitnot({a})"),
        3 => format!("{}([{a}, {b}])", rng.pick(&["median", "mean", "sum", "max", "min"])),
        4 => format!("sum([{a}, {b}], # * 2)"),
        5 => format!(
            "{}([{a}, {b}], # == 1)",
            rng.pick(&["findIndex", "findLastIndex", "find", "any", "all"])
        ),
        6 => format!(
            "{}({a})",
            rng.pick(&["trimPrefix", "trimSuffix", "trim", "upper", "lower"])
        ),
        7 => format!(
            "{}({a}, {b})",
            rng.pick(&["trimPrefix", "trimSuffix", "indexOf", "repeat"])
        ),
        _ => format!(
            "{}({a})",
            rng.pick(&["len", "string", "int", "float", "abs", "toJSON", "type"])
        ),
    }
}

/// Operands that fail when run (a bad value to a builtin, a division by
/// zero) or when compiled (a wrong argument type): both before and after
/// optimisation, an error only where the operand runs, or everywhere.
const FAILING: &[&str] = &[
    "int('x')",
    "repeat('', -1)",
    "1 % 0",
    "2 % (1 - 1)",
    "upper(1)",
    "int('x') > 0",
    "float('y') == 1.0",
];

/// `a` in one of the forms that may leave an operand unrun — `?:`, `??`,
/// `&&`, `||` and an index into a list — with a failing operand where,
/// with a literal `a`, it is never run.
fn unrun_failure(rng: &mut Rng, a: String) -> String {
    let f = rng.pick(FAILING);
    let decider = rng.pick(&["true", "false", "nil", "t", "missing", "n", "(1 == 1)", &a]);
    match rng.below(6) {
        0 => format!("({decider}) ? ({a}) : ({f})"),
        1 => format!("({decider}) ? ({f}) : ({a})"),
        2 => format!("({decider}) ?? ({f})"),
        3 => format!("({decider}) && ({f})"),
        4 => format!("({decider}) || ({f})"),
        _ => format!("[{a}, {f}][0]"),
    }
}

#[test]
fn optimisation_and_binding_never_change_a_result() {
    on_small_stack(optimisation_and_binding_never_change_a_result_body);
}

fn optimisation_and_binding_never_change_a_result_body() {
    let env = Environment::from_yaml("n: 4\ns: x\nt: true\nm: {k: a, n: 2}").unwrap();
    // One table for every program, as a project has; the bound copy of
    // the environment keeps its slots from program to program (rebound
    // only when a program numbers a new path).
    let table = PathTable::new();
    let mut bound = env.clone();
    let mut rng = Rng(0xf01d_f01d_0000_0001);
    let (mut checked, mut spared) = (0, 0);
    for _ in 0..20_000 {
        let src = expression(&mut rng, 4);
        for logic in [Logic::Windsor, Logic::ExprLang] {
            let folded = Compiler::new(Dialect::Windsor).logic(logic);
            let a = same_with_and_without_optimisation(&src, folded, &env, &table, &mut bound);
            if a.is_ok() && FAILING.iter().any(|f| src.contains(f)) {
                spared += 1;
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 20_000);
    assert!(spared > 1000, "only {spared} results with a failing operand left unrun");
}

/// The outcome of `src` compiled by `folded`, after checking that it is
/// the same without optimisation and with paths bound to slots.
fn same_with_and_without_optimisation(
    src: &str,
    folded: Compiler,
    env: &Environment,
    table: &PathTable,
    bound: &mut Environment,
) -> Result<String, String> {
    // An error must name the same operation and operand types; the
    // source it quotes as the operand's origin may differ, since a
    // folded `false ? 2 : s` hands on `s` itself.
    let without_origin = |m: String| match m.find(" (from '").or_else(|| m.find(" (in '")) {
        Some(at) => m[..at].to_string(),
        None => m,
    };
    let run = |prog: &Result<Program, String>, env: &Environment| {
        let prog = prog.as_ref().map_err(Clone::clone)?;
        bpvm::eval(&mut Vm::new(), prog, env)
            .map(|v| v.to_json())
            .map_err(|d| without_origin(d.message))
    };
    let compile = |c: Compiler| c.compile(src).map_err(|d| d.message);
    let (opt, unopt) = (compile(folded), compile(folded.optimize(false)));
    let mut numbered = opt.clone();
    if let Ok(prog) = &mut numbered {
        prog.bind(table);
        if table.len() > bound.bound_paths() {
            bound.bind(table);
        }
    }
    let a = run(&opt, env);
    assert_eq!(a, run(&unopt, env), "optimisation changed `{src}`");
    // Twice: the first run fills the slots, the second reads them.
    assert_eq!(a, run(&numbered, bound), "binding changed `{src}`");
    assert_eq!(a, run(&numbered, bound), "a bound slot changed `{src}`");
    // A numbered program against an environment that is not bound.
    assert_eq!(a, run(&numbered, env), "an unbound environment changed `{src}`");
    a
}

/// A random YAML value of the shapes facets are made of.
fn facet_value(rng: &mut Rng, depth: u32) -> String {
    let scalars = [
        "x",
        "''",
        "1",
        "-2",
        "2.5",
        "true",
        "null",
        "'${a}'",
        "'${b.c ?? 1}'",
        "'${1 +}'",
        "'${x.y[0]}'",
        "'pre-${a}-post'",
        "merge",
        "remove",
        "replace",
        "bogus",
        "'${terraform_output(\"c\", \"k\")}'",
        "'${file(\"../../../../x\")}'",
        "'${yaml(\"a: 1\")}'",
        "'${cidrhost(a, 1)}'",
    ];
    if depth == 0 || rng.below(3) == 0 {
        return rng.pick(&scalars).to_string();
    }
    let keys = [
        "name",
        "path",
        "when",
        "strategy",
        "ordinal",
        "inputs",
        "dependsOn",
        "components",
        "cleanup",
        "substitutions",
        "patches",
        "destroy",
        "parallelism",
        "a",
        "b",
        "config",
        "terraform",
        "kustomize",
    ];
    if rng.below(2) == 0 {
        let n = rng.below(4);
        let items: Vec<String> = (0..n).map(|_| facet_value(rng, depth - 1)).collect();
        format!("[{}]", items.join(", "))
    } else {
        let n = rng.below(5);
        let mut entries = Vec::new();
        for _ in 0..n {
            let k = rng.pick(&keys);
            if !entries.iter().any(|(ek, _): &(String, String)| ek == k) {
                entries.push((k.to_string(), facet_value(rng, depth - 1)));
            }
        }
        let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!("{{{}}}", body.join(", "))
    }
}

#[test]
fn random_facets_never_panic() {
    on_small_stack(random_facets_never_panic_body);
}

fn random_facets_never_panic_body() {
    use bpvm::windsor::{Project, render, scope};
    let dir = std::env::temp_dir().join(format!("bpvm-fuzz-{}", std::process::id()));
    let facets = dir.join("contexts/_template/facets");
    std::fs::create_dir_all(&facets).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    // A schema, so that `bpvm check` has types, enums and defaults to
    // reason with on every random facet.
    std::fs::write(
        dir.join("contexts/_template/schema.yaml"),
        "type: object\nadditionalProperties: false\nproperties:\n  a: {type: integer, enum: [1, 2]}\n  \
         b: {type: object, additionalProperties: false, properties: {c: {type: integer}}}\n  \
         x: {type: object, properties: {y: {type: array, items: {type: integer}}}}\n  \
         p: {type: string, enum: [aws, azure], default: aws}\n  t: {type: boolean}\n",
    )
    .unwrap();
    let mut rng = Rng(0xface_7000_0000_0001);
    let mut rendered = 0;
    for round in 0..1500 {
        let mut text = String::from("kind: Facet\nmetadata: {name: f}\n");
        for key in ["when", "config", "terraform", "kustomize"] {
            if rng.below(2) == 0 {
                text.push_str(&format!("{key}: {}\n", facet_value(&mut rng, 3)));
            }
        }
        if round % 5 == 0 {
            text = facet_value(&mut rng, 4);
        }
        std::fs::write(facets.join("f.yaml"), &text).unwrap();
        for f in bpvm::windsor::check::check(&dir) {
            assert!(!f.message.is_empty(), "{f:?}");
        }
        let Ok(project) = Project::load(&dir) else { continue };
        let values = Value::from_yaml("{a: 1, b: {c: 2}, x: {y: [1]}}").unwrap();
        let ctx = scope::context(&project, "t", scope::Values::Given(values), true).unwrap();
        let _ = render::render(&project, "t", ctx, &render::Options::default());
        rendered += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(rendered > 100, "only {rendered} of 1500 random projects loaded");
}

/// `fromjson`'s one-pass pointer scanner accepts exactly the documents
/// serde_json accepts and finds the same value, over mutations of a
/// document that has every kind of JSON value.
#[test]
fn json_pointer_scanner_agrees_with_serde_json() {
    on_small_stack(json_pointer_scanner_agrees_with_serde_json_body);
}

fn json_pointer_scanner_agrees_with_serde_json_body() {
    use bpvm_runtime::builtins::pointer::find;
    const DOC: &str = r#"{"a": {"b": [1, -2.5e3, "x\"y", true, null, {"c/d": "\u00e9"}]}, "m~n": false, "e": []}"#;
    const POINTERS: &[&str] = &[
        "",
        "/a",
        "/a/b/0",
        "/a/b/2",
        "/a/b/5/c~1d",
        "/m~0n",
        "/e",
        "/a/b/9",
        "/x",
    ];
    const ALPHABET: &[u8] = br#"{}[],:"\ 0123456789.-+eEtrufalsn/~abcdxyu"#;
    let mut rng = Rng(0x0f0f_1234_5678_9abc);
    for _ in 0..20_000 {
        let mut doc = DOC.as_bytes().to_vec();
        for _ in 0..rng.below(3) + 1 {
            let at = rng.below(doc.len() + 1);
            let c = ALPHABET[rng.below(ALPHABET.len())];
            match rng.below(3) {
                0 if at < doc.len() => {
                    doc.remove(at);
                }
                1 if at < doc.len() => doc[at] = c,
                _ => doc.insert(at, c),
            }
        }
        let doc = String::from_utf8(doc).unwrap();
        let serde: Result<serde_json::Value, _> = serde_json::from_str(&doc);
        for pointer in POINTERS {
            let ours = find(&doc, pointer);
            match &serde {
                Err(_) => assert!(ours.is_err(), "{doc:?} is not JSON, {pointer:?} gave {ours:?}"),
                Ok(v) => {
                    let ours = ours.unwrap_or_else(|e| panic!("{doc:?} is JSON: {e:?}"));
                    let ours: Option<serde_json::Value> = ours.map(|t| serde_json::from_str(t).unwrap());
                    assert_eq!(ours.as_ref(), v.pointer(pointer), "{doc:?} at {pointer:?}");
                }
            }
        }
    }
}

/// Blueprints mutated at random (characters and lines deleted, repeated or
/// replaced by blueprint syntax) load and render, or fail with errors;
/// none panics.
#[test]
fn random_blueprints_never_panic() {
    on_small_stack(random_blueprints_never_panic_body);
}

fn random_blueprints_never_panic_body() {
    use bpvm::bluelink::{load, render};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bluelink/tests/blueprints/seed002");
    let mut seeds: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        for file in std::fs::read_dir(entry.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_file() && !name.starts_with("expected") {
                seeds.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    const BITS: &[&str] = &[
        "${",
        "}",
        "${variables.x}",
        "${resources.r[1].spec.a}",
        "${elem}",
        "${i}",
        "each: ${list(1)}\n",
        "condition: {not: {and: [true]}}\n",
        ":",
        "- ",
        "\n",
        "  ",
        "[",
        "]",
        "{",
        "\"",
        "'",
        "&a ",
        "*a",
        "!t ",
        "${children.c.e}",
        "${values.v}",
        "${datasources.d.f}",
        "none",
        "${coalesce(none)}",
        "$${",
    ];
    let mut rng = Rng(0xb1_0e_5e_ed);
    let opts = render::Options {
        datasources: Value::from_yaml("{network: {vpc: v, subnets: [s]}, aws/vpc: [{vpcId: v, tags: {a: b}}]}").ok(),
        ..render::Options::default()
    };
    let scratch = tempfile::tempdir().unwrap();
    let checked = scratch.path().join("fuzz.yaml");
    let (mut loaded, mut rendered) = (0, 0);
    for _ in 0..3000 {
        let mut text = seeds[rng.below(seeds.len())].clone();
        for _ in 0..rng.below(4) + 1 {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match rng.below(3) {
                0 => {
                    let mut end = (at + rng.below(8)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    text.replace_range(at..end, "");
                }
                _ => text.insert_str(at, rng.pick(BITS)),
            }
        }
        if rng.below(4) == 0 {
            std::fs::write(&checked, &text).unwrap();
            for f in bpvm::bluelink::check::check(&checked, "fuzz.yaml") {
                assert!(!f.message.is_empty(), "{f:?}");
            }
        }
        if let Ok(bp) = load::parse(&text, "fuzz.yaml", std::path::Path::new("/nonexistent/fuzz.yaml")) {
            loaded += 1;
            if render::render(&bp, &opts).is_ok() {
                rendered += 1;
            }
        }
    }
    assert!(
        loaded > 100 && rendered > 20,
        "{loaded} loaded, {rendered} rendered: the mutations should leave many blueprints usable"
    );
}

#[test]
fn random_expressions_check_without_panicking() {
    on_small_stack(random_expressions_check_without_panicking_body);
}

/// The checker runs builtins and operators on samples of every type an
/// operand can have: over random expressions and scopes of every kind it
/// never panics, and every issue it reports has a message and a span
/// inside the expression.
fn random_expressions_check_without_panicking_body() {
    use bpvm::checker::{Checker, Fields, Keys, Ty};
    let value = Value::from_yaml("n: 4\ns: x\nt: true\nm: {k: a, n: 2}\nl: [1, 2]\nf: 2.5").unwrap();
    let mut scope = Ty::of(&value, Keys::Exact);
    if let Ty::Map(fields) = &mut scope {
        fields
            .known
            .insert("e".into(), Ty::Enum(vec!["aws".into(), "azure".into()]));
        fields.known.insert("u".into(), Ty::Int.or(Ty::Str).or(Ty::Nil));
        fields.known.insert("o".into(), Ty::map(Fields::default()));
    }
    let mut rng = Rng(0xc4ec_c4ec_0000_0001);
    let mut checkers = [
        Checker::new(Compiler::new(Dialect::Windsor)),
        Checker::new(Compiler::new(Dialect::Bluelink)),
    ];
    let mut issues = 0;
    for round in 0..6_000 {
        let src = match round % 3 {
            0 => soup(&mut rng),
            _ => expression(&mut rng, 4)
                .replace('m', rng.pick(&["m", "e", "u", "o", "l"]))
                .replace('n', rng.pick(&["len(n)", "n", "first(l)", "upper(s)"])),
        };
        for checker in &mut checkers {
            for found in [
                checker.expression(&src, &scope),
                checker.template(&format!("${{{src}}}"), &scope),
            ]
            .into_iter()
            .flatten()
            {
                for issue in found.issues {
                    assert!(!issue.message.is_empty(), "{src}: {issue:?}");
                    assert!(issue.span.0 <= issue.span.1, "{src}: {issue:?}");
                    issues += 1;
                }
            }
        }
    }
    assert!(issues > 100, "only {issues} issues: the scopes should give many");
}
