//! What a template copied from elsewhere can make bpvm do (D8): read only
//! regular files inside its root, never through a symlink that leads out,
//! never a FIFO, never a context folder outside `contexts/`. Each test
//! would fail on a renderer that checked paths by their text alone.

use crate::support::scratch::Scratch;
use bpvm::Value;
use bpvm::bluelink::{load, render as bl_render};
use bpvm::windsor::{Project, render, scope};
use std::path::{Path, PathBuf};

/// A Windsor project in `s/project` whose one facet has `inputs`.
fn windsor_project(s: &Scratch, inputs: &str) -> PathBuf {
    s.write("project/windsor.yaml", "version: v1alpha1\n");
    s.write("project/contexts/local/values.yaml", "provider: aws\n");
    s.write(
        "project/contexts/_template/facets/base.yaml",
        &format!("kind: Facet\nmetadata: {{name: base}}\nterraform: [{{path: p, inputs: {inputs}}}]\n"),
    );
    s.0.join("project")
}

/// Renders context `local` of the project, returning the terraform inputs
/// or the error text.
/// `errors`, each as another message holds it (without a severity).
fn described(errors: &bpvm::windsor::Errors) -> String {
    errors
        .0
        .iter()
        .map(bpvm::windsor::Error::described)
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_windsor(dir: &Path) -> Result<Value, String> {
    let project = Project::load(dir).map_err(|e| described(&e))?;
    let ctx = scope::context(&project, "local", scope::Values::Files, true).map_err(|e| e.described())?;
    let out = render::render(&project, "local", ctx, &render::Options::default()).map_err(|e| described(&e))?;
    let inputs = out.blueprint.as_map().unwrap().get("terraform").unwrap().clone();
    Ok(inputs)
}

fn error_of(dir: &Path) -> String {
    match render_windsor(dir) {
        Ok(v) => panic!("rendered, but an error was expected: {}", v.to_json()),
        Err(e) => e,
    }
}

#[test]
fn windsor_functions_do_not_follow_symlinks_out_of_the_project() {
    let s = Scratch::new("hardening-w-symlink");
    let dir = windsor_project(&s, "{x: '${file(\"../secret.txt\")}'}");
    s.write("outside.txt", "SECRET");
    s.link("project/contexts/_template/secret.txt", &s.0.join("outside.txt"));
    let e = error_of(&dir);
    let want = format!(
        "contexts/_template/facets/base.yaml:3:38: terraform[p].inputs.x: file() path \"../secret.txt\" is outside the project {} (files are read only inside it; symlinks are followed while they stay inside)",
        dir.display(),
    );
    assert!(e.contains(&want), "{e}");
    assert!(!e.contains("SECRET") && !e.contains("outside.txt"), "{e}");
    for (f, call) in [
        ("yaml", "yaml(\"../secret.txt\")"),
        ("yamlString", "yamlString(\"../secret.txt\", {\"a\": 1})"),
        ("jsonnet", "jsonnet(\"../secret.txt\")"),
    ] {
        let dir = windsor_project(&s, &format!("{{x: '${{{call}}}'}}"));
        let e = error_of(&dir);
        assert!(
            e.contains(&format!("{f}() path \"../secret.txt\" is outside the project")),
            "{f}: {e}"
        );
    }
}

#[test]
fn windsor_functions_refuse_proc_files_through_a_link() {
    let s = Scratch::new("hardening-w-proc");
    let dir = windsor_project(&s, "{x: '${file(\"../env\")}'}");
    s.link("project/contexts/_template/env", Path::new("/proc/self/environ"));
    let e = error_of(&dir);
    assert!(
        e.contains("file() path \"../env\" is outside the project") && !e.contains("/proc/"),
        "{e}"
    );
}

#[test]
fn windsor_functions_refuse_a_fifo_without_waiting_for_it() {
    let s = Scratch::new("hardening-w-fifo");
    let dir = windsor_project(&s, "{x: '${file(\"pipe\")}'}");
    s.fifo("project/contexts/_template/facets/pipe");
    s.link(
        "project/contexts/_template/facets/linked",
        &s.0.join("project/contexts/_template/facets/pipe"),
    );
    let e = error_of(&dir);
    assert!(
        e.contains(
            "base.yaml:3:38: terraform[p].inputs.x: file() path \"pipe\" is a FIFO; only regular files are read"
        ),
        "{e}"
    );
    let dir = windsor_project(&s, "{y: '${yaml(\"linked\")}'}");
    let e = error_of(&dir);
    assert!(
        e.contains(
            "base.yaml:3:38: terraform[p].inputs.y: yaml() path \"linked\" is a FIFO; only regular files are read"
        ),
        "{e}"
    );
}

#[test]
fn jsonnet_imports_stay_inside_the_project() {
    let s = Scratch::new("hardening-w-jsonnet");
    s.write("outside.libsonnet", "{ secret: 'SECRET' }");
    s.write("outside.txt", "SECRET");
    let dir = windsor_project(&s, "{x: '${jsonnet(\"../configs/main.jsonnet\")}'}");
    let configs = "project/contexts/_template/configs";
    let cases = [
        (
            "import '../../../../outside.libsonnet'",
            "../../../../outside.libsonnet",
        ),
        (
            &format!("import '{}'", s.0.join("outside.libsonnet").display()),
            &s.0.join("outside.libsonnet").display().to_string(),
        ),
        ("importstr '../../../../outside.txt'", "../../../../outside.txt"),
        ("importbin '../../../../outside.txt'", "../../../../outside.txt"),
        ("import 'linked.libsonnet'", "linked.libsonnet"),
    ];
    s.link(&format!("{configs}/linked.libsonnet"), &s.0.join("outside.libsonnet"));
    for (source, path) in cases {
        s.write(&format!("{configs}/main.jsonnet"), source);
        let e = error_of(&dir);
        assert!(
            e.contains(&format!(
                "import path {path:?} is outside the project {}",
                dir.display()
            )),
            "{source}: {e}"
        );
        assert!(!e.contains("SECRET"), "{e}");
    }
    // A FIFO is not read, wherever it is.
    s.fifo(&format!("{configs}/pipe.txt"));
    s.write(&format!("{configs}/main.jsonnet"), "importstr 'pipe.txt'");
    let e = error_of(&dir);
    assert!(
        e.contains("import path \"pipe.txt\" is a FIFO; only regular files are read"),
        "{e}"
    );
    // Inside the project, imports work as before.
    s.write(&format!("{configs}/lib.libsonnet"), "{ a: 1 }");
    s.write(
        &format!("{configs}/main.jsonnet"),
        "(import 'lib.libsonnet') + { b: importstr 'lib.libsonnet' }",
    );
    let got = render_windsor(&dir).unwrap();
    assert_eq!(got.to_json(), r#"[{"path":"p","inputs":{"x":{"a":1,"b":"{ a: 1 }"}}}]"#);
}

#[test]
fn a_context_name_is_one_folder_under_contexts() {
    let s = Scratch::new("hardening-w-context");
    let dir = windsor_project(&s, "{x: '${provider}'}");
    s.write("elsewhere/values.yaml", "provider: stolen\n");
    let project = Project::load(&dir).unwrap();
    for (name, why) in [
        ("../../elsewhere", "is not a folder name (no '/', '\\', '.' or '..')"),
        ("..", "is not a folder name (no '/', '\\', '.' or '..')"),
        ("local/../..", "is not a folder name (no '/', '\\', '.' or '..')"),
        ("", "is empty"),
        ("_template", "is the template, not a context"),
    ] {
        let e = scope::context(&project, name, scope::Values::Files, true).unwrap_err();
        assert_eq!(e.described(), format!("context name {name:?} {why}"));
    }
    // `context:` in windsor.yaml is held to the same rule.
    s.write("project/windsor.yaml", "context: ../../elsewhere\n");
    let project = Project::load(&dir).unwrap();
    let e = scope::context(
        &project,
        &project.current_context(None, None).unwrap().name,
        scope::Values::Files,
        true,
    )
    .unwrap_err();
    assert!(
        e.described()
            .starts_with("context name \"../../elsewhere\" is not a folder name"),
        "{e}"
    );
}

#[test]
fn a_context_folder_that_links_out_of_the_project_is_refused() {
    let s = Scratch::new("hardening-w-context-link");
    let dir = windsor_project(&s, "{x: '${provider}'}");
    s.write("elsewhere/values.yaml", "provider: stolen\n");
    s.link("project/contexts/linked", &s.0.join("elsewhere"));
    let project = Project::load(&dir).unwrap();
    let e = scope::context(&project, "linked", scope::Values::Files, true).unwrap_err();
    // The file as it opens from where bpvm runs: the project's folder as
    // given joined with its path in the project.
    assert!(
        e.described().starts_with(&format!(
            "{0}/contexts/linked/windsor.yaml: cannot read: \"contexts/linked/windsor.yaml\" is outside the project {0}",
            dir.display()
        )),
        "{e}"
    );
}

#[test]
fn an_unknown_context_names_the_ones_that_exist() {
    let s = Scratch::new("hardening-w-unknown");
    let dir = windsor_project(&s, "{x: 1}");
    s.write("project/contexts/prod/values.yaml", "{}\n");
    s.write("project/windsor.yaml", "contexts: {staging: {provider: aws}}\n");
    let project = Project::load(&dir).unwrap();
    let e = scope::context(&project, "qa", scope::Values::Files, true).unwrap_err();
    assert_eq!(
        e.described(),
        "no context \"qa\": the project has: local, prod, staging"
    );
    // A context declared only in windsor.yaml is a context.
    assert!(scope::context(&project, "staging", scope::Values::Files, true).is_ok());
}

#[test]
fn a_folder_that_is_not_a_windsor_project_is_an_error() {
    let s = Scratch::new("hardening-w-not-project");
    s.write("somewhere/readme.txt", "hello");
    let e = Project::load(&s.0.join("somewhere")).unwrap_err();
    assert_eq!(
        described(&e),
        format!(
            "{} is not a Windsor project: it has no windsor.yaml and no contexts/_template",
            s.0.join("somewhere").display()
        )
    );
    s.write("somewhere/windsor.yaml", "version: v1alpha1\n");
    let e = Project::load(&s.0.join("somewhere")).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("is not a Windsor project: it has no contexts/_template"),
        "{e}"
    );
}

/// A Bluelink blueprint at `s/app/blueprint.yaml` whose resource spec is
/// `spec`.
fn blueprint(s: &Scratch, body: &str) -> PathBuf {
    s.write("app/blueprint.yaml", &format!("version: 2023-04-20\n{body}"))
}

fn render_bluelink(path: &Path, root: Option<&Path>) -> Result<String, String> {
    let bp = load::load(path, "app/blueprint.yaml").map_err(|e| e.to_string())?;
    let opts = bl_render::Options {
        root: root.map(Path::to_path_buf),
        ..bl_render::Options::default()
    };
    let out = bl_render::render(&bp, &opts).map_err(|e| e.to_string())?;
    Ok(out.document.to_json())
}

#[test]
fn bluelink_file_is_rooted_at_the_blueprint_folder() {
    let s = Scratch::new("hardening-b-root");
    let path = blueprint(
        &s,
        "resources:\n  r: {type: t/r, spec: {x: '${utf8(file(\"data.txt\"))}', y: '${utf8(file(\"../outside.txt\"))}'}}\n",
    );
    s.write("app/data.txt", "inside");
    s.write("outside.txt", "SECRET");
    // No root given: the blueprint's own folder, not the process's.
    let e = render_bluelink(&path, None).unwrap_err();
    assert!(!e.contains("resources.r.spec.x"), "{e}");
    assert!(
        e.contains(&format!(
            "app/blueprint.yaml:3:68: error: resources.r.spec.y: file() path \"../outside.txt\" is outside the blueprint folder {}",
            s.0.join("app").display()
        )),
        "{e}"
    );
    // Paths are relative to the blueprint's folder, and a wider root given
    // explicitly lets the blueprint read its parent's files.
    let path = blueprint(
        &s,
        "resources:\n  r: {type: t/r, spec: {x: '${utf8(file(\"../outside.txt\"))}'}}\n",
    );
    let got = render_bluelink(&path, Some(&s.0)).unwrap();
    assert!(got.contains(r#""spec":{"x":"SECRET"}"#), "{got}");
}

#[test]
fn bluelink_file_and_include_do_not_follow_links_out_or_into_fifos() {
    let s = Scratch::new("hardening-b-links");
    s.write(
        "outside.yaml",
        "version: 2023-04-20\nresources:\n  s: {type: t/s, spec: {}}\n",
    );
    s.write("outside.txt", "SECRET");
    s.link("app/linked.txt", &s.0.join("outside.txt"));
    s.link("app/linked.yaml", &s.0.join("outside.yaml"));
    s.fifo("app/pipe.yaml");
    let path = blueprint(
        &s,
        "include:\n  a: {path: linked.yaml}\n  b: {path: pipe.yaml}\nresources:\n  r: {type: t/r, spec: {x: '${utf8(file(\"linked.txt\"))}'}}\n",
    );
    let e = render_bluelink(&path, None).unwrap_err();
    let app = s.0.join("app");
    assert!(
        e.contains(&format!(
            "include.a.path: the child blueprint \"linked.yaml\" is outside the blueprint folder {}",
            app.display()
        )),
        "{e}"
    );
    assert!(
        e.contains(
            "include.b.path: cannot read the child blueprint: \"pipe.yaml\" is a FIFO; only regular files are read"
        ),
        "{e}"
    );
    assert!(
        e.contains(
            "app/blueprint.yaml:6:36: error: resources.r.spec.x: file() path \"linked.txt\" is outside the blueprint folder"
        ),
        "{e}"
    );
    assert!(!e.contains("SECRET"));
}

#[test]
fn a_blueprint_named_on_the_command_line_must_be_a_regular_file() {
    let s = Scratch::new("hardening-b-fifo");
    let pipe = s.fifo("pipe.yaml");
    let e = load::load(&pipe, "pipe.yaml").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "pipe.yaml: error: cannot read the blueprint: {:?} is a FIFO; only regular files are read",
            pipe.display().to_string()
        )
    );
}

/// Renders a project whose only input is `jsonnet("../configs/main.jsonnet")`
/// with `source` in that file.
fn jsonnet_result(s: &Scratch, source: &str) -> Result<Value, String> {
    let dir = windsor_project(s, "{x: '${jsonnet(\"../configs/main.jsonnet\")}'}");
    s.write("project/contexts/_template/configs/main.jsonnet", source);
    render_windsor(&dir)
}

#[test]
fn jsonnet_results_are_held_to_the_memory_budget() {
    let s = Scratch::new("hardening-j-size");
    let e = jsonnet_result(&s, "std.range(0, 1e9)").unwrap_err();
    assert!(
        e.contains("jsonnet() failed on \"../configs/main.jsonnet\": the result has an array of 1000000001 items, over the memory budget of one evaluation (256 MiB; set BPVM_MEMORY_BUDGET_MIB to raise it)"),
        "{e}"
    );
    // A string doubled 40 times is known to be 1 TiB long before it is
    // ever written out.
    let e = jsonnet_result(&s, "local f(s, n) = if n == 0 then s else f(s + s, n - 1); f('x', 40)").unwrap_err();
    assert!(
        e.contains("the result has a string of 1099511627776 bytes, over the memory budget"),
        "{e}"
    );
}

#[test]
fn jsonnet_recursion_is_bounded_and_errors_say_where() {
    let s = Scratch::new("hardening-j-recursion");
    let e = jsonnet_result(&s, "local f(n) = f(n + 1);\nf(0)").unwrap_err();
    assert!(
        e.contains("Jsonnet calls nest more than 200 deep (a recursion that never ends?) (at contexts/_template/configs/main.jsonnet:"),
        "{e}"
    );
    assert!(!e.contains("--max-stack"), "{e}");
    let e = jsonnet_result(&s, "{\n  a: error 'boom',\n}").unwrap_err();
    assert!(
        e.contains("runtime error: boom (at contexts/_template/configs/main.jsonnet:2:6)"),
        "{e}"
    );
}

#[test]
fn a_jsonnet_result_nests_no_deeper_than_a_document() {
    let s = Scratch::new("hardening-j-deep");
    let e = jsonnet_result(&s, "local f(n) = if n == 0 then 1 else [f(n - 1)]; f(100)").unwrap_err();
    assert!(e.contains("the result nests more than 64 levels deep"), "{e}");
    assert!(jsonnet_result(&s, "local f(n) = if n == 0 then 1 else [f(n - 1)]; f(60)").is_ok());
}

#[test]
fn jsonnet_results_keep_their_numbers_and_order() {
    let s = Scratch::new("hardening-j-values");
    let got = jsonnet_result(&s, "{b: 1, a: [1, 2.5, 3.0, 'x', null, true], c: {z: -0}}").unwrap();
    assert_eq!(
        got.to_json(),
        r#"[{"path":"p","inputs":{"x":{"a":[1,2.5,3,"x",null,true],"b":1,"c":{"z":0}}}}]"#
    );
}

#[test]
fn a_facet_when_of_a_hundred_thousand_terms_renders() {
    let s = Scratch::new("hardening-w-when");
    let dir = windsor_project(&s, "{x: 1}");
    let when = vec!["provider == 'aws'"; 100_000].join(" && ");
    s.write(
        "project/contexts/_template/facets/big.yaml",
        &format!(
            "kind: Facet\nmetadata: {{name: big}}\nwhen: \"{when}\"\nterraform: [{{path: q, inputs: {{y: 2}}}}]\n"
        ),
    );
    let got = render_windsor(&dir).unwrap();
    assert_eq!(
        got.to_json(),
        r#"[{"path":"p","inputs":{"x":1}},{"path":"q","inputs":{"y":2}}]"#
    );
}
