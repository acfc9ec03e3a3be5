//! Code generation, folding and the peephole pass, checked against golden
//! disassembly: each case of `tests/golden/*.txt` is compiled and its
//! program printed by `bpvm_vm::disassemble` (what `bpvm eval --disasm`
//! prints) must be the text written under it, so that a change of the
//! instructions made shows as a diff of that text.
//!
//! A case file is comments (`#`), blank lines and cases:
//!
//! ```text
//! # Why the case is there.
//! == a_lone_string_equality_is_a_decision
//! source: provider == 'aws'
//! dialect: windsor
//! --
//! 0000  JumpUnless 0 == 0 -> 0003     ; provider == "aws" (string)
//! 0001  True
//! …
//! ```
//!
//! `source:` may be `template:` (a host string with `${…}` parts);
//! `dialect:` is `windsor` or `bluelink`; an optional `logic:` names one
//! or both of `windsor` (the default) and `expr-lang`, each of which must
//! give the text; an optional `optimise: off` turns folding and the
//! peephole pass off. The text runs from `--` to the next blank line. Each case is its own test,
//! `<file>::<name>`. `BPVM_BLESS=1 cargo test -p bpvm-compiler --test golden`
//! rewrites the text of every case with what the compiler makes now.

use bpvm_compiler::{Compiler, Dialect, Logic};
use libtest_mimic::{Arguments, Failed, Trial};
use similar::TextDiff;
use std::path::{Path, PathBuf};

/// One compiled expression (or template) and the disassembly it must give.
#[derive(Clone, Debug)]
struct Case {
    name: String,
    /// `file:line` of the case's `==` line, for messages.
    at: String,
    source: String,
    template: bool,
    dialect: Dialect,
    /// Every one must print `expected` (the first is what blessing writes).
    logics: Vec<Logic>,
    optimise: bool,
    expected: String,
    /// The lines of its file that hold `expected` (blessing replaces them).
    lines: std::ops::Range<usize>,
}

/// A case file as read: its lines and the cases among them.
struct CaseFile {
    path: PathBuf,
    lines: Vec<String>,
    cases: Vec<Case>,
}

impl CaseFile {
    fn read(path: &Path) -> Result<CaseFile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", shown(path)))?;
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let cases = parse(path, &lines)?;
        Ok(CaseFile {
            path: path.to_path_buf(),
            lines,
            cases,
        })
    }

    /// The file's stem, which names its cases' tests.
    fn area(&self) -> String {
        self.path.file_stem().unwrap_or_default().to_string_lossy().into_owned()
    }

    /// The file with each case's text replaced by what it compiles to now.
    fn blessed(&self) -> String {
        let mut out = String::new();
        let mut next = 0;
        for case in &self.cases {
            for line in &self.lines[next..case.lines.start] {
                out.push_str(line);
                out.push('\n');
            }
            let first = case.logics.first().copied().unwrap_or_default();
            out.push_str(&case.disassembly(first));
            next = case.lines.end;
        }
        for line in &self.lines[next..] {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// `path` as named from the workspace's root (`compiler/tests/golden/…`).
fn shown(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new(""));
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

/// The cases of a file's `lines`, each checked for a name, a source and a
/// dialect; unknown keys and stray lines are errors, not skipped.
fn parse(path: &Path, lines: &[String]) -> Result<Vec<Case>, String> {
    let file = shown(path);
    let mut cases: Vec<Case> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let at = format!("{file}:{}", i + 1);
        let line = lines[i].trim_end();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(name) = line.strip_prefix("== ") else {
            return Err(format!("{at}: expected a case (`== name`), found {line:?}"));
        };
        let name = name.trim().to_string();
        if cases.iter().any(|c| c.name == name) {
            return Err(format!("{at}: a second case named {name}"));
        }
        let (mut source, mut template, mut dialect) = (None, false, None);
        let (mut logics, mut optimise) = (vec![Logic::Windsor], true);
        loop {
            let Some(line) = lines.get(i).map(|l| l.trim_end()) else {
                return Err(format!("{at}: {name} has no `--` and expected disassembly"));
            };
            i += 1;
            if line == "--" {
                break;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(format!("{file}:{i}: expected `key: value` or `--`, found {line:?}"));
            };
            let value = value.trim();
            let bad = || format!("{file}:{i}: {key}: {value:?} is not one of the values allowed");
            match key {
                "source" | "template" => {
                    source = Some(value.to_string());
                    template = key == "template";
                }
                "dialect" => {
                    dialect = Some(match value {
                        "windsor" => Dialect::Windsor,
                        "bluelink" => Dialect::Bluelink,
                        _ => return Err(bad()),
                    })
                }
                "logic" => {
                    logics = value
                        .split(',')
                        .map(|l| match l.trim() {
                            "windsor" => Ok(Logic::Windsor),
                            "expr-lang" => Ok(Logic::ExprLang),
                            _ => Err(bad()),
                        })
                        .collect::<Result<_, _>>()?
                }
                "optimise" => {
                    optimise = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(format!("{file}:{i}: unknown key {key:?}")),
            }
        }
        let (Some(source), Some(dialect)) = (source, dialect) else {
            return Err(format!("{at}: {name} needs a source (or template) and a dialect"));
        };
        let start = i;
        while lines.get(i).is_some_and(|l| !l.trim().is_empty()) {
            i += 1;
        }
        let expected: String = lines[start..i].iter().map(|l| format!("{}\n", l.trim_end())).collect();
        cases.push(Case {
            name,
            at,
            source,
            template,
            dialect,
            logics,
            optimise,
            expected,
            lines: start..i,
        });
    }
    Ok(cases)
}

impl Case {
    /// What the compiler makes of the case under `logic`, disassembled;
    /// a compile error as `error: line:column: message`.
    fn disassembly(&self, logic: Logic) -> String {
        let compiler = Compiler::new(self.dialect).logic(logic).optimize(self.optimise);
        let compiled = if self.template {
            compiler.compile_template(&self.source)
        } else {
            compiler.compile(&self.source)
        };
        match compiled {
            Ok(prog) => bpvm_vm::disassemble(&prog),
            Err(e) => {
                let (line, column) = e.line_col();
                format!("error: {line}:{column}: {}\n", e.message)
            }
        }
    }

    /// Passes when every logic the case names gives its text.
    fn check(&self) -> Result<(), Failed> {
        for (n, &logic) in self.logics.iter().enumerate() {
            let actual = self.disassembly(logic);
            if actual == self.expected {
                continue;
            }
            let diff = TextDiff::from_lines(&self.expected, &actual)
                .unified_diff()
                .header("expected", "compiled")
                .to_string();
            // Blessing writes the first logic's code: it cannot make two agree.
            let remedy = if n == 0 {
                "BPVM_BLESS=1 cargo test -p bpvm-compiler --test golden rewrites it"
            } else {
                "every logic the case names must give the same code"
            };
            let logic = match logic {
                Logic::Windsor => "windsor",
                Logic::ExprLang => "expr-lang",
            };
            return Err(format!(
                "{}: {} under {logic} logic differs from its expected disassembly ({remedy}):\n{diff}",
                self.at, self.name
            )
            .into());
        }
        Ok(())
    }
}

/// Every `.txt` file of `tests/golden`, in name order.
fn case_files() -> Vec<CaseFile> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    let files: Vec<CaseFile> = paths
        .iter()
        .map(|p| CaseFile::read(p).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    // A folder emptied by mistake must not pass as "no case failed".
    assert!(
        files.iter().any(|f| !f.cases.is_empty()),
        "{} holds no case",
        dir.display()
    );
    files
}

fn main() {
    let args = Arguments::from_args();
    let mut files = case_files();
    if std::env::var_os("BPVM_BLESS").is_some_and(|v| !v.is_empty() && v != "0") {
        for file in &files {
            std::fs::write(&file.path, file.blessed()).unwrap_or_else(|e| panic!("{}: {e}", shown(&file.path)));
        }
        files = case_files();
    }
    let trials = files
        .iter()
        .flat_map(|file| {
            let area = file.area();
            file.cases.iter().map(move |case| {
                let case = case.clone();
                Trial::test(format!("{area}::{}", case.name), move || case.check())
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
