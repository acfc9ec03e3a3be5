//! The evaluator a render runs its templates in, a facet's component
//! evaluated into a contribution, and the `--explain` line of the
//! condition that decided it.

use crate::blueprint::component::{as_texts, string_list};
use crate::host::Host;
use crate::kind::Kind;
use crate::load::project::{Project, TEMPLATE};
use crate::render::outcome::Options;
use crate::template::condition::Cond;
use crate::template::secrecy::Secrecy;
use crate::template::tmpl::{Evaluator, Tmpl};
use bpvm_runtime::{Map, Value};

/// The evaluator of a render of `project`: the context's values `ctx`,
/// the project's files and path table, the options' terraform outputs and
/// environment.
pub(crate) fn evaluator(project: &Project, ctx: Value, opts: &Options) -> Evaluator {
    let facets_dir = project.root.dir().join(TEMPLATE).join("facets");
    let mut host = Host::new(project.root.clone(), facets_dir, opts.outputs.clone());
    host.environment = opts.environment.clone();
    host.allow_env = project.allow_env.clone();
    host.paths = Some(project.paths.clone());
    host.jsonnet_cache = crate::host::jsonnet::Calls::new(opts.jsonnet.clone()).into();
    let mut ev = Evaluator::new(ctx, host);
    ev.secrecy = Secrecy::new(project.sensitive.paths(), opts.secrets);
    ev
}

/// The `--explain` line of component `at` of facet `facet`, decided by
/// condition `c`.
pub(crate) fn decided(at: &str, facet: &str, yes: bool, c: &Cond) -> String {
    format!(
        "  {at} of {facet}: {} by `{}`",
        if yes { "included" } else { "skipped" },
        c.src
    )
}

/// Evaluates a component body and normalises its fields.
pub(crate) fn evaluate_part(ev: &mut Evaluator, body: &Tmpl, kind: Kind) -> Result<Map, (String, crate::Why)> {
    let v = body.eval(ev).map_err(|e| (e.at, e.diag.into()))?;
    let Value::Map(mut m) = v else {
        return Err((String::new(), "a component must be a mapping".into()));
    };
    for key in ["dependsOn", "components", "cleanup"] {
        if let Some(v) = m.get(key) {
            let items = string_list(v);
            m.insert(key, Value::List(items));
        }
    }
    if kind == Kind::Kustomize
        && let Some(Value::Map(subs)) = m.get("substitutions")
    {
        let texts = as_texts(subs);
        m.insert("substitutions", Value::Map(texts));
    }
    if let Some(v) = m.get("destroy") {
        let b = match v {
            Value::Bool(b) => *b,
            Value::Str(s) if &**s == "true" => true,
            Value::Str(s) if &**s == "false" => false,
            other => {
                return Err((
                    ".destroy".into(),
                    format!("must be a bool, got {}", describe(other)).into(),
                ));
            }
        };
        m.insert("destroy", Value::Bool(b));
    }
    if let Some(v) = m.get("parallelism") {
        let n = match v {
            Value::Int(n) => *n,
            Value::Float(f) if f.fract() == 0.0 => bpvm_runtime::builtins::args::in_i64(*f).ok_or_else(|| {
                (
                    ".parallelism".to_string(),
                    format!("must be an integer, got {f:e}, out of the 64-bit integer range").into(),
                )
            })?,
            Value::Str(s) if s.trim().parse::<i64>().is_ok() => s.trim().parse().unwrap_or_default(),
            other => {
                return Err((
                    ".parallelism".into(),
                    format!("must be an integer, got {}", describe(other)).into(),
                ));
            }
        };
        m.insert("parallelism", Value::Int(n));
    }
    Ok(m)
}

fn describe(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("string {s:?}"),
        other => other.type_name().to_string(),
    }
}
