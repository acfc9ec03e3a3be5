//! Where a value of a materialised blueprint came from: the substitutions
//! written at or under its path, where each is, and what each one read in
//! the render (variables, values, data source fields, resources and child
//! exports, as the render resolved them).

use super::blueprint::Blueprint;
use super::error::Pos;
use super::render::Rendered;
use bpvm_runtime::{Map, Value};
use bpvm_vm::reads::reads;
pub use bpvm_vm::reads::{Found, Read};

/// What a path of a materialised blueprint is, and what made it.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The path asked about, as given.
    pub path: String,
    /// Its value in the materialised blueprint (`None`: not there).
    pub value: Option<Value>,
    /// The substitutions written at the path or under it, in document
    /// order (none: the value is written as is).
    pub written: Vec<Written>,
}

/// A substitution as written, and what it read.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// Its path in the blueprint (`resources.fn.spec.timeout`).
    pub path: String,
    /// The file.
    pub file: String,
    /// Where the string starts.
    pub at: Pos,
    /// The string as written.
    pub text: String,
    /// What it read, in the order it reads them.
    pub reads: Vec<Read>,
}

/// Explains `path` of `rendered`, a render of `bp`: `resources.<name>…`
/// (`<name>[i]` for an item of `each`), `values.<name>`,
/// `exports.<name>`, or any other path of the document.
///
/// ```
/// use bpvm_bluelink::{explain::{Found, explain}, load, render};
/// let text = "version: 2023-04-20\nvariables:\n  env: {type: string}\n\
///             resources:\n  q: {type: aws/sqs/queue, spec: {name: 'orders-${variables.env}'}}\n";
/// let bp = load::parse(text, "bp.yaml", std::path::Path::new("/bp.yaml")).unwrap();
/// let opts = render::Options { variables: vec![("env".into(), render::Input::Text("prod".into()))], ..Default::default() };
/// let rendered = render::render(&bp, &opts).unwrap();
/// let why = explain(&bp, &rendered, "resources.q.spec.name").unwrap();
/// assert_eq!(why.value, Some(bpvm_runtime::Value::Str("orders-prod".into())));
/// let w = &why.written[0];
/// assert_eq!((w.at.line, w.text.as_str()), (5, "orders-${variables.env}"));
/// assert_eq!(w.reads[0].found, Found::Set(bpvm_runtime::Value::Str("prod".into())));
/// ```
pub fn explain(bp: &Blueprint, rendered: &Rendered, path: &str) -> Result<Explanation, String> {
    let steps: Vec<&str> = path.split('.').collect();
    if steps.iter().any(|s| s.is_empty()) {
        return Err(format!(
            "invalid path {path:?}: expected dotted keys (resources.<name>.spec.<field>)"
        ));
    }
    let value = steps
        .iter()
        .try_fold(&rendered.document, |v, k| v.as_map()?.get(k))
        .cloned();
    // Substitutions are written once for every item of an `each`.
    let written_path = match steps.as_slice() {
        ["resources", name, rest @ ..] => {
            let base = name.split_once('[').map_or(*name, |(b, _)| b);
            std::iter::once("resources")
                .chain(std::iter::once(base))
                .chain(rest.iter().copied())
                .collect::<Vec<_>>()
                .join(".")
        }
        _ => path.to_string(),
    };
    if value.is_none() {
        missing_item(&rendered.document, &steps)?;
    }
    let mut scope = scope(&rendered.document);
    item(bp, &steps, &mut scope);
    let written: Vec<Written> = bp
        .subs()
        .into_iter()
        .filter(|s| {
            s.path == written_path
                || s.path
                    .strip_prefix(&written_path)
                    .is_some_and(|rest| rest.starts_with(['.', '[']))
        })
        .map(|s| Written {
            path: s.path.clone(),
            file: bp.file.clone(),
            at: s.at,
            text: s.text().to_string(),
            reads: reads(&s.prog, &scope),
        })
        .collect();
    if value.is_none() && written.is_empty() {
        let section = steps[0];
        return Err(match (section, steps.get(1)) {
            ("resources" | "values" | "exports" | "variables" | "datasources" | "include", Some(name)) => {
                format!("{path:?} is not in the blueprint ({section} has no {name:?}, or it has no such field)")
            }
            _ => format!("{path:?} is not in the blueprint"),
        });
    }
    Ok(Explanation {
        path: path.to_string(),
        value,
        written,
    })
}

/// The namespaces substitutions read, as the render resolved them: each
/// variable's and value's `value`, data sources' exported fields, the
/// materialised resources (the items of an `each` as a list under its
/// name) and the children's exports.
fn scope(document: &Value) -> Map {
    let section = |name: &str| document.as_map().and_then(|m| m.get(name)).and_then(Value::as_map);
    let mut scope = Map::new();
    let mut namespace = |name: &str, from: &str, pick: &dyn Fn(&Value) -> Option<Value>| {
        let mut out = Map::new();
        for (k, v) in section(from).map(|m| m.iter().collect::<Vec<_>>()).unwrap_or_default() {
            if let Some(x) = pick(v) {
                out.insert(k.as_str(), x);
            }
        }
        scope.insert(name, Value::Map(out));
    };
    let field = |key: &'static str| move |v: &Value| v.as_map().and_then(|m| m.get(key)).cloned();
    namespace("variables", "variables", &field("value"));
    namespace("values", "values", &field("value"));
    namespace("datasources", "datasources", &|v: &Value| {
        let exports = v.as_map()?.get("exports")?.as_map()?;
        let mut out = Map::new();
        for (k, f) in exports.iter() {
            if let Some(x) = f.as_map().and_then(|m| m.get("value")) {
                out.insert(k.as_str(), x.clone());
            }
        }
        Some(Value::Map(out))
    });
    namespace("children", "include", &field("exports"));
    let mut resources = Map::new();
    for (k, v) in section("resources")
        .map(|m| m.iter().collect::<Vec<_>>())
        .unwrap_or_default()
    {
        match k.as_str().split_once('[') {
            Some((name, _)) => match resources.get_mut(name) {
                Some(Value::List(items)) => items.push(v.clone()),
                _ => {
                    resources.insert(name, Value::List(vec![v.clone()]));
                }
            },
            None => {
                resources.insert(k.as_str(), v.clone());
            }
        }
    }
    scope.insert("resources", Value::Map(resources));
    scope
}

/// For an item of an `each` (`resources.<name>[i]…`), `i` and, when the
/// `each` reads one list as it is (`${values.events}`), `elem`.
fn item(bp: &Blueprint, steps: &[&str], scope: &mut Map) {
    let ["resources", name, ..] = steps else { return };
    let Some((base, index)) = name.strip_suffix(']').and_then(|n| n.split_once('[')) else {
        return;
    };
    let Ok(i) = index.parse::<usize>() else { return };
    scope.insert("i", Value::Int(i as i64));
    let Some(each) = bp
        .resources
        .iter()
        .find(|r| r.name == base)
        .and_then(|r| r.each.as_ref())
    else {
        return;
    };
    if let [
        Read {
            found: Found::Set(Value::List(items)),
            ..
        },
    ] = reads(&each.prog, scope).as_slice()
        && let Some(elem) = items.get(i)
    {
        scope.insert("elem", elem.clone());
    }
}

/// `Err` when `steps` name an item of an `each` (`resources.<name>[i]…`)
/// that the render did not make: an index past the last item, or on a
/// resource without `each`, names nothing.
fn missing_item(document: &Value, steps: &[&str]) -> Result<(), String> {
    let ["resources", name, ..] = steps else { return Ok(()) };
    let Some((base, _)) = name.split_once('[') else {
        return Ok(());
    };
    let Some(resources) = document
        .as_map()
        .and_then(|m| m.get("resources"))
        .and_then(Value::as_map)
    else {
        return Ok(());
    };
    if resources.get(name).is_some() {
        return Ok(());
    }
    let items = resources
        .iter()
        .filter(|(k, _)| k.as_str().strip_prefix(base).is_some_and(|rest| rest.starts_with('[')))
        .count();
    Err(match items {
        0 if resources.get(base).is_some() => {
            format!("resources.{name} is not in the blueprint: resources.{base} has no each, so it has no items")
        }
        0 => format!("resources.{name} is not in the blueprint: it renders no resources.{base}"),
        n => format!(
            "resources.{name} is not in the blueprint: resources.{base} has {n} item{} (each), {base}[0] to {base}[{}]",
            if n == 1 { "" } else { "s" },
            n - 1
        ),
    })
}
