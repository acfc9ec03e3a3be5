//! Where each value of a context came from: a values file and the place
//! in it, a schema default, `windsor.yaml`, a config block, or a rule that
//! derived it. Built beside the context (`scope::traced`), only when
//! `explain` or `bpvm values` ask, so a render never pays for it: the
//! context records the layers it merged, and each leaf of the result is
//! credited to the last layer that holds it.

use crate::load::project::{Project, TEMPLATE};
use crate::texts::Texts;
use bpvm_runtime::{Map, Value};
use std::fmt;

/// Where one value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Written in a file of the project (`contexts/<name>/values.yaml`,
    /// `windsor.yaml`), at line, column.
    File {
        /// The file, as messages print it (from where bpvm runs).
        file: String,
        /// Where the key is written (line, column from 1).
        at: Option<(usize, usize)>,
    },
    /// The `default` of a property of the template's schema.
    SchemaDefault {
        /// The schema's file, as messages print it (from where bpvm runs).
        file: String,
        /// Where the default is written.
        at: Option<(usize, usize)>,
    },
    /// Set by a facet's config block.
    ConfigBlock {
        /// The block's name.
        name: String,
        /// The facet's file, as messages print it (from where bpvm runs).
        file: String,
        /// Where the block writes the value.
        at: Option<(usize, usize)>,
    },
    /// Derived by a rule (Windsor's context resolution, or bpvm's own
    /// fixed keys); the text says which.
    Derived(String),
    /// Given directly (a test case's `values`).
    Given,
}

fn place(file: &str, at: Option<(usize, usize)>) -> String {
    at.map_or(file.to_string(), |(l, c)| format!("{file}:{l}:{c}"))
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File { file, at } => f.write_str(&place(file, *at)),
            Origin::SchemaDefault { file, at } => write!(f, "schema default ({})", place(file, *at)),
            Origin::ConfigBlock { name, file, at } => write!(f, "config block {name} ({})", place(file, *at)),
            Origin::Derived(rule) => write!(f, "derived: {rule}"),
            Origin::Given => f.write_str("the given values"),
        }
    }
}

/// The origin of every leaf of a context (a value that is not a map, or
/// an empty map), by its dotted path, in the context's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Origins {
    leaves: Vec<(String, Origin)>,
}

impl Origins {
    /// The origin of the leaf at `path`.
    pub fn of(&self, path: &str) -> Option<&Origin> {
        self.leaves.iter().find(|(p, _)| p == path).map(|(_, o)| o)
    }

    /// The leaves at `path` or under it, with their origins.
    pub fn under<'a>(&'a self, path: &'a str) -> impl Iterator<Item = (&'a str, &'a Origin)> + 'a {
        self.leaves
            .iter()
            .filter(move |(p, _)| {
                p == path || (p.starts_with(path) && p[path.len()..].starts_with('.')) || path.is_empty()
            })
            .map(|(p, o)| (p.as_str(), o))
    }

    /// Every leaf with its origin.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Origin)> {
        self.leaves.iter().map(|(p, o)| (p.as_str(), o))
    }

    /// Credits the leaf at `path` to `origin`.
    pub fn set(&mut self, path: &str, origin: Origin) {
        match self.leaves.iter_mut().find(|(p, _)| p == path) {
            Some(slot) => slot.1 = origin,
            None => self.leaves.push((path.to_string(), origin)),
        }
    }
}

/// What a layer of a context is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Layer {
    /// The schema's defaults.
    Defaults,
    /// What a rule derived; the rule's step.
    Derived(Step),
    /// A file of the project; the YAML path its values are under
    /// (`contexts.<name>` in `windsor.yaml`), empty for the whole file.
    File(String, String),
    /// A test case's values.
    Given,
}

/// Which resolution step derived a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// What Windsor sets before it reads a context's files.
    BeforeFiles,
    /// What Windsor derives from what the files set.
    AfterFiles,
    /// What Windsor derives before composing.
    Compose,
    /// The keys bpvm sets on every context.
    Fixed,
}

/// The layers a context was merged from, in the order merged.
#[derive(Debug, Default)]
pub(crate) struct Layers(pub Vec<(Layer, Value)>);

impl Layers {
    /// Records a layer.
    pub(crate) fn push(&mut self, layer: Layer, value: Value) {
        self.0.push((layer, value));
    }
}

/// The leaves of `after` that `before` does not have, or has with
/// another value: what a step derived.
pub(crate) fn changed(before: &Map, after: &Map) -> Map {
    let mut out = Map::new();
    for (k, v) in after.iter() {
        match (before.get(k.as_str()), v) {
            (Some(Value::Map(b)), Value::Map(a)) if !a.is_empty() => {
                let inner = changed(b, a);
                if !inner.is_empty() {
                    out.insert(k.clone(), Value::Map(inner));
                }
            }
            (Some(b), _) if b == v => {}
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

/// The origin of every leaf of `ctx`, the context `name` of `project`,
/// merged from `layers`.
pub(crate) fn credit(project: &Project, name: &str, ctx: &Map, layers: &Layers) -> Origins {
    let mut texts = Texts::new(&project.root);
    let mut origins = Origins::default();
    let mut steps = Vec::new();
    walk(ctx, &mut steps, &mut |steps, _| {
        let origin = layers
            .0
            .iter()
            .rev()
            .find(|(_, v)| holds(v, steps))
            .map(|(layer, _)| origin_of(layer, name, steps, ctx, &mut texts));
        if let Some(o) = origin {
            origins.set(&steps.join("."), o);
        }
    });
    origins
}

/// Calls `leaf` with the steps to each leaf of `m` and its value.
pub(crate) fn walk<'m>(m: &'m Map, steps: &mut Vec<&'m str>, leaf: &mut dyn FnMut(&[&str], &Value)) {
    for (k, v) in m.iter() {
        steps.push(k.as_str());
        match v {
            Value::Map(inner) if !inner.is_empty() => walk(inner, steps, leaf),
            _ => leaf(steps, v),
        }
        steps.pop();
    }
}

/// Whether `v` has a value at `steps`.
fn holds(v: &Value, steps: &[&str]) -> bool {
    let mut at = v;
    for s in steps {
        match at.as_map().and_then(|m| m.get(s)) {
            Some(next) => at = next,
            None => return false,
        }
    }
    true
}

/// `steps` as a YAML path the locator reads (a key holding a dot or a
/// bracket quoted).
pub(crate) fn yaml_path(steps: &[&str]) -> String {
    let quoted: Vec<String> = steps
        .iter()
        .map(|s| {
            if s.contains(['.', '[', ']', '"']) {
                format!("{s:?}")
            } else {
                s.to_string()
            }
        })
        .collect();
    quoted.join(".")
}

fn origin_of(layer: &Layer, name: &str, steps: &[&str], ctx: &Map, texts: &mut Texts) -> Origin {
    match layer {
        Layer::Defaults => {
            let file = format!("{TEMPLATE}/schema.yaml");
            let schema_path: Vec<String> = steps
                .iter()
                .map(|s| format!("properties.{}", yaml_path(&[s])))
                .collect();
            let at = texts.locate(&file, &format!("{}.default", schema_path.join(".")));
            Origin::SchemaDefault {
                file: texts.shown(&file),
                at,
            }
        }
        Layer::File(file, under) => {
            let path = yaml_path(steps);
            let path = if under.is_empty() {
                path
            } else {
                format!("{under}.{path}")
            };
            let at = texts.locate(file, &path);
            Origin::File {
                file: texts.shown(file),
                at,
            }
        }
        Layer::Derived(step) => Origin::Derived(rule(*step, name, steps, ctx)),
        Layer::Given => Origin::Given,
    }
}

/// The rule that derived the value at `steps`, in words.
fn rule(step: Step, name: &str, steps: &[&str], ctx: &Map) -> String {
    let text = |p: &str| ctx.get(p).and_then(Value::as_str).unwrap_or("").to_string();
    let path = steps.join(".");
    match (step, path.as_str()) {
        (Step::BeforeFiles, "dev") => format!("context {name} is a dev context (local, local-*)"),
        (Step::BeforeFiles, "platform") if crate::context::resolve::is_dev(name) => {
            "a dev context's platform is docker unless set".into()
        }
        (Step::BeforeFiles, "platform") => "a context's platform is none unless set".into(),
        (Step::BeforeFiles, _) => "a dev context's workstation runtime is docker unless set".into(),
        (Step::AfterFiles, "platform") => "the older provider key names the platform".into(),
        (Step::AfterFiles, "workstation.runtime") => {
            "the deprecated vm.driver, as workstation.runtime is not set".into()
        }
        (Step::AfterFiles, "dns.domain") => "a workstation's DNS domain is test unless set".into(),
        (Step::AfterFiles, _) => "a docker-desktop workstation's DNS address".into(),
        (Step::Compose, "cluster.driver") => format!("platform {} implies this cluster driver", text("platform")),
        (Step::Compose, "workstation.arch") => {
            "the workstation's architecture, fixed (Windsor reads the host's)".into()
        }
        (Step::Compose, _) => "a node pool's nodes are always a map".into(),
        (Step::Fixed, "context") => "the context's name".into(),
        (Step::Fixed, "context_path") => "the context's folder".into(),
        (Step::Fixed, "project_root") => "the project's folder".into(),
        (Step::Fixed, "projectName") => "the project folder's name".into(),
        (Step::Fixed, _) => "cluster is always a map".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(yaml: &str) -> Map {
        Value::from_yaml(yaml).unwrap().as_map().cloned().unwrap()
    }

    #[test]
    fn changed_keeps_only_new_or_different_leaves() {
        let before = map("{a: 1, b: {c: 2, d: 3}}");
        let after = map("{a: 1, b: {c: 2, d: 4, e: 5}, f: {}}");
        assert_eq!(
            Value::Map(changed(&before, &after)).to_json(),
            r#"{"b":{"d":4,"e":5},"f":{}}"#
        );
    }

    #[test]
    fn under_means_the_path_or_below_it() {
        let mut o = Origins::default();
        o.set("a.b", Origin::Given);
        o.set("a.bc", Origin::Given);
        o.set("a", Origin::Given);
        let under: Vec<&str> = o.under("a.b").map(|(p, _)| p).collect();
        assert_eq!(under, ["a.b"]);
        assert_eq!(o.under("a").count(), 3);
    }
}
