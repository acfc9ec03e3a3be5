//! The template's test suites: `contexts/_template/tests/**/*.test.yaml`,
//! each case a context's values, optional terraform outputs, and what the
//! rendered blueprint must contain (`expect`, a subset match), must not
//! contain (`exclude`), or that rendering must fail (`expectError`).
//!
//! Built on renders: imports `render`, `context`, `load` and the rooms
//! before them; `expect` holds the v0.9 runner's checks.

mod expect;
pub mod keys;
mod masked;

use crate::context::scope::{Values, context};
use crate::error::{Error, Errors};
use crate::load::project::{Project, TEMPLATE, files_under, read_yaml};
use crate::render::outcome::Options;
use crate::render::render;
use crate::template::secrecy::Secrets;
use bpvm_runtime::Value;
use bpvm_runtime::root::Kind;
use bpvm_runtime::{Map, text};

/// One test case.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file it is in, relative to the project.
    pub file: String,
    /// Its name.
    pub name: String,
    /// Its place in the file's `cases` list.
    pub index: usize,
    values: Value,
    outputs: Option<Value>,
    /// What `env(name)` sees: the case's `env`, and `WINDSOR_CONTEXT`
    /// (`test`) unless it sets it, nothing from the process (as Windsor).
    environment: Map,
    expect: Option<Map>,
    exclude: Option<Map>,
    expect_error: bool,
    /// `applySchemaDefaults` (v0.9 rules, W12): defaults only when set.
    apply_defaults: bool,
    /// What the case says that no rule checks (expectation keys Windsor's
    /// runner ignores), placed in the test file.
    pub warnings: Vec<Error>,
}

/// The test files under `paths` (files or folders, relative to the
/// project; the template's `tests/` folder when none are given).
pub fn discover(project: &Project, paths: &[String]) -> Result<Vec<Case>, Errors> {
    // Every error placed, those that stop the listing too.
    cases(project, paths).map_err(|mut errors| {
        crate::error::locate(&project.root, &mut errors);
        errors
    })
}

fn cases(project: &Project, paths: &[String]) -> Result<Vec<Case>, Errors> {
    let mut files = Vec::new();
    let roots: Vec<String> = if paths.is_empty() {
        vec![format!("{TEMPLATE}/tests")]
    } else {
        paths.to_vec()
    };
    let root = &project.root;
    for rel in &roots {
        match root.kind(root.dir(), rel) {
            Ok(Kind::Folder) => files_under(root, rel, &[".test.yaml"], &mut files)?,
            Ok(_) => files.push(rel.clone()),
            Err(e) if e.is_missing() => {
                return Err(Error::new(Some(rel), "", "no such test file or folder").into());
            }
            Err(e) => return Err(Error::new(Some(rel), "", format!("cannot read: {e}")).into()),
        }
    }
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for file in &files {
        let doc = match read_yaml(&project.root, file) {
            Ok(Some(d)) => d,
            Ok(None) => {
                errors.push(Error::new(
                    Some(file),
                    "",
                    "cannot read: it was removed after it was listed",
                ));
                continue;
            }
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let Some(Value::List(list)) = doc.as_map().and_then(|m| m.get("cases")) else {
            errors.push(Error::new(Some(file), "cases", "a test file needs a list of cases"));
            continue;
        };
        let warnings = key_problems(project, file, &doc, &mut errors);
        for (i, c) in list.iter().enumerate() {
            let Some(m) = c.as_map() else {
                errors.push(Error::new(
                    Some(file),
                    format!("cases[{i}]"),
                    "a case must be a mapping",
                ));
                continue;
            };
            let warnings = warnings
                .iter()
                .filter(|(c, _)| *c == Some(i))
                .map(|(_, w)| w.clone())
                .collect();
            cases.push(case(file, i, m, warnings));
        }
    }
    let mut errors = Errors::new(errors);
    crate::error::locate(&project.root, &mut errors);
    // By file, then in the order they are written.
    errors.0.sort_by(|a, b| (&a.file, a.pos).cmp(&(&b.file, b.pos)));
    if errors.0.is_empty() { Ok(cases) } else { Err(errors) }
}

/// The test file's unknown keys and duplicate names (errors, into
/// `errors`), and its ignored expectation keys: warnings, located, by case.
fn key_problems(project: &Project, file: &str, doc: &Value, errors: &mut Vec<Error>) -> Vec<(Option<usize>, Error)> {
    let v09 = matches!(project.format, crate::format::Format::V09);
    let mut ignored = Vec::new();
    let mut cases = Vec::new();
    for p in keys::problems(doc, v09) {
        let e = Error::new(Some(file), p.at, p.message);
        if p.kind == keys::Kind::Ignored {
            cases.push(p.case);
            ignored.push(e);
        } else {
            errors.push(e);
        }
    }
    let mut ignored = Errors::new(ignored);
    crate::error::locate(&project.root, &mut ignored);
    cases.into_iter().zip(ignored.0).collect()
}

/// Case `i` of `file`, read from its map.
fn case(file: &str, i: usize, m: &Map, warnings: Vec<Error>) -> Case {
    let name = m.get("name").and_then(Value::as_str).unwrap_or("").to_string();
    let map_of = |k: &str| m.get(k).and_then(Value::as_map).cloned();
    Case {
        file: file.to_string(),
        index: i,
        name: if name.is_empty() {
            format!("case {}", i + 1)
        } else {
            name
        },
        values: coerce_values(m.get("values")),
        outputs: m.get("terraformOutputs").cloned().filter(|v| !matches!(v, Value::Null)),
        environment: environment(m.get("env")),
        expect: map_of("expect"),
        exclude: map_of("exclude"),
        expect_error: matches!(m.get("expectError"), Some(Value::Bool(true))),
        apply_defaults: matches!(m.get("applySchemaDefaults"), Some(Value::Bool(true))),
        warnings,
    }
}

/// A case's `env`, as text, over `WINDSOR_CONTEXT=test`.
fn environment(v: Option<&Value>) -> Map {
    let mut vars = Map::new();
    vars.insert("WINDSOR_CONTEXT", Value::Str("test".into()));
    for (k, v) in v.and_then(Value::as_map).into_iter().flat_map(|m| m.iter()) {
        let text = match v {
            Value::Str(s) => s.clone(),
            other => text::to_text(other).into(),
        };
        vars.insert(k.as_str(), Value::Str(text));
    }
    vars
}

/// A case's values: dotted keys set nested values, and top-level strings
/// that read as booleans or numbers become them.
fn coerce_values(v: Option<&Value>) -> Value {
    let mut out = Value::Map(Map::new());
    let Some(m) = v.and_then(Value::as_map) else { return out };
    for (k, v) in m.iter() {
        let v = match v {
            Value::Str(s) => match &**s {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                t => t
                    .parse::<i64>()
                    .map(Value::Int)
                    .or_else(|_| t.parse::<f64>().map(Value::Float))
                    .unwrap_or_else(|_| v.clone()),
            },
            other => other.clone(),
        };
        let mut nested = v;
        for step in k
            .as_str()
            .rsplit('.')
            .collect::<Vec<_>>()
            .into_iter()
            .take(k.as_str().split('.').count() - 1)
        {
            let mut m = Map::new();
            m.insert(step, nested);
            nested = Value::Map(m);
        }
        let first = k.as_str().split('.').next().unwrap_or("");
        let mut top = Map::new();
        top.insert(first, nested);
        crate::blueprint::merge::deep_merge(&mut out, Value::Map(top));
    }
    out
}

impl Case {
    /// The context values the case renders with.
    pub fn values(&self) -> &Value {
        &self.values
    }

    /// The variables `env(name)` sees in the case: its `env`, over
    /// `WINDSOR_CONTEXT=test`.
    pub fn environment(&self) -> &Map {
        &self.environment
    }

    /// The terraform outputs the case supplies, if any.
    pub fn outputs(&self) -> Option<&Value> {
        self.outputs.as_ref()
    }

    /// `expectError`: the case passes when the render fails.
    pub fn expects_error(&self) -> bool {
        self.expect_error
    }
}

/// What one case found wrong (empty: it passed). `defaults` applies the
/// schema's defaults to seed-format cases (W7); a v0.9 case applies them
/// when it sets `applySchemaDefaults` (W12).
/// What a case prints masks the values computed from a sensitive value
/// ([`run_with`] shows them); what it compares is the real values.
pub fn run(project: &Project, case: &Case, defaults: bool) -> Vec<String> {
    run_with(project, case, defaults, Secrets::Masked)
}

/// [`run`], what it prints showing values computed from a sensitive value
/// when `secrets` is [`Secrets::Shown`].
pub fn run_with(project: &Project, case: &Case, defaults: bool, secrets: Secrets) -> Vec<String> {
    if matches!(project.format, crate::format::Format::V09) {
        return run_v09(project, case, secrets);
    }
    let ctx = match context(project, "test", Values::Given(case.values.clone()), defaults) {
        Ok(c) => c,
        Err(e) => return vec![format!("context: {}", e.described())],
    };
    let opts = case_options(case, secrets);
    let result = render(project, "test", ctx.clone(), &opts)
        .map_err(|e| described(&e))
        .and_then(|r| mocked_reads_composed(&r).map(|()| r));
    match (result, case.expect_error) {
        (Err(_), true) => Vec::new(),
        (Ok(_), true) => vec!["expected the render to fail, but it succeeded".into()],
        (Err(e), false) => vec![format!("render failed: {e}")],
        (Ok(r), false) => {
            let mut diffs = Vec::new();
            if let Some(expect) = &case.expect {
                expected(&r.blueprint, expect, &mut diffs);
            }
            if let Some(exclude) = &case.exclude {
                excluded(&r.blueprint, exclude, &mut diffs);
            }
            if secrets != Secrets::Shown {
                masked::mask(project, &ctx, &opts, &r.blueprint, &mut diffs);
            }
            diffs
        }
    }
}

/// The render options of `case`: its mocked outputs and environment, its
/// values as the operator's, secrets as `secrets` compares them.
fn case_options(case: &Case, secrets: Secrets) -> Options {
    Options {
        outputs: case.outputs.clone(),
        environment: Some(case.environment.clone()),
        operator: Some(case.values.clone()),
        secrets: compared(secrets),
        ..Default::default()
    }
}

/// Each of `errors` inside a case's failure, without a severity.
fn described(errors: &Errors) -> String {
    errors.0.iter().map(Error::described).collect::<Vec<_>>().join("\n")
}

/// A case by Windsor v0.9's runner: the structural checks, then `expect`
/// and `exclude` by its matching rules; a case that mocks terraform
/// outputs fails when a mocked read names a component that is not composed.
fn run_v09(project: &Project, case: &Case, secrets: Secrets) -> Vec<String> {
    let opts = case_options(case, secrets);
    let ctx = match context(project, "test", Values::Given(case.values.clone()), case.apply_defaults) {
        Ok(c) => c,
        Err(e) => return vec![format!("context: {}", e.described())],
    };
    let composed = render(project, "test", ctx.clone(), &opts)
        .map_err(|e| format!("composition error: {}", described(&e)))
        .and_then(|r| mocked_reads_composed(&r).map(|()| r.blueprint));
    match (composed, case.expect_error) {
        (Err(_), true) => Vec::new(),
        (Ok(_), true) => vec!["expected composition to fail, but it succeeded".into()],
        (Err(e), false) => vec![e],
        (Ok(bp), false) => {
            let mut diffs = crate::test::expect::structural(&bp);
            diffs.extend(crate::test::expect::check(
                &bp,
                case.expect.as_ref(),
                case.exclude.as_ref(),
            ));
            if secrets != Secrets::Shown {
                masked::mask(project, &ctx, &opts, &bp, &mut diffs);
            }
            diffs
        }
    }
}

/// A case compares real values; errors from secrets show as `secrets` says.
fn compared(secrets: Secrets) -> Secrets {
    match secrets {
        Secrets::Shown => Secrets::Shown,
        Secrets::Masked | Secrets::Compared => Secrets::Compared,
    }
}

/// An error when a `terraform_output()` read of mocked outputs names a
/// component the render did not compose — Windsor v0.9's runner fails
/// such a case as `windsor bootstrap` would; the seed rules' runner does
/// the same (a mock of nothing composed is a test that cannot pass).
fn mocked_reads_composed(r: &crate::render::Rendered) -> Result<(), String> {
    let ids: Vec<&str> = items(&r.blueprint, "terraform")
        .into_iter()
        .flat_map(|c| [text_field(c, "name"), text_field(c, "path")])
        .flatten()
        .collect();
    let mut unknown: Vec<&str> = r
        .asked
        .iter()
        .map(String::as_str)
        .filter(|a| !ids.contains(a))
        .collect();
    unknown.sort_unstable();
    match unknown.is_empty() {
        true => Ok(()),
        false => Err(format!("component not found: {}", unknown.join(", "))),
    }
}

fn items<'v>(bp: &'v Value, key: &str) -> Vec<&'v Map> {
    match bp.as_map().and_then(|m| m.get(key)) {
        Some(Value::List(l)) => l.iter().filter_map(Value::as_map).collect(),
        _ => Vec::new(),
    }
}

fn text_field<'m>(m: &'m Map, k: &str) -> Option<&'m str> {
    m.get(k).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Terraform components match by name or by path; kustomizations by name.
fn find<'v>(bp: &'v Value, key: &str, want: &Map) -> Option<&'v Map> {
    let (name, path) = (text_field(want, "name"), text_field(want, "path"));
    items(bp, key).into_iter().find(|c| {
        (name.is_some() && text_field(c, "name") == name)
            || (key == "terraform" && path.is_some() && text_field(c, "path") == path)
    })
}

fn label(want: &Map) -> String {
    text_field(want, "name")
        .or(text_field(want, "path"))
        .unwrap_or("?")
        .to_string()
}

fn expected(bp: &Value, expect: &Map, diffs: &mut Vec<String>) {
    for key in ["terraform", "kustomize"] {
        let Some(Value::List(wants)) = expect.get(key) else {
            continue;
        };
        for want in wants.iter().filter_map(Value::as_map) {
            let id = label(want);
            let Some(got) = find(bp, key, want) else {
                diffs.push(format!("{key}[{id}]: not in the blueprint"));
                continue;
            };
            for field in ["path", "source"] {
                if let Some(w) = text_field(want, field)
                    && text_field(got, field) != Some(w)
                {
                    diffs.push(format!(
                        "{key}[{id}].{field}: expected {w:?}, got {:?}",
                        text_field(got, field).unwrap_or("")
                    ));
                }
            }
            let lists: &[&str] = if key == "terraform" {
                &["dependsOn"]
            } else {
                &["dependsOn", "components"]
            };
            for field in lists {
                let have = match got.get(field) {
                    Some(Value::List(l)) => l.clone(),
                    _ => Vec::new(),
                };
                if let Some(Value::List(w)) = want.get(field) {
                    for item in w {
                        if !have.contains(item) {
                            diffs.push(format!("{key}[{id}].{field}: missing {}", item.to_json()));
                        }
                    }
                }
            }
            if let Some(Value::Map(w)) = want.get("inputs") {
                let have = got.get("inputs");
                for (k, wv) in w.iter() {
                    match have.and_then(Value::as_map).and_then(|m| m.get(k.as_str())) {
                        None => diffs.push(format!("{key}[{id}].inputs.{}: missing", k.as_str())),
                        Some(hv) if !subset(wv, hv) => diffs.push(format!(
                            "{key}[{id}].inputs.{}: expected {}, got {}",
                            k.as_str(),
                            wv.to_json(),
                            hv.to_json()
                        )),
                        Some(_) => {}
                    }
                }
            }
            if let Some(Value::Map(w)) = want.get("substitutions") {
                let have = got.get("substitutions").and_then(Value::as_map);
                for (k, wv) in w.iter() {
                    let wt = text::to_text(wv);
                    match have.and_then(|m| m.get(k.as_str())) {
                        None => diffs.push(format!("{key}[{id}].substitutions.{}: missing", k.as_str())),
                        Some(hv) if text::to_text(hv) != wt => diffs.push(format!(
                            "{key}[{id}].substitutions.{}: expected {wt:?}, got {:?}",
                            k.as_str(),
                            text::to_text(hv)
                        )),
                        Some(_) => {}
                    }
                }
            }
        }
    }
}

/// `want` is in `have`: maps by key (subset), lists position by
/// position, scalars equal or equal as text (`2`, `2.0`, `"2"`).
fn subset(want: &Value, have: &Value) -> bool {
    match (want, have) {
        (Value::Map(w), Value::Map(h)) => w
            .iter()
            .all(|(k, wv)| h.get(k.as_str()).is_some_and(|hv| subset(wv, hv))),
        (Value::List(w), Value::List(h)) => w.len() == h.len() && w.iter().zip(h).all(|(a, b)| subset(a, b)),
        (Value::Map(_) | Value::List(_), _) | (_, Value::Map(_) | Value::List(_)) => false,
        (a, b) => a == b || text::to_text(a) == text::to_text(b),
    }
}

fn excluded(bp: &Value, exclude: &Map, diffs: &mut Vec<String>) {
    for key in ["terraform", "kustomize"] {
        let Some(Value::List(wants)) = exclude.get(key) else {
            continue;
        };
        for want in wants.iter().filter_map(Value::as_map) {
            if find(bp, key, want).is_some() {
                diffs.push(format!("{key}[{}]: should not be in the blueprint", label(want)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_coerce_and_nest() {
        let v = Value::from_yaml("{cluster.driver: talos, dev: 'true', n: '3', s: text}").unwrap();
        assert_eq!(
            coerce_values(Some(&v)).to_json(),
            r#"{"cluster":{"driver":"talos"},"dev":true,"n":3,"s":"text"}"#
        );
    }

    #[test]
    fn subset_matching() {
        let v = |y: &str| Value::from_yaml(y).unwrap();
        assert!(subset(&v("{a: 1}"), &v("{a: 1, b: 2}")));
        assert!(subset(&v("[{a: 1}]"), &v("[{a: 1, b: 2}]")));
        assert!(!subset(&v("[{a: 1}]"), &v("[{a: 1}, {a: 2}]")));
        assert!(subset(&v("2"), &v("'2'")));
        assert!(subset(&v("2"), &v("2.0")));
        assert!(!subset(&v("{a: 1}"), &v("1")));
    }
}
