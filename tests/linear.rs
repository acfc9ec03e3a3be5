//! Bounded work: compiling, loading and rendering grow linearly with the
//! input. Each case is built at size n and 4n and timed at both; linear
//! growth takes about 4 times as long at 4n, quadratic growth about 16, and
//! a case fails at 8. Each case also checks its result, so a fast wrong
//! answer does not pass.
//!
//! A binary of its own: it installs the allocator the `bpvm` command uses
//! for the whole process, and its cases are timed one at a time with no
//! other test running beside them.

use bpvm::bluelink::{Blueprint, load, render as bl_render};
use bpvm::windsor::{Project, render, scope};
use bpvm::{Compiler, Dialect, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

// The allocator the `bpvm` command uses (cli/src/alloc.rs): the system
// one's consolidation of freed memory makes timings of large inputs erratic.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One case runs at a time: cases running side by side would slow each
/// other unevenly.
static TIMING: Mutex<()> = Mutex::new(());

/// Times `run` on `make(n)` and `make(4 * n)` (least of three runs each,
/// alternating sizes so a busy machine slows both alike), checks each
/// result with `check`, and fails when 4n took 8 times as long as n.
fn assert_linear<I, O>(
    what: &str,
    n: usize,
    make: impl Fn(usize) -> I,
    run: impl Fn(&I) -> O,
    check: impl Fn(usize, O),
) {
    let _one_at_a_time = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let inputs = [make(n), make(4 * n)];
    let mut best = [Duration::MAX; 2];
    for _ in 0..3 {
        for (i, size) in [n, 4 * n].into_iter().enumerate() {
            let start = Instant::now();
            let out = run(&inputs[i]);
            best[i] = best[i].min(start.elapsed());
            check(size, out);
        }
    }
    let [t_n, t_4n] = best;
    eprintln!("{what}: n = {n} took {t_n:?}, 4n = {} took {t_4n:?}", 4 * n);
    assert!(
        t_4n < t_n * 8,
        "{what}: n = {n} took {t_n:?}, 4n = {} took {t_4n:?} ({:.1} times as long; linear is about 4)",
        4 * n,
        t_4n.as_secs_f64() / t_n.as_secs_f64()
    );
}

/// A folder removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("bpvm-linear-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A Windsor project whose context `local` has `values` and whose
/// template has the facets `facets` (file name, text).
fn windsor_project(name: &str, values: &str, facets: &[(&str, String)]) -> Scratch {
    let s = Scratch::new(name);
    s.write("windsor.yaml", "version: v1alpha1\n");
    s.write("contexts/local/values.yaml", values);
    for (file, text) in facets {
        s.write(&format!("contexts/_template/facets/{file}"), text);
    }
    s
}

fn load_project(s: &Scratch) -> Project {
    Project::load(&s.0).unwrap_or_else(|e| panic!("{e}"))
}

/// A loaded project, with the folder its files are read from.
struct Loaded {
    _folder: Scratch,
    project: Project,
}

fn loaded(folder: Scratch) -> Loaded {
    let project = load_project(&folder);
    Loaded {
        _folder: folder,
        project,
    }
}

/// Renders context `local`.
fn render_local(l: &Loaded) -> Value {
    render_in(&l.project)
}

/// Renders context `local` of a project whose folder is still there.
fn render_in(project: &Project) -> Value {
    let ctx = scope::context(project, "local", scope::Values::Files, true).unwrap();
    match render::render(project, "local", ctx, &render::Options::default()) {
        Ok(out) => out.blueprint,
        Err(e) => panic!("{e}"),
    }
}

fn field<'v>(v: &'v Value, path: &[&str]) -> &'v Value {
    path.iter().fold(v, |v, k| {
        v.as_map()
            .and_then(|m| m.get(k))
            .unwrap_or_else(|| panic!("no {k} in {}", v.to_json()))
    })
}

fn list(v: &Value) -> &[Value] {
    match v {
        Value::List(items) => items,
        other => panic!("not a list: {}", other.to_json()),
    }
}

/// The terraform component at `i` of a rendered blueprint.
fn terraform(bp: &Value, i: usize) -> &Value {
    &list(field(bp, &["terraform"]))[i]
}

#[test]
fn a_blueprint_of_many_resources_loads_in_linear_time() {
    let text = |n: usize| {
        let mut s = String::from("version: 2023-04-20\nresources:\n");
        for i in 0..n {
            writeln!(s, "  r{i}: {{type: aws/s3/bucket, spec: {{n: {i}}}}}").unwrap();
        }
        s
    };
    let parse = |t: &String| load::parse(t, "bp.yaml", Path::new("/bp.yaml")).unwrap_or_else(|e| panic!("{e}"));
    // Both sizes stay under the YAML scanner's 1 MiB (4n is about 800 KB):
    // a larger text goes to the parser the scanner falls back to, which is
    // linear too but about twice as slow per line, so crossing the limit
    // between n and 4n measured two readers, not one growing.
    assert_linear("loading resources", 4_000, text, parse, |n, bp: Blueprint| {
        assert_eq!(bp.resources.len(), n);
        assert_eq!(bp.resources[n - 1].name, format!("r{}", n - 1));
    });
}

#[test]
fn a_blueprint_of_many_resources_renders_in_linear_time() {
    // Each resource reads the one before it.
    let blueprint = |n: usize| {
        let mut s = String::from("version: 2023-04-20\nvariables:\n  env: {type: string, default: dev}\nresources:\n");
        for i in 0..n {
            writeln!(s, "  r{i}:\n    type: aws/lambda/function\n    spec:").unwrap();
            writeln!(s, "      name: fn-${{variables.env}}-{i}").unwrap();
            if i > 0 {
                writeln!(s, "      previous: ${{resources.r{}.spec.name}}", i - 1).unwrap();
            }
        }
        load::parse(&s, "bp.yaml", Path::new("/bp.yaml")).unwrap_or_else(|e| panic!("{e}"))
    };
    let rendered =
        |bp: &Blueprint| bl_render::render(bp, &bl_render::Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_linear("rendering resources", 4_000, blueprint, rendered, |n, out| {
        let resources = field(&out.document, &["resources"]).as_map().unwrap();
        assert_eq!(resources.len(), n);
        let last = field(
            &out.document,
            &["resources", &format!("r{}", n - 1), "spec", "previous"],
        );
        assert_eq!(last.as_str(), Some(format!("fn-dev-{}", n - 2).as_str()));
    });
}

#[test]
fn a_template_value_of_many_parts_compiles_in_linear_time() {
    // Distinct text in every part, n / 4 distinct paths, a line each.
    let project = |n: usize| {
        let paths = n / 4;
        let value: String = (0..n).map(|i| format!("k{i}=${{v{}}}\\n ", i % paths)).collect();
        let values: String = (0..paths).map(|i| format!("v{i}: {i}\n")).collect();
        let facet =
            format!("kind: Facet\nmetadata: {{name: base}}\nterraform: [{{path: p, inputs: {{v: \"{value}\"}}}}]\n");
        windsor_project(&format!("parts-{n}"), &values, &[("base.yaml", facet)])
    };
    assert_linear("compiling a template", 10_000, project, load_project, |n, p| {
        let v = render_in(&p);
        let text = field(terraform(&v, 0), &["inputs", "v"]).as_str().unwrap().to_string();
        assert_eq!(text.matches('=').count(), n);
        assert!(
            text.ends_with(&format!("k{}={}\n ", n - 1, (n - 1) % (n / 4))),
            "{}",
            &text[text.len() - 40..]
        );
    });
}

/// Expressions of many terms, accessors and template parts.
#[test]
fn compile_time_grows_linearly() {
    let _one_at_a_time = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    // The best of five rounds, small and large taken in turn, so that a
    // burst of another process's work does not count.
    fn timed(compile: impl Fn()) -> Duration {
        let start = Instant::now();
        compile();
        start.elapsed()
    }
    let linear = |what: &str, small: &dyn Fn(), large: &dyn Fn()| {
        let (mut s, mut l) = (Duration::MAX, Duration::MAX);
        for _ in 0..5 {
            s = s.min(timed(small));
            l = l.min(timed(large));
        }
        let ratio = l.as_secs_f64() / s.as_secs_f64();
        assert!(ratio < 8.0, "{what}: {s:?} for N, {l:?} for 4N");
    };
    let n = 20_000;
    let expr = |src: String| move || drop(Compiler::new(Dialect::Windsor).compile(&src).unwrap());
    for term in ["n", "a.b.c == 'x'", "m[i].k"] {
        for op in [" + ", " && ", " ?? "] {
            let chain = |n: usize| vec![term; n].join(op);
            let (small, large) = (expr(chain(n)), expr(chain(4 * n)));
            linear(&format!("`{term}{op}…`"), &small, &large);
        }
    }
    let members = |n: usize| expr(format!("a{}", ".b[0]".repeat(n)));
    linear("`a.b[0].b[0]…`", &members(n), &members(4 * n));
    let template = |n: usize| {
        let src = "${n} ".repeat(n);
        move || drop(Compiler::new(Dialect::Windsor).compile_template(&src).unwrap())
    };
    linear("a template of `${n} `", &template(n), &template(4 * n));
}

#[test]
fn chained_config_blocks_render_in_linear_time() {
    // Block i reads block i - 1.
    let project = |n: usize| {
        let mut f = String::from("kind: Facet\nmetadata: {name: base}\nconfig:\n  - {name: b0, v: 0}\n");
        for i in 1..n {
            writeln!(f, "  - {{name: b{i}, v: \"${{b{}.v + 1}}\"}}", i - 1).unwrap();
        }
        writeln!(f, "terraform: [{{path: p, inputs: {{last: \"${{b{}.v}}\"}}}}]", n - 1).unwrap();
        loaded(windsor_project(&format!("chain-{n}"), "a: 1\n", &[("base.yaml", f)]))
    };
    assert_linear("chained config blocks", 4_000, project, render_local, |n, v| {
        assert_eq!(field(terraform(&v, 0), &["inputs", "last"]), &Value::Int(n as i64 - 1));
    });
}

#[test]
fn same_name_config_blocks_merge_in_linear_time() {
    // Two facets each give block `c` every key; the second's win.
    let project = |n: usize| {
        let keys = |from: &str| -> String { (0..n).map(|i| format!("k{i}: {from}{i}, ")).collect() };
        let first = format!(
            "kind: Facet\nmetadata: {{name: first}}\nconfig: [{{name: c, {}}}]\nterraform: [{{path: p, inputs: {{last: \"${{c.k{}}}\"}}}}]\n",
            keys("a"),
            n - 1
        );
        let second = format!(
            "kind: Facet\nmetadata: {{name: second}}\nconfig: [{{name: c, {}}}]\n",
            keys("b")
        );
        loaded(windsor_project(
            &format!("blocks-{n}"),
            "a: 1\n",
            &[("first.yaml", first), ("second.yaml", second)],
        ))
    };
    assert_linear("merging config blocks", 10_000, project, render_local, |n, v| {
        let last = field(terraform(&v, 0), &["inputs", "last"]);
        assert_eq!(last.as_str(), Some(format!("b{}", n - 1).as_str()));
    });
}

#[test]
fn a_facet_of_many_components_renders_in_linear_time() {
    // Terraform components and kustomizations, each depending on the one before.
    let project = |n: usize| {
        let mut f = String::from("kind: Facet\nmetadata: {name: base}\nterraform:\n");
        for i in 0..n {
            let after = if i > 0 {
                format!(", dependsOn: [c{}]", i - 1)
            } else {
                String::new()
            };
            writeln!(f, "  - {{path: c{i}{after}, inputs: {{x: \"${{a}}-{i}\"}}}}").unwrap();
        }
        f.push_str("kustomize:\n");
        for i in 0..n {
            let after = if i > 0 {
                format!(", dependsOn: [k-{}]", i - 1)
            } else {
                String::new()
            };
            writeln!(f, "  - {{name: k-{i}{after}}}").unwrap();
        }
        loaded(windsor_project(
            &format!("components-{n}"),
            "a: x\n",
            &[("base.yaml", f)],
        ))
    };
    assert_linear("many components", 1_000, project, render_local, |n, v| {
        assert_eq!(list(field(&v, &["terraform"])).len(), n);
        assert_eq!(list(field(&v, &["kustomize"])).len(), n);
        let last = terraform(&v, n - 1);
        assert_eq!(
            field(last, &["inputs", "x"]).as_str(),
            Some(format!("x-{}", n - 1).as_str())
        );
        let k = &list(field(&v, &["kustomize"]))[n - 1];
        assert_eq!(field(k, &["name"]).as_str(), Some(format!("k-{}", n - 1).as_str()));
    });
}

#[test]
fn many_contributions_to_one_component_merge_in_linear_time() {
    // Each contribution gives terraform component `p` a dependency and an
    // input, and kustomization `q` a component (in reverse order, so they
    // must be sorted) and a patch.
    let project = |n: usize| {
        let mut f = String::from("kind: Facet\nmetadata: {name: base}\nterraform:\n");
        for i in 0..n {
            writeln!(f, "  - {{path: p, dependsOn: [d{i}], inputs: {{k{i}: \"${{a}}\"}}}}").unwrap();
            writeln!(f, "  - {{path: d{i}}}").unwrap();
        }
        f.push_str("kustomize:\n");
        for i in 0..n {
            writeln!(
                f,
                "  - {{name: q, components: [c{}], patches: [{{path: p{i}.yaml}}]}}",
                n - i
            )
            .unwrap();
        }
        loaded(windsor_project(
            &format!("contributions-{n}"),
            "a: x\n",
            &[("base.yaml", f)],
        ))
    };
    assert_linear("many contributions", 2_000, project, render_local, |n, v| {
        let p = list(field(&v, &["terraform"]))
            .iter()
            .find(|c| field(c, &["path"]).as_str() == Some("p"))
            .unwrap();
        assert_eq!(list(field(p, &["dependsOn"])).len(), n);
        assert_eq!(field(p, &["inputs"]).as_map().unwrap().len(), n);
        let q = &list(field(&v, &["kustomize"]))[0];
        let components = list(field(q, &["components"]));
        assert_eq!(components.len(), n);
        assert!(
            components.windows(2).all(|w| w[0].as_str() < w[1].as_str()),
            "components sorted"
        );
        assert_eq!(list(field(q, &["patches"])).len(), n);
    });
}

#[test]
fn a_substitution_of_many_references_loads_in_linear_time() {
    // One string reading n / 4 variables and n / 4 resources' fields.
    let text = |n: usize| {
        let k = n / 4;
        let mut t = String::from("version: 2023-04-20\nvariables:\n");
        for i in 0..k {
            writeln!(t, "  v{i}: {{type: string, default: x{i}}}").unwrap();
        }
        t.push_str("resources:\n");
        for i in 0..k {
            writeln!(t, "  r{i}:\n    type: aws/s3/bucket\n    spec: {{name: n{i}}}").unwrap();
        }
        t.push_str("  all:\n    type: aws/s3/bucket\n    spec:\n      v: \"");
        for i in 0..n {
            write!(t, "${{variables.v{}}}-${{resources.r{}.spec.name}},", i % k, i % k).unwrap();
        }
        t.push_str("\"\n");
        t
    };
    let parse = |t: &String| load::parse(t, "bp.yaml", Path::new("/bp.yaml")).unwrap_or_else(|e| panic!("{e}"));
    assert_linear("many references", 2_000, text, parse, |n, bp: Blueprint| {
        let all = bp.resources.iter().find(|r| r.name == "all").unwrap();
        // n / 4 variables and n / 4 resources, each once.
        assert_eq!(all.defs.len(), n / 2);
    });
}

#[test]
fn a_resource_read_at_many_keys_loads_and_renders_in_linear_time() {
    let text = |n: usize| {
        let mut t = String::from("version: 2023-04-20\nresources:\n  source:\n    type: aws/s3/bucket\n    spec:\n");
        for i in 0..n {
            writeln!(t, "      f{i}: v{i}").unwrap();
        }
        t.push_str("  reader:\n    type: aws/s3/bucket\n    spec:\n");
        for i in 0..n {
            writeln!(t, "      g{i}: ${{resources.source.spec.f{i}}}").unwrap();
        }
        t
    };
    let parse = |t: &String| load::parse(t, "bp.yaml", Path::new("/bp.yaml")).unwrap_or_else(|e| panic!("{e}"));
    assert_linear("loading reads of many keys", 2_000, text, parse, |n, bp: Blueprint| {
        assert_eq!(bp.resources[0].reads.get("spec").unwrap().keys.len(), n);
    });
    let rendered =
        |bp: &Blueprint| bl_render::render(bp, &bl_render::Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_linear(
        "rendering reads of many keys",
        10_000,
        |n| parse(&text(n)),
        rendered,
        |n, out| {
            let spec = field(&out.document, &["resources", "reader", "spec"]);
            assert_eq!(spec.as_map().unwrap().len(), n);
            assert_eq!(
                field(spec, &[&format!("g{}", n - 1)]).as_str(),
                Some(format!("v{}", n - 1).as_str())
            );
        },
    );
}

#[test]
fn a_v09_facet_of_many_components_and_flux_systems_renders_in_linear_time() {
    // By the v0.9 rules: terraform components and flux systems, each
    // depending on the one before, and a global-dependency system every
    // other system then waits for.
    let project = |n: usize| {
        let mut f = String::from("kind: Facet\nmetadata: {name: base}\nterraform:\n");
        for i in 0..n {
            let after = if i > 0 {
                format!(", dependsOn: [c{:06}]", i - 1)
            } else {
                String::new()
            };
            writeln!(f, "  - {{name: c{i:06}, path: p{i}{after}}}").unwrap();
        }
        f.push_str("flux:\n  - {name: zz-policy, globalDependency: true, install: {components: [kyverno]}, resources: [{components: [rules]}]}\n");
        for i in 0..n {
            let after = if i > 0 {
                format!(", dependsOn: [s{:06}]", i - 1)
            } else {
                String::new()
            };
            writeln!(f, "  - {{name: s{i:06}, install: {{components: [a, b]}}{after}}}").unwrap();
        }
        let s = windsor_project(&format!("v09-{n}"), "a: 1\n", &[("base.yaml", f)]);
        loaded(s)
    };
    assert_linear(
        "a v0.9 facet of many components",
        2_000,
        project,
        render_local,
        |n, v| {
            let last = format!("c{:06}", n - 1);
            assert_eq!(field(terraform(&v, n - 1), &["name"]).as_str(), Some(last.as_str()));
            let flux = match field(&v, &["flux"]) {
                Value::List(l) => l,
                other => panic!("{}", other.to_json()),
            };
            assert_eq!(flux.len(), n + 1);
            let deps = field(&flux[n - 1], &["dependsOn"]).to_json();
            assert_eq!(deps, format!(r#"["s{:06}-install","zz-policy-resources"]"#, n - 2));
        },
    );
}

#[test]
fn the_graph_of_a_long_dependency_chain_is_built_in_linear_time() {
    // Terraform components and flux systems, each depending on the one
    // before; one dependency of each is named by nothing (drawn missing).
    let blueprint = |n: usize| {
        let mut f = String::from("terraform:\n");
        for i in 0..n {
            let after = if i > 0 { format!(", c{}", i - 1) } else { String::new() };
            writeln!(f, "  - {{name: c{i}, path: p{i}, dependsOn: [gone{after}]}}").unwrap();
        }
        f.push_str("flux:\n");
        for i in 0..n {
            let after = if i > 0 {
                format!("[s{}-install]", i - 1)
            } else {
                "[]".into()
            };
            writeln!(f, "  - {{name: s{i}, dependsOn: {after}}}").unwrap();
        }
        Value::from_yaml(&f).unwrap()
    };
    let draw = |bp: &Value| {
        let g = bpvm::graph::windsor(bp, &[]);
        (g.to_mermaid().len(), g)
    };
    assert_linear("a graph of a long chain", 5_000, blueprint, draw, |n, (text, g)| {
        assert_eq!(g.nodes.len(), 2 * n + 1);
        assert_eq!(g.edges.len(), n + (n - 1) + (n - 1));
        assert!(text > 0);
    });
}
