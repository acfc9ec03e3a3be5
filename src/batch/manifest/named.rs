//! A template load's inputs, named once for the manifests of all of its
//! targets, and each target's manifest made from them as JSON.
//!
//! A manifest is made as its JSON text, not as a [`Manifest`] written
//! out: the load's thirty-odd entries are each written once, and a
//! target's manifest copies those it keeps between the few its render
//! adds. A host that passes manifests on as JSON (a worker process) never
//! has the struct made; a host that wants it reads it back from the text.
//! Made as a struct (each name and hash a string, copied into sorted maps
//! for each target), hashed and then written, a manifest cost about
//! 86,000 instructions a target (callgrind, 2026-11-28, a batch of 120).

use super::json::{self, text};
use super::{LeftOut, LeftOuts, Read, base, hex, relative};
use crate::batch::target::Target;
use bpvm_runtime::root::inputs::Inputs;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a template's load read, named as its targets' manifests name it
/// (relative to their base), each entry with its JSON.
pub(crate) struct Named {
    /// The base as the targets give it, and resolved.
    given: PathBuf,
    base: PathBuf,
    inputs: Arc<Inputs>,
    files: Vec<Entry>,
    folders: Vec<Entry>,
    paths: Vec<Entry>,
    env: Vec<Entry>,
    /// The bytes of the entries' JSON, all told.
    size: usize,
    /// The name of each file the load read, by absolute path (the facets
    /// a render leaves out are among them).
    names: foldhash::HashMap<OsString, String>,
}

/// An entry of one of a manifest's maps: its name, and its JSON
/// (`"name":value`).
struct Entry {
    name: String,
    json: Box<[u8]>,
}

/// A target's manifest as JSON: as a report has it and, when asked for,
/// as the render cache keeps it (each facet left out with the hash of its
/// bytes).
pub(crate) struct Made {
    pub(crate) json: Vec<u8>,
    pub(crate) entry: Option<Vec<u8>>,
}

impl Named {
    /// What `inputs` (the load of `target`'s template) read, named for
    /// `target` and the targets of its template that share its base.
    pub(crate) fn of(target: &Target, inputs: &Arc<Inputs>) -> Named {
        let base = base(target);
        let mut read = Read::default();
        read.add(&base, inputs);
        let names = inputs
            .files
            .keys()
            .map(|path| (path.clone(), relative(&base, Path::new(path))))
            .collect();
        let files = entries(&read.files, |out, v| text(out, v));
        let folders = entries(&read.folders, |out, v| text(out, v));
        let paths = entries(&read.paths, |out, v| text(out, v));
        let env = entries(&read.env, |out, v| json::env_value(out, v.as_deref()));
        let size = [&files, &folders, &paths, &env]
            .iter()
            .flat_map(|e| e.iter())
            .map(|e| e.json.len() + 1)
            .sum();
        Named {
            given: target.base.clone(),
            base,
            inputs: Arc::clone(inputs),
            files,
            folders,
            paths,
            env,
            size,
            names,
        }
    }

    /// The manifest of `target`, whose template's load read `self` and
    /// whose render read `render`, rendered by bpvm `version` with
    /// `options`, as JSON (and as a cache entry's when `entry`). The facet
    /// files of `left_out` are entered as such, not as files read.
    ///
    /// What the render read is entered as [`Read::add`] would enter it
    /// after the load's (a read beats a look, the load's entry stays, but
    /// for variables: the render's), and then each facet left out is
    /// taken from the files read.
    pub(crate) fn json(
        &self,
        target: &Target,
        render: &Inputs,
        left_out: &LeftOuts,
        version: &str,
        options: &BTreeMap<String, String>,
        entry: bool,
    ) -> Made {
        if self.given != target.base {
            return Named::of(target, &self.inputs).json(target, render, left_out, version, options, entry);
        }
        let mut own = Read::default();
        own.add(&self.base, render);
        let mut left: Vec<(Cow<str>, &LeftOut)> = left_out.iter().map(|e| (self.name(&e.0), &e.1)).collect();
        left.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let left_names: Vec<&str> = left.iter().map(|(name, _)| &**name).collect();
        let loaded = |name: &str| has(&self.files, name) || has(&self.folders, name);
        let read_now = |n: &str| own.files.contains_key(n) || own.folders.contains_key(n);
        let mut out = Vec::with_capacity(self.size + 1024);
        let body = json::start(&mut out);
        json::head(&mut out, &target.id, version, options);
        let (mut load_left, mut own_left) = (Sorted::new(&left_names), Sorted::new(&left_names));
        let files = Keep::new(|n| !load_left.has(n), |n| !own_left.has(n), false);
        merged(&mut out, &self.files, &own.files, files);
        out.extend_from_slice(b",\"folders\":");
        merged(
            &mut out,
            &self.folders,
            &own.folders,
            Keep::new(|_| true, |_| true, false),
        );
        out.extend_from_slice(b",\"paths\":");
        let paths = Keep::new(|n| !read_now(n), |n| !loaded(n), false);
        merged(&mut out, &self.paths, &own.paths, paths);
        out.extend_from_slice(b",\"env\":");
        merged(&mut out, &self.env, &own.env, Keep::new(|_| true, |_| true, true));
        let facets = || {
            left.iter()
                .filter(|(name, _)| has(&self.files, name) || own.files.contains_key(&**name))
                .map(|(name, e)| (&**name, *e))
        };
        let common = out.len();
        json::left_outs(&mut out, facets(), false);
        let key = hex(&json::key_of(&out[body..]));
        json::put_key(&mut out, &key);
        let entry = entry.then(|| {
            let mut entry = out[..common].to_vec();
            json::left_outs(&mut entry, facets(), true);
            entry
        });
        Made { json: out, entry }
    }

    /// The name of the file at `path`, relative to the base.
    fn name(&self, path: &Path) -> Cow<'_, str> {
        match self.names.get(path.as_os_str()) {
            Some(name) => Cow::Borrowed(name),
            None => Cow::Owned(relative(&self.base, path)),
        }
    }
}

fn entries<V>(map: &BTreeMap<String, V>, value: impl Fn(&mut Vec<u8>, &V)) -> Vec<Entry> {
    map.iter()
        .map(|(name, v)| {
            let mut json = Vec::with_capacity(name.len() + 72);
            text(&mut json, name);
            json.push(b':');
            value(&mut json, v);
            Entry {
                name: name.clone(),
                json: json.into(),
            }
        })
        .collect()
}

/// Whether `name` is in `sorted` (entries in order of name).
fn has(sorted: &[Entry], name: &str) -> bool {
    sorted.binary_search_by(|e| e.name.as_str().cmp(name)).is_ok()
}

/// Names in order, asked about in order: each question moves on from the
/// last answer (no search).
struct Sorted<'a> {
    names: &'a [&'a str],
}

impl<'a> Sorted<'a> {
    fn new(names: &'a [&'a str]) -> Sorted<'a> {
        Sorted { names }
    }

    /// Whether `name` is among the names; the names asked about must come
    /// in order.
    fn has(&mut self, name: &str) -> bool {
        while let [first, rest @ ..] = self.names
            && *first < name
        {
            self.names = rest;
        }
        self.names.first() == Some(&name)
    }
}

/// Which entries a merged map keeps: of the load's, of the render's, and
/// which of two of one name (the load's, or the render's when
/// `own_wins`). Each is asked about the names of its side in order.
struct Keep<L, O> {
    load: L,
    own: O,
    own_wins: bool,
}

impl<L: FnMut(&str) -> bool, O: FnMut(&str) -> bool> Keep<L, O> {
    fn new(load: L, own: O, own_wins: bool) -> Keep<L, O> {
        Keep { load, own, own_wins }
    }
}

/// Writes the JSON map of the load's entries and the render's (both
/// sorted by name) that `keep` keeps, in order.
fn merged<V: ToJson>(
    out: &mut Vec<u8>,
    load: &[Entry],
    own: &BTreeMap<String, V>,
    mut keep: Keep<impl FnMut(&str) -> bool, impl FnMut(&str) -> bool>,
) {
    use std::cmp::Ordering;
    out.push(b'{');
    let start = out.len();
    let (mut l, mut o) = (load.iter().peekable(), own.iter().peekable());
    loop {
        let order = match (l.peek(), o.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some((b, _))) => a.name.as_str().cmp(b.as_str()),
        };
        let (from_load, from_own) = match order {
            Ordering::Less => (l.next(), None),
            Ordering::Greater => (None, o.next()),
            Ordering::Equal if keep.own_wins => (l.next().and(None), o.next()),
            Ordering::Equal => (l.next(), o.next().and(None)),
        };
        if let Some(e) = from_load.filter(|e| (keep.load)(&e.name)) {
            comma(out, start);
            out.extend_from_slice(&e.json);
        }
        if let Some((name, v)) = from_own.filter(|(name, _)| (keep.own)(name)) {
            comma(out, start);
            text(out, name);
            out.push(b':');
            v.to_json(out);
        }
    }
    out.push(b'}');
}

/// A comma before an entry of a map that began at `start`, but its first.
fn comma(out: &mut Vec<u8>, start: usize) {
    if out.len() > start {
        out.push(b',');
    }
}

/// A value of a manifest's map, as JSON.
trait ToJson {
    fn to_json(&self, out: &mut Vec<u8>);
}

impl ToJson for String {
    fn to_json(&self, out: &mut Vec<u8>) {
        text(out, self);
    }
}

impl ToJson for Option<String> {
    fn to_json(&self, out: &mut Vec<u8>) {
        json::env_value(out, self.as_deref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::manifest::Manifest;
    use bpvm_runtime::root::Kind;
    use bpvm_runtime::root::inputs::Seen;

    /// A pseudo-random choice among `n` (a linear congruential sequence).
    struct Dice(u64);

    impl Dice {
        fn roll(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as usize % n
        }
    }

    fn inputs(dice: &mut Dice, base: &Path) -> Inputs {
        let mut i = Inputs::default();
        for name in ["a.yaml", "b/c.yaml", "b/d", "e", "f\"q.yaml", "g/h.yaml", "i"] {
            let seen = match dice.roll(7) {
                0 | 1 => continue,
                2 => Seen::File([dice.roll(3) as u8; 32]),
                3 => Seen::Folder([dice.roll(3) as u8; 32]),
                4 => Seen::Kind([Kind::File, Kind::Folder, Kind::Other][dice.roll(3)]),
                _ => Seen::Missing,
            };
            i.files.insert(base.join(name).into_os_string(), seen);
        }
        for name in ["HOME", "TOKEN", "Z"] {
            if dice.roll(2) == 0 {
                i.env
                    .insert(name.into(), (dice.roll(2) == 0).then_some([dice.roll(3) as u8; 32]));
            }
        }
        i
    }

    #[test]
    fn a_manifest_made_from_the_named_load_is_the_one_made_plainly() {
        let base = Path::new("/bpvm-named-test/repo");
        let target = Target::bluelink(base, "a.yaml", None, Default::default());
        let options = BTreeMap::from([("format".to_string(), "yaml".to_string())]);
        let mut dice = Dice(11);
        for round in 0..3000 {
            let load = Arc::new(inputs(&mut dice, base));
            let render = inputs(&mut dice, base);
            let mut left_out = LeftOuts::new();
            for name in ["a.yaml", "b/d", "e", "i"] {
                if dice.roll(2) == 0 {
                    let hash = [dice.roll(3) as u8; 32];
                    let entry = LeftOut::hashed(&hash, &[9; 32], round % 2 == 0);
                    left_out.push(Arc::new((base.join(name), entry)));
                }
            }
            let made = Named::of(&target, &load).json(&target, &render, &left_out, "1.0", &options, true);
            let mut plain = Manifest {
                key: String::new(),
                target: target.id.clone(),
                bpvm: "1.0".into(),
                options: options.clone(),
                inputs: Read::of(base, &[&load, &render], &left_out),
            };
            plain.key = plain.hash();
            let (json, entry) = (String::from_utf8(made.json).unwrap(), made.entry.unwrap());
            assert_eq!(json, String::from_utf8(plain.to_json()).unwrap(), "round {round}");
            assert_eq!(entry, plain.to_entry_json(), "round {round}");
        }
    }
}
