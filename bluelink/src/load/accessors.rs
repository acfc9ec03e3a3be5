//! What a reference reads after the name it starts with: only what the
//! named value can have (seed 002, "References & Substitutions"). It is
//! checked when the blueprint is loaded wherever the blueprint declares
//! the shape: a value's type, a data source field's type, a resource's
//! `each`, metadata and spec as written, the result of a call on literals.
//! And `each` may not reach a resource or a child through values and
//! data sources either.

use super::{Loader, constant};
use crate::blueprint::{Blueprint, Resource, Type};
use crate::sub::{Def, Ref, Sub, Tree};
use bpvm_compiler::ast::{Accessor, Expr, Kind};
use bpvm_compiler::template::{Part, split};
use bpvm_compiler::{Compiler, Dialect};
use bpvm_runtime::Value;
use bpvm_vm::Seg;
use std::collections::{HashMap, HashSet};

/// The declared shapes references are checked against.
struct Shapes<'b> {
    resources: HashMap<&'b str, &'b Resource>,
    /// The top-level spec fields of each resource whose spec has more
    /// than [`FEW_FIELDS`]: a spec of many fields read at many of them is
    /// checked in linear time. Smaller specs are searched as they are
    /// (indexing every resource's fields would hold a large blueprint's
    /// peak memory up by a tenth).
    spec_fields: HashMap<(&'b str, &'b str), &'b Tree>,
    values: HashMap<&'b str, Type>,
    fields: HashMap<(&'b str, &'b str), Type>,
}

/// The most top-level fields of a spec searched one by one.
const FEW_FIELDS: usize = 16;

fn article(kind: &str) -> &'static str {
    if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// What an accessor reads, for messages.
fn what(seg: &Seg) -> String {
    match seg {
        Seg::Key(k, _) => format!("no field {:?}", k.as_str()),
        Seg::Index(i) => format!("no item [{i}]"),
    }
}

/// `name is <a kind>: it has <what the accessor reads>`.
fn no_accessor(name: &str, kind: &str, seg: &Seg) -> String {
    format!("{name} is {} {kind}: it has {}", article(kind), what(seg))
}

impl Shapes<'_> {
    /// The problem with what `segs` read, if any.
    fn problem(&self, segs: &[Seg]) -> Option<String> {
        let key = |i: usize| match segs.get(i) {
            Some(Seg::Key(k, _)) => Some(k.as_str()),
            _ => None,
        };
        match key(0)? {
            "values" => {
                let name = key(1)?;
                let ty = *self.values.get(name)?;
                match (ty, segs.get(2)?) {
                    (Type::Array, Seg::Index(_)) | (Type::Object, Seg::Key(..)) => None,
                    (ty, seg) => Some(no_accessor(&format!("values.{name}"), ty.name(), seg)),
                }
            }
            "datasources" => {
                let (d, f) = (key(1)?, key(2)?);
                let ty = *self.fields.get(&(d, f))?;
                match segs.get(3)? {
                    Seg::Index(_) if ty == Type::Array => None,
                    seg => Some(no_accessor(&format!("datasources.{d}.{f}"), ty.name(), seg)),
                }
            }
            "resources" => {
                let name = key(1)?;
                let r = self.resources.get(name)?;
                let mut rest = &segs[2..];
                if let [Seg::Index(_), more @ ..] = rest {
                    if r.each.is_none() {
                        return Some(format!(
                            "resources.{name} has no `each`: it is one resource, not a list to index (seed 002)"
                        ));
                    }
                    rest = more;
                }
                // The spec's first field by its index; the rest as written.
                if let (Tree::Map(fields), [Seg::Key(spec, _), Seg::Key(k, _), after @ ..]) = (&r.spec, rest)
                    && spec.as_str() == "spec"
                {
                    let tree = if fields.len() > FEW_FIELDS {
                        self.spec_fields.get(&(name, k.as_str()))?
                    } else {
                        &fields.iter().find(|(f, _)| f.is(k.hash(), k.as_str()))?.1
                    };
                    return spec_problem(&format!("resources.{name}.spec.{}", k.as_str()), tree, after);
                }
                resource_problem(name, r, rest)
            }
            _ => None,
        }
    }
}

/// What a reference reads below `resources.<name>` (its index done).
fn resource_problem(name: &str, r: &Resource, rest: &[Seg]) -> Option<String> {
    let field = |part: &str| format!("resources.{name}.{part}");
    let (first, more) = rest.split_first()?;
    let Seg::Key(first, _) = first else {
        return Some(format!("resources.{name} is one resource: it has {}", what(&rest[0])));
    };
    match first.as_str() {
        "spec" if more.is_empty() => Some(format!(
            "{} is read a field at a time: fields of a resource are accessed via .spec.* or .metadata.* (seed 002)",
            field("spec")
        )),
        "spec" => spec_problem(&field("spec"), &r.spec, more),
        "metadata" => {
            let Some((Seg::Key(part, _), after)) = more.split_first() else {
                return Some(format!(
                    "{} is read a field at a time: .displayName, .labels, .annotations or .custom (seed 002)",
                    field("metadata")
                ));
            };
            let at = field(&format!("metadata.{}", part.as_str()));
            match (part.as_str(), after) {
                ("displayName", []) | ("custom", _) | ("labels" | "annotations", []) => None,
                ("displayName", [seg, ..]) => Some(no_accessor(&at, "string", seg)),
                ("labels" | "annotations", [Seg::Key(k, _), after @ ..]) => {
                    let known = if part.as_str() == "labels" {
                        r.metadata.labels.iter().any(|(l, _)| l == k.as_str())
                    } else {
                        match &r.metadata.annotations {
                            Some(Tree::Map(entries)) => entries.iter().any(|(a, _)| a.as_str() == k.as_str()),
                            _ => false,
                        }
                    };
                    let kind = if part.as_str() == "labels" {
                        "label"
                    } else {
                        "annotation"
                    };
                    match after.first() {
                        _ if !known => Some(format!("resources.{name} has no {kind} {:?}", k.as_str())),
                        Some(seg) => Some(format!(
                            "{at}.{} is {} {}: it has {}",
                            k.as_str(),
                            if kind == "label" { "a string" } else { "a primitive" },
                            if kind == "label" { "label" } else { "annotation" },
                            what(seg)
                        )),
                        None => None,
                    }
                }
                ("labels" | "annotations", [seg, ..]) => Some(no_accessor(&at, "object", seg)),
                (other, _) => Some(format!(
                    "{} has no field {other:?}: metadata has displayName, labels, annotations and custom (seed 002)",
                    field("metadata")
                )),
            }
        }
        other => Some(format!(
            "{} is not a field of a resource: fields of a resource are accessed via .spec.* or .metadata.* (seed 002)",
            field(other)
        )),
    }
}

/// A path below a resource's spec as written: a field the spec does not
/// have may come with the resource's state, but a field or an item of a
/// value written as a string, a number or a boolean is never there.
fn spec_problem(prefix: &str, spec: &Tree, segs: &[Seg]) -> Option<String> {
    let mut at = prefix.to_string();
    let mut tree = spec;
    for (n, seg) in segs.iter().enumerate() {
        let next = match (tree, seg) {
            (Tree::Sub(_), _) => return None,
            (Tree::Lit(v), _) => return literal_problem(&at, v, &segs[n..]),
            (Tree::Map(entries), Seg::Key(k, _)) => &entries.iter().find(|(e, _)| e.is(k.hash(), k.as_str()))?.1,
            (Tree::List(items), Seg::Index(i)) => usize::try_from(*i).ok().and_then(|i| items.get(i))?,
            (Tree::Map(_), seg) => return Some(no_accessor(&at, "object", seg)),
            (Tree::List(_), seg) => return Some(no_accessor(&at, "array", seg)),
        };
        push(&mut at, seg);
        tree = next;
    }
    None
}

fn push(at: &mut String, seg: &Seg) {
    match seg {
        Seg::Key(k, _) => {
            at.push('.');
            at.push_str(k.as_str());
        }
        Seg::Index(i) => at.push_str(&format!("[{i}]")),
    }
}

/// [`spec_problem`] inside a value written without substitutions.
fn literal_problem(prefix: &str, v: &Value, segs: &[Seg]) -> Option<String> {
    let mut at = prefix.to_string();
    let mut cur = v;
    for seg in segs {
        cur = match (cur, seg) {
            (Value::Null, _) => return None,
            (Value::Map(m), Seg::Key(k, _)) => m.get(k.as_str())?,
            (Value::List(items), Seg::Index(i)) => usize::try_from(*i).ok().and_then(|i| items.get(i))?,
            (other, seg) => return Some(no_accessor(&at, crate::blueprint::type_name(other), seg)),
        };
        push(&mut at, seg);
    }
    None
}

impl Loader {
    /// Checks what every substitution reads after the names it uses.
    pub(super) fn check_accessors(&mut self, bp: &Blueprint) {
        let shapes = Shapes {
            resources: bp.resources.iter().map(|r| (r.name.as_str(), r)).collect(),
            spec_fields: bp
                .resources
                .iter()
                .flat_map(|r| match &r.spec {
                    Tree::Map(entries) if entries.len() > FEW_FIELDS => entries
                        .iter()
                        .map(|(k, t)| ((r.name.as_str(), k.as_str()), t))
                        .collect(),
                    _ => Vec::new(),
                })
                .collect(),
            values: bp.values.iter().map(|v| (v.name.as_str(), v.ty)).collect(),
            fields: bp
                .datasources
                .iter()
                .flat_map(|d| d.fields.iter().map(move |f| ((d.name.as_str(), f.name.as_str()), f.ty)))
                .collect(),
        };
        let mut found = Vec::new();
        for sub in bp.subs() {
            let mut messages: Vec<String> = Vec::new();
            // Only a path through a value, a data source or a resource
            // has a declared shape; its definitions say whether the
            // substitution reads one, without walking its program.
            let shaped = sub
                .defs
                .iter()
                .any(|d| matches!(d, Def::Value(_) | Def::DataSource(_) | Def::Resource(_)));
            for path in sub.prog.loads().filter(|_| shaped) {
                if let Some(m) = shapes.problem(&path.segs)
                    && !messages.contains(&m)
                {
                    messages.push(m);
                }
            }
            if sub.text().contains(")[") {
                messages.extend(index_on_text(sub, &self.compiler));
            }
            found.extend(messages.into_iter().map(|m| (sub.at, sub.path.clone(), m)));
        }
        for (at, path, message) in found {
            self.fail(at, &path, message);
        }
    }

    /// `each` must be known before resources are created (seed 002): it
    /// may not read a resource or a child, directly (see
    /// [`Loader::resource`]) or through the values and data sources it
    /// reads.
    pub(super) fn check_each_sources(&mut self, bp: &Blueprint) {
        let reads: HashMap<String, Vec<Ref>> = bp
            .values
            .iter()
            .map(|v| (format!("values.{}", v.name), v.value.subs()))
            .chain(
                bp.datasources
                    .iter()
                    .map(|d| (format!("datasources.{}", d.name), d.filter_subs())),
            )
            .map(|(name, subs)| (name, subs.iter().flat_map(|s| s.refs()).collect()))
            .collect();
        let mut found = Vec::new();
        for r in &bp.resources {
            let Some(each) = &r.each else { continue };
            // Breadth first from what `each` reads, each definition once.
            let mut seen = HashSet::new();
            let mut queue: Vec<(String, Ref)> = Vec::new();
            for x in &each.refs() {
                if let Some(via) = through(x) {
                    queue.push((via, x.clone()));
                }
            }
            let mut k = 0;
            while let Some((via, x)) = queue.get(k).cloned() {
                k += 1;
                let name = match &x {
                    Ref::Value(v) => format!("values.{v}"),
                    Ref::DataSource(d, _) => format!("datasources.{d}"),
                    _ => continue,
                };
                if !seen.insert(name.clone()) {
                    continue;
                }
                for y in reads.get(&name).into_iter().flatten() {
                    match y {
                        Ref::Resource(_) | Ref::Child(..) => {
                            let message = format!(
                                "each cannot depend on {} (read through {via}): it must be known before resources are created",
                                y.describe()
                            );
                            if !found.iter().any(|(_, _, m): &(_, _, String)| *m == message) {
                                found.push((each.at, format!("resources.{}.each", r.name), message));
                            }
                        }
                        Ref::Value(_) | Ref::DataSource(..) => queue.push((via.clone(), y.clone())),
                        _ => {}
                    }
                }
            }
        }
        for (at, path, message) in found {
            self.fail(at, &path, message);
        }
    }
}

/// The definition a reference goes through, when it is a value or a data
/// source.
fn through(r: &Ref) -> Option<String> {
    match r {
        Ref::Value(v) => Some(format!("values.{v}")),
        Ref::DataSource(d, _) => Some(format!("datasources.{d}")),
        _ => None,
    }
}

/// An index applied to the result of a call that yields a string when
/// loaded: an index reads an item of an array (seed 002, "Complex Return
/// Types").
fn index_on_text(sub: &Sub, compiler: &Compiler) -> Vec<String> {
    let text = sub.text();
    let Ok(parts) = split(text) else { return Vec::new() };
    let plain = Compiler::new(Dialect::Bluelink).optimize(false);
    let mut out = Vec::new();
    for part in parts {
        let Part::Expr((start, end)) = part else { continue };
        let Ok(e) = plain.parse(text, start as usize, end as usize) else {
            continue;
        };
        let mut stack = vec![&e];
        while let Some(e) = stack.pop() {
            if let Kind::Access(base, steps) = &e.kind
                && let Kind::Call(call) = &base.kind
                && let Some(step) = steps.first()
                && matches!(step.op, Accessor::Index(_))
            {
                let src = text.get(base.span.0 as usize..base.span.1 as usize).unwrap_or("");
                if let Ok(prog) = compiler.compile(src)
                    && let Some(Value::Str(_)) = constant(&prog)
                {
                    out.push(format!(
                        "{}() yields a string here, and an index reads an item of an array (seed 002): {}",
                        call.name,
                        text.get(base.span.0 as usize..step.end as usize).unwrap_or(src)
                    ));
                }
            }
            children(e, &mut stack);
        }
    }
    out
}

/// The expressions directly inside `e`.
fn children<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        Kind::Access(base, steps) => {
            out.push(base);
            for s in steps {
                match &s.op {
                    Accessor::Index(i) => out.push(i),
                    Accessor::Slice(a, b) => out.extend(a.iter().chain(b.iter()).map(|x| &**x)),
                    Accessor::Member(_) => {}
                }
            }
        }
        Kind::Unary(_, x) => out.push(x),
        Kind::Chain(first, links) => {
            out.push(first);
            out.extend(links.iter().map(|l| &l.rhs));
        }
        Kind::Ternary(a, b, c) => out.extend([&**a, &**b, &**c]),
        Kind::List(items) => out.extend(items.iter()),
        Kind::Map(entries) => {
            for (k, v) in entries {
                out.push(k);
                out.push(v);
            }
        }
        Kind::Call(call) => {
            out.extend(call.args.iter());
            out.extend(call.named.iter().map(|(_, _, x)| x));
        }
        Kind::Predicate(_, args, body) => {
            out.extend(args.iter());
            out.push(body);
        }
        Kind::Let(_, value, body) => out.extend([&**value, &**body]),
        Kind::Nil
        | Kind::Bool(_)
        | Kind::Int(_)
        | Kind::Float(_)
        | Kind::Str(_)
        | Kind::Bytes(_)
        | Kind::Ident(_)
        | Kind::Item
        | Kind::ItemIndex
        | Kind::Acc
        | Kind::FuncRef(_) => {}
    }
}
