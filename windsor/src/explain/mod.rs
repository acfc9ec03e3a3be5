//! Where a value of a rendered blueprint came from: every contribution to
//! it (the base blueprint's and each facet's, in fold order), whether its
//! conditions held, what it gave, which one decided the value, the
//! expression that computed it and what that expression read. Windsor's
//! `explain` shows the deciding contribution and its scope references;
//! bpvm shows every contribution, and knows from each compiled program
//! exactly which paths it reads.

use crate::format::Format;
use crate::host::Host;
use crate::kind::{Kind, Strategy};
use crate::load::project::{Project, TEMPLATE};
use crate::render::outcome::Rendered;
use crate::template::condition::Cond;
use crate::template::tmpl::{Evaluator, Tmpl};
use crate::texts::Texts;
use bpvm_runtime::{Map, Value};
use bpvm_vm::reads::reads;
pub use bpvm_vm::reads::{Found, Read};

/// What a path of a rendered blueprint is, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The path asked about, as given.
    pub path: String,
    /// Its value in the blueprint (in the scope, for a config block);
    /// `None` when it is not there.
    pub value: Option<Value>,
    /// Every contribution that sets it or removes it, in fold order.
    pub contributions: Vec<Contribution>,
    /// Items of a list value that no deciding contribution gave: what
    /// Windsor adds after composing (v0.9 dependency barriers: a bare
    /// system name becomes its install tier, systems without dependencies
    /// wait for the CRD layer, everything waits for global-dependency
    /// systems).
    pub added: Vec<Value>,
}

/// One facet's (or the base blueprint's) part in a value.
#[derive(Debug, Clone, PartialEq)]
pub struct Contribution {
    /// The facet's name; `None` for the base blueprint.
    pub facet: Option<String>,
    /// The file, relative to the project.
    pub file: String,
    /// Where the value is written in the file (line, column from 1).
    pub at: Option<(usize, usize)>,
    /// The ordinal it folds at (`None`: the base blueprint, first).
    pub ordinal: Option<i64>,
    /// How it folds: `merge`, `replace` or `remove`.
    pub strategy: &'static str,
    /// The conditions that decide it, the facet's first, each with what
    /// it gave in this render.
    pub conditions: Vec<(String, bool)>,
    /// What it gives at the path (`None`: it removes it, or failed).
    pub value: Option<Value>,
    /// Why evaluating it failed.
    pub error: Option<String>,
    /// The expression, when the value is computed (the `${…}` text).
    pub expression: Option<String>,
    /// What the expression read, in the order it reads them.
    pub reads: Vec<Read>,
    /// What became of it.
    pub role: Role,
}

/// What became of a contribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// It decided the value (a list or map: one of those merged into it).
    Effective,
    /// A later one (higher ordinal, or later facet) decided it instead.
    Overridden,
    /// A condition was false: it took no part.
    Excluded,
}

/// The paths `explain` understands, for its messages.
pub const FORMS: &str = "terraform.<id>.inputs.<key>, kustomize.<name>.substitutions.<key>, \
                         kustomize.<name>.components, flux.<name>.dependsOn, flux.<name>.install.components, \
                         flux.<name>.install.substitutions.<key>, substitutions.<key>, \
                         configMaps.values-common.<key> or <config block>.<key>";

/// What a path names.
enum Target<'p> {
    /// A field of a component: its kind, identity, the field's steps.
    Component(Kind, &'p str, Vec<&'p str>),
    /// A config block, or a key inside it.
    Block(&'p str, Vec<&'p str>),
    /// A flux system's field: its name, which field, the resources
    /// variant, the key inside.
    Flux(&'p str, FluxField, Option<&'p str>, Option<&'p str>),
    /// A key of the facets' `substitutions`, as the blueprint's
    /// `substitutions` (`configMaps`: as `configMaps.values-common`).
    Substitution(&'p str, bool),
}

/// The fields of a flux system `explain` follows.
#[derive(Clone, Copy)]
enum FluxField {
    DependsOn,
    InstallComponents,
    InstallSubstitutions,
    /// Of a resources variant: by its `name`, else its number.
    VariantComponents,
    VariantSubstitutions,
}

fn target<'p>(project: &Project, path: &'p str) -> Result<Target<'p>, String> {
    let steps: Vec<&str> = path.split('.').collect();
    if steps.iter().any(|s| s.is_empty()) {
        return Err(format!("invalid path {path:?}: expected {FORMS}"));
    }
    match steps.as_slice() {
        ["terraform", id, "inputs", key @ ..] if !key.is_empty() => {
            Ok(Target::Component(Kind::Terraform, id, [&["inputs"][..], key].concat()))
        }
        ["terraform", ..] => Err(format!(
            "invalid terraform path {path:?}: expected terraform.<id>.inputs.<key>"
        )),
        ["kustomize", name, "substitutions", key] => {
            Ok(Target::Component(Kind::Kustomize, name, vec!["substitutions", key]))
        }
        ["kustomize", name, "components"] => Ok(Target::Component(Kind::Kustomize, name, vec!["components"])),
        ["kustomize", ..] => Err(format!(
            "invalid kustomize path {path:?}: expected kustomize.<name>.substitutions.<key> or kustomize.<name>.components"
        )),
        ["flux", name, "dependsOn"] => Ok(Target::Flux(name, FluxField::DependsOn, None, None)),
        ["flux", name, "install", "components"] => Ok(Target::Flux(name, FluxField::InstallComponents, None, None)),
        ["flux", name, "install", "substitutions", key] => {
            Ok(Target::Flux(name, FluxField::InstallSubstitutions, None, Some(key)))
        }
        ["flux", name, "resources", variant, "components"] => {
            Ok(Target::Flux(name, FluxField::VariantComponents, Some(variant), None))
        }
        ["flux", name, "resources", variant, "substitutions", key] => Ok(Target::Flux(
            name,
            FluxField::VariantSubstitutions,
            Some(variant),
            Some(key),
        )),
        ["flux", ..] => Err(format!(
            "invalid flux path {path:?}: expected flux.<name>.dependsOn, flux.<name>.install.components, \
             flux.<name>.install.substitutions.<key>, flux.<name>.resources.<variant>.components or \
             flux.<name>.resources.<variant>.substitutions.<key> (a variant by its name, else its number)"
        )),
        ["substitutions", key] => Ok(Target::Substitution(key, false)),
        ["configMaps", "values-common", key] => Ok(Target::Substitution(key, true)),
        ["configMaps", ..] => Err(format!(
            "invalid configMaps path {path:?}: expected configMaps.values-common.<key> (the other ConfigMaps come \
             from the context's values files)"
        )),
        [block, key @ ..] if project.facets.iter().any(|f| f.config.iter().any(|b| b.name == *block)) => {
            Ok(Target::Block(block, key.to_vec()))
        }
        _ => Err(format!("invalid path {path:?}: expected {FORMS}")),
    }
}

/// Who made a contribution and how it folds.
struct Origin<'a> {
    facet: Option<&'a str>,
    file: &'a str,
    /// The value's YAML path in the file.
    yaml: String,
    ordinal: Option<i64>,
    strategy: Strategy,
    conditions: Vec<(String, bool)>,
    active: bool,
}

/// Explains `path` of `rendered`, a render of `project` (its scope is
/// where the expressions are evaluated again).
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// # let p = dir.path();
/// # std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
/// # std::fs::create_dir_all(p.join("contexts/dev")).unwrap();
/// # std::fs::write(p.join("windsor.yaml"), "").unwrap();
/// # std::fs::write(p.join("contexts/dev/values.yaml"), "size: 3\n").unwrap();
/// # std::fs::write(p.join("contexts/_template/facets/base.yaml"),
/// #     "kind: Facet\nmetadata: {name: base}\nterraform:\n- {name: eks, path: eks, inputs: {nodes: '${size * 2}'}}\n").unwrap();
/// use bpvm_windsor::explain::{Found, Role, explain};
/// use bpvm_windsor::{Project, render::render_files};
/// let project = Project::load(p).unwrap();
/// let rendered = render_files(&project, "dev", true, None).unwrap();
/// let why = explain(&project, &rendered, "terraform.eks.inputs.nodes").unwrap();
/// assert_eq!(why.value, Some(bpvm_runtime::Value::Int(6)));
/// let c = &why.contributions[0];
/// assert_eq!((c.role, c.expression.as_deref(), c.at), (Role::Effective, Some("${size * 2}"), Some((4, 35))));
/// assert_eq!(c.reads[0].found, Found::Set(bpvm_runtime::Value::Int(3)));
/// ```
pub fn explain(project: &Project, rendered: &Rendered, path: &str) -> Result<Explanation, String> {
    let target = target(project, path)?;
    let host = Host::new(project.root.clone(), project.root.dir().join(TEMPLATE), None);
    let mut ev = Evaluator::new(Value::Map(rendered.scope.clone()), host);
    let base_file = format!("{TEMPLATE}/blueprint.yaml");
    let mut out: Vec<(Origin, &Tmpl, Vec<&str>)> = Vec::new();
    let value = match &target {
        Target::Component(kind, id, field) => {
            let c = component(&rendered.blueprint, *kind, id).ok_or_else(|| match kind {
                Kind::Terraform => format!("terraform component {id:?} not found in the blueprint"),
                Kind::Kustomize => format!("kustomization {id:?} not found in the blueprint"),
            })?;
            let yaml = format!("{}[{id}]{}", kind.key(), dotted(field));
            for p in project.base.iter().filter(|p| p.kind == *kind && p.id == *id) {
                let origin = Origin {
                    facet: None,
                    file: &base_file,
                    yaml: yaml.clone(),
                    ordinal: None,
                    strategy: p.strategy,
                    conditions: Vec::new(),
                    active: true,
                };
                out.push((origin, &p.body, field.clone()));
            }
            for (i, f) in project.facets.iter().enumerate() {
                let included = rendered.included.contains(&i);
                for p in f.parts.iter().filter(|p| p.kind == *kind && p.id == *id) {
                    let (conditions, active) = conditions(&mut ev, f.when.as_ref(), included, p.when.as_ref());
                    let origin = Origin {
                        facet: Some(&f.name),
                        file: &f.file,
                        yaml: yaml.clone(),
                        ordinal: Some(p.ordinal.unwrap_or(f.ordinal)),
                        strategy: p.strategy,
                        conditions,
                        active,
                    };
                    out.push((origin, &p.body, field.clone()));
                }
            }
            at(c, field)
        }
        Target::Block(name, key) => {
            let v09 = matches!(project.format, Format::V09(_));
            for (i, f) in project.facets.iter().enumerate() {
                let included = rendered.included.contains(&i);
                for b in f.config.iter().filter(|b| b.name == *name) {
                    let (conditions, active) = conditions(&mut ev, f.when.as_ref(), included, b.when.as_ref());
                    let origin = Origin {
                        facet: Some(&f.name),
                        file: &f.file,
                        yaml: format!("config[{name}]{}{}", if v09 { ".value" } else { "" }, dotted(key)),
                        ordinal: Some(b.ordinal.unwrap_or(f.ordinal)),
                        strategy: b.strategy,
                        conditions,
                        active,
                    };
                    out.push((origin, &b.body, key.clone()));
                }
            }
            let block = rendered.scope.get(name);
            block
                .and_then(|b| key.iter().try_fold(b, |v, k| v.as_map()?.get(k)))
                .cloned()
        }
        Target::Flux(name, field, variant, key) => {
            let system = listed(&rendered.blueprint, "flux", name)
                .ok_or_else(|| format!("flux system {name:?} not found in the blueprint"))?;
            // The field's steps inside its tier (the system, for dependsOn).
            let tail: Vec<&str> = match field {
                FluxField::DependsOn => vec!["dependsOn"],
                FluxField::InstallComponents | FluxField::VariantComponents => vec!["components"],
                FluxField::InstallSubstitutions | FluxField::VariantSubstitutions => {
                    ["substitutions"].into_iter().chain(*key).collect()
                }
            };
            for (i, f) in project.facets.iter().enumerate() {
                let included = rendered.included.contains(&i);
                // By position: a facet may define a system twice (under
                // two conditions).
                for (j, sys) in f.flux.iter().enumerate().filter(|(_, sys)| sys.name == *name) {
                    let (tier, place) = match field {
                        FluxField::DependsOn => (None, String::new()),
                        FluxField::InstallComponents | FluxField::InstallSubstitutions => {
                            (sys.install.as_ref(), ".install".to_string())
                        }
                        FluxField::VariantComponents | FluxField::VariantSubstitutions => {
                            match variant.and_then(|v| variant_of(&sys.resources, v)) {
                                Some((n, t)) => (Some(t), format!(".resources[{n}]")),
                                None => continue,
                            }
                        }
                    };
                    let tmpl = match field {
                        FluxField::DependsOn => sys.depends_on.as_ref(),
                        FluxField::InstallComponents | FluxField::VariantComponents => {
                            tier.and_then(|t| t.components.as_ref())
                        }
                        FluxField::InstallSubstitutions | FluxField::VariantSubstitutions => {
                            tier.and_then(|t| t.substitutions.as_ref())
                        }
                    };
                    let Some(tmpl) = tmpl else { continue };
                    let (conditions, active) = conditions(&mut ev, f.when.as_ref(), included, sys.when.as_ref());
                    let origin = Origin {
                        facet: Some(&f.name),
                        file: &f.file,
                        yaml: format!("flux[{j}]{place}.{}", tail.join(".")),
                        ordinal: Some(sys.ordinal.unwrap_or(f.ordinal)),
                        strategy: sys.strategy,
                        conditions,
                        active,
                    };
                    out.push((origin, tmpl, key.iter().copied().collect()));
                }
            }
            let tier = match field {
                FluxField::DependsOn => Some(system),
                FluxField::InstallComponents | FluxField::InstallSubstitutions => {
                    system.get("install").and_then(Value::as_map)
                }
                FluxField::VariantComponents | FluxField::VariantSubstitutions => match system.get("resources") {
                    Some(Value::List(variants)) => {
                        let maps: Vec<&Map> = variants.iter().filter_map(Value::as_map).collect();
                        let named = maps
                            .iter()
                            .position(|m| m.get("name").and_then(Value::as_str) == *variant);
                        named
                            .or_else(|| variant.and_then(|v| v.parse().ok()))
                            .and_then(|n| maps.get(n).copied())
                    }
                    _ => None,
                },
            };
            tier.and_then(|t| at(t, &tail))
        }
        Target::Substitution(key, config_map) => {
            for (i, f) in project.facets.iter().enumerate() {
                let Some(tmpl) = &f.substitutions else { continue };
                let (conditions, active) = conditions(&mut ev, f.when.as_ref(), rendered.included.contains(&i), None);
                let origin = Origin {
                    facet: Some(&f.name),
                    file: &f.file,
                    yaml: format!("substitutions.{key}"),
                    ordinal: Some(f.ordinal),
                    strategy: Strategy::Merge,
                    conditions,
                    active,
                };
                out.push((origin, tmpl, vec![key]));
            }
            let (section, steps) = if *config_map {
                ("configMaps", vec!["values-common", *key])
            } else {
                ("substitutions", vec![*key])
            };
            rendered
                .blueprint
                .as_map()
                .and_then(|m| m.get(section))
                .and_then(|v| steps.iter().try_fold(v, |v, k| v.as_map()?.get(k)))
                .cloned()
        }
    };
    let mut contributions: Vec<Contribution> = Vec::new();
    let mut texts = Texts::new(&project.root);
    for (origin, body, steps) in out {
        ev.host.dir = project.folder_of(origin.file);
        contributions.extend(contribution(&mut ev, &mut texts, origin, body, &steps));
    }
    // Fold order: the base first, then by ordinal, facets in their order
    // (the sort is stable).
    contributions.sort_by_key(|c| c.ordinal.map_or(i128::MIN, i128::from));
    decide(&mut contributions);
    let given: Vec<&Value> = contributions
        .iter()
        .filter(|c| c.role == Role::Effective)
        .filter_map(|c| match &c.value {
            Some(Value::List(items)) => Some(items.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    let added = match &value {
        Some(Value::List(items)) if !contributions.is_empty() => {
            items.iter().filter(|i| !given.contains(i)).cloned().collect()
        }
        _ => Vec::new(),
    };
    Ok(Explanation {
        path: path.to_string(),
        value,
        contributions,
        added,
    })
}

/// The conditions of a contribution (its facet's, as the render decided
/// it, then its own, evaluated in the render's scope) and whether they
/// all held.
fn conditions(
    ev: &mut Evaluator,
    facet: Option<&Cond>,
    included: bool,
    own: Option<&Cond>,
) -> (Vec<(String, bool)>, bool) {
    let mut out: Vec<(String, bool)> = facet.map(|c| (c.src.clone(), included)).into_iter().collect();
    let mut active = included;
    if let Some(c) = own {
        // An error is no inclusion: the render reported it already.
        let yes = crate::template::condition::truth(ev, c).unwrap_or(false);
        out.push((c.src.clone(), yes));
        active &= yes;
    }
    (out, active)
}

/// What `origin`'s `body` gives at `steps`; `None` when it neither sets
/// nor removes it.
fn contribution(
    ev: &mut Evaluator,
    texts: &mut Texts,
    origin: Origin,
    body: &Tmpl,
    steps: &[&str],
) -> Option<Contribution> {
    let node = node_at(body, steps);
    let (value, error) = match body.eval(ev) {
        Ok(v) => (steps.iter().try_fold(&v, |v, k| v.as_map()?.get(k)).cloned(), None),
        Err(e) => (None, Some(format!("{}: {}", e.at, e.diag.message))),
    };
    if value.is_none() && error.is_none() && origin.strategy != Strategy::Remove {
        return None;
    }
    let (expression, reads) = match node {
        Some(Tmpl::Text { src, prog }) => (Some(src.to_string()), reads(&prog.prog, ev.scope())),
        _ => (None, Vec::new()),
    };

    Some(Contribution {
        facet: origin.facet.map(str::to_string),
        file: origin.file.to_string(),
        at: texts.locate(origin.file, &origin.yaml),
        ordinal: origin.ordinal,
        strategy: strategy(origin.strategy),
        conditions: origin.conditions,
        value,
        error,
        expression,
        reads,
        role: if origin.active {
            Role::Overridden
        } else {
            Role::Excluded
        },
    })
}

/// Marks the contributions that decided the value, walking them in fold
/// order as the fold does: a scalar is the last one's that sets it, a list
/// or map every one's since the last `replace`, and a `remove` clears it.
fn decide(contributions: &mut [Contribution]) {
    let mut effective: Vec<usize> = Vec::new();
    for (i, c) in contributions.iter().enumerate() {
        if c.role == Role::Excluded {
            continue;
        }
        let merges = matches!(c.value, Some(Value::List(_) | Value::Map(_))) && c.strategy == "merge";
        if !merges {
            effective.clear();
        }
        effective.push(i);
    }
    for i in effective {
        contributions[i].role = Role::Effective;
    }
}

/// A system's resources variant named `v`, else numbered `v`, with its
/// position.
fn variant_of<'s>(tiers: &'s [crate::flux::Tier], v: &str) -> Option<(usize, &'s crate::flux::Tier)> {
    let named = tiers
        .iter()
        .position(|t| t.raw.get("name").and_then(Value::as_str) == Some(v));
    let i = named.or_else(|| v.parse().ok())?;
    tiers.get(i).map(|t| (i, t))
}

/// The component `id` of `kind` in the rendered blueprint.
fn component<'b>(blueprint: &'b Value, kind: Kind, id: &str) -> Option<&'b Map> {
    listed(blueprint, kind.key(), id)
}

/// The entry of the blueprint's `list` whose identity is `id`: its `name`,
/// else (terraform) its `path`.
fn listed<'b>(blueprint: &'b Value, list: &str, id: &str) -> Option<&'b Map> {
    let Some(Value::List(items)) = blueprint.as_map()?.get(list) else {
        return None;
    };
    items.iter().filter_map(Value::as_map).find(|c| {
        let name = c.get("name").and_then(Value::as_str);
        let path = c.get("path").and_then(Value::as_str).filter(|_| list == "terraform");
        name.or(path) == Some(id)
    })
}

/// The value at `field` of a component.
fn at(c: &Map, field: &[&str]) -> Option<Value> {
    let (first, rest) = field.split_first()?;
    rest.iter().try_fold(c.get(first)?, |v, k| v.as_map()?.get(k)).cloned()
}

fn dotted(key: &[&str]) -> String {
    key.iter().map(|k| format!(".{k}")).collect()
}

/// The template at `steps` inside `t`, unless it is inside a literal.
fn node_at<'t>(t: &'t Tmpl, steps: &[&str]) -> Option<&'t Tmpl> {
    steps.iter().try_fold(t, |t, step| match t {
        Tmpl::Map(fields) => fields.iter().find(|(k, _)| &**k == *step).map(|(_, v)| v),
        _ => None,
    })
}

fn strategy(s: Strategy) -> &'static str {
    match s {
        Strategy::Merge => "merge",
        Strategy::Replace => "replace",
        Strategy::Remove => "remove",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(strategy: &'static str, value: Option<Value>, role: Role) -> Contribution {
        Contribution {
            facet: None,
            file: String::new(),
            at: None,
            ordinal: None,
            strategy,
            conditions: Vec::new(),
            value,
            error: None,
            expression: None,
            reads: Vec::new(),
            role,
        }
    }

    fn roles(list: Vec<Contribution>) -> Vec<Role> {
        let mut list = list;
        decide(&mut list);
        list.iter().map(|c| c.role).collect()
    }

    #[test]
    fn the_last_scalar_decides_and_excluded_ones_take_no_part() {
        let (o, x) = (Role::Overridden, Role::Excluded);
        let one = || Some(Value::Int(1));
        assert_eq!(
            roles(vec![c("merge", one(), o), c("merge", one(), o), c("merge", one(), x)]),
            [o, Role::Effective, x]
        );
    }

    #[test]
    fn lists_merge_until_a_replace_and_a_remove_clears() {
        let (o, e) = (Role::Overridden, Role::Effective);
        let list = || Some(Value::List(vec![Value::Int(1)]));
        assert_eq!(roles(vec![c("merge", list(), o), c("merge", list(), o)]), [e, e]);
        assert_eq!(
            roles(vec![
                c("merge", list(), o),
                c("replace", list(), o),
                c("merge", list(), o)
            ]),
            [o, e, e]
        );
        assert_eq!(roles(vec![c("merge", list(), o), c("remove", None, o)]), [o, e]);
    }
}
