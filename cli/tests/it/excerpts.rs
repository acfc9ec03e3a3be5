//! A Bluelink error shows the line of the file it names, with a caret
//! under the column, as a Windsor error does: for each kind of mistake
//! (a reference to nothing, an unknown field, a type error, a file or a
//! substitution that does not parse, an included blueprint's error, an
//! include that fails, a data source's data without a field, a
//! substitution in a quoted or folded string), in YAML, JSON and `.bp`;
//! render, explain, graph and batch print the same, and check the same
//! line and caret for the same mistake.

use crate::support::{self, text};
use std::path::Path;

/// A mistake: the files written, the blueprint rendered, more arguments
/// for render and explain, and what render prints.
struct Mistake {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    blueprint: &'static str,
    args: &'static [&'static str],
    printed: &'static str,
    /// Whether check, which does not render, meets it too.
    checked: bool,
}

const CHILD: &str =
    "version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      size: ${variables.nope}\n";
const CHILD_ERROR: &str = "child.yaml:6:15: error: resources.fn.spec.size: variables.nope is not defined
  |
6 |       size: ${variables.nope}
  |               ^
";
const DATA: &str = r#"{"network": {"vpcId": 3}}"#;

const MISTAKES: &[Mistake] = &[
    Mistake {
        name: "a reference to nothing, YAML",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\nvariables:\n  region: {type: string}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      region: \"in ${variables.regoin}\"\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed: r#"bp.yaml:8:21: error: resources.fn.spec.region: variables.regoin is not defined; did you mean variables.region?
  |
8 |       region: "in ${variables.regoin}"
  |                     ^
"#,
        checked: true,
    },
    Mistake {
        name: "a reference to nothing, JSON",
        files: &[(
            "bp.json",
            "{\n  \"version\": \"2023-04-20\",\n  \"variables\": {\"region\": {\"type\": \"string\"}},\n  \"resources\": {\n    \"fn\": {\n      \"type\": \"aws/lambda/function\",\n      \"spec\": {\"region\": \"in ${variables.regoin}\"}\n    }\n  }\n}\n",
        )],
        blueprint: "bp.json",
        args: &[],
        printed: r#"bp.json:7:32: error: resources.fn.spec.region: variables.regoin is not defined; did you mean variables.region?
  |
7 |       "spec": {"region": "in ${variables.regoin}"}
  |                                ^
"#,
        checked: true,
    },
    Mistake {
        name: "a reference to nothing, .bp",
        files: &[(
            "bp.bp",
            "version \"2023-04-20\"\n\nvariable region: string {}\n\nresource fn: aws/lambda/function {\n    spec {\n        region = variables.regoin\n    }\n}\n",
        )],
        blueprint: "bp.bp",
        args: &[],
        printed: "bp.bp:7:18: error: resources.fn.spec.region: variables.regoin is not defined; did you mean variables.region?
  |
7 |         region = variables.regoin
  |                  ^
",
        checked: true,
    },
    Mistake {
        name: "an unknown field, YAML",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/function\n    spec: {}\n    dependson: [x]\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed: r#"bp.yaml:6:5: error: resources.fn.dependson: unknown field "dependson" (did you mean "dependsOn"?); expected one of: type, description, metadata, dependsOn, condition, each, linkSelector, removalPolicy, spec
  |
6 |     dependson: [x]
  |     ^
"#,
        checked: true,
    },
    Mistake {
        name: "an unknown field, JSON",
        files: &[(
            "bp.json",
            "{\n  \"version\": \"2023-04-20\",\n  \"resources\": {\n    \"fn\": {\"type\": \"aws/lambda/function\", \"spec\": {}, \"dependson\": []}\n  }\n}\n",
        )],
        blueprint: "bp.json",
        args: &[],
        printed: r#"bp.json:4:55: error: resources.fn.dependson: unknown field "dependson" (did you mean "dependsOn"?); expected one of: type, description, metadata, dependsOn, condition, each, linkSelector, removalPolicy, spec
  |
4 |     "fn": {"type": "aws/lambda/function", "spec": {}, "dependson": []}
  |                                                       ^
"#,
        checked: true,
    },
    Mistake {
        name: "an unknown field, .bp",
        files: &[(
            "bp.bp",
            "version \"2023-04-20\"\n\nvariable region: string {\n    sekret = true\n}\n\nresource fn: aws/lambda/function {\n    spec {}\n}\n",
        )],
        blueprint: "bp.bp",
        args: &[],
        printed: r#"bp.bp:4:5: error: unknown field "sekret" in a variable declaration (did you mean "secret"?); expected one of: default, description, secret, allowedValues
  |
4 |     sekret = true
  |     ^
"#,
        checked: true,
    },
    Mistake {
        name: "a type error, YAML",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\nvariables:\n  debug: {type: boolean, default: true}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      size: ${len(variables.debug)}\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed:
            "bp.yaml:8:15: error: resources.fn.spec.size: len() argument 1 must be a string, an array or an object, got boolean
  |
8 |       size: ${len(variables.debug)}
  |               ^^^^^^^^^^^^^^^^^^^^
",
        checked: true,
    },
    Mistake {
        name: "a type error, JSON",
        files: &[(
            "bp.json",
            "{\n  \"version\": \"2023-04-20\",\n  \"variables\": {\"debug\": {\"type\": \"boolean\", \"default\": true}},\n  \"resources\": {\n    \"fn\": {\n      \"type\": \"aws/lambda/function\",\n      \"spec\": {\"size\": \"${len(variables.debug)}\"}\n    }\n  }\n}\n",
        )],
        blueprint: "bp.json",
        args: &[],
        printed: r#"bp.json:7:27: error: resources.fn.spec.size: len() argument 1 must be a string, an array or an object, got boolean
  |
7 |       "spec": {"size": "${len(variables.debug)}"}
  |                           ^^^^^^^^^^^^^^^^^^^^
"#,
        checked: true,
    },
    Mistake {
        name: "a type error, .bp",
        files: &[(
            "bp.bp",
            "version \"2023-04-20\"\n\nvariable debug: boolean {\n    default = true\n}\n\nresource fn: aws/lambda/function {\n    spec {\n        size = len(variables.debug)\n    }\n}\n",
        )],
        blueprint: "bp.bp",
        args: &[],
        printed:
            "bp.bp:9:16: error: resources.fn.spec.size: len() argument 1 must be a string, an array or an object, got boolean
  |
9 |         size = len(variables.debug)
  |                ^^^^^^^^^^^^^^^^^^^^
",
        checked: true,
    },
    Mistake {
        name: "a type error in a double-quoted string with an escape",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\nvariables:\n  debug: {type: boolean, default: true}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      size: \"n=\\t${len(variables.debug)}\"\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed: r#"bp.yaml:8:20: error: resources.fn.spec.size: len() argument 1 must be a string, an array or an object, got boolean
  |
8 |       size: "n=\t${len(variables.debug)}"
  |                    ^^^^^^^^^^^^^^^^^^^^
"#,
        checked: true,
    },
    Mistake {
        name: "a reference to nothing in a folded block",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\nvariables:\n  debug: {type: boolean, default: true}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      note: >-\n        folded\n        ${variables.debgu}\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed: "bp.yaml:10:11: error: resources.fn.spec.note: variables.debgu is not defined; did you mean variables.debug?
   |
10 |         ${variables.debgu}
   |           ^
",
        checked: true,
    },
    Mistake {
        name: "YAML that does not read",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/function\n   spec: {}\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed: "bp.yaml:5:4: error: while parsing a block mapping, did not find expected key
  |
5 |    spec: {}
  |    ^
",
        checked: true,
    },
    Mistake {
        name: "JSON that does not read",
        files: &[(
            "bp.json",
            "{\n  \"version\": \"2023-04-20\",\n  \"resources\": {\n    \"fn\": {\"type\": \"aws/lambda/function\", \"spec\" {}}\n  }\n}\n",
        )],
        blueprint: "bp.json",
        args: &[],
        printed: r#"bp.json:4:50: error: invalid trailing content after double-quoted scalar
  |
4 |     "fn": {"type": "aws/lambda/function", "spec" {}}
  |                                                  ^
"#,
        checked: true,
    },
    Mistake {
        name: ".bp that does not parse",
        files: &[(
            "bp.bp",
            "version \"2023-04-20\"\n\nresource fn: aws/lambda/function {\n    spec {\n        size = = 3\n    }\n}\n",
        )],
        blueprint: "bp.bp",
        args: &[],
        printed: "bp.bp:5:16: error: expected an expression, found '='
  |
5 |         size = = 3
  |                ^
",
        checked: true,
    },
    Mistake {
        name: "a substitution that does not parse, YAML",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      size: \"x ${len(\\\"a\\\" }\"\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed: r#"bp.yaml:6:28: error: resources.fn.spec.size: expected ',' or ')' after the argument, found the end of the substitution
  |
6 |       size: "x ${len(\"a\" }"
  |                            ^
"#,
        checked: true,
    },
    Mistake {
        name: "a substitution that does not parse, JSON",
        files: &[(
            "bp.json",
            "{\n  \"version\": \"2023-04-20\",\n  \"resources\": {\n    \"fn\": {\"type\": \"aws/lambda/function\", \"spec\": {\"size\": \"x ${len(\\\"a\\\" }\"}}\n  }\n}\n",
        )],
        blueprint: "bp.json",
        args: &[],
        printed: r#"bp.json:4:75: error: resources.fn.spec.size: expected ',' or ')' after the argument, found the end of the substitution
  |
4 |     "fn": {"type": "aws/lambda/function", "spec": {"size": "x ${len(\"a\" }"}}
  |                                                                           ^
"#,
        checked: true,
    },
    Mistake {
        name: "a substitution that does not parse, .bp",
        files: &[(
            "bp.bp",
            "version \"2023-04-20\"\n\nresource fn: aws/lambda/function {\n    spec {\n        size = \"x ${len(\"a\" }\"\n    }\n}\n",
        )],
        blueprint: "bp.bp",
        args: &[],
        printed: r#"bp.bp:5:29: error: expected ')' to close the call, found '}'
  |
5 |         size = "x ${len("a" }"
  |                             ^
"#,
        checked: true,
    },
    Mistake {
        name: "an included blueprint's error, from YAML",
        files: &[
            (
                "bp.yaml",
                "version: 2023-04-20\ninclude:\n  child:\n    path: child.yaml\n",
            ),
            ("child.yaml", CHILD),
        ],
        blueprint: "bp.yaml",
        args: &[],
        printed: CHILD_ERROR,
        checked: false,
    },
    Mistake {
        name: "an included blueprint's error, from JSON",
        files: &[
            (
                "bp.json",
                "{\n  \"version\": \"2023-04-20\",\n  \"include\": {\"child\": {\"path\": \"child.yaml\"}}\n}\n",
            ),
            ("child.yaml", CHILD),
        ],
        blueprint: "bp.json",
        args: &[],
        printed: CHILD_ERROR,
        checked: false,
    },
    Mistake {
        name: "an included blueprint's error, from .bp",
        files: &[
            ("bp.bp", "version \"2023-04-20\"\n\ninclude child \"child.yaml\" {}\n"),
            ("child.yaml", CHILD),
        ],
        blueprint: "bp.bp",
        args: &[],
        printed: CHILD_ERROR,
        checked: false,
    },
    Mistake {
        name: "an include that fails, YAML",
        files: &[(
            "bp.yaml",
            "version: 2023-04-20\ninclude:\n  child:\n    path: nowhere.yaml\n",
        )],
        blueprint: "bp.yaml",
        args: &[],
        printed: r#"bp.yaml:3:3: error: include.child.path: cannot read the child blueprint: "nowhere.yaml": no such file
  |
3 |   child:
  |   ^
"#,
        checked: false,
    },
    Mistake {
        name: "an include that fails, JSON",
        files: &[(
            "bp.json",
            "{\n  \"version\": \"2023-04-20\",\n  \"include\": {\"child\": {\"path\": \"nowhere.yaml\"}}\n}\n",
        )],
        blueprint: "bp.json",
        args: &[],
        printed: r#"bp.json:3:15: error: include.child.path: cannot read the child blueprint: "nowhere.yaml": no such file
  |
3 |   "include": {"child": {"path": "nowhere.yaml"}}
  |               ^
"#,
        checked: false,
    },
    Mistake {
        name: "an include that fails, .bp",
        files: &[("bp.bp", "version \"2023-04-20\"\n\ninclude child \"nowhere.yaml\" {}\n")],
        blueprint: "bp.bp",
        args: &[],
        printed: r#"bp.bp:3:9: error: include.child.path: cannot read the child blueprint: "nowhere.yaml": no such file
  |
3 | include child "nowhere.yaml" {}
  |         ^
"#,
        checked: false,
    },
    Mistake {
        name: "a data source's data without a field, YAML",
        files: &[
            (
                "bp.yaml",
                "version: 2023-04-20\ndatasources:\n  network:\n    type: aws/vpc\n    filter: {field: tags, operator: has key, search: env}\n    exports:\n      vpc: {type: string, aliasFor: vpcId}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      vpc: ${datasources.network.vpc}\n",
            ),
            ("ds.json", DATA),
        ],
        blueprint: "bp.yaml",
        args: &["--datasources", "ds.json"],
        printed: r#"bp.yaml:7:7: error: datasources.network.exports.vpc: the data has no field "vpc"
  |
7 |       vpc: {type: string, aliasFor: vpcId}
  |       ^
"#,
        checked: false,
    },
    Mistake {
        name: "a data source's data without a field, JSON",
        files: &[
            (
                "bp.json",
                "{\n  \"version\": \"2023-04-20\",\n  \"datasources\": {\n    \"network\": {\n      \"type\": \"aws/vpc\",\n      \"filter\": {\"field\": \"tags\", \"operator\": \"has key\", \"search\": \"env\"},\n      \"exports\": {\"vpc\": {\"type\": \"string\", \"aliasFor\": \"vpcId\"}}\n    }\n  },\n  \"resources\": {\n    \"fn\": {\"type\": \"aws/lambda/function\", \"spec\": {\"vpc\": \"${datasources.network.vpc}\"}}\n  }\n}\n",
            ),
            ("ds.json", DATA),
        ],
        blueprint: "bp.json",
        args: &["--datasources", "ds.json"],
        printed: r#"bp.json:7:19: error: datasources.network.exports.vpc: the data has no field "vpc"
  |
7 |       "exports": {"vpc": {"type": "string", "aliasFor": "vpcId"}}
  |                   ^
"#,
        checked: false,
    },
    Mistake {
        name: "a data source's data without a field, .bp",
        files: &[
            (
                "bp.bp",
                "version \"2023-04-20\"\n\ndata network: aws/vpc {\n    filter \"tags\" has key \"env\"\n    export vpcId as vpc: string\n}\n\nresource fn: aws/lambda/function {\n    spec {\n        vpc = datasources.network.vpc\n    }\n}\n",
            ),
            ("ds.json", DATA),
        ],
        blueprint: "bp.bp",
        args: &["--datasources", "ds.json"],
        printed: "bp.bp:5:21: error: datasources.network.exports.vpc: the data has no field \"vpc\"
  |
5 |     export vpcId as vpc: string
  |                     ^
",
        checked: false,
    },
];

/// `bpvm ARGS` in `dir` without colour: its exit status and what it
/// printed (standard output, then standard error).
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = support::bpvm()
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (out.status.code(), format!("{}{}", text(&out.stdout), text(&out.stderr)))
}

/// A scratch folder holding the mistake's files.
fn written(m: &Mistake) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in m.files {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    dir
}

/// The message's excerpt: its lines after the first.
fn excerpt(printed: &str) -> String {
    printed.split_once('\n').map_or("", |(_, rest)| rest).to_string()
}

#[test]
fn render_prints_the_files_line_under_each_error() {
    let mut wrong = Vec::new();
    for m in MISTAKES {
        let dir = written(m);
        let args = [&["render", m.blueprint][..], m.args].concat();
        let (code, said) = run(dir.path(), &args);
        if code != Some(1) || said != m.printed {
            wrong.push(format!("{} (exit {code:?}):\n{said}", m.name));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Explain renders as render does; graph and batch print the same
/// error (batch indents it under its target), graph when the blueprint
/// does not load or a child does not render.
#[test]
fn every_command_prints_the_same_excerpt() {
    let (mut wrong, mut graphed) = (Vec::new(), 0);
    for m in MISTAKES {
        let dir = written(m);
        let explain = [&["explain", "resources.fn.spec", m.blueprint][..], m.args].concat();
        let (_, said) = run(dir.path(), &explain);
        if said != m.printed {
            wrong.push(format!("{}: explain:\n{said}", m.name));
        }
        let (code, said) = run(dir.path(), &["graph", m.blueprint]);
        if code == Some(1) {
            graphed += 1;
            if said != m.printed {
                wrong.push(format!("{}: graph:\n{said}", m.name));
            }
        }
        // (Batch gives no data to data sources.)
        let (_, said) = run(dir.path(), &["batch", "."]);
        let indented: String = m.printed.lines().map(|l| format!("    {l}\n")).collect();
        if !said.contains(&indented) && m.args.is_empty() {
            wrong.push(format!("{}: batch:\n{said}", m.name));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every mistake found without rendering (not the type errors, the
    // includes or the data) stops graph.
    assert_eq!(graphed, 13);
}

#[test]
fn check_shows_the_same_line_and_caret_for_the_same_mistake() {
    let mut wrong = Vec::new();
    for m in MISTAKES.iter().filter(|m| m.checked) {
        let dir = written(m);
        let (_, said) = run(dir.path(), &["check", m.blueprint]);
        let place = m.printed.split(": ").next().unwrap();
        let heading = said.lines().next().unwrap_or("");
        let shown = excerpt(&said);
        // After check's heading (and its `help:` line): the same excerpt.
        let same = shown.contains(&excerpt(m.printed)) && heading.starts_with(&format!("{place}: error["));
        if !same {
            wrong.push(format!("{}: check:\n{said}", m.name));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
