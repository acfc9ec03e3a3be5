//! `bpvm convert`: YAML to `.bp` and `.bp` to YAML; what `.bp` cannot
//! spell refused at its file:line:column; never over its input.

use crate::support::{bpvm, text};
use std::path::Path;
use std::process::Output;

fn convert(args: &[&str], dir: &Path) -> Output {
    bpvm()
        .arg("convert")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

const YAML: &str = "version: 2025-11-02\nvariables:\n  env: {type: string, default: dev}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      name: ${variables.env}-fn\n      ok: ${eq(variables.env, \"dev\")}\n      first: ${resources.queue[1].spec.arn}\n";

const BP: &str = "version \"2025-11-02\"\n\nvariable env: string {\n    default = \"dev\"\n}\n\nresource fn: aws/lambda/function {\n    spec {\n        name = \"${variables.env}-fn\"\n        ok = eq(variables.env, \"dev\")\n        first = resources.queue[1].spec.arn\n    }\n}\n";

#[test]
fn yaml_converts_to_bp_and_back() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.yaml"), YAML).unwrap();
    let out = convert(&["app.yaml", "--to", "bp"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), BP);
    let written = convert(&["app.yaml", "--to", "bp", "-o", "app.bp"], dir.path());
    assert!(written.status.success());
    assert_eq!(std::fs::read_to_string(dir.path().join("app.bp")).unwrap(), BP);
    let back = convert(&["app.bp", "--to", "yaml"], dir.path());
    assert!(back.status.success(), "{}", text(&back.stderr));
    assert_eq!(
        text(&back.stdout),
        "version: \"2025-11-02\"\nvariables:\n  env:\n    type: string\n    default: dev\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      name: ${variables.env}-fn\n      ok: ${eq(variables.env, \"dev\")}\n      first: ${resources.queue[1].spec.arn}\n"
    );
}

#[test]
fn bp_comments_become_yaml_comments() {
    let dir = tempfile::tempdir().unwrap();
    let bp =
        "# the app\nversion \"2025-11-02\"\n# settings\nvariable env: string {\n    default = \"dev\" # for now\n}\n";
    std::fs::write(dir.path().join("app.bp"), bp).unwrap();
    let out = convert(&["app.bp", "--to", "yaml"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "# the app\nversion: \"2025-11-02\"\n# settings\nvariables:\n  env:\n    type: string\n    default: dev # for now\n"
    );
}

#[test]
fn what_bp_cannot_spell_is_refused_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    for (file, yaml, want) in [
        (
            "type.yaml",
            "version: 2025-11-02\nresources:\n  api:\n    type: aws/api-gateway/rest-api\n    spec: {}\n",
            "type.yaml:4:11: error: the type \"aws/api-gateway/rest-api\" cannot be written in .bp: each part of a .bp type is a letter followed by letters or digits, two parts or more\n",
        ),
        (
            "escape.yaml",
            "version: 2025-11-02\nvalues:\n  v:\n    type: string\n    value: \"cost $${price}\"\n",
            "escape.yaml:5:12: error: a literal '${' (written '$${') cannot be written in .bp, whose strings have no escape for it\n",
        ),
        (
            "function.yaml",
            "version: 2025-11-02\nvalues:\n  v:\n    type: array\n    value: ${map(values.xs, trim)}\n",
            "function.yaml:5:12: error: the function value 'trim' (a function's bare name as an argument) cannot be written in .bp, where a bare name is a resource\n",
        ),
    ] {
        std::fs::write(dir.path().join(file), yaml).unwrap();
        let out = convert(&[file, "--to", "bp"], dir.path());
        assert_eq!(out.status.code(), Some(1), "{file}");
        assert_eq!(text(&out.stderr), want, "{file}");
        assert_eq!(text(&out.stdout), "", "{file}");
    }
}

#[test]
fn convert_never_writes_over_its_input_or_converts_to_the_same_syntax() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.yaml"), YAML).unwrap();
    std::fs::write(dir.path().join("app.bp"), BP).unwrap();
    let over = convert(&["app.yaml", "--to", "bp", "-o", "./app.yaml"], dir.path());
    assert_eq!(over.status.code(), Some(1));
    assert_eq!(
        text(&over.stderr),
        "error: -o ./app.yaml: that is the input; convert writes a new file\n"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("app.yaml")).unwrap(), YAML);
    let same = convert(&["app.bp", "--to", "bp"], dir.path());
    assert_eq!(
        text(&same.stderr),
        "error: app.bp is .bp already (bpvm fmt formats it)\n"
    );
    let yaml = convert(&["app.yaml", "--to", "yaml"], dir.path());
    assert_eq!(
        text(&yaml.stderr),
        "error: app.yaml is YAML already (--to yaml reads a .bp or .blueprint file)\n"
    );
}
