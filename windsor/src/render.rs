//! One render: facets chosen by their conditions, config blocks evaluated
//! in dependency order, component contributions folded by ordinal and
//! strategy into the base blueprint, the user overlay applied, and the
//! result ordered and checked.

use super::config;
use super::error::{Error, Errors};
use super::facet::{Cond, Facet, Kind};
use super::fold::{Contribution, fold};
use super::host::Host;
use super::merge::merge_component;
use super::order;
use super::project::{Project, TEMPLATE, read_yaml};
use super::tmpl::{Evaluator, Outcome, Tmpl};
use bpvm_runtime::Value;
use bpvm_runtime::{Map, text};
use foldhash::HashMap;

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Terraform outputs by component (W9); without them
    /// `terraform_output()` stays as written.
    pub outputs: Option<Value>,
    /// The variables `env(name)` reads: the process's environment when
    /// unset; a test case gives its own, so that a test is hermetic.
    pub environment: Option<Map>,
    /// The values the operator set, without schema defaults (Windsor
    /// v0.9: they win over facet config); all of the context when unset.
    pub operator: Option<Value>,
}

/// A rendered blueprint, and what decided it.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The blueprint, fields in output order.
    pub blueprint: Value,
    /// Which facets and components were included or skipped, and why.
    pub explain: Vec<String>,
    /// The components `terraform_output()` read supplied outputs of.
    pub asked: Vec<String>,
    /// Components and flux systems a `when` kept out: those of the facets
    /// left out, then those their own condition left out, each in facet
    /// order (a component another facet contributes is in the blueprint
    /// all the same).
    pub excluded: Vec<Excluded>,
    /// The facets included, by their index in the project's facets.
    pub included: Vec<usize>,
    /// The scope the blueprint's fields were evaluated in: the context's
    /// values and the config blocks (what `explain` reads them from).
    pub scope: Map,
}

/// A component or flux system a `when` kept out of the blueprint.
#[derive(Debug, Clone, PartialEq)]
pub struct Excluded {
    /// Its list: `terraform`, `kustomize` or `flux`.
    pub list: &'static str,
    /// Its identity there (terraform `name`, else `path`; else `name`).
    pub id: String,
    /// The facet that defines it.
    pub facet: String,
    /// The facet's file, relative to the project.
    pub file: String,
    /// The condition that was false: its own, else its facet's.
    pub when: String,
}

impl Excluded {
    /// Everything facet `f` defines, kept out by condition `when`.
    pub(crate) fn all_of(f: &Facet, when: &str) -> Vec<Excluded> {
        let parts = f.parts.iter().map(|p| (p.kind.key(), p.id.clone()));
        let systems = f.flux.iter().map(|s| ("flux", s.name.clone()));
        parts
            .chain(systems)
            .map(|(list, id)| Excluded::of(f, list, id, when))
            .collect()
    }

    /// `id` of `list`, defined by facet `f`, kept out by condition `when`.
    pub(crate) fn of(f: &Facet, list: &'static str, id: String, when: &str) -> Excluded {
        Excluded {
            list,
            id,
            facet: f.name.clone(),
            file: f.file.clone(),
            when: when.to_string(),
        }
    }
}

/// Renders context `name`, whose values are `ctx` (see [`super::scope`]).
pub fn render(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    let result = match project.format {
        super::format::Format::V09(_) => super::compose::render(project, name, ctx, opts),
        super::format::Format::Seed => render_seed(project, name, ctx, opts),
    };
    super::jsonnet::collect_garbage();
    result.map_err(|mut errors| {
        super::error::locate(&project.root, &mut errors);
        errors
    })
}

/// Renders context `name` from its files (`contexts/<name>/values.yaml`
/// and the rest, see [`super::scope::context`]), as `bpvm render
/// --project` does: with the schema's defaults when `defaults`, and the
/// values the operator set (without defaults) winning over facet config
/// by the v0.9 rules. `outputs` are terraform outputs by component (W9).
///
/// ```
/// use bpvm_windsor::{Project, render::render_files};
/// let dir = std::env::temp_dir().join(format!("bpvm-render-files-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("contexts/_template")).unwrap();
/// std::fs::create_dir_all(dir.join("contexts/dev")).unwrap();
/// std::fs::write(dir.join("windsor.yaml"), "").unwrap();
/// std::fs::write(dir.join("contexts/_template/blueprint.yaml"), "kind: Blueprint\nmetadata:\n  name: demo\n").unwrap();
/// let project = Project::load(&dir).unwrap();
/// let rendered = render_files(&project, "dev", true, None).unwrap();
/// assert_eq!(rendered.blueprint.as_map().unwrap().get("kind").unwrap().as_str(), Some("Blueprint"));
/// assert!(render_files(&project, "prod", true, None).unwrap_err().to_string().contains("prod"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn render_files(project: &Project, name: &str, defaults: bool, outputs: Option<Value>) -> Result<Rendered, Errors> {
    use super::scope::{Values, context};
    let ctx = context(project, name, Values::Files, defaults)?;
    let operator = context(project, name, Values::Files, false)?;
    let opts = Options {
        outputs,
        environment: None,
        operator: Some(operator),
    };
    render(project, name, ctx, &opts)
}

/// A render by the seed rules.
fn render_seed(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    let facets_dir = project.root.dir().join(TEMPLATE).join("facets");
    let mut host = Host::new(project.root.clone(), facets_dir, opts.outputs.clone());
    host.environment = opts.environment.clone();
    host.paths = Some(project.paths.clone());
    let mut ev = Evaluator::new(ctx.clone(), host);
    let mut explain = Vec::new();
    let mut excluded = Vec::new();

    // Facets, by their conditions against the context.
    let mut included: Vec<&Facet> = Vec::new();
    for f in &project.facets {
        let yes = match &f.when {
            None => true,
            Some(c) => truth(&mut ev, c).map_err(|m| Error::new(Some(&f.file), "when", m))?,
        };
        let why = f
            .when
            .as_ref()
            .map_or("no condition".to_string(), |c| format!("`{}`", c.src));
        explain.push(format!(
            "facet {} ({}, ordinal {}): {} by {why}",
            f.name,
            f.file,
            f.ordinal,
            if yes { "included" } else { "skipped" }
        ));
        if yes {
            included.push(f);
        } else if let Some(c) = &f.when {
            excluded.extend(Excluded::all_of(f, &c.src));
        }
    }

    config::evaluate(&mut ev, &included)?;

    // Contributions, in facet order.
    let mut contributions: Vec<Contribution> = Vec::new();
    let mut errors = Vec::new();
    for f in &included {
        for p in &f.parts {
            let at = format!("{}[{}]", p.kind.key(), p.id);
            if let Some(c) = &p.when {
                let yes = truth(&mut ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}.when"), m))?;
                explain.push(decided(&at, &f.name, yes, c));
                if !yes {
                    excluded.push(Excluded::of(f, p.kind.key(), p.id.clone(), &c.src));
                    continue;
                }
            }
            ev.host.dir = project.folder_of(&f.file);
            match evaluate_part(&mut ev, &p.body, p.kind) {
                Ok(body) => contributions.push(Contribution {
                    kind: p.kind,
                    id: p.id.clone(),
                    ordinal: p.ordinal.unwrap_or(f.ordinal),
                    strategy: p.strategy,
                    body,
                }),
                Err((inner, message)) => errors.push(Error::new(Some(&f.file), format!("{at}{inner}"), message)),
            }
        }
    }
    if !errors.is_empty() {
        return Err(Errors::new(errors));
    }

    let base = project.blueprint.as_map().cloned().unwrap_or_default();
    let base_file = format!("{TEMPLATE}/blueprint.yaml");
    ev.host.dir = project.root.dir().join(TEMPLATE);
    let mut base_parts = Vec::new();
    for p in &project.base {
        match evaluate_part(&mut ev, &p.body, p.kind) {
            Ok(body) => base_parts.push((p.kind, p.id.clone(), body)),
            Err((inner, message)) => errors.push(Error::new(
                Some(&base_file),
                format!("{}[{}]{inner}", p.kind.key(), p.id),
                message,
            )),
        }
    }
    if !errors.is_empty() {
        return Err(Errors::new(errors));
    }
    let mut lists = [Vec::new(), Vec::new()];
    for (slot, kind) in [Kind::Terraform, Kind::Kustomize].into_iter().enumerate() {
        lists[slot] = fold(kind, &base_parts, &contributions);
    }
    // Where each component is in its list.
    let mut at: [HashMap<String, usize>; 2] = Default::default();
    for (slot, list) in lists.iter().enumerate() {
        for (i, (id, _)) in list.iter().enumerate() {
            at[slot].entry(id.clone()).or_insert(i);
        }
    }

    // The context's own blueprint.yaml overlays the result.
    let user_rel = format!("contexts/{name}/blueprint.yaml");
    let user = read_yaml(&project.root, &user_rel)?.and_then(|v| v.as_map().cloned());
    if let Some(user) = &user {
        for (slot, kind) in [Kind::Terraform, Kind::Kustomize].into_iter().enumerate() {
            for c in list_of(user, kind.key()) {
                let Some(id) = identity(kind, &c) else { continue };
                match at[slot].get(&id) {
                    Some(&i) => merge_component(kind, &mut lists[slot][i].1, &c),
                    None => {
                        at[slot].insert(id.clone(), lists[slot].len());
                        lists[slot].push((id, c));
                    }
                }
            }
        }
    }

    // values.yaml `substitutions.<kustomization>` win over the facets'.
    let mut config_maps = base
        .get("configMaps")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    if let Some(subs) = ctx
        .as_map()
        .and_then(|m| m.get("substitutions"))
        .and_then(Value::as_map)
    {
        for (target, values) in subs.iter() {
            let Some(values) = values.as_map() else { continue };
            let texts = as_texts(values);
            config_maps.insert(
                format!("values-{}", target.as_str()).as_str(),
                Value::Map(texts.clone()),
            );
            if let Some(&i) = at[1].get(target.as_str()) {
                super::merge::overlay_substitutions(&mut lists[1][i].1, &texts);
            }
        }
    }

    let [terraform, kustomize] = lists;
    // Checked in contribution order, so a cycle is named from where it starts.
    let mut problems = order::check("terraform", &terraform);
    problems.extend(order::check("kustomize", &kustomize));
    if !problems.is_empty() {
        return Err(Errors::new(problems));
    }
    let terraform = order::topological(terraform);
    let kustomize = order::kustomize(kustomize);
    let blueprint = super::output::blueprint(name, &base, user.as_ref(), terraform, kustomize, config_maps);
    let asked = ev.host.asked.take();
    Ok(Rendered {
        blueprint,
        explain,
        asked,
        excluded,
        included: project.indices(&included),
        scope: ev.take_scope(),
    })
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

/// A condition's value: nil is false, a bool is itself, anything else is
/// an error (W8).
pub(crate) fn truth(ev: &mut Evaluator, c: &Cond) -> Result<bool, String> {
    match ev.run(&c.prog) {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(Value::Null) => Ok(false),
        Ok(other) => Err(format!(
            "a condition must give a bool, got {} (from `{}`)",
            other.type_name(),
            c.src
        )),
        // A deferred value decides nothing yet: not included.
        Err(Outcome::Deferred) => Ok(false),
        Err(Outcome::Failed(d)) => Err(d.to_string()),
    }
}

/// Evaluates a component body and normalises its fields.
pub(crate) fn evaluate_part(ev: &mut Evaluator, body: &Tmpl, kind: Kind) -> Result<Map, (String, String)> {
    let v = body.eval(ev).map_err(|e| (e.at, e.diag.to_string()))?;
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
            other => return Err((".destroy".into(), format!("must be a bool, got {}", describe(other)))),
        };
        m.insert("destroy", Value::Bool(b));
    }
    if let Some(v) = m.get("parallelism") {
        let n = match v {
            Value::Int(n) => *n,
            Value::Float(f) if f.fract() == 0.0 => *f as i64,
            Value::Str(s) if s.trim().parse::<i64>().is_ok() => s.trim().parse().unwrap_or_default(),
            other => {
                return Err((
                    ".parallelism".into(),
                    format!("must be an integer, got {}", describe(other)),
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

/// Substitution values as text (D4): nil is empty, numbers as Go prints
/// them, lists and maps as YAML.
pub(crate) fn as_texts(m: &Map) -> Map {
    m.iter()
        .map(|(k, v)| (k.clone(), Value::Str(text::to_text(v).into())))
        .collect()
}

/// dependsOn, components, cleanup: lists flattened, nil and "" dropped (W6).
pub(crate) fn string_list(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut push = |x: &Value| match x {
        Value::Null => {}
        Value::Str(s) if s.is_empty() => {}
        Value::Str(_) => out.push(x.clone()),
        other => {
            let t = text::to_text(other);
            if !t.is_empty() {
                out.push(Value::Str(t.into()));
            }
        }
    };
    match v {
        Value::List(items) => {
            for x in items {
                match x {
                    Value::List(inner) => inner.iter().for_each(&mut push),
                    _ => push(x),
                }
            }
        }
        other => push(other),
    }
    out
}

/// The mappings of list `key` of `m`.
pub(crate) fn list_of(m: &Map, key: &str) -> Vec<Map> {
    match m.get(key) {
        Some(Value::List(items)) => items.iter().filter_map(|v| v.as_map().cloned()).collect(),
        _ => Vec::new(),
    }
}

/// A component's identity: terraform `name`, else `path`; kustomize `name`.
pub(crate) fn identity(kind: Kind, c: &Map) -> Option<String> {
    let text = |k: &str| {
        c.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    match kind {
        Kind::Terraform => text("name").or_else(|| text("path")),
        Kind::Kustomize => text("name"),
    }
}
