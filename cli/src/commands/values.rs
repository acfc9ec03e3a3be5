//! `bpvm values`: the values a Windsor context's render evaluates
//! against, each leaf with where it came from.

use crate::args::{Format, Rules};
use crate::{exit, load};
use bpvm::runtime::suggest::closest;
use bpvm::runtime::{Map, Value};
use bpvm::windsor::origins::{Origin, Origins};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// What a sensitive value is shown as (Windsor's marker).
const SENSITIVE: &str = "<sensitive>";

/// Print a Windsor context's effective values, with where each came from.
///
/// The values a render of the context evaluates against: the schema's
/// defaults, then windsor.yaml's `contexts.<name>`, then the context's
/// windsor.yaml and values.yaml (later wins, maps merge), then what
/// Windsor v0.9 derives (the cluster driver a platform implies, a dev
/// context's workstation, …) and the keys bpvm sets (context,
/// context_path, project_root, projectName). Like `windsor show values`,
/// but each value says where it came from: as a YAML comment
/// (`count: 3  # contexts/aws/values.yaml:4:5`, `schema default
/// (contexts/_template/schema.yaml:8:9)`, `windsor.yaml:4:5`, `derived:
/// …`), or with -o json a list of every value with its origin. Values
/// the schema marks `sensitive: true` are shown as <sensitive> unless
/// --show-secrets. PATH (dotted) prints only the values at it or under
/// it; a path that names nothing is an error with the closest one.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm values --project examples/windsor
  bpvm values --project examples/windsor cluster.workers
  bpvm values --project examples/windsor --context local -o json")]
pub struct Args {
    /// Only the values at this dotted path, or under it.
    #[arg(value_name = "PATH")]
    path: Option<String>,
    /// The Windsor project folder (the one with windsor.yaml and contexts/).
    #[arg(long, value_name = "DIR", default_value = ".")]
    project: PathBuf,
    /// The Windsor context; by default the project's current one, as
    /// Windsor chooses it (.windsor/context, $WINDSOR_CONTEXT,
    /// windsor.yaml's `context:`, else `local`).
    #[arg(long, value_name = "NAME")]
    context: Option<String>,
    /// Which Windsor rules to resolve the context by.
    #[arg(long, value_enum, default_value = "auto")]
    rules: Rules,
    /// Output format: YAML with each origin as a comment, or JSON.
    #[arg(short = 'o', long = "output", value_enum, default_value = "yaml")]
    output: Format,
    /// Print the values the schema marks sensitive as they are.
    #[arg(long)]
    show_secrets: bool,
    /// Make every warning about the template an error.
    #[arg(long)]
    strict: bool,
}

pub fn run(args: Args) -> ExitCode {
    exit::code(values(&args))
}

fn values(args: &Args) -> Result<(), String> {
    let project = load::windsor::project(&args.project, args.rules)?;
    load::windsor::warn(&project.warnings, args.strict)?;
    let name = load::windsor::context(&project, args.context.as_deref())?.name;
    let (mut values, origins) = bpvm::windsor::scope::traced(&project, &name).map_err(|e| e.to_string())?;
    if !args.show_secrets {
        project.sensitive.mask(&mut values, SENSITIVE);
    }
    let path: Vec<&str> = args.path.as_deref().map_or(Vec::new(), |p| p.split('.').collect());
    let shown = only(&values, &path).map_err(|e| format!("error: {e}"))?;
    let text = match args.output {
        Format::Yaml => yaml(&shown, &origins),
        Format::Json => json(&name, &shown, &origins),
    };
    anstream::print!("{}", crate::paint::escaped(&text));
    Ok(())
}

/// The values at `path` and under it, with the keys leading to them; an
/// error naming the closest path where a step names nothing.
fn only(values: &Map, path: &[&str]) -> Result<Map, String> {
    let mut out = match path.last() {
        Some(_) => Value::Null,
        None => return Ok(values.clone()),
    };
    let mut at = values;
    for (i, step) in path.iter().enumerate() {
        let Some(v) = at.get(step) else {
            let known: Vec<&str> = at.keys().map(|k| k.as_str()).collect();
            let near = closest(step, &known).map_or(String::new(), |k| {
                let mut fixed = path.to_vec();
                fixed[i] = k;
                format!(" (did you mean {:?}?)", fixed.join("."))
            });
            return Err(format!("the context has no value {:?}{near}", path.join(".")));
        };
        match v {
            Value::Map(m) => at = m,
            _ if i + 1 < path.len() => {
                return Err(format!(
                    "{} is not a map: there is nothing under it",
                    path[..=i].join(".")
                ));
            }
            _ => {}
        }
        if i + 1 == path.len() {
            out = v.clone();
        }
    }
    for step in path.iter().rev() {
        let mut m = Map::new();
        m.insert(*step, out);
        out = Value::Map(m);
    }
    Ok(out.as_map().cloned().unwrap_or_default())
}

/// The origin of the value at `path` (a masked map: of a leaf under it).
fn origin_of<'o>(origins: &'o Origins, path: &'o str) -> Option<&'o Origin> {
    origins.of(path).or_else(|| origins.under(path).next().map(|(_, o)| o))
}

/// The values as YAML, each leaf followed by its origin as a comment.
fn yaml(values: &Map, origins: &Origins) -> String {
    let mut out = String::new();
    yaml_map(&mut out, values, "", 0, origins);
    out
}

fn yaml_map(out: &mut String, m: &Map, prefix: &str, depth: usize, origins: &Origins) {
    let indent = "  ".repeat(depth);
    for (k, v) in m.iter() {
        let path = if prefix.is_empty() {
            k.as_str().to_string()
        } else {
            format!("{prefix}.{k}")
        };
        let key = yaml_key(k.as_str());
        match v {
            Value::Map(inner) if !inner.is_empty() => {
                let _ = writeln!(out, "{indent}{key}:");
                yaml_map(out, inner, &path, depth + 1, origins);
            }
            _ => {
                let comment = origin_of(origins, &path).map_or(String::new(), |o| format!("  # {o}"));
                let _ = writeln!(out, "{indent}{key}: {}{comment}", scalar(v));
            }
        }
    }
}

/// A key as YAML writes it: plain when it can be, else quoted.
fn yaml_key(k: &str) -> String {
    let plain = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && !k.starts_with(['-', '.']);
    if plain {
        k.to_string()
    } else {
        Value::Str(k.into()).to_json()
    }
}

/// A leaf on one line: as YAML writes a scalar, else as JSON (a list, a
/// multi-line text), which YAML reads the same.
fn scalar(v: &Value) -> String {
    if !matches!(v, Value::List(_) | Value::Map(_)) {
        let text = bpvm::runtime::text::to_yaml(v);
        let text = text.trim_end_matches('\n');
        if !text.contains('\n') && !text.is_empty() {
            return text.to_string();
        }
    }
    v.to_json()
}

/// The values as JSON: the context's name, the values, and every leaf
/// with its value and origin.
fn json(name: &str, values: &Map, origins: &Origins) -> String {
    let mut leaves = Vec::new();
    collect(values, "", origins, &mut leaves);
    let mut doc = Map::new();
    doc.insert("context", Value::Str(name.into()));
    doc.insert("values", Value::Map(values.clone()));
    doc.insert("leaves", Value::List(leaves));
    bpvm::runtime::text::to_json(&Value::Map(doc))
}

fn collect(m: &Map, prefix: &str, origins: &Origins, out: &mut Vec<Value>) {
    for (k, v) in m.iter() {
        let path = if prefix.is_empty() {
            k.as_str().to_string()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            Value::Map(inner) if !inner.is_empty() => collect(inner, &path, origins, out),
            _ => {
                let mut leaf = Map::new();
                leaf.insert("path", Value::Str(path.as_str().into()));
                leaf.insert("value", v.clone());
                let origin = origin_of(origins, &path);
                leaf.insert("origin", origin.map_or(Value::Null, origin_json));
                out.push(Value::Map(leaf));
            }
        }
    }
}

/// An origin as JSON: its kind, its file and place or its rule, and the
/// text the YAML comment shows.
fn origin_json(o: &Origin) -> Value {
    let mut m = Map::new();
    let (kind, file, at) = match o {
        Origin::File { file, at } => ("file", Some(file), *at),
        Origin::SchemaDefault { file, at } => ("schema-default", Some(file), *at),
        Origin::ConfigBlock { file, at, .. } => ("config-block", Some(file), *at),
        Origin::Derived(_) => ("derived", None, None),
        Origin::Given => ("given", None, None),
    };
    m.insert("kind", Value::Str(kind.into()));
    if let Some(f) = file {
        m.insert("file", Value::Str(f.as_str().into()));
    }
    if let Some((line, column)) = at {
        m.insert("line", Value::Int(line as i64));
        m.insert("column", Value::Int(column as i64));
    }
    match o {
        Origin::Derived(rule) => {
            m.insert("rule", Value::Str(rule.as_str().into()));
        }
        Origin::ConfigBlock { name, .. } => {
            m.insert("block", Value::Str(name.as_str().into()));
        }
        _ => {}
    }
    m.insert("text", Value::Str(o.to_string().into()));
    Value::Map(m)
}
