//! Rendering holds against blueprints written to break it: secrets stay
//! masked however they flow (D11), `each` and includes are bounded (D9,
//! D10), and a child renders the same included and alone.

use bpvm_bluelink::explain::explain;
use bpvm_bluelink::load;
use bpvm_bluelink::render::{Input, Options, Rendered, render};
use std::path::Path;

/// A scratch folder holding `files` (name → text).
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn render_at(dir: &Path, name: &str, opts: &Options) -> Result<Rendered, String> {
    let bp = load::load(&dir.join(name), name).map_err(|e| e.to_string())?;
    render(&bp, opts).map_err(|e| e.to_string())
}

fn json(dir: &Path, name: &str, opts: &Options) -> Result<String, String> {
    render_at(dir, name, opts).map(|r| r.document.to_json())
}

fn with_var(name: &str, text: &str) -> Options {
    Options {
        variables: vec![(name.into(), Input::Text(text.into()))],
        ..Options::default()
    }
}

#[test]
fn a_child_reads_its_files_from_its_own_folder_included_or_alone() {
    let dir = folder(&[
        (
            "blueprint.yaml",
            "version: 2023-04-20\ninclude:\n  c: {path: lib/child.yaml}\n\
             resources:\n  r: {type: t/r, spec: {x: '${children.c.x}'}}\n",
        ),
        (
            "lib/child.yaml",
            "version: 2023-04-20\nresources:\n  r: {type: t/r, spec: {x: '${utf8(file(\"data.txt\"))}'}}\n\
             exports:\n  x: {type: string, field: resources.r.spec.x}\n",
        ),
        ("data.txt", "the parent's"),
        ("lib/data.txt", "the child's"),
    ]);
    let included = json(dir.path(), "blueprint.yaml", &Options::default()).unwrap();
    assert!(
        included.contains(r#""r":{"type":"t/r","spec":{"x":"the child's"}}"#),
        "{included}"
    );
    let alone = json(&dir.path().join("lib"), "child.yaml", &Options::default()).unwrap();
    assert!(alone.contains(r#""spec":{"x":"the child's"}"#), "{alone}");
}

const SECRET_EACH: &str = "version: 2023-04-20\nvariables:\n  pw: {type: string, secret: true}\n\
    resources:\n  e:\n    type: t/e\n    each: '${split(variables.pw, \"\")}'\n    spec: {v: '${elem}', n: '${i}'}\n";

#[test]
fn the_items_of_a_secret_each_stay_masked() {
    let dir = folder(&[("blueprint.yaml", SECRET_EACH)]);
    let out = render_at(dir.path(), "blueprint.yaml", &with_var("pw", "hunter2")).unwrap();
    let text = out.document.to_json();
    for ch in ["\"v\":\"h\"", "\"v\":\"u\"", "\"v\":\"2\"", "hunter2"] {
        assert!(!text.contains(ch), "{ch} in {text}");
    }
    assert!(
        text.contains(r#""e[1]":{"type":"t/e","spec":{"v":"********","n":1}}"#),
        "{text}"
    );
    // Explaining an item shows no more than the render does.
    let bp = load::load(&dir.path().join("blueprint.yaml"), "blueprint.yaml").unwrap();
    let why = explain(&bp, &out, "resources.e[1].spec.v").unwrap();
    assert_eq!(why.value, Some(bpvm_runtime::Value::Str("********".into())));
    assert!(!format!("{why:?}").contains("\"u\""), "{why:?}");
    // --show-secrets shows them.
    let shown = Options {
        show_secrets: true,
        ..with_var("pw", "hunter2")
    };
    let text = json(dir.path(), "blueprint.yaml", &shown).unwrap();
    assert!(
        text.contains(r#""e[2]":{"type":"t/e","spec":{"v":"u","n":2}}"#),
        "{text}"
    );
}

#[test]
fn a_message_about_a_secret_each_masks_it() {
    let text = "version: 2023-04-20\nvariables:\n  pw: {type: string, secret: true}\n\
        resources:\n  e: {type: t/e, each: '${variables.pw}', spec: {}}\n";
    let dir = folder(&[("blueprint.yaml", text)]);
    let e = json(dir.path(), "blueprint.yaml", &with_var("pw", "hunter2")).unwrap_err();
    assert!(
        e.lines()
            .next()
            .unwrap()
            .ends_with("resources.e.each: each must yield an array, got ********"),
        "{e}"
    );
}

#[test]
fn a_secret_passed_to_a_child_comes_back_masked() {
    let dir = folder(&[
        (
            "blueprint.yaml",
            "version: 2023-04-20\nvariables:\n  pw: {type: string, secret: true}\n\
             include:\n  c: {path: child.yaml, variables: {token: '${variables.pw}'}}\n\
             resources:\n  r: {type: t/r, spec: {fromChild: '${children.c.echo}'}}\n",
        ),
        (
            "child.yaml",
            "version: 2023-04-20\nvariables:\n  token: {type: string}\n\
             resources:\n  s: {type: t/s, spec: {t: '${variables.token}'}}\n\
             exports:\n  echo: {type: string, field: variables.token}\n",
        ),
    ]);
    let text = json(dir.path(), "blueprint.yaml", &with_var("pw", "hunter2")).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    assert!(text.contains(r#""spec":{"fromChild":"********"}"#), "{text}");
    assert!(text.contains(r#""exports":{"echo":"********"}"#), "{text}");
}

#[test]
fn an_each_of_millions_of_items_fails_at_once_on_the_memory_budget() {
    // 22 doublings of "a,": an `each` of 4,194,304 items from 600 bytes.
    let mut s = String::from("\"a,\"");
    for _ in 0..22 {
        s = format!("replace({s}, \"a,\", \"a,a,\")");
    }
    let text = format!(
        "version: 2023-04-20\nresources:\n  e:\n    type: t/e\n    each: '${{split({s}, \",\")}}'\n    spec: {{v: '${{elem}}'}}\n"
    );
    let dir = folder(&[("blueprint.yaml", &text)]);
    let started = std::time::Instant::now();
    let e = json(dir.path(), "blueprint.yaml", &Options::default()).unwrap_err();
    assert!(
        e.starts_with(
            "blueprint.yaml:5:11: error: resources.e.each: each yields 4194305 items: the render would hold more than"
        ),
        "{e}"
    );
    assert!(e.contains("set BPVM_MEMORY_BUDGET_MIB to raise it"), "{e}");
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(60), "took {took:?}");
}

#[test]
fn includes_that_multiply_are_bounded_in_all() {
    // 16 files, each including the next three times: 3^15 children.
    let mut files = Vec::new();
    for k in 0..16 {
        let include = if k < 15 {
            let next = format!("f{}.yaml", k + 1);
            format!("include:\n  a: {{path: {next}}}\n  b: {{path: {next}}}\n  c: {{path: {next}}}\n")
        } else {
            String::new()
        };
        let text = format!("version: 2023-04-20\n{include}resources:\n  r: {{type: t/r, spec: {{}}}}\n");
        files.push((format!("f{k}.yaml"), text));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let dir = folder(&refs);
    let started = std::time::Instant::now();
    let e = json(dir.path(), "f0.yaml", &Options::default()).unwrap_err();
    assert!(
        e.contains(
            "f0.yaml:4:3: error: include.b: the render includes more than 1000 child blueprints in all (counting every level; set BPVM_MAX_CHILD_RENDERS to raise the limit)"
        ),
        "{e}"
    );
    // Each place is reported once, however often its file was included.
    let lines: Vec<&str> = e.lines().collect();
    let mut unique = lines.clone();
    unique.dedup();
    assert_eq!(lines.len(), unique.len(), "{e}");
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(30), "took {took:?}");
}

#[test]
fn a_file_included_many_times_renders_each_time() {
    // Ten includes of one child, each with its own variable: all rendered.
    let mut parent = String::from("version: 2023-04-20\ninclude:\n");
    for k in 0..10 {
        parent.push_str(&format!("  c{k}: {{path: child.yaml, variables: {{n: '{k}'}}}}\n"));
    }
    parent.push_str("resources:\n  r: {type: t/r, spec: {last: '${children.c9.n}'}}\n");
    let child = "version: 2023-04-20\nvariables:\n  n: {type: string}\n\
        resources:\n  s: {type: t/s, spec: {}}\nexports:\n  n: {type: string, field: variables.n}\n";
    let dir = folder(&[("blueprint.yaml", &parent), ("child.yaml", child)]);
    let text = json(dir.path(), "blueprint.yaml", &Options::default()).unwrap();
    assert!(text.contains(r#""spec":{"last":"9"}"#), "{text}");
}

#[test]
fn bytes_that_are_not_text_exported_as_a_string_are_named_binary_data() {
    let dir = folder(&[(
        "blueprint.yaml",
        "version: 2023-04-20\nresources:\n  r: {type: t/r, spec: {k: '${file(\"key.bin\")}'}}\n\
         exports:\n  k: {type: string, field: resources.r.spec.k}\n",
    )]);
    std::fs::write(dir.path().join("key.bin"), [0xff, 0xfe, 0x00]).unwrap();
    let e = json(dir.path(), "blueprint.yaml", &Options::default()).unwrap_err();
    assert!(
        e.ends_with(
            "blueprint.yaml:5:3: error: exports.k: the export is declared string but resources.r.spec.k is binary data that is not UTF-8 text\n  \
             |\n5 |   k: {type: string, field: resources.r.spec.k}\n  |   ^\n"
        ),
        "{e}"
    );
}
