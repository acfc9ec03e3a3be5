//! One position for each mistake, whichever command meets it: for each
//! kind of error (an expression that does not parse, fails as it runs,
//! calls an unknown function or mixes types; YAML that does not read; a
//! value the schema refuses; a Bluelink substitution naming nothing, in a
//! plain, a double-quoted and a block string), every command that reports
//! it — render, test and its reports, check and its SARIF, explain,
//! values, graph, batch and its JSON and JUnit reports — names the same
//! `file:line:column`, and no second position inside the expression.
//! The file is printed as it can be opened from where bpvm runs: the
//! project's folder as it was given joined with the file's path in it,
//! the same in every command.

use crate::support::{self, text};
use std::path::Path;
use std::process::Command;

/// The project's folder as every command is given it, under the folder
/// bpvm runs in.
const PROJECT: &str = "some/dir";
const FACET: &str = "contexts/_template/facets/provider-aws.yaml";
const VALUES: &str = "contexts/local/values.yaml";

/// A kind of mistake: the file changed, the text replaced in it, and
/// where the mistake then is.
struct Kind {
    name: &'static str,
    file: &'static str,
    from: &'static str,
    to: &'static str,
    at: (usize, usize),
    /// The commands that meet it.
    commands: &'static [Cmd],
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Render,
    Test,
    TestJson,
    TestJunit,
    Check,
    CheckJson,
    Sarif,
    Explain,
    Values,
    Graph,
    BatchJson,
    BatchJunit,
}

use Cmd::*;

/// Every command that loads and renders the project. (`test --report`
/// writes no report when the template does not load: its cases cannot
/// be found.)
const ALL: &[Cmd] = &[
    Render, Test, Check, CheckJson, Sarif, Explain, Values, Graph, BatchJson, BatchJunit,
];
/// A mistake only a render finds (the values alone do not meet it, and a
/// check cannot know it before running).
const RENDERS: &[Cmd] = &[Render, Test, TestJson, TestJunit, Graph, BatchJson, BatchJunit];

const WINDSOR: &[Kind] = &[
    Kind {
        name: "an expression that does not parse",
        file: FACET,
        from: r#"cidr: ${network.cidr ?? "10.0.0.0/16"}"#,
        to: r#"cidr: ${network.cidr ?? ("10.0.0.0/16"}"#,
        at: (12, 45),
        commands: ALL,
    },
    Kind {
        name: "an expression that fails as it runs",
        file: FACET,
        from: "workers: ${cluster.workers.count}",
        to: r#"workers: ${int("many")}"#,
        at: (20, 18),
        commands: RENDERS,
    },
    Kind {
        name: "an unknown function",
        file: FACET,
        from: "workers: ${cluster.workers.count}",
        to: "workers: ${nosuchfn(cluster.workers.count)}",
        at: (20, 18),
        commands: ALL,
    },
    Kind {
        name: "a type error",
        file: FACET,
        from: "workers: ${cluster.workers.count}",
        to: r#"workers: ${cluster.workers.count + "x"}"#,
        at: (20, 18),
        commands: &[
            Render, Test, TestJson, TestJunit, Check, CheckJson, Sarif, Graph, BatchJson, BatchJunit,
        ],
    },
    Kind {
        name: "an expression in a double-quoted string with escapes",
        file: FACET,
        from: r#"- "${dev ? 'nginx/debug' : ''}""#,
        to: r#"- "${dev ? \"nginx/debug\" : ((''}""#,
        at: (32, 40),
        commands: ALL,
    },
    Kind {
        name: "an expression in a folded block",
        file: FACET,
        from: "when: provider == 'aws'",
        to: "when: >-\n  provider == 'aws' &&\n  (dev",
        at: (8, 7),
        commands: ALL,
    },
    Kind {
        name: "YAML that does not read",
        file: FACET,
        from: "    path: network/aws-vpc",
        to: "   path: network/aws-vpc",
        at: (9, 4),
        commands: ALL,
    },
];

/// A folder holding, as [`PROJECT`], a copy of examples/windsor with
/// `kind`'s change made.
fn windsor(kind: &Kind) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join(PROJECT);
    std::fs::create_dir_all(&project).unwrap();
    support::copy_tree(&support::examples().join("windsor"), &project);
    change(&project.join(kind.file), kind.from, kind.to);
    dir
}

fn change(file: &Path, from: &str, to: &str) {
    let was = std::fs::read_to_string(file).unwrap();
    let now = was.replacen(from, to, 1);
    assert_ne!(was, now, "{} has {from}", file.display());
    std::fs::write(file, now).unwrap();
}

/// What `cmd`, run in `dir`, reports on the project [`PROJECT`] there:
/// its output, and the report it wrote (SARIF: each result's
/// file:line:column).
fn windsor_report(dir: &Path, cmd: Cmd) -> String {
    windsor_report_on(dir, PROJECT, cmd)
}

/// [`windsor_report`] of the project given as `p`.
fn windsor_report_on(dir: &Path, p: &str, cmd: Cmd) -> String {
    let report = dir.join("report.out");
    let r = report.to_str().unwrap();
    let args: Vec<&str> = match cmd {
        Render => vec!["render", "--project", p],
        Test => vec!["test", "--project", p],
        TestJson => vec!["test", "--project", p, "--report", r],
        TestJunit => vec!["test", "--project", p, "--report", r, "--report-format", "junit"],
        Check => vec!["check", p],
        CheckJson => vec!["check", "--format", "json", p],
        Sarif => vec!["check", "--format", "sarif", p],
        Explain => vec!["explain", "--project", p, "terraform.cluster.inputs.name"],
        Values => vec!["values", "--project", p],
        Graph => vec!["graph", "--project", p],
        BatchJson => vec!["batch", p, "--report", r],
        BatchJunit => vec!["batch", p, "--report", r, "--report-format", "junit"],
    };
    run(dir, &args, cmd, &report)
}

fn run(dir: &Path, args: &[&str], cmd: Cmd, report: &Path) -> String {
    let out = Command::new(support::BPVM)
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    match cmd {
        Sarif => sarif(&text(&out.stdout)),
        TestJson | BatchJson => json_strings(&std::fs::read_to_string(report).unwrap_or_default()),
        TestJunit | BatchJunit => junit(&std::fs::read_to_string(report).unwrap_or_default()),
        CheckJson => json_strings(&said),
        _ => said,
    }
}

/// Each SARIF result as `uri:startLine:startColumn: message`.
fn sarif(out: &str) -> String {
    let doc: serde_json::Value = serde_json::from_str(out).unwrap();
    let mut lines = String::new();
    for r in doc["runs"][0]["results"].as_array().unwrap() {
        let l = &r["locations"][0]["physicalLocation"];
        let region = &l["region"];
        lines += &format!(
            "{}:{}:{}: {}\n",
            l["artifactLocation"]["uri"].as_str().unwrap(),
            region["startLine"],
            region["startColumn"],
            r["message"]["text"].as_str().unwrap()
        );
    }
    lines
}

/// Every string of a JSON report (or of JSON lines), one after another,
/// and each record's file, line and column where it has them.
fn json_strings(written: &str) -> String {
    let mut out = String::new();
    let mut add = |v: &serde_json::Value| collect(v, &mut out);
    match serde_json::from_str::<serde_json::Value>(written) {
        Ok(v) => add(&v),
        Err(_) => written
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .for_each(|v| add(&v)),
    }
    out
}

fn collect(v: &serde_json::Value, out: &mut String) {
    match v {
        serde_json::Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
        serde_json::Value::Object(m) => {
            if let (Some(f), Some(l), Some(c)) = (m.get("file"), m.get("line"), m.get("column")) {
                out.push_str(&format!("{}:{l}:{c}: \n", f.as_str().unwrap_or("")));
            }
            m.values().for_each(|i| collect(i, out));
        }
        _ => {}
    }
}

/// The text of every `<failure>` and `<error>` of a JUnit report, read
/// with an XML parser, after its message.
fn junit(written: &str) -> String {
    let doc = roxmltree::Document::parse(written).unwrap();
    let mut out = String::new();
    for n in doc
        .descendants()
        .filter(|n| n.has_tag_name("failure") || n.has_tag_name("error"))
    {
        out += n.attribute("message").unwrap_or("");
        out.push('\n');
        out += n.text().unwrap_or("");
        out.push('\n');
    }
    out
}

/// A path as printed, and the line and column after it.
type Place = (String, (usize, usize));

/// The places `path:line:column` that `said` names in `file` (each with
/// the whole path printed, which ends with `file`), and any `line:column:`
/// after one of them on its line (a second position, inside an
/// expression).
fn places(said: &str, file: &str) -> (Vec<Place>, Vec<String>) {
    let mut found = Vec::new();
    let mut nested = Vec::new();
    for line in said.lines() {
        for (i, _) in line.match_indices(file) {
            let rest = &line[i + file.len()..];
            if let Some((at, after)) = place(rest) {
                let start = line[..i].rfind([' ', '(', '"', '\'', '>']).map_or(0, |b| b + 1);
                found.push((line[start..i + file.len()].to_string(), at));
                if let Some(second) = after.split(": ").skip(1).find(|p| place(&format!(":{p}")).is_some()) {
                    nested.push(format!("{line} (then {second})"));
                }
            }
        }
    }
    (found, nested)
}

/// `:line:column` at the start of `s`, and what follows it.
fn place(s: &str) -> Option<((usize, usize), &str)> {
    let s = s.strip_prefix(':')?;
    let (line, s) = s.split_once(':')?;
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (column, after) = s.split_at(end);
    Some(((line.parse().ok()?, column.parse().ok()?), after))
}

/// Whether `said` names `file` only at `at`, printed as `path` (any path
/// ending with `file` when `None`), and with no second position.
fn agree(kind: &str, file: &str, path: Option<&str>, at: (usize, usize), cmd: Cmd, said: &str) -> Result<(), String> {
    let (found, nested) = places(said, file);
    if found.is_empty() {
        return Err(format!("{kind}: {cmd:?} names no place in {file}:\n{said}"));
    }
    let right = |(p, a): &&Place| *a == at && path.is_none_or(|want| p == want);
    if let Some((p, other)) = found.iter().find(|f| !right(f)) {
        let want = path.unwrap_or(file);
        return Err(format!(
            "{kind}: {cmd:?} says {p}:{}:{}, not {want}:{}:{}:\n{said}",
            other.0, other.1, at.0, at.1
        ));
    }
    if !nested.is_empty() {
        return Err(format!("{kind}: {cmd:?} gives a second position: {nested:?}"));
    }
    Ok(())
}

#[test]
fn every_command_gives_a_windsor_mistake_one_place() {
    let mut wrong = Vec::new();
    for kind in WINDSOR {
        let dir = windsor(kind);
        for &cmd in kind.commands {
            let said = windsor_report(dir.path(), cmd);
            let path = format!("{PROJECT}/{}", kind.file);
            wrong.extend(agree(kind.name, kind.file, Some(&path), kind.at, cmd, &said).err());
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// A value the schema refuses: a warning of every command that reads the
/// values, a finding of check, at the value in the values file.
#[test]
fn a_value_the_schema_refuses_has_one_place() {
    let kind = Kind {
        name: "a value the schema refuses",
        file: VALUES,
        from: "dev: true",
        to: "dev: \"yes\"",
        at: (2, 1),
        // (`values` shows every value's place beside it: not an error.)
        commands: &[Render, Check, CheckJson, Sarif, Graph],
    };
    let dir = windsor(&kind);
    let mut wrong = Vec::new();
    for &cmd in kind.commands {
        let said = windsor_report(dir.path(), cmd);
        let path = format!("{PROJECT}/{}", kind.file);
        wrong.extend(agree(kind.name, kind.file, Some(&path), kind.at, cmd, &said).err());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The error's line of the file is under it, with a caret under the
/// part at fault, in place of the expression's own excerpt.
#[test]
fn the_excerpt_is_the_files_own_line() {
    let dir = windsor(&WINDSOR[0]);
    let said = windsor_report(dir.path(), Render);
    let expected = format!(
        "{PROJECT}/{FACET}:12:45: error: terraform[network].inputs.cidr: expected ')', found the end of the expression\n   |\n12 |       cidr: ${{network.cidr ?? (\"10.0.0.0/16\"}}\n   |                                             ^\n"
    );
    assert_eq!(said, expected);
    let dir = windsor(&WINDSOR[6]);
    let said = windsor_report(dir.path(), Render);
    let expected = format!(
        "{PROJECT}/{FACET}:9:4: error: invalid YAML: while parsing a block collection, did not find expected '-' indicator\n  |\n9 |    path: network/aws-vpc\n  |    ^\n"
    );
    assert_eq!(said, expected);
}

const BLUEPRINT: &str = "blueprint.yaml";

/// A Bluelink substitution that names nothing, written as `to`.
const BLUELINK: &[(&str, &str, (usize, usize))] = &[
    ("plain", "queueName: ${values.prefx}-${elem}", (60, 20)),
    (
        "double-quoted",
        "queueName: \"a\\tb ${values.prefx}-${elem}\"",
        (60, 26),
    ),
    (
        "block",
        "queueName: >-\n        a\n        ${values.prefx}-${elem}",
        (62, 11),
    ),
];

#[test]
fn every_command_gives_a_bluelink_mistake_one_place() {
    let mut wrong = Vec::new();
    for (name, to, at) in BLUELINK {
        let dir = tempfile::tempdir().unwrap();
        support::copy_tree(&support::examples().join("bluelink"), dir.path());
        change(&dir.path().join(BLUEPRINT), "queueName: ${values.prefix}-${elem}", to);
        let p = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
        let (bp, vars, ds) = (p(BLUEPRINT), p("blueprint.vars.yaml"), p("blueprint.datasources.yaml"));
        let report = dir.path().join("report.out");
        let r = report.to_str().unwrap();
        let d = dir.path().to_str().unwrap();
        let render = ["render", &bp, "--vars", &vars, "--datasources", &ds];
        let commands: [(Cmd, Vec<&str>); 6] = [
            (Render, render.to_vec()),
            (Check, vec!["check", d]),
            (Sarif, vec!["check", "--format", "sarif", d]),
            (Graph, vec!["graph", &bp]),
            (BatchJson, vec!["batch", d, "--report", r]),
            (BatchJunit, vec!["batch", d, "--report", r, "--report-format", "junit"]),
        ];
        for (cmd, args) in commands {
            let said = run(dir.path(), &args, cmd, &report);
            wrong.extend(agree(name, BLUEPRINT, None, *at, cmd, &said).err());
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The first `path:line:column` `said` prints: what an editor opens.
fn first_place(said: &str) -> Option<String> {
    let line = said.lines().map(str::trim_start).find(|l| l.contains(".yaml:"))?;
    let (path, rest) = line.split_once(".yaml:")?;
    let ((l, c), _) = place(&format!(":{rest}"))?;
    Some(format!("{path}.yaml:{l}:{c}"))
}

/// The project given as a relative folder, `./` before it, or absolute:
/// `render --project P`, `test`, `explain`, `values`, `graph`, `batch P`
/// and `check P` print the same path, P joined with the file's, which
/// opens from where bpvm ran.
#[test]
fn every_command_prints_the_project_folder_as_given() {
    let dir = windsor(&WINDSOR[0]);
    let absolute = dir.path().join(PROJECT).to_str().unwrap().to_string();
    let given = [
        (PROJECT.to_string(), PROJECT.to_string()),
        (format!("./{PROJECT}"), PROJECT.to_string()),
        (absolute.clone(), absolute),
    ];
    let mut wrong = Vec::new();
    for (p, printed) in &given {
        let want = format!("{printed}/{FACET}:12:45");
        // The printed path opens from where bpvm ran.
        assert!(dir.path().join(printed).join(FACET).is_file());
        for cmd in [Render, Test, Check, Explain, Values, Graph] {
            let said = windsor_report_on(dir.path(), p, cmd);
            if first_place(&said).as_deref() != Some(want.as_str()) {
                wrong.push(format!("{cmd:?} given {p}: wanted {want}, said:\n{said}"));
            }
        }
        let batch = windsor_report_on(dir.path(), p, BatchJson);
        if !batch.contains(&want) {
            wrong.push(format!("batch given {p}: wanted {want}, said:\n{batch}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
