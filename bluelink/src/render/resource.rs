//! Resources: `condition`, `each`, what `resources.<name>` reads, and
//! links from label selectors.

use super::results::{Instance, ResourceOut};
use super::{Failed, Resolved, Resolver};
use crate::blueprint::{Condition, Reads, Resource};
use crate::error::Pos;
use crate::sub::{Def, Tree};
use bpvm_runtime::budget::footprint;
use bpvm_runtime::{Map, Value};

/// What one item of an `each` holds besides the values its substitutions
/// give (counted as they are made): the instance and its name, its
/// resource in the output document and in the output text, and the copy
/// later substitutions read. Measured with a one-field spec (see the
/// `each` test in tests/it/hardening.rs), rounded up.
const INSTANCE_BYTES: usize = 1024;

impl<'b> Resolver<'b> {
    pub(super) fn resource(&mut self, i: usize) -> Result<(), Failed> {
        let r: &'b Resource = &self.bp.resources[i];
        // Its definition's references and dependsOn (both in `defs`).
        self.ensure_defs(&r.defs)?;
        let present = match &r.condition {
            None => Some(true),
            Some(c) => self.condition(c)?,
        };
        if present == Some(false) {
            self.out.resources[i] = Some(ResourceOut::Absent);
            return Ok(());
        }
        let (elems, secret_items) = match self.each_items(r)? {
            Some((items, _)) if self.charge_items(r, items.len()).is_err() => return Err(Failed),
            Some((items, secret)) => (Some(items), secret),
            None => (None, false),
        };
        // `elem` carries the secret of the list it is an item of (D11).
        let outer = std::mem::replace(&mut self.elem_secret, secret_items);
        let instances = self.instances(r, elems.as_deref());
        self.elem_secret = outer;
        let instances = instances?;
        let objects: Vec<Value> = instances.iter().map(|inst| self.resource_value(r, inst)).collect();
        if elems.is_some() {
            // What later substitutions read of each item is a copy.
            let copies = objects.iter().fold(0usize, |n, v| n.saturating_add(footprint(v)));
            if let Err(message) = self.tally_bytes(copies) {
                let each = r.each.as_ref().map_or(r.at, |e| e.at);
                return Err(self.fail(each, &format!("resources.{}.each", r.name), message));
            }
        }
        let value = if elems.is_some() {
            Value::List(objects)
        } else {
            objects.into_iter().next().unwrap_or_default()
        };
        self.put("resources", r.key.clone(), value);
        let secret = instances.iter().any(|inst| {
            inst.spec.is_secret()
                || [&inst.display_name, &inst.annotations, &inst.custom, &inst.description]
                    .iter()
                    .any(|x| x.as_ref().is_some_and(Resolved::is_secret))
        });
        if secret {
            self.secret.set(Def::Resource(i), true);
        }
        self.out.resources[i] = Some(ResourceOut::Present {
            instances,
            condition_deferred: present.is_none(),
        });
        Ok(())
    }

    /// The items of `r`'s `each` (`None` without one): a non-empty array
    /// known when rendering, and whether it was computed from a secret.
    fn each_items(&mut self, r: &Resource) -> Result<Option<(Vec<Value>, bool)>, Failed> {
        let Some(each) = &r.each else {
            return Ok(None);
        };
        let path = || format!("resources.{}.each", r.name);
        match self.eval(each)? {
            Resolved::Known(Value::List(items), secret) if !items.is_empty() => Ok(Some((items, secret))),
            Resolved::Known(Value::List(_), _) => Err(self.fail(
                each.at,
                &path(),
                "each yields an empty array; at least one item is needed",
            )),
            Resolved::Known(other, secret) => {
                let message = format!("each must yield an array, got {}", self.shown(&other, secret));
                Err(self.fail(each.at, &path(), message))
            }
            Resolved::Omitted => Err(self.fail(each.at, &path(), "each yields none; it must yield an array")),
            _ => Err(self.fail(
                each.at,
                &path(),
                "each depends on a value only known at deploy time; it must be known when rendering",
            )),
        }
    }

    /// Counts what `count` items of `r`'s `each` will hold before any is
    /// made, so that an `each` over millions of items fails at once, not
    /// once the machine's memory is gone (D10).
    fn charge_items(&mut self, r: &Resource, count: usize) -> Result<(), Failed> {
        let bytes = count.saturating_mul(INSTANCE_BYTES);
        let Err(message) = self.tally_bytes(bytes) else {
            return Ok(());
        };
        let each = r.each.as_ref().map_or(r.at, |e| e.at);
        let message = format!("each yields {count} items: {message}");
        Err(self.fail(each, &format!("resources.{}.each", r.name), message))
    }

    /// The instances of `r`: one per item of `elems` (each resolved with
    /// `elem` and `i` set), or the resource itself. Every instance is
    /// tried, so that a render reports all that fail.
    fn instances(&mut self, r: &Resource, elems: Option<&[Value]>) -> Result<Vec<Instance>, Failed> {
        let count = elems.map_or(1, <[Value]>::len);
        let mut instances = Vec::with_capacity(count);
        let mut ok = true;
        for k in 0..count {
            if let Some(items) = elems {
                let root = self.env.root_mut();
                root.insert("elem", items[k].clone());
                root.insert("i", Value::Int(k as i64));
            }
            let name = if elems.is_some() {
                format!("{}[{k}]", r.name)
            } else {
                r.name.clone()
            };
            match self.instance(r, name) {
                Some(inst) => instances.push(inst),
                None => ok = false,
            }
        }
        if elems.is_some() {
            let root = self.env.root_mut();
            root.remove("elem");
            root.remove("i");
        }
        if ok { Ok(instances) } else { Err(Failed) }
    }

    /// One instance of `r`, named `name`; `None` when a part failed.
    fn instance(&mut self, r: &Resource, name: String) -> Option<Instance> {
        let spec = self.tree(&r.spec);
        let display_name = self.opt_tree(&r.metadata.display_name);
        let annotations = self.opt_tree(&r.metadata.annotations);
        let custom = self.opt_tree(&r.metadata.custom);
        let description = self.opt_tree(&r.description);
        let shaped = |me: &mut Self, t: &Option<Tree>, r: &Result<Option<Resolved>, Failed>, what: &str| match r {
            Ok(r) => me.opt_shaped(t, r, what),
            Err(_) => Err(Failed),
        };
        let shapes = [
            shaped(self, &r.metadata.display_name, &display_name, "a display name"),
            shaped(self, &r.metadata.annotations, &annotations, "an annotation"),
            shaped(self, &r.description, &description, "a description"),
        ];
        if shapes.iter().any(Result::is_err) {
            return None;
        }
        match (spec, display_name, annotations, custom, description) {
            (Ok(spec), Ok(display_name), Ok(annotations), Ok(custom), Ok(description)) => Some(Instance {
                name,
                spec,
                display_name,
                annotations,
                custom,
                description,
                links: Vec::new(),
            }),
            _ => None,
        }
    }

    /// What `resources.<name>` reads: the known spec (with the resource
    /// state on top) and the metadata.
    /// What `resources.<name>` reads: the parts of the known spec (with
    /// the resource state on top) and of the metadata that the blueprint's
    /// substitutions read — building the rest would be wasted work.
    fn resource_value(&self, r: &Resource, inst: &Instance) -> Value {
        static ALL: Reads = Reads {
            all: true,
            keys: Vec::new(),
        };
        let k = &self.keys;
        let reads = &r.reads;
        let mut obj = Map::with_capacity(2);
        let spec_reads = if reads.all { Some(&ALL) } else { reads.get("spec") };
        if let Some(spec_reads) = spec_reads {
            let mut spec = pick(&inst.spec, spec_reads).unwrap_or_else(|| Value::Map(Map::new()));
            let state = self
                .opts
                .resource_state
                .as_ref()
                .and_then(Value::as_map)
                .and_then(|m| m.get(&inst.name));
            if let (Value::Map(s), Some(Value::Map(st))) = (&mut spec, state) {
                for (key, v) in st.iter() {
                    if s.get(key.as_str()).is_none() {
                        s.insert(key.clone(), v.clone());
                    }
                }
            }
            obj.insert(k.spec.clone(), spec);
        }
        if reads.all || reads.get("metadata").is_some() {
            let mut meta = Map::with_capacity(4);
            if let Some(v) = inst.display_name.as_ref().and_then(Resolved::known) {
                meta.insert(k.display_name.clone(), v);
            }
            meta.insert(k.labels.clone(), r.labels.clone());
            for (key, part) in [(&k.annotations, &inst.annotations), (&k.custom, &inst.custom)] {
                let v = part
                    .as_ref()
                    .and_then(Resolved::known)
                    .unwrap_or_else(|| Value::Map(Map::new()));
                meta.insert(key.clone(), v);
            }
            obj.insert(k.metadata.clone(), Value::Map(meta));
        }
        Value::Map(obj)
    }

    /// `Some(present)`, or `None` when only known at deploy time.
    fn condition(&mut self, c: &Condition) -> Result<Option<bool>, Failed> {
        match c {
            Condition::Leaf(t) => match self.tree(t)? {
                Resolved::Known(Value::Bool(b), _) => Ok(Some(b)),
                Resolved::Literal(Value::Bool(b)) => Ok(Some(b)),
                Resolved::Omitted => Ok(Some(false)),
                Resolved::Deferred(_) => Ok(None),
                other => {
                    let got = other
                        .known()
                        .map_or("a mixed value".into(), |v| self.shown(&v, other.is_secret()));
                    let (at, path) = match t {
                        Tree::Sub(s) => (s.at, s.path.clone()),
                        _ => (Pos::default(), String::new()),
                    };
                    Err(self.fail(at, &path, format!("a condition must yield a boolean, got {got}")))
                }
            },
            Condition::And(parts) | Condition::Or(parts) => {
                let and = matches!(c, Condition::And(_));
                let results = self.every(parts, |me, p| me.condition(p))?;
                // A decided part decides, whatever the unknown parts are.
                let decisive = !and;
                Ok(if results.contains(&Some(decisive)) {
                    Some(decisive)
                } else if results.contains(&None) {
                    None
                } else {
                    Some(!decisive)
                })
            }
            Condition::Not(inner) => Ok(self.condition(inner)?.map(|b| !b)),
        }
    }

    /// `links:` on each resource with `linkSelector.byLabel`: the present
    /// resources of this blueprint whose labels match all of it, less
    /// those `linkSelector.exclude` names.
    pub(super) fn links(&mut self) {
        let mut found: Vec<(usize, Vec<String>)> = Vec::new();
        for (i, r) in self.bp.resources.iter().enumerate() {
            if r.selector.is_empty() {
                continue;
            }
            let mut names = Vec::new();
            for (j, other) in self.bp.resources.iter().enumerate() {
                let matches = i != j
                    && !r.exclude.contains(&other.name)
                    && r.selector
                        .iter()
                        .all(|(k, v)| other.metadata.labels.iter().any(|(lk, lv)| lk == k && lv == v));
                if let (true, Some(ResourceOut::Present { instances, .. })) = (matches, &self.out.resources[j]) {
                    names.extend(instances.iter().map(|x| x.name.clone()));
                }
            }
            found.push((i, names));
        }
        for (i, names) in found {
            if let Some(ResourceOut::Present { instances, .. }) = &mut self.out.resources[i] {
                for inst in instances {
                    inst.links = names.clone();
                }
            }
        }
    }
}

/// The known parts of `r` that `reads` names (absent keys stay absent, so
/// a reference to them is still deferred or missing).
fn pick(r: &Resolved, reads: &Reads) -> Option<Value> {
    if reads.all {
        return r.known();
    }
    match r {
        Resolved::Map(entries) => {
            let mut out = Vec::with_capacity(reads.keys.len());
            for (key, part) in entries {
                if let Some(v) = reads.get(key.as_str()).and_then(|sub| pick(part, sub)) {
                    out.push((key.clone(), v));
                }
            }
            Some(Value::Map(Map::from_distinct(out)))
        }
        other => other.known().map(|v| pick_value(v, reads)),
    }
}

fn pick_value(v: Value, reads: &Reads) -> Value {
    match v {
        Value::Map(m) if !reads.all => {
            let mut out = Vec::with_capacity(reads.keys.len());
            for (key, part) in m.iter() {
                if let Some(sub) = reads.get(key.as_str()) {
                    out.push((key.clone(), pick_value(part.clone(), sub)));
                }
            }
            Value::Map(Map::from_distinct(out))
        }
        v => v,
    }
}
