//! `bpvm check` for Windsor templates: every expression of every facet
//! checked against the template's schema once, for every context at
//! once — paths nothing provides, operations the types rule out,
//! conditions that are constant or can never hold, config blocks nothing
//! reads, `dependsOn` names and files that are not there, and context
//! values the schema refuses.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("bpvm-check-doc-{}", std::process::id()));
//! let template = dir.join("contexts/_template");
//! std::fs::create_dir_all(template.join("facets")).unwrap();
//! std::fs::write(dir.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
//! std::fs::write(template.join("schema.yaml"),
//!     "type: object\nadditionalProperties: false\nproperties:\n  ha: {type: boolean, default: false}\n").unwrap();
//! std::fs::write(template.join("facets/ha.yaml"),
//!     "kind: Facet\nmetadata: {name: ha}\nwhen: ha == 'yes'\n").unwrap();
//! let found: Vec<String> = bpvm_windsor::check::check(&dir).iter().map(|f| f.to_string()).collect();
//! assert_eq!(found, [
//!     "contexts/_template/facets/ha.yaml:3:7: error[type-mismatch]: '==' compares bool with string: always false",
//! ]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod cycles;
mod depends;
mod document;
mod kept;
mod reach;
mod rules;
#[cfg(test)]
mod same_as_fresh;
mod schema;
mod scope;
mod test_keys;
mod values;

pub use kept::Kept;
pub use rules::WINDSOR as RULES;
pub use scope::set_by_windsor;

use crate::format::Format;
use crate::host::compiler_for;
use crate::load::project::{Project, TEMPLATE, files_under};
use bpvm_checker::rules::INVALID_TEMPLATE;
use bpvm_checker::{Checker, Finding, Rule, Ty};
use bpvm_compiler::Compiler;
use bpvm_runtime::Value;
use bpvm_runtime::locate::Located;
use bpvm_runtime::root::inputs::{Recorder, track};
use document::{Form, Site};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// Every finding about the Windsor project in `dir`, by file, line and
/// column. A project that does not load gives its load errors (as
/// `invalid-template`) and nothing else: its expressions are not known.
pub fn check(dir: &Path) -> Vec<Finding> {
    check_reusing(dir, &mut Kept::default())
}

/// [`check`], taking from `kept` what the last check through it read and
/// found that cannot have changed since: the facets whose bytes are the
/// same are not parsed and compiled again, and the findings about
/// context values and test files are taken as they were while none of
/// the files they were read from changed. The findings are the ones
/// [`check`] gives.
pub fn check_reusing(dir: &Path, kept: &mut Kept) -> Vec<Finding> {
    let recorder = Recorder::new();
    // Test cases' values are read beside the loading, and checked beside
    // the rest: reading them costs as much as loading the template. A
    // check that may take its findings about them as they were does not.
    let early = (!kept.has_values()).then(|| {
        let folder = dir.to_path_buf();
        let recorder = Arc::clone(&recorder);
        std::thread::spawn(move || track(&recorder, || tests_of(&folder)))
    });
    let project = match Project::load_reusing(dir, &mut kept.load) {
        Ok(p) => p,
        Err(errors) => return errors.0.into_iter().map(invalid).collect(),
    };
    let reused = kept.values(&project);
    let (mut findings, about_values) = std::thread::scope(|s| {
        let values = s.spawn(|| {
            if let Some(found) = reused {
                return (found, false);
            }
            let tests = match early {
                Some(thread) => thread.join().unwrap_or_default(),
                None => track(&recorder, || tests_of(dir)),
            };
            (track(&recorder, || about_values(&project, tests)), true)
        });
        let mut run = Run::new(&project, &kept.load);
        let files = run.files();
        run.unused_config(&files);
        let mut findings = run.findings;
        let (about_values, found) = values.join().unwrap_or_default();
        findings.extend(about_values.iter().cloned());
        findings.extend(unknown_fields(&project));
        (findings, found.then_some(about_values))
    });
    if let Some(found) = about_values {
        kept.keep_values(&project, recorder.inputs(), &found);
    }
    findings.sort_by(|a, b| (&a.file, a.line, a.column, a.rule.id).cmp(&(&b.file, b.line, b.column, b.rule.id)));
    findings.dedup();
    findings
}

/// Each test case's values, and each test file that does not read.
fn tests_of(dir: &Path) -> (Vec<crate::context::validate::Source>, Vec<crate::error::Error>) {
    bpvm_runtime::root::Root::new(dir, "project")
        .map(|root| values::tests(&root))
        .unwrap_or_default()
}

/// The findings about values and test files: context and test case
/// values against the schema, files that do not read, test files' keys.
fn about_values(
    project: &Project,
    (tests, unreadable): (Vec<crate::context::validate::Source>, Vec<crate::error::Error>),
) -> Vec<Finding> {
    let mut findings = values(project, tests);
    let unreadable = unreadable.into_iter().chain(values::unreadable_contexts(project));
    findings.extend(unreadable.map(invalid));
    findings.extend(test_keys::findings(project));
    findings
}

/// A load error as a finding, at the same place and with the same line
/// of the file as the error has; its message's first line.
fn invalid(e: crate::error::Error) -> Finding {
    let (line, column) = e.pos.unwrap_or((0, 0));
    let message = e.why().lines().next().unwrap_or_default().to_string();
    let mut f = Finding::new(&INVALID_TEMPLATE, e.file.unwrap_or_default(), e.at, message).at(line, column);
    if let Some(line) = e.source {
        let (source, width) = *line;
        f.source = Some(source);
        f.width = width;
    }
    f
}

/// The fields loading warned about as unknown (W13), each a finding.
fn unknown_fields(project: &Project) -> Vec<Finding> {
    let unknown = project
        .warnings
        .iter()
        .filter(|w| crate::fields::is_unknown_field(&w.message));
    unknown
        .map(|w| {
            let (line, column) = w.pos.unwrap_or((0, 0));
            let file = w.file.clone().unwrap_or_default();
            Finding::new(&rules::UNKNOWN_FIELD, file, w.at.clone(), w.message.clone()).at(line, column)
        })
        .collect()
}

/// One file of the template, as written.
struct File {
    name: String,
    text: String,
    doc: Arc<Value>,
    /// Where its paths are, read at the first finding.
    located: std::cell::OnceCell<Option<Located>>,
}

/// One check of a project.
struct Run<'p> {
    project: &'p Project,
    /// The files the project was loaded from, parsed.
    load: &'p crate::load::reuse::Reuse,
    v09: bool,
    compiler: Compiler,
    checker: Checker,
    scope: Ty,
    /// The first step of every path an expression reads.
    roots: BTreeSet<String>,
    /// Conditions (file, YAML path) with a type or enum finding: what
    /// they can give is that finding's story, not a second one.
    faulty: BTreeSet<(String, String)>,
    findings: Vec<Finding>,
}

impl<'p> Run<'p> {
    fn new(project: &'p Project, load: &'p crate::load::reuse::Reuse) -> Run<'p> {
        let v09 = matches!(project.format, Format::V09);
        let compiler = compiler_for(v09);
        Run {
            project,
            load,
            v09,
            compiler,
            checker: Checker::new(compiler),
            scope: scope::root(project.schema.as_ref(), &project.facets, v09),
            roots: BTreeSet::new(),
            faulty: BTreeSet::new(),
            findings: Vec::new(),
        }
    }

    /// The base blueprint, then each facet, as written.
    fn read(&self) -> Vec<File> {
        let mut names = vec![format!("{TEMPLATE}/blueprint.yaml")];
        names.extend(self.project.facets.iter().map(|f| f.file.clone()));
        let root = &self.project.root;
        names
            .into_iter()
            .filter_map(|name| {
                let text = root.read_string(root.dir(), &name).ok()?;
                let doc = match self.load.kept_document(&name, &text) {
                    Some(doc) => doc,
                    None => Arc::new(Value::from_yaml_as(&text, bpvm_runtime::Typing::GoYaml).ok()?),
                };
                Some(File {
                    name,
                    text,
                    doc,
                    located: std::cell::OnceCell::new(),
                })
            })
            .collect()
    }

    /// Checks every file; they are kept for the checks over all of them.
    fn files(&mut self) -> Vec<File> {
        let files = self.read();
        let mut names = depends::Names::default();
        let mut deps = Vec::new();
        for file in &files {
            for site in document::sites(&file.doc) {
                self.site(file, &site);
            }
            self.reach(file);
            deps.push(names.add(&file.doc));
        }
        for (file, deps) in files.iter().zip(&deps) {
            for d in deps.iter().filter(|d| !names.defines(d)) {
                let message = format!("{:?} names no {} component of the template", d.name, d.list);
                let span = (0, d.name.len() as u32);
                let mut f = self.finding(&rules::UNKNOWN_DEPENDENCY, file, &d.path, &d.name, span, message);
                if let Some(c) = names.closest(d) {
                    f = f.suggest(format!("{c:?}"));
                }
                self.findings.push(f);
            }
        }
        for c in cycles::cycles(&deps) {
            let file = &files[c.file];
            let span = (0, c.at.name.len() as u32);
            let f = self.finding(&rules::DEPENDENCY_CYCLE, file, &c.at.path, &c.at.name, span, c.message);
            self.findings.push(f);
        }
        files
    }

    /// A finding of `rule` at `span` of `src`, the value at `path` of `file`.
    fn finding(
        &self,
        rule: &'static Rule,
        file: &File,
        path: &str,
        src: &str,
        span: (u32, u32),
        message: String,
    ) -> Finding {
        let mut f = Finding::new(rule, &file.name, path, message);
        let located = file.located.get_or_init(|| Located::new(&file.text));
        let spot = located
            .as_ref()
            .and_then(|d| crate::texts::spot(&file.text, d, path, Some((src, span))));
        if let Some(spot) = spot {
            f = f.at(spot.line, spot.column);
            f.source = spot.source;
            f.width = spot.width;
        }
        f
    }

    /// Checks one expression: its issues, the files its calls name, the
    /// paths it reads.
    fn site(&mut self, file: &File, site: &Site) {
        let rewritten = if self.v09 && site.form != Form::Required {
            crate::template::shorthand::expand(&site.src)
        } else {
            None
        };
        let src = rewritten.as_deref().unwrap_or(&site.src);
        let checked = if site.form == Form::Template || src.contains("${") {
            self.checker.template(src, &self.scope)
        } else {
            self.checker.expression(src, &self.scope)
        };
        // Compile errors are the loader's; a requirement that is not an
        // expression is a path Windsor reads as written.
        let Ok(checked) = checked else { return };
        // Positions are in the text as written only when nothing was rewritten.
        let place = |span: (u32, u32)| if rewritten.is_some() { (0, 0) } else { span };
        if site.form == Form::Condition
            && checked
                .issues
                .iter()
                .any(|i| i.kind != bpvm_checker::IssueKind::UnknownPath)
        {
            self.faulty.insert((file.name.clone(), site.path.clone()));
        }
        for issue in &checked.issues {
            let mut f = self.finding(
                issue.kind.rule(),
                file,
                &site.path,
                &site.src,
                place(issue.span),
                issue.message.clone(),
            );
            if let Some(s) = &issue.suggestion {
                f = f.suggest(s.clone());
            }
            self.findings.push(f);
        }
        if site.form == Form::Condition {
            self.condition_type(file, site, &checked.ty);
        }
        for call in &checked.calls {
            if matches!(call.name.as_str(), "file" | "jsonnet") {
                self.file_call(file, site, &call.name, &call.arg, place(call.span));
            }
        }
        self.roots.extend(checked.roots);
    }

    /// A condition whose type can never be one Windsor reads as a truth.
    fn condition_type(&mut self, file: &File, site: &Site, ty: &Ty) {
        use bpvm_runtime::Kind;
        let kinds = ty.kinds();
        if *ty == Ty::Any || kinds.has(Kind::Bool) || kinds.has(Kind::Nil) || kinds.has(Kind::Str) {
            return;
        }
        let message = format!(
            "a condition must give a bool, got {}",
            kinds.describe(bpvm_runtime::Vocabulary::Expr)
        );
        let span = (0, site.src.len() as u32);
        let f = self.finding(
            &bpvm_checker::rules::TYPE_MISMATCH,
            file,
            &site.path,
            &site.src,
            span,
            message,
        );
        self.findings.push(f);
    }

    /// `file("x")` or `jsonnet("x")` naming no file (relative to the facet).
    fn file_call(&mut self, file: &File, site: &Site, name: &str, arg: &str, span: (u32, u32)) {
        let root = &self.project.root;
        let dir = Path::new(&file.name).parent().unwrap_or(Path::new(""));
        let from = root.dir().join(dir);
        if let Err(e) = root.file(&from, arg) {
            use bpvm_runtime::root::Refusal;
            let message = match e.refusal {
                Refusal::Missing => format!(
                    "{name}({arg:?}) reads {:?}, which is not there",
                    slashed(&dir.join(arg))
                ),
                // Named relative to the project: the same on every machine.
                Refusal::Outside(_) => format!(
                    "{name}({arg:?}) reads outside the project, which a render refuses (files are read only inside it)"
                ),
                _ => format!("{name}() cannot read {e}"),
            };
            let f = self.finding(&rules::MISSING_FILE, file, &site.path, &site.src, span, message);
            self.findings.push(f);
        }
    }

    /// Conditions decided over the schema's values: the facet's, then each
    /// component's and config block's together with the facet's.
    fn reach(&mut self, file: &File) {
        let Some(schema) = self.project.schema.as_ref() else {
            return;
        };
        let Some(m) = file.doc.as_map() else { return };
        let mut reach = reach::Reach::new(schema, self.compiler, self.v09);
        let when = |m: &bpvm_runtime::Map| match m.get("when") {
            Some(Value::Str(s)) if !s.trim().is_empty() => Some(s.to_string()),
            Some(Value::Bool(b)) => Some(b.to_string()),
            _ => None,
        };
        let facet = when(m);
        if let Some(w) = &facet
            && self.constant(&mut reach, file, "when", w, true) == Some(false)
        {
            return;
        }
        for list in ["terraform", "kustomize", "config", "flux"] {
            let Some(Value::List(items)) = m.get(list) else {
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let Some(own) = item.as_map().and_then(when) else {
                    continue;
                };
                let path = format!("{list}[{i}].when");
                if self.constant(&mut reach, file, &path, &own, false).is_some() {
                    continue;
                }
                if let Some(fw) = &facet
                    && let Some(both) = reach.table(&[fw, &own])
                    && !both.all_can_hold()
                {
                    let message = format!("`{own}` never holds when the facet's `{fw}` does: never included");
                    self.push_when(file, &path, &own, &rules::UNREACHABLE, message);
                }
            }
        }
    }

    /// What the condition `src` at `path` always gives, if it is decided,
    /// reported as `constant-when` (true) or `unreachable` (false); `facet`
    /// when it is the facet's own.
    fn constant(
        &mut self,
        reach: &mut reach::Reach<'_>,
        file: &File,
        path: &str,
        src: &str,
        facet: bool,
    ) -> Option<bool> {
        let always = reach.table(&[src])?.constant(0)?;
        let (rule, message) = match (always, facet) {
            (true, true) => (&rules::CONSTANT_WHEN, "; the facet needs no condition"),
            (true, false) => (&rules::CONSTANT_WHEN, "; it needs no condition"),
            (false, true) => (&rules::UNREACHABLE, ": the facet is never included"),
            (false, false) => (&rules::UNREACHABLE, ": never included"),
        };
        let message = format!("`{src}` is {always} for every value the schema allows{message}");
        self.push_when(file, path, src, rule, message);
        Some(always)
    }

    fn push_when(&mut self, file: &File, path: &str, src: &str, rule: &'static Rule, message: String) {
        if self.faulty.contains(&(file.name.clone(), path.to_string())) {
            return;
        }
        let f = self.finding(rule, file, path, src, (0, src.len() as u32), message);
        self.findings.push(f);
    }

    /// Config blocks that no expression, requirement or Jsonnet file reads.
    fn unused_config(&mut self, files: &[File]) {
        let jsonnet = self.jsonnet_texts();
        for facet in &self.project.facets {
            let Some(file) = files.iter().find(|f| f.name == facet.file) else {
                continue;
            };
            for (i, block) in facet.config.iter().enumerate() {
                let first = block.name.split('.').next().unwrap_or(&block.name);
                if self.roots.contains(first) || jsonnet.iter().any(|t| mentions(t, first)) {
                    continue;
                }
                let message = format!("config block {:?} is read by no expression of the template", block.name);
                let span = (0, block.name.len() as u32);
                let f = self.finding(
                    &rules::UNUSED_CONFIG,
                    file,
                    &format!("config[{i}].name"),
                    &block.name,
                    span,
                    message,
                );
                self.findings.push(f);
            }
        }
    }

    /// The texts of the template's Jsonnet files (they see the whole scope).
    fn jsonnet_texts(&self) -> Vec<String> {
        let root = &self.project.root;
        let mut files = Vec::new();
        let _ = files_under(root, TEMPLATE, &[".jsonnet", ".libsonnet"], &mut files);
        files
            .iter()
            .filter_map(|f| root.read_string(root.dir(), f).ok())
            .collect()
    }
}

/// Context values and test cases' values against the schema (each test
/// case alone, each context as a render sees it).
fn values(project: &Project, tests: Vec<crate::context::validate::Source>) -> Vec<Finding> {
    use crate::context::validate::{check, checker, invalid_pattern, sources};
    // A schema that is not one is reported once, values or not.
    if let Some(Err(e)) = checker(project) {
        return vec![invalid(e)];
    }
    if let Some(e) = invalid_pattern(project) {
        return vec![invalid(e)];
    }
    let mut found = Vec::new();
    let contexts = project.contexts().into_iter().map(|name| sources(project, &name));
    for given in contexts.chain(tests.into_iter().map(|t| vec![t])) {
        match check(project, &given) {
            Ok(mut f) => found.append(&mut f),
            Err(e) => return vec![invalid(e)],
        }
    }
    found
        .into_iter()
        .map(|v| {
            let place = if v.inner.is_empty() { "the values" } else { &v.inner };
            let message = format!("{place}: {}", v.message);
            let mut f = Finding::new(&rules::SCHEMA_VIOLATION, v.file, v.at, message);
            if let Some((line, column)) = v.pos {
                f = f.at(line, column);
            }
            match v.suggestion {
                Some(s) => f.suggest(s),
                None => f,
            }
        })
        .collect()
}

/// Whether `text` has `word` not inside a longer name.
fn mentions(text: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}

fn slashed(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}
