//! The v0.9 test runner's checks on a composed blueprint (§10.6–10.8):
//! the structural checks every case gets, what a case's `expect` says
//! must be there (a partial match), what its `exclude` says must not be,
//! and warnings for expectation keys Windsor's runner would silently
//! drop. Diff texts are Windsor's, values printed the way Go's `%v` and
//! `%q` print them.

use crate::flux::tiers;
use bpvm_runtime::{Map, Value, text};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

// ---------------------------------------------------------------------------
// Reading the blueprint

/// A string field's text: absent and nil read as empty, other scalars as
/// their text (the way a string field of Windsor's types decodes them).
fn text_of(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::Str(s)) => s.to_string(),
        Some(v) => text::to_text(v),
    }
}

fn field(m: &Map, key: &str) -> String {
    text_of(m.get(key))
}

/// A list-of-strings field's items (absent or not a list: none).
fn strings(m: &Map, key: &str) -> Vec<String> {
    match m.get(key) {
        Some(Value::List(l)) => l.iter().map(|v| text_of(Some(v))).collect(),
        _ => Vec::new(),
    }
}

/// A list-of-maps field's items that are maps.
fn items<'m>(m: &'m Map, key: &str) -> Vec<&'m Map> {
    match m.get(key) {
        Some(Value::List(l)) => l.iter().filter_map(Value::as_map).collect(),
        _ => Vec::new(),
    }
}

/// A map field, if it is one (nil is none).
fn sub<'m>(m: &'m Map, key: &str) -> Option<&'m Map> {
    m.get(key).and_then(Value::as_map)
}

/// A terraform component's id: its name, or its path when unnamed.
fn terraform_id(c: &Map) -> String {
    match field(c, "name") {
        n if n.is_empty() => field(c, "path"),
        n => n,
    }
}

// ---------------------------------------------------------------------------
// Go's text of values

/// `s` the way Go's `%q` prints a string: double-quoted, `"` and `\`
/// escaped, control and other non-printing characters as Go escapes.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if printable(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Whether Go prints `c` as itself in a quoted string (an approximation
/// of `unicode.IsPrint` without Unicode's tables: controls, spaces other
/// than ` `, format characters and private-use characters are escaped;
/// unassigned code points are printed).
fn printable(c: char) -> bool {
    !(c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c,
            '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{e000}'..='\u{f8ff}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'..='\u{e007f}'
            | '\u{f0000}'..))
}

/// `v` the way Go's `%v` prints a decoded document value: nil as
/// `<nil>`, strings bare, floats shortest (`5.0` → `5`), lists as
/// `[a b]`, maps as `map[k:v]` with sorted keys.
pub(crate) fn go_value(v: &Value) -> String {
    let mut s = String::new();
    push_go(&mut s, v);
    s
}

fn push_go(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => text::push_float(out, *f),
        Value::Str(s) => out.push_str(s),
        Value::Bytes(b) => {
            out.push('[');
            for (i, byte) in b.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "{byte}");
            }
            out.push(']');
        }
        Value::List(l) => {
            out.push('[');
            for (i, item) in l.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                push_go(out, item);
            }
            out.push(']');
        }
        Value::Map(m) => {
            let mut entries: Vec<_> = m.iter().collect();
            entries.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
            out.push_str("map[");
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k.as_str());
                out.push(':');
                push_go(out, v);
            }
            out.push(']');
        }
    }
}

// ---------------------------------------------------------------------------
// Structural checks (R-10.6.1)

/// What is structurally wrong with the composed blueprint, in Windsor's
/// order: duplicate terraform ids, duplicate compiled kustomization
/// names, duplicate components within a kustomization, dependency cycles
/// (terraform, then kustomizations), dependencies on what does not exist.
pub(crate) fn structural(bp: &Value) -> Vec<String> {
    let empty = Map::new();
    let m = bp.as_map().unwrap_or(&empty);
    let terraform = items(m, "terraform");
    let kustomizations = tiers::all(bp);
    let mut errs = Vec::new();

    let mut seen = HashSet::new();
    for c in &terraform {
        let id = terraform_id(c);
        if !seen.insert(id.clone()) {
            errs.push(format!("duplicate terraform component ID: {id}"));
        }
    }
    let mut seen = HashSet::new();
    for k in &kustomizations {
        let name = field(k, "name");
        if !seen.insert(name.clone()) {
            errs.push(format!("duplicate kustomization name: {name}"));
        }
    }
    for k in &kustomizations {
        let mut seen = HashSet::new();
        for c in strings(k, "components") {
            if !c.is_empty() && !seen.insert(c.clone()) {
                errs.push(format!(
                    "duplicate component {} in kustomization {}",
                    go_quote(&c),
                    go_quote(&field(k, "name"))
                ));
            }
        }
    }

    let tf_nodes: Vec<(String, Vec<String>)> = terraform
        .iter()
        .map(|c| (terraform_id(c), strings(c, "dependsOn")))
        .collect();
    let k_nodes: Vec<(String, Vec<String>)> = kustomizations
        .iter()
        .map(|k| (field(k, "name"), strings(k, "dependsOn")))
        .collect();
    errs.extend(cycles(&tf_nodes, "terraform component"));
    errs.extend(cycles(&k_nodes, "kustomization"));

    let tf_ids: HashSet<&str> = tf_nodes.iter().map(|(id, _)| id.as_str()).collect();
    for (id, deps) in &tf_nodes {
        for dep in deps.iter().filter(|d| !tf_ids.contains(d.as_str())) {
            errs.push(format!(
                "terraform component {} depends on non-existent component {}",
                go_quote(id),
                go_quote(dep)
            ));
        }
    }
    let layers = tiers::crd_layer_names(bp);
    let k_names: HashSet<&str> = k_nodes
        .iter()
        .map(|(n, _)| n.as_str())
        .chain(layers.iter().map(String::as_str))
        .collect();
    for (name, deps) in &k_nodes {
        for dep in deps.iter().filter(|d| !k_names.contains(d.as_str())) {
            errs.push(format!(
                "kustomization {} depends on non-existent kustomization {}",
                go_quote(name),
                go_quote(dep)
            ));
        }
    }
    errs
}

/// Every cycle a depth-first walk of the graph meets, as
/// `circular dependency detected in <kind>: a -> b -> a`. Nodes are
/// walked in list order (Windsor walks a Go map, so its order varies);
/// a node listed twice keeps its last `dependsOn`; edges to unknown
/// nodes are skipped (they are reported as missing instead).
fn cycles(nodes: &[(String, Vec<String>)], kind: &str) -> Vec<String> {
    let mut graph: HashMap<&str, &[String]> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (name, deps) in nodes {
        if graph.insert(name, deps).is_none() {
            order.push(name);
        }
    }
    let mut errs = Vec::new();
    let mut visited: HashSet<&str> = HashSet::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    for start in order {
        if visited.contains(start) {
            continue;
        }
        let mut path: Vec<&str> = vec![start];
        let mut next: Vec<usize> = vec![0];
        visited.insert(start);
        on_path.insert(start);
        while let (Some(&node), Some(i)) = (path.last(), next.last_mut()) {
            let deps = graph[node];
            let Some(dep) = deps.get(*i) else {
                on_path.remove(node);
                path.pop();
                next.pop();
                continue;
            };
            *i += 1;
            let dep = dep.as_str();
            if !graph.contains_key(dep) {
                continue;
            }
            if on_path.contains(dep) {
                let from = path.iter().position(|n| *n == dep).unwrap_or(0);
                let mut cycle: Vec<&str> = path[from..].to_vec();
                cycle.push(dep);
                errs.push(format!(
                    "circular dependency detected in {kind}: {}",
                    cycle.join(" -> ")
                ));
                continue;
            }
            if visited.insert(dep) {
                on_path.insert(dep);
                path.push(dep);
                next.push(0);
            }
        }
    }
    errs
}

// ---------------------------------------------------------------------------
// expect and exclude (R-10.7, R-10.8)

/// What the case's `expect` finds missing and its `exclude` finds
/// present, in Windsor's order: expect (terraform, kustomize, flux,
/// crds), then exclude (the same). Empty: the blueprint satisfies both.
pub(crate) fn check(bp: &Value, expect: Option<&Map>, exclude: Option<&Map>) -> Vec<String> {
    let empty = Map::new();
    let actual = Actual {
        bp: bp.as_map().unwrap_or(&empty),
        kustomizations: tiers::all(bp),
    };
    let mut diffs = Vec::new();
    if let Some(want) = expect {
        actual.expect(want, &mut diffs);
    }
    if let Some(unwanted) = exclude {
        actual.exclude(unwanted, &mut diffs);
    }
    diffs
}

/// The composed blueprint and its compiled kustomizations.
struct Actual<'b> {
    bp: &'b Map,
    kustomizations: Vec<Map>,
}

impl Actual<'_> {
    fn expect(&self, want: &Map, diffs: &mut Vec<String>) {
        for tf in items(want, "terraform") {
            match self.terraform(tf) {
                None => diffs.push(format!("terraform component not found: {}", terraform_id(tf))),
                Some(got) => match_terraform(got, tf, diffs),
            }
        }
        for k in items(want, "kustomize") {
            let name = field(k, "name");
            match self.kustomization(&name) {
                None => diffs.push(format!("kustomization not found: {name}")),
                Some(got) => match_kustomization(got, k, &name, diffs),
            }
        }
        for sys in items(want, "flux") {
            let name = field(sys, "name");
            match self.system(&name) {
                None => diffs.push(format!("flux system not found: {name}")),
                Some(got) => match_system(got, sys, &name, diffs),
            }
        }
        for r in strings(want, "crds") {
            if !self.installs_crd(&r) {
                diffs.push(format!("crd reference not found: {r}"));
            }
        }
    }

    fn exclude(&self, unwanted: &Map, diffs: &mut Vec<String>) {
        for tf in items(unwanted, "terraform") {
            if self.terraform(tf).is_some() {
                diffs.push(format!("terraform component should not exist: {}", terraform_id(tf)));
            }
        }
        for k in items(unwanted, "kustomize") {
            let name = field(k, "name");
            let Some(got) = self.kustomization(&name) else {
                continue;
            };
            let components = strings(k, "components");
            if components.is_empty() {
                diffs.push(format!("kustomization should not exist: {name}"));
            } else {
                exclude_components(got, &components, &format!("kustomize[{name}]"), diffs);
            }
        }
        for sys in items(unwanted, "flux") {
            let name = field(sys, "name");
            let Some(got) = self.system(&name) else {
                continue;
            };
            let install = sub(sys, "install");
            let resources = items(sys, "resources");
            if install.is_none() && resources.is_empty() {
                diffs.push(format!("flux system should not exist: {name}"));
                continue;
            }
            if let (Some(install), Some(got_install)) = (install, tiers::install(got)) {
                let components = strings(install, "components");
                if components.is_empty() {
                    diffs.push(format!("flux[{name}].install: should not exist"));
                } else {
                    exclude_components(got_install, &components, &format!("flux[{name}].install"), diffs);
                }
            }
            for v in resources {
                let Some(found) = find_variant(got, v) else {
                    continue;
                };
                let components = strings(v, "components");
                let id = variant_id(v);
                if components.is_empty() {
                    diffs.push(format!("flux[{name}].resources: variant should not exist: {id}"));
                } else {
                    exclude_components(found, &components, &format!("flux[{name}].resources[{id}]"), diffs);
                }
            }
        }
        for r in strings(unwanted, "crds") {
            if self.installs_crd(&r) {
                diffs.push(format!("crd reference should not exist: {r}"));
            }
        }
    }

    /// The first terraform component whose name is the wanted name or
    /// whose path is the wanted path (either, per component, in order).
    fn terraform(&self, want: &Map) -> Option<&Map> {
        let (name, path) = (field(want, "name"), field(want, "path"));
        items(self.bp, "terraform")
            .into_iter()
            .find(|c| (!name.is_empty() && field(c, "name") == name) || (!path.is_empty() && field(c, "path") == path))
    }

    /// The compiled kustomization named `name` (exactly; an unnamed
    /// expectation looks for an unnamed kustomization, as Windsor does).
    fn kustomization(&self, name: &str) -> Option<&Map> {
        self.kustomizations.iter().find(|k| field(k, "name") == name)
    }

    /// The composed flux system named `name`.
    fn system(&self, name: &str) -> Option<&Map> {
        items(self.bp, "flux").into_iter().find(|s| field(s, "name") == name)
    }

    /// Whether `r` is in the blueprint's `crds` or any source's.
    fn installs_crd(&self, r: &str) -> bool {
        strings(self.bp, "crds").iter().any(|c| c == r)
            || items(self.bp, "sources")
                .into_iter()
                .any(|s| strings(s, "crds").iter().any(|c| c == r))
    }
}

/// One diff per wanted item missing from the list field `key` of `got`.
fn missing(got: &Map, want: &Map, key: &str, label: &str, diffs: &mut Vec<String>) {
    let have = strings(got, key);
    for w in strings(want, key) {
        if !have.contains(&w) {
            diffs.push(format!("{label}.{key}: missing {}", go_quote(&w)));
        }
    }
}

/// A diff when the wanted text field `key` is set and differs.
fn same_text(got: &Map, want: &Map, key: &str, label: &str, diffs: &mut Vec<String>) {
    let w = field(want, key);
    let g = field(got, key);
    if !w.is_empty() && w != g {
        diffs.push(format!(
            "{label}.{key}: expected {}, got {}",
            go_quote(&w),
            go_quote(&g)
        ));
    }
}

fn match_terraform(got: &Map, want: &Map, diffs: &mut Vec<String>) {
    let label = format!("terraform[{}]", terraform_id(want));
    same_text(got, want, "source", &label, diffs);
    same_text(got, want, "path", &label, diffs);
    missing(got, want, "dependsOn", &label, diffs);
    let Some(inputs) = sub(want, "inputs") else {
        return;
    };
    let have = sub(got, "inputs");
    for (k, w) in inputs.iter() {
        let k = k.as_str();
        match have.and_then(|h| h.get(k)) {
            None => diffs.push(format!("{label}.inputs[{k}]: key not found")),
            Some(g) if !inputs_match(w, g) => diffs.push(format!(
                "{label}.inputs[{k}]: expected {}, got {}",
                go_value(w),
                go_value(g)
            )),
            Some(_) => {}
        }
    }
}

/// An expected terraform input against the composed one: nil only
/// matches nil, lists match element-wise at the same length, maps match
/// when every expected key matches (extra keys allowed), anything else
/// when both print the same under `%v` (`"false"` ~ `false`, `5` ~ `5.0`).
fn inputs_match(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::List(w), Value::List(g)) => w.len() == g.len() && w.iter().zip(g).all(|(a, b)| inputs_match(a, b)),
        (Value::List(_), _) => false,
        (Value::Map(w), Value::Map(g)) => w
            .iter()
            .all(|(k, wv)| g.get(k.as_str()).is_some_and(|gv| inputs_match(wv, gv))),
        (Value::Map(_), _) => false,
        (w, g) => go_value(w) == go_value(g),
    }
}

/// A kustomization (a compiled one, or a system's raw install or
/// variant) against an expectation; `label` names it in the diffs.
fn match_kustomization(got: &Map, want: &Map, label: &str, diffs: &mut Vec<String>) {
    let label = format!("kustomize[{label}]");
    same_text(got, want, "path", &label, diffs);
    same_text(got, want, "source", &label, diffs);
    missing(got, want, "dependsOn", &label, diffs);
    missing(got, want, "components", &label, diffs);
    let Some(subs) = sub(want, "substitutions") else {
        return;
    };
    let have = sub(got, "substitutions");
    for (k, w) in subs.iter() {
        let k = k.as_str();
        let w = text_of(Some(w));
        match have.and_then(|h| h.get(k)) {
            None => diffs.push(format!("{label}.substitutions[{k}]: key not found")),
            Some(g) => {
                let g = text_of(Some(g));
                if g != w {
                    diffs.push(format!(
                        "{label}.substitutions[{k}]: expected {}, got {}",
                        go_quote(&w),
                        go_quote(&g)
                    ));
                }
            }
        }
    }
}

fn match_system(got: &Map, want: &Map, name: &str, diffs: &mut Vec<String>) {
    let label = format!("flux[{name}]");
    for key in ["path", "source", "when", "strategy"] {
        same_text(got, want, key, &label, diffs);
    }
    missing(got, want, "dependsOn", &label, diffs);
    if let Some(Value::Int(w)) = want.get("ordinal") {
        match got.get("ordinal") {
            Some(Value::Int(g)) if g == w => {}
            Some(Value::Int(g)) => diffs.push(format!("{label}.ordinal: expected {w}, got {g}")),
            _ => diffs.push(format!("{label}.ordinal: expected {w}, got unset")),
        }
    }
    if matches!(want.get("globalDependency"), Some(Value::Bool(true)))
        && !matches!(got.get("globalDependency"), Some(Value::Bool(true)))
    {
        diffs.push(format!("{label}.globalDependency: expected true, got false"));
    }
    if let Some(install) = sub(want, "install") {
        match tiers::install(got) {
            None => diffs.push(format!("{label}.install: expected present, got absent")),
            Some(g) => match_kustomization(g, install, &format!("{name}.install"), diffs),
        }
    }
    for v in items(want, "resources") {
        let id = variant_id(v);
        let Some(found) = find_variant(got, v) else {
            diffs.push(format!("{label}.resources: variant not found: {id}"));
            continue;
        };
        same_text(found, v, "when", &format!("{label}.resources[{id}]"), diffs);
        match_kustomization(found, v, &format!("{name}.resources[{id}]"), diffs);
    }
}

/// The system's variant an expectation means: the one with its name when
/// it gives one; else the first containing all its components; else,
/// when it gives neither and the system has exactly one variant, that.
fn find_variant<'s>(system: &'s Map, want: &Map) -> Option<&'s Map> {
    let variants: Vec<&Map> = tiers::variants(system).collect();
    let name = field(want, "name");
    let components = strings(want, "components");
    if !name.is_empty() {
        return variants.into_iter().find(|v| field(v, "name") == name);
    }
    if !components.is_empty() {
        return variants.into_iter().find(|v| {
            let have = strings(v, "components");
            components.iter().all(|c| have.contains(c))
        });
    }
    match variants.as_slice() {
        [only] => Some(only),
        _ => None,
    }
}

/// How diffs name a variant expectation: its name, else its components
/// joined with `,`.
fn variant_id(want: &Map) -> String {
    match field(want, "name") {
        n if n.is_empty() => strings(want, "components").join(","),
        n => n,
    }
}

/// One diff per excluded component `got` contains.
fn exclude_components(got: &Map, components: &[String], label: &str, diffs: &mut Vec<String>) {
    let have = strings(got, "components");
    for c in components.iter().filter(|c| have.contains(c)) {
        diffs.push(format!("{label}.components: should not contain {}", go_quote(c)));
    }
}

// ---------------------------------------------------------------------------
// Keys Windsor's runner drops

/// Warnings for the keys of a case's `expect` or `exclude` (named `at`)
/// that are not fields of the blueprint, terraform component,
/// kustomization, flux system or resources variant they are under:
/// Windsor decodes these documents leniently and drops such keys, so an
/// expectation written with one silently asserts nothing. Fields Windsor
/// decodes but does not compare (durations, `destroy`, `secrets`, …) are
/// not reported.
pub(crate) fn unknown_keys(doc: &Map, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    unknown(doc, crate::fields::BLUEPRINT, "blueprint", at, &mut out);
    for (i, tf) in list_items(doc, "terraform") {
        let id = match terraform_id(tf) {
            id if id.is_empty() => i.to_string(),
            id => id,
        };
        unknown(
            tf,
            crate::fields::TERRAFORM,
            "terraform component",
            &format!("{at}.terraform[{id}]"),
            &mut out,
        );
    }
    for (i, k) in list_items(doc, "kustomize") {
        let at = format!("{at}.kustomize[{}]", name_or_index(k, i));
        unknown(k, crate::fields::KUSTOMIZATION, "kustomization", &at, &mut out);
    }
    for (i, sys) in list_items(doc, "flux") {
        let at = format!("{at}.flux[{}]", name_or_index(sys, i));
        unknown(sys, crate::fields::FLUX_SYSTEM, "flux system", &at, &mut out);
        if let Some(install) = sub(sys, "install") {
            unknown(
                install,
                crate::fields::KUSTOMIZATION,
                "kustomization",
                &format!("{at}.install"),
                &mut out,
            );
        }
        for (j, v) in list_items(sys, "resources") {
            let at = format!("{at}.resources[{}]", name_or_index(v, j));
            let fields: Vec<&str> = crate::fields::KUSTOMIZATION.iter().copied().chain(["when"]).collect();
            unknown(v, &fields, "resources variant", &at, &mut out);
        }
    }
    out
}

/// The map items of a list field with their positions.
fn list_items<'m>(m: &'m Map, key: &str) -> Vec<(usize, &'m Map)> {
    match m.get(key) {
        Some(Value::List(l)) => l
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i, v.as_map()?)))
            .collect(),
        _ => Vec::new(),
    }
}

fn name_or_index(m: &Map, i: usize) -> String {
    match field(m, "name") {
        n if n.is_empty() => i.to_string(),
        n => n,
    }
}

fn unknown(m: &Map, fields: &[&str], what: &str, at: &str, out: &mut Vec<String>) {
    for k in m.keys().map(|k| k.as_str()).filter(|k| !fields.contains(k)) {
        let mut msg = format!("{at}.{k}: not a {what} field; Windsor's runner ignores it");
        if let Some(near) = bpvm_runtime::suggest::closest(k, fields) {
            let _ = write!(msg, " (did you mean {near:?}?)");
        }
        out.push(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(yaml: &str) -> Value {
        Value::from_yaml(yaml).unwrap()
    }

    fn map(yaml: &str) -> Map {
        value(yaml).as_map().unwrap().clone()
    }

    const BLUEPRINT: &str = r#"
crds: [cert-manager-1.21.1]
sources:
  - {name: template}
  - {name: core, url: 'oci://example/core', crds: [gateway-api]}
terraform:
  - name: cluster
    path: cluster/talos
    inputs:
      flag: false
      count: 5
      nodes: [{name: a, role: cp, disks: [sda]}, {name: b, role: worker}]
      zones: []
      cfg: {a: 1, b: {c: x}}
      none: null
      text: "1"
  - path: network/vpc
    source: core
    dependsOn: [cluster]
kustomize:
  - name: plain
    path: apps
    dependsOn: [crds]
    components: [a, b]
    substitutions: {domain: example.com, port: "80"}
flux:
  - name: demo
    source: template
    resources: [{components: [app]}]
  - name: lb
    path: net/lb
    install: {substitutions: {x: y}}
  - name: pki
    source: template
    dependsOn: [policy-resources, telemetry-install]
    install: {components: [cert-manager], timeout: 20m}
    resources:
      - components: [issuers, issuers/private]
      - name: extra
        components: [trust]
        substitutions: {ca: x}
  - name: policy
    source: template
    globalDependency: true
    install: {components: [kyverno]}
    resources: [{components: [kyverno/a]}]
"#;

    /// The diffs of `expect` / `exclude` (empty text: none) against
    /// [`BLUEPRINT`].
    fn diffs(expect: &str, exclude: &str) -> Vec<String> {
        let (e, x) = (
            (!expect.is_empty()).then(|| map(expect)),
            (!exclude.is_empty()).then(|| map(exclude)),
        );
        check(&value(BLUEPRINT), e.as_ref(), x.as_ref())
    }

    #[test]
    fn expectations_that_hold_give_no_diffs() {
        let expect = r#"
terraform:
  - name: cluster
    inputs:
      flag: "false"
      count: 5.0
      nodes: [{name: a, disks: [sda]}, {role: worker}]
      zones: []
      cfg: {b: {c: x}}
      none: null
      text: 1
  - path: network/vpc
    source: core
    dependsOn: [cluster]
    destroy: false
kustomize:
  - {name: plain, path: apps, dependsOn: [crds], components: [b], substitutions: {port: 80}}
  - {name: pki-install, path: pki/install, source: template, timeout: 99m, dependsOn: [telemetry-install]}
  - {name: pki-resources, dependsOn: [pki-install], components: [issuers]}
  - {name: lb-install}
flux:
  - name: pki
    source: template
    dependsOn: [policy-resources]
    install: {components: [cert-manager], timeout: 1m}
    resources:
      - components: [issuers/private]
      - {name: extra, components: [trust], substitutions: {ca: x}}
  - {name: policy, globalDependency: true, resources: [{timeout: 5m}]}
  - {name: lb, path: net/lb, install: {}}
  - {name: demo, interval: 5m, secrets: {a: {}}}
crds: [cert-manager-1.21.1, gateway-api]
"#;
        let got = diffs(expect, "");
        // `lb-install` is not compiled (its install has no components).
        assert_eq!(got, ["kustomization not found: lb-install"]);
    }

    #[test]
    fn expect_diffs() {
        let cases: &[(&str, &[&str])] = &[
            // terraform: found by name or path, per component in order
            ("{terraform: [{name: nope}]}", &["terraform component not found: nope"]),
            (
                "{terraform: [{path: nope/x}]}",
                &["terraform component not found: nope/x"],
            ),
            ("{terraform: [{}]}", &["terraform component not found: "]),
            ("{terraform: [{name: other, path: cluster/talos}]}", &[]),
            (
                "{terraform: [{name: cluster, path: x/y, source: core, dependsOn: [a, b]}]}",
                &[
                    r#"terraform[cluster].source: expected "core", got """#,
                    r#"terraform[cluster].path: expected "x/y", got "cluster/talos""#,
                    r#"terraform[cluster].dependsOn: missing "a""#,
                    r#"terraform[cluster].dependsOn: missing "b""#,
                ],
            ),
            (
                "{terraform: [{path: network/vpc, source: template}]}",
                &[r#"terraform[network/vpc].source: expected "template", got "core""#],
            ),
            (
                "{terraform: [{name: cluster, inputs: {missing: 1, flag: true, count: 6, none: '', text: 2}}]}",
                &[
                    "terraform[cluster].inputs[missing]: key not found",
                    "terraform[cluster].inputs[flag]: expected true, got false",
                    "terraform[cluster].inputs[count]: expected 6, got 5",
                    "terraform[cluster].inputs[none]: expected , got <nil>",
                    "terraform[cluster].inputs[text]: expected 2, got 1",
                ],
            ),
            (
                "{terraform: [{name: cluster, inputs: {nodes: [{name: a}], cfg: {b: {c: y}}, zones: {}, count: null}}]}",
                &[
                    "terraform[cluster].inputs[nodes]: expected [map[name:a]], got [map[disks:[sda] name:a role:cp] map[name:b role:worker]]",
                    "terraform[cluster].inputs[cfg]: expected map[b:map[c:y]], got map[a:1 b:map[c:x]]",
                    "terraform[cluster].inputs[zones]: expected map[], got []",
                    "terraform[cluster].inputs[count]: expected <nil>, got 5",
                ],
            ),
            // kustomize: compiled names, plain entries and tiers
            ("{kustomize: [{name: nope}]}", &["kustomization not found: nope"]),
            (
                "{kustomize: [{name: plain, path: web, source: template, dependsOn: [cni], components: [a, c],
                   substitutions: {port: '8080', missing: x}}]}",
                &[
                    r#"kustomize[plain].path: expected "web", got "apps""#,
                    r#"kustomize[plain].source: expected "template", got """#,
                    r#"kustomize[plain].dependsOn: missing "cni""#,
                    r#"kustomize[plain].components: missing "c""#,
                    r#"kustomize[plain].substitutions[port]: expected "8080", got "80""#,
                    "kustomize[plain].substitutions[missing]: key not found",
                ],
            ),
            (
                "{kustomize: [{name: pki-install, path: pki}]}",
                &[r#"kustomize[pki-install].path: expected "pki", got "pki/install""#],
            ),
            // flux: composed systems
            ("{flux: [{name: nope}]}", &["flux system not found: nope"]),
            (
                "{flux: [{name: pki, path: pki, source: core, when: 'true', strategy: replace, dependsOn: [crds],
                   ordinal: 100, globalDependency: true}]}",
                &[
                    r#"flux[pki].path: expected "pki", got """#,
                    r#"flux[pki].source: expected "core", got "template""#,
                    r#"flux[pki].when: expected "true", got """#,
                    r#"flux[pki].strategy: expected "replace", got """#,
                    r#"flux[pki].dependsOn: missing "crds""#,
                    "flux[pki].ordinal: expected 100, got unset",
                    "flux[pki].globalDependency: expected true, got false",
                ],
            ),
            ("{flux: [{name: policy, globalDependency: false}]}", &[]),
            (
                "{flux: [{name: demo, install: {}}]}",
                &["flux[demo].install: expected present, got absent"],
            ),
            (
                "{flux: [{name: pki, install: {components: [cert-manager, cert-manager/prometheus], path: x,
                   dependsOn: [policy-resources]}}]}",
                &[
                    r#"kustomize[pki.install].path: expected "x", got """#,
                    r#"kustomize[pki.install].dependsOn: missing "policy-resources""#,
                    r#"kustomize[pki.install].components: missing "cert-manager/prometheus""#,
                ],
            ),
            (
                "{flux: [{name: pki, resources: [{name: nope}, {components: [issuers, other]}, {timeout: 5m}]}]}",
                &[
                    "flux[pki].resources: variant not found: nope",
                    "flux[pki].resources: variant not found: issuers,other",
                    "flux[pki].resources: variant not found: ",
                ],
            ),
            (
                "{flux: [{name: pki, resources: [{name: extra, when: x, components: [trust, more],
                   substitutions: {ca: y}}]}]}",
                &[
                    r#"flux[pki].resources[extra].when: expected "x", got """#,
                    r#"kustomize[pki.resources[extra]].components: missing "more""#,
                    r#"kustomize[pki.resources[extra]].substitutions[ca]: expected "y", got "x""#,
                ],
            ),
            (
                "{flux: [{name: pki, resources: [{components: [issuers], path: pki/resources}]}]}",
                &[r#"kustomize[pki.resources[issuers]].path: expected "pki/resources", got """#],
            ),
            // crds: the blueprint's or any source's
            ("{crds: [gateway-api, nope]}", &["crd reference not found: nope"]),
            // keys Windsor does not compare
            (
                "{config: {a: 1}, messages: [x], metadata: {name: y}, substitutions: {a: b}}",
                &[],
            ),
        ];
        for (expect, want) in cases {
            assert_eq!(diffs(expect, ""), *want, "{expect}");
        }
    }

    #[test]
    fn exclude_diffs() {
        let cases: &[(&str, &[&str])] = &[
            (
                "{terraform: [{name: cluster}]}",
                &["terraform component should not exist: cluster"],
            ),
            (
                "{terraform: [{path: network/vpc}]}",
                &["terraform component should not exist: network/vpc"],
            ),
            ("{terraform: [{name: nope}, {}]}", &[]),
            (
                "{kustomize: [{name: pki-install}]}",
                &["kustomization should not exist: pki-install"],
            ),
            (
                "{kustomize: [{name: plain, components: []}]}",
                &["kustomization should not exist: plain"],
            ),
            (
                "{kustomize: [{name: plain, components: [a, z, b]}]}",
                &[
                    r#"kustomize[plain].components: should not contain "a""#,
                    r#"kustomize[plain].components: should not contain "b""#,
                ],
            ),
            (
                "{kustomize: [{name: nope}, {components: [a]}, {name: lb-install}]}",
                &[],
            ),
            ("{flux: [{name: nope}]}", &[]),
            ("{flux: [{name: pki}]}", &["flux system should not exist: pki"]),
            (
                "{flux: [{name: pki, install: {}}]}",
                &["flux[pki].install: should not exist"],
            ),
            // the install is on the system even though it compiles to no tier
            (
                "{flux: [{name: lb, install: {}}]}",
                &["flux[lb].install: should not exist"],
            ),
            ("{flux: [{name: demo, install: {}}]}", &[]),
            (
                "{flux: [{name: pki, install: {components: [cert-manager, other]}}]}",
                &[r#"flux[pki].install.components: should not contain "cert-manager""#],
            ),
            (
                "{flux: [{name: pki, resources: [{name: extra}, {name: nope}]}]}",
                &["flux[pki].resources: variant should not exist: extra"],
            ),
            (
                "{flux: [{name: pki, resources: [{components: [issuers]}]}]}",
                &[r#"flux[pki].resources[issuers].components: should not contain "issuers""#],
            ),
            // a variant is found only when it has every listed component
            ("{flux: [{name: pki, resources: [{components: [issuers, nope]}]}]}", &[]),
            (
                "{flux: [{name: pki, resources: [{name: extra, components: [trust, nope]}]}]}",
                &[r#"flux[pki].resources[extra].components: should not contain "trust""#],
            ),
            (
                "{flux: [{name: demo, resources: [{}]}]}",
                &["flux[demo].resources: variant should not exist: "],
            ),
            ("{flux: [{name: pki, resources: [{}]}]}", &[]),
            (
                "{crds: [gateway-api, cert-manager-1.21.1, nope]}",
                &[
                    "crd reference should not exist: gateway-api",
                    "crd reference should not exist: cert-manager-1.21.1",
                ],
            ),
        ];
        for (exclude, want) in cases {
            assert_eq!(diffs("", exclude), *want, "{exclude}");
        }
    }

    #[test]
    fn expect_then_exclude_each_in_field_order() {
        let both = "{crds: [nope], flux: [{name: nope}], kustomize: [{name: nope}], terraform: [{name: nope}]}";
        let gone =
            "{crds: [gateway-api], flux: [{name: pki}], kustomize: [{name: plain}], terraform: [{name: cluster}]}";
        assert_eq!(
            diffs(both, gone),
            [
                "terraform component not found: nope",
                "kustomization not found: nope",
                "flux system not found: nope",
                "crd reference not found: nope",
                "terraform component should not exist: cluster",
                "kustomization should not exist: plain",
                "flux system should not exist: pki",
                "crd reference should not exist: gateway-api",
            ]
        );
        assert!(check(&value(BLUEPRINT), None, None).is_empty());
    }

    #[test]
    fn ordinals_compare_when_the_system_has_one() {
        let bp = value("{flux: [{name: a, ordinal: 5}]}");
        let want = |o: i64| map(&format!("{{flux: [{{name: a, ordinal: {o}}}]}}"));
        assert!(check(&bp, Some(&want(5)), None).is_empty());
        assert_eq!(check(&bp, Some(&want(6)), None), ["flux[a].ordinal: expected 6, got 5"]);
    }

    #[test]
    fn inputs_match_by_go_text() {
        let cases = [
            ("'false'", "false", true),
            ("5", "5.0", true),
            ("'1'", "1", true),
            ("1.5", "'1.5'", true),
            ("true", "'yes'", false),
            ("null", "null", true),
            ("null", "''", false),
            ("''", "null", false),
            ("[]", "[]", true),
            ("[]", "null", false),
            ("[1]", "['1']", true),
            ("[1, 2]", "[2, 1]", false),
            ("[1]", "{a: 1}", false),
            ("{}", "{a: 1}", true),
            ("{a: 1}", "[1]", false),
            ("{a: null}", "{}", false),
            // Go compares a scalar with a list or map by their `%v` text
            ("'[a b]'", "[a, b]", true),
            ("'map[a:1]'", "{a: 1}", true),
        ];
        for (want, got, ok) in cases {
            assert_eq!(inputs_match(&value(want), &value(got)), ok, "{want} ~ {got}");
        }
    }

    #[test]
    fn values_print_like_go() {
        for (yaml, want) in [
            ("null", "<nil>"),
            ("true", "true"),
            ("-3", "-3"),
            ("5.0", "5"),
            ("1.0e21", "1e+21"),
            ("text with spaces", "text with spaces"),
            ("[a, 1, null, [], {}]", "[a 1 <nil> [] map[]]"),
            ("{z: 1, a: [x, y], m: {k: v}}", "map[a:[x y] m:map[k:v] z:1]"),
        ] {
            assert_eq!(go_value(&value(yaml)), want, "{yaml}");
        }
        assert_eq!(go_value(&Value::Bytes(Box::new([104, 105]))), "[104 105]");
    }

    #[test]
    fn strings_quote_like_go() {
        for (s, want) in [
            ("plain", r#""plain""#),
            ("", r#""""#),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("\n\t\r\u{7}\u{8}\u{c}\u{b}", r#""\n\t\r\a\b\f\v""#),
            ("\u{1}\u{7f}", r#""\x01\x7f""#),
            ("é ü 日本", r#""é ü 日本""#),
            ("\u{85}\u{a0}\u{200b}\u{feff}", r#""\u0085\u00a0\u200b\ufeff""#),
            ("\u{e0001}\u{e000}", r#""\U000e0001\ue000""#),
        ] {
            assert_eq!(go_quote(s), want, "{s:?}");
        }
    }

    #[test]
    fn structural_duplicates() {
        let bp = value(
            "{terraform: [{name: a, path: x}, {path: a}, {name: a}, {path: b}],
              kustomize: [{name: k, components: [x, '', y, x, '', x]}, {name: pki-install}],
              flux: [{name: pki, install: {components: [c, c]}}]}",
        );
        assert_eq!(
            structural(&bp),
            [
                "duplicate terraform component ID: a",
                "duplicate terraform component ID: a",
                "duplicate kustomization name: pki-install",
                r#"duplicate component "x" in kustomization "k""#,
                r#"duplicate component "x" in kustomization "k""#,
                r#"duplicate component "c" in kustomization "pki-install""#,
            ]
        );
    }

    #[test]
    fn structural_cycles() {
        let bp = value(
            "{terraform: [{name: a, dependsOn: [b, gone]}, {name: b, dependsOn: [c]}, {name: c, dependsOn: [a]},
                          {name: d, dependsOn: [d]}],
              flux: [{name: x, dependsOn: [y-install], install: {components: [c]}},
                     {name: y, dependsOn: [x-install], install: {components: [c]}, resources: [{}]}]}",
        );
        assert_eq!(
            structural(&bp),
            [
                "circular dependency detected in terraform component: a -> b -> c -> a",
                "circular dependency detected in terraform component: d -> d",
                "circular dependency detected in kustomization: x-install -> y-install -> x-install",
                r#"terraform component "a" depends on non-existent component "gone""#,
            ]
        );
    }

    #[test]
    fn structural_cycles_report_every_back_edge() {
        // Both a -> b -> a and a -> c -> a close on `a` during one walk.
        let nodes = |spec: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
            spec.iter()
                .map(|(n, d)| (n.to_string(), d.iter().map(|s| s.to_string()).collect()))
                .collect()
        };
        assert_eq!(
            cycles(
                &nodes(&[("a", &["b", "c"]), ("b", &["a"]), ("c", &["a"])]),
                "kustomization"
            ),
            [
                "circular dependency detected in kustomization: a -> b -> a",
                "circular dependency detected in kustomization: a -> c -> a",
            ]
        );
        // A node listed twice keeps its last edges.
        assert!(cycles(&nodes(&[("a", &["b"]), ("b", &["a"]), ("a", &[])]), "x").is_empty());
        // A long chain is walked without recursion.
        let chain: Vec<(String, Vec<String>)> = (0..100_000)
            .map(|i| (format!("n{i}"), vec![format!("n{}", (i + 1) % 100_000)]))
            .collect();
        assert_eq!(cycles(&chain, "x").len(), 1);
    }

    #[test]
    fn structural_missing_dependencies() {
        let bp = value(
            "{crds: [a],
              sources: [{name: core, install: true, crds: [b]}, {name: git, url: 'https://x', crds: [c]}],
              terraform: [{path: net/vpc, dependsOn: [cluster]}, {name: cluster}],
              kustomize: [{name: k, dependsOn: [crds, crds-core, crds-git, lb-install, db-resources]}],
              flux: [{name: lb, install: {substitutions: {a: b}}},
                     {name: db, dependsOn: [lb-install], resources: [{}]}]}",
        );
        assert_eq!(
            structural(&bp),
            [
                r#"kustomization "k" depends on non-existent kustomization "crds-git""#,
                r#"kustomization "k" depends on non-existent kustomization "lb-install""#,
                r#"kustomization "db-resources" depends on non-existent kustomization "lb-install""#,
            ]
        );
        let no_crds = value("{kustomize: [{name: k, dependsOn: [crds]}]}");
        assert_eq!(
            structural(&no_crds),
            [r#"kustomization "k" depends on non-existent kustomization "crds""#]
        );
        assert!(structural(&Value::Null).is_empty());
        assert!(structural(&value(BLUEPRINT)).contains(
            &r#"kustomization "pki-install" depends on non-existent kustomization "telemetry-install""#.to_string()
        ));
    }

    #[test]
    fn unknown_keys_are_reported_with_suggestions() {
        let doc = map("{config: {a: 1}, messages: [], Crds: [x],
              terraform: [{name: c, input: {}, destroy: false, parallelism: 1}, {path: p/q, dependOn: [a]}, {x: 1}],
              kustomize: [{name: k, timeout: 5m, componets: [a]}, {nme: z}],
              flux: [{name: pki, interval: 5m, secrets: {}, enabled: false, when: x, strategy: merge, ordinal: 1,
                      install: {components: [a], retryInterval: 1m, substitutes: {}},
                      resources: [{when: x, secrets: {a: b}, components: []}, {name: v, dependsOn: [], wen: x}]}]}");
        assert_eq!(
            unknown_keys(&doc, "expect"),
            [
                "expect.config: not a blueprint field; Windsor's runner ignores it",
                r#"expect.Crds: not a blueprint field; Windsor's runner ignores it (did you mean "crds"?)"#,
                r#"expect.terraform[c].input: not a terraform component field; Windsor's runner ignores it (did you mean "inputs"?)"#,
                r#"expect.terraform[p/q].dependOn: not a terraform component field; Windsor's runner ignores it (did you mean "dependsOn"?)"#,
                r#"expect.terraform[2].x: not a terraform component field; Windsor's runner ignores it"#,
                r#"expect.kustomize[k].componets: not a kustomization field; Windsor's runner ignores it (did you mean "components"?)"#,
                r#"expect.kustomize[1].nme: not a kustomization field; Windsor's runner ignores it (did you mean "name"?)"#,
                "expect.flux[pki].interval: not a flux system field; Windsor's runner ignores it",
                r#"expect.flux[pki].install.substitutes: not a kustomization field; Windsor's runner ignores it (did you mean "substitute"?)"#,
                "expect.flux[pki].resources[0].secrets: not a resources variant field; Windsor's runner ignores it",
                r#"expect.flux[pki].resources[v].wen: not a resources variant field; Windsor's runner ignores it (did you mean "when"?)"#,
            ]
        );
        assert!(unknown_keys(&map(BLUEPRINT), "exclude").is_empty());
    }
}
