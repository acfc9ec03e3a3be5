//! A context's values checked against the template's `schema.yaml`, as
//! Windsor v0.9 checks `values.yaml` on every load: each value the schema
//! refuses, at the file, line and column that sets it, with its YAML path,
//! what the schema wants and, for a misspelt key, the closest one it
//! allows. Renders report them as warnings (Windsor loads anyway); `bpvm
//! check` as `schema-violation` findings.

use crate::error::Error;
use crate::load::project::{Project, TEMPLATE, read_yaml};
use crate::load::schema::{Checker, yaml_path};
use crate::template::secrecy::{MASK, Secrecy, Secrets};
use bpvm_runtime::Value;

/// Values from one place, as part of what a context is given.
pub struct Source {
    /// The file, relative to the project.
    pub file: String,
    /// The YAML path of the values in the file (empty: the whole file).
    pub at: String,
    /// The values.
    pub values: Value,
    /// Whether a key the schema does not know is reported here: not in a
    /// context's `windsor.yaml`, whose settings Windsor reads besides the
    /// schema's.
    pub unknown_keys: bool,
}

/// One value the schema refuses, where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The file, relative to the project.
    pub file: String,
    /// Its YAML path in the file.
    pub at: String,
    /// Its YAML path in the values (what the schema describes).
    pub inner: String,
    /// What is wrong.
    pub message: String,
    /// The closest name the schema allows, quoted.
    pub suggestion: Option<String>,
    /// Line and column of `at` (or as far as it is written).
    pub pos: Option<(usize, usize)>,
}

impl Found {
    /// As a warning of a render: `file:line:column: path: what; did you mean x?`.
    pub fn to_error(&self) -> Error {
        let mut message = self.message.clone();
        if let Some(s) = &self.suggestion {
            message.push_str(&format!("; did you mean {s}?"));
        }
        let at = if self.at.is_empty() { "the values" } else { &self.at };
        Error {
            file: Some(self.file.clone()),
            shown: None,
            at: at.to_string(),
            message,
            pos: self.pos,
            expr: None,
            source: None,
        }
    }
}

/// What context `name` is given: `windsor.yaml`'s `contexts.<name>`, then
/// `contexts/<name>/windsor.yaml`, then `contexts/<name>/values.yaml`
/// (later wins). Files that cannot be read are left to the render to
/// report.
pub fn sources(project: &Project, name: &str) -> Vec<Source> {
    let mut out = Vec::new();
    let inline = project
        .windsor
        .as_map()
        .and_then(|m| m.get("contexts"))
        .and_then(Value::as_map)
        .and_then(|m| m.get(name));
    if let Some(v @ Value::Map(_)) = inline {
        out.push(Source {
            file: config_file(project),
            at: format!("contexts.{name}"),
            values: v.clone(),
            unknown_keys: true,
        });
    }
    for (file, unknown_keys) in [("windsor.yaml", false), ("values.yaml", true)] {
        let file = format!("contexts/{name}/{file}");
        if let Ok(Some(v @ Value::Map(_))) = read_yaml(&project.root, &file) {
            out.push(Source {
                file,
                at: String::new(),
                values: v,
                unknown_keys,
            });
        }
    }
    out
}

/// The project's `windsor.yaml` (or `windsor.yml`, which Windsor reads
/// when there is no `windsor.yaml`).
fn config_file(project: &Project) -> String {
    let root = &project.root;
    match root.kind(root.dir(), "windsor.yaml") {
        Err(e) if e.is_missing() => "windsor.yml".into(),
        _ => "windsor.yaml".into(),
    }
}

/// Every value of context `name` the schema refuses, as warnings; none
/// when the template has no schema or the context is given nothing.
/// Runs on every render: the schema is compiled once per loaded project.
pub fn context(project: &Project, name: &str) -> Vec<Error> {
    match check(project, &sources(project, name)) {
        Ok(found) => placed(project, found.iter().map(Found::to_error).collect()),
        Err(e) => vec![e],
    }
}

/// `errors`, each with its file as messages print it.
fn placed(project: &Project, errors: Vec<Error>) -> Vec<Error> {
    errors
        .into_iter()
        .map(|e| crate::error::placed(&project.root, e))
        .collect()
}

/// Every value of a test case's `values` (at `cases[index].values` in
/// `file`) the schema refuses, as warnings.
pub fn case(project: &Project, file: &str, index: usize, values: &Value) -> Vec<Error> {
    let mut values = values.clone();
    if let Value::Map(m) = &mut values {
        // The runner's own keys, not the template's.
        m.remove("_testName");
        m.remove("context");
    }
    let source = Source {
        file: file.to_string(),
        at: format!("cases[{index}].values"),
        values,
        unknown_keys: true,
    };
    match check(project, &[source]) {
        Ok(found) => placed(project, found.iter().map(Found::to_error).collect()),
        Err(e) => vec![e],
    }
}

/// Every value of `values` that `schema` refuses, each as `path: what`
/// (and `; did you mean x?` where a name is close), as a render checks a
/// context's values; `Err` says why `schema` is not a JSON Schema.
///
/// ```
/// use bpvm_runtime::Value;
/// let schema = Value::from_yaml("properties: {port: {type: integer, minimum: 1}}").unwrap();
/// let found = bpvm_windsor::validate::against(&schema, &Value::from_yaml("port: 0").unwrap());
/// assert_eq!(found.unwrap(), ["port: 0 is less than the minimum of 1"]);
/// ```
pub fn against(schema: &Value, values: &Value) -> Result<Vec<String>, String> {
    let checker = Checker::new(schema, &Value::Null).map_err(|v| v.message)?;
    let shown = |v: crate::load::schema::Violation| {
        let at = yaml_path(&v.steps);
        let mut text = if at.is_empty() {
            v.message
        } else {
            format!("{at}: {}", v.message)
        };
        if let Some(s) = v.suggestion {
            text.push_str(&format!("; did you mean {s}?"));
        }
        text
    };
    Ok(checker.violations(values).into_iter().map(shown).collect())
}

/// The project's schema as a checker, or why it is not one (at
/// `schema.yaml`).
pub fn checker(project: &Project) -> Option<Result<&Checker, Error>> {
    let schema = project.schema.as_ref()?;
    let compiled = project.checker.get(schema);
    Some(compiled.as_ref().map_err(|v| not_a_schema(project, v)))
}

/// The first `pattern` of the project's schema that is no regular
/// expression (a render finds out only when a value reaches it; `bpvm
/// check` looks at them all).
pub fn invalid_pattern(project: &Project) -> Option<Error> {
    let found = Checker::invalid_pattern(project.schema.as_ref()?)?;
    Some(not_a_schema(project, &found))
}

/// Why the schema is not one, at its place in `schema.yaml`.
fn not_a_schema(project: &Project, v: &crate::load::schema::Violation) -> Error {
    let file = format!("{TEMPLATE}/schema.yaml");
    let at = yaml_path(&v.steps);
    let mut texts = crate::texts::Texts::new(&project.root);
    Error {
        pos: texts.locate(&file, &at),
        shown: Some(Box::new(project.root.shown(&file))),
        file: Some(file),
        at: String::new(),
        message: format!("not a JSON Schema: {}", v.message),
        expr: None,
        source: None,
    }
}

/// Every value of `sources` (each over the one before it) the schema
/// refuses, at the source that sets it; `Err` when the schema is not one.
pub fn check(project: &Project, sources: &[Source]) -> Result<Vec<Found>, Error> {
    let checker = match checker(project) {
        None => return Ok(Vec::new()),
        Some(c) => c?,
    };
    if sources.is_empty() {
        return Ok(Vec::new());
    }
    let given: Vec<&Value> = sources.iter().map(|s| &s.values).collect();
    let mut texts = crate::texts::Texts::new(&project.root);
    let mut out = Vec::new();
    for v in checker.check(&given) {
        let Some(source) = setter(sources, &v.steps, v.unknown_key) else {
            continue;
        };
        if v.unknown_key && !source.unknown_keys {
            continue;
        }
        let inner = yaml_path(&v.steps);
        let at = join(&source.at, &inner);
        out.push(Found {
            pos: texts.locate(&source.file, &at),
            file: source.file.clone(),
            at,
            inner,
            message: masked(project, &source.values, &v.steps, v.message),
            suggestion: v.suggestion,
        });
    }
    // In the order of the files, as written.
    out.sort_by(|a, b| (&a.file, a.pos).cmp(&(&b.file, b.pos)));
    Ok(out)
}

/// The source a violation at `steps` is reported at: the last one that
/// sets it (an unknown key: exactly; a value: the most of its path),
/// `None` when only the schema's defaults do.
fn setter<'s>(sources: &'s [Source], steps: &[String], exact: bool) -> Option<&'s Source> {
    if steps.is_empty() {
        return sources.last();
    }
    let shortest = if exact { steps.len() } else { 1 };
    (shortest..=steps.len())
        .rev()
        .find_map(|n| sources.iter().rev().find(|s| sets(&s.values, &steps[..n])))
}

/// Whether `values` has something at `steps`.
fn sets(values: &Value, steps: &[String]) -> bool {
    at(values, steps).is_some()
}

/// What `values` has at `steps`.
fn at<'v>(values: &'v Value, steps: &[String]) -> Option<&'v Value> {
    steps.iter().try_fold(values, |v, step| match v {
        Value::Map(m) => m.get(step.as_str()),
        Value::List(l) => step.parse::<usize>().ok().and_then(|i| l.get(i)),
        _ => None,
    })
}

/// `message` about the value at `steps` of `values`, that value's text
/// masked when the schema marks it, what holds it or what it holds
/// sensitive: a warning never quotes a secret.
fn masked(project: &Project, values: &Value, steps: &[String], message: String) -> String {
    let secrecy = Secrecy::new(project.sensitive.paths(), Secrets::Masked);
    match at(values, steps) {
        Some(v) if secrecy.touches(steps) => message.replace(&v.to_json(), &Value::from(MASK).to_json()),
        _ => message,
    }
}

/// `inner` (a YAML path) under `at`.
fn join(at: &str, inner: &str) -> String {
    match (at.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (false, true) => at.to_string(),
        (false, false) if inner.starts_with('[') => format!("{at}{inner}"),
        (false, false) => format!("{at}.{inner}"),
    }
}
