//! Resource definitions: metadata, labels, dependencies, conditions,
//! `each`, link selectors and spec.

use super::{Loader, join, namespaced, nearest};
use crate::blueprint::{Condition, Resource, ResourceMeta};
use crate::distinct::Distinct;
use crate::error::hinted;
use crate::node::{Entry, Kind, Node};
use crate::sub::{Def, Ref, Sub, Tree, has_substitution};
use bpvm_runtime::Value;

impl Loader {
    pub(super) fn resource(&mut self, e: &Entry) -> Option<Resource> {
        let path = format!("resources.{}", e.key);
        let fields = self.fields(&e.value, &path, super::shape::RESOURCE);
        self.in_each = e.value.get("each").is_some();
        let mut r = Resource {
            name: e.key.to_string(),
            key: e.key.key().clone(),
            labels: Value::Null,
            at: e.key_at,
            ty: String::new(),
            description: None,
            metadata: ResourceMeta::default(),
            depends_on: Vec::new(),
            condition: None,
            each: None,
            selector: Vec::new(),
            exclude: Vec::new(),
            spec: Tree::Lit(Value::Null),
            defs: Vec::new(),
            reads: Default::default(),
        };
        let before = self.errors.len();
        for f in fields {
            self.resource_field(&mut r, f, &path);
        }
        self.in_each = false;
        self.resource_depends(&mut r);
        (self.errors.len() == before).then_some(r)
    }

    /// One field of the resource `r`, at `path`.
    fn resource_field(&mut self, r: &mut Resource, f: &Entry, path: &str) {
        let p = join(path, &f.key);
        let v = &f.value;
        match f.key.as_str() {
            "type" => {
                if let Some(t) = self.resource_type(v, &p) {
                    r.ty = t;
                }
            }
            "description" => r.description = Some(self.text(v, &p, "a description")),
            "metadata" => r.metadata = self.resource_meta(v, &p),
            "dependsOn" => self.depends_on(r, v, &p),
            "condition" => r.condition = self.condition(v, &p),
            "each" => r.each = self.each(v, &p),
            "linkSelector" => {
                self.literal(v, &p, "the linkSelector property");
                for s in self.fields(v, &p, super::shape::LINK_SELECTOR) {
                    let sp = join(&p, &s.key);
                    if s.key.as_str() == "byLabel" {
                        r.selector = self.labels(&s.value, &sp);
                    } else if self.since_2025(s.key_at, &sp, "linkSelector.exclude") {
                        r.exclude = self.exclude(&s.value, &sp);
                    }
                }
            }
            "removalPolicy" => self.removal_policy(f, &p),
            "spec" => {
                if v.entries().is_none() {
                    self.fail(v.at, &p, format!("expected a mapping, found {}", v.describe()));
                }
                r.spec = self.tree(v, &p);
            }
            _ => {}
        }
    }

    /// What `r` depends on (what its substitutions read, and dependsOn),
    /// and its labels as a value for `resources.<name>`.
    fn resource_depends(&self, r: &mut Resource) {
        let mut defs = Distinct::new();
        let named = r
            .depends_on
            .iter()
            .filter_map(|n| self.names.resources.get(n).map(|&i| Def::Resource(i)));
        for d in r.subs().iter().flat_map(|s| s.defs.iter().copied()).chain(named) {
            defs.insert(d);
        }
        r.defs = defs.into_vec();
        let mut labels = bpvm_runtime::Map::with_capacity(r.metadata.labels.len());
        for (k, v) in &r.metadata.labels {
            labels.insert(k.as_str(), Value::Str(v.as_str().into()));
        }
        r.labels = Value::Map(labels);
    }

    /// `type`: `{provider}/{service}/{resourceType}` or `{provider}/{resourceType}`.
    fn resource_type(&mut self, v: &Node, p: &str) -> Option<String> {
        let t = self.plain_str(v, p, "the resource type property")?;
        if !namespaced(&t, 2, 3) {
            let message = format!(
                "{t:?} is not a resource type of the form {{provider}}/{{service}}/{{resourceType}} or {{provider}}/{{resourceType}}"
            );
            self.fail(v.at, p, message);
        }
        Some(t)
    }

    /// `dependsOn`: one resource of this blueprint or a list of them.
    fn depends_on(&mut self, r: &mut Resource, v: &Node, p: &str) {
        self.literal(v, p, "the dependencies (dependsOn) property");
        let names: Vec<&Node> = match &v.kind {
            Kind::List(items) => items.iter().collect(),
            _ => vec![v],
        };
        for n in names {
            match n.as_str() {
                Some(name) if has_substitution(name) => {}
                Some(name) if name == r.name => self.fail(n.at, p, "a resource cannot depend on itself"),
                Some(name) if self.names.resources.contains_key(name) => r.depends_on.push(name.to_string()),
                Some(name) => {
                    let message = self.undefined_resource(name, &r.name);
                    self.fail(n.at, p, message);
                }
                None => self.fail(n.at, p, "expected a resource name or an array of resource names"),
            }
        }
    }

    /// `each`: one substitution that yields an array, known before any
    /// resource is created.
    fn each(&mut self, v: &Node, p: &str) -> Option<Sub> {
        let whole = v.as_str().and_then(|s| {
            let parts = bpvm_compiler::template::split(s).ok()?;
            bpvm_compiler::template::whole(&parts)
        });
        if whole.is_none() {
            self.fail(v.at, p, "each is one ${..} substitution that yields an array");
            return None;
        }
        // `each` itself runs outside the elements.
        self.in_each = false;
        let each = match &v.kind {
            Kind::Scalar(Value::Str(s)) => self.sub(s, v.at, p.to_string()),
            _ => None,
        };
        self.in_each = true;
        if let Some(each) = &each
            && let Some(got) = super::constant(&each.prog)
            && !matches!(got, Value::List(_))
        {
            let message = format!("each must yield an array, got {}", crate::render::describe_value(&got));
            self.fail(v.at, p, message);
        }
        if let Some(each) = &each
            && let Some(bad) = each
                .refs()
                .into_iter()
                .find(|x| matches!(x, Ref::Resource(_) | Ref::Child(..)))
        {
            let message = format!(
                "each cannot depend on {}: it must be known before resources are created",
                bad.describe()
            );
            self.fail(v.at, p, message);
        }
        each
    }

    /// `removalPolicy` (from 2025-11-02): the static literal "delete" or
    /// "retain", what happens to the resource when it leaves the blueprint.
    fn removal_policy(&mut self, f: &Entry, p: &str) {
        let v = &f.value;
        if !self.since_2025(f.key_at, p, "removalPolicy") {
            return;
        }
        if v.as_str().is_some_and(has_substitution) {
            let message =
                "removalPolicy is a static literal, \"delete\" or \"retain\": substitutions are not allowed here";
            self.fail(v.at, p, message);
            return;
        }
        match self.plain_str(v, p, "the removalPolicy property") {
            Some(policy) if REMOVAL_POLICIES.contains(&policy.as_str()) => {}
            Some(policy) => {
                let message = format!("removalPolicy is \"delete\" or \"retain\", not {policy:?}");
                self.fail(v.at, p, message);
            }
            None => {}
        }
    }

    /// `linkSelector.exclude`: names of resources of this blueprint, one
    /// or a list, written without substitutions.
    fn exclude(&mut self, v: &Node, path: &str) -> Vec<String> {
        let items: Vec<(&Node, String)> = match &v.kind {
            Kind::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, n)| (n, format!("{path}[{i}]")))
                .collect(),
            _ => vec![(v, path.to_string())],
        };
        let mut out = Vec::new();
        for (n, p) in items {
            match n.as_str() {
                Some(name) if has_substitution(name) => {}
                Some(name) if self.names.resources.contains_key(name) => out.push(name.to_string()),
                Some(name) => {
                    let message = self.undefined_resource(name, "");
                    self.fail(n.at, &p, message);
                }
                None => self.fail(
                    n.at,
                    &p,
                    format!(
                        "linkSelector.exclude is a resource name or a list of them, found {}",
                        n.describe()
                    ),
                ),
            }
        }
        out
    }

    fn resource_meta(&mut self, v: &Node, path: &str) -> ResourceMeta {
        let mut m = ResourceMeta::default();
        for f in self.fields(v, path, super::shape::RESOURCE_META) {
            let p = join(path, &f.key);
            match f.key.as_str() {
                "displayName" => m.display_name = Some(self.text(&f.value, &p, "a display name")),
                "annotations" => {
                    self.annotations(&f.value, &p);
                    let t = self.tree(&f.value, &p);
                    self.primitive(&t, "an annotation");
                    m.annotations = Some(t);
                }
                "labels" => {
                    self.literal(&f.value, &p, "the labels property of a resource's metadata");
                    m.labels = self.labels(&f.value, &p);
                }
                "custom" => m.custom = Some(self.tree(&f.value, &p)),
                _ => {}
            }
        }
        m
    }

    /// A mapping of strings to strings (labels, `byLabel`).
    fn labels(&mut self, v: &Node, path: &str) -> Vec<(String, String)> {
        let Some(entries) = v.entries() else {
            self.fail(
                v.at,
                path,
                format!("expected a mapping of strings, found {}", v.describe()),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in entries {
            match e.value.as_str() {
                Some(s) => out.push((e.key.to_string(), s.to_string())),
                None => {
                    let message = format!("a label value is a string, found {}", e.value.describe());
                    self.fail(e.value.at, &join(path, &e.key), message);
                }
            }
        }
        out
    }

    fn condition(&mut self, v: &Node, path: &str) -> Option<Condition> {
        match &v.kind {
            Kind::Scalar(Value::Bool(_)) => Some(Condition::Leaf(Tree::Lit(v.to_value()))),
            Kind::Scalar(Value::Str(s)) if has_substitution(s) => {
                let leaf = self.tree(v, path);
                if let Tree::Sub(sub) = &leaf
                    && let Some(got) = super::constant(&sub.prog)
                    && !matches!(got, Value::Bool(_) | Value::Null)
                {
                    let message = format!(
                        "a condition must yield a boolean, got {}",
                        crate::render::describe_value(&got)
                    );
                    self.fail(sub.at, &sub.path, message);
                }
                Some(Condition::Leaf(leaf))
            }
            Kind::Map(entries) => {
                if entries.len() != 1 {
                    let message = format!(
                        "a condition has exactly one of \"and\", \"or\", \"not\"; found {}",
                        if entries.is_empty() {
                            "none".to_string()
                        } else {
                            entries
                                .iter()
                                .map(|e| format!("{:?}", e.key))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    );
                    self.fail(v.at, path, message);
                    return None;
                }
                let e = &entries[0];
                let p = join(path, &e.key);
                match e.key.as_str() {
                    "and" | "or" => {
                        let Kind::List(items) = &e.value.kind else {
                            self.fail(
                                e.value.at,
                                &p,
                                format!("expected an array of conditions, found {}", e.value.describe()),
                            );
                            return None;
                        };
                        if items.is_empty() {
                            self.fail(e.value.at, &p, "an empty list of conditions");
                            return None;
                        }
                        let parts: Vec<Option<Condition>> = items
                            .iter()
                            .enumerate()
                            .map(|(i, item)| self.condition(item, &format!("{p}[{i}]")))
                            .collect();
                        let parts: Vec<Condition> = parts.into_iter().collect::<Option<_>>()?;
                        Some(if e.key.as_str() == "and" {
                            Condition::And(parts)
                        } else {
                            Condition::Or(parts)
                        })
                    }
                    "not" => Some(Condition::Not(Box::new(self.condition(&e.value, &p)?))),
                    other => {
                        self.fail(
                            e.key_at,
                            &p,
                            format!("unknown condition {other:?}; expected \"and\", \"or\" or \"not\""),
                        );
                        None
                    }
                }
            }
            _ => {
                let message = format!(
                    "a condition is a ${{..}} substitution that yields a boolean, or a mapping with \"and\", \"or\" or \"not\"; found {}",
                    v.describe()
                );
                self.fail(v.at, path, message);
                None
            }
        }
    }
}

/// The removal policies version 2025-11-02 has.
const REMOVAL_POLICIES: [&str; 2] = ["delete", "retain"];

impl Loader {
    /// `resources.<name> is not defined`, with the closest resource's
    /// name other than `except` (the resource the name is written in).
    pub(super) fn undefined_resource(&mut self, name: &str, except: &str) -> String {
        let near = if self.hints < nearest::HINTS {
            nearest::nearest(&self.names.resources, |&i| i, name, except)
        } else {
            None
        };
        self.hints += usize::from(near.is_some());
        let hint = near.map(|k| format!("resources.{k}"));
        hinted(format!("resources.{name} is not defined"), hint.as_deref())
    }
}
