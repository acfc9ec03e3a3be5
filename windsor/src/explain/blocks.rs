//! The scope's leaves that config blocks set, credited to the block that
//! writes them: the last one in fold order among the included facets
//! (the operator's own values win over a block by the v0.9 rules, so a
//! value the context's files set keeps that origin).

use super::lookup::lookup;
use crate::context::origins::{Origin, Origins, walk, yaml_path};
use crate::format::Format;
use crate::load::facet::Block;
use crate::load::project::Project;
use crate::render::outcome::Rendered;
use crate::template::tmpl::Tmpl;
use crate::texts::Texts;
use bpvm_runtime::{Map, Value};

/// Credits each leaf of `rendered`'s scope that differs from the
/// context `ctx` (or that the context has only as a default or a derived
/// value) to the config block that writes it.
pub(super) fn credit_blocks(project: &Project, rendered: &Rendered, ctx: &Map, origins: &mut Origins) {
    let mut texts = Texts::new(&project.root);
    let mut credits: Vec<(String, Origin)> = Vec::new();
    let mut steps = Vec::new();
    walk(&rendered.scope, &mut steps, &mut |steps, v| {
        let path = steps.join(".");
        // A masked value came from where the context's value did, unless
        // a block writes it.
        let masked = matches!(v, Value::Str(s) if &**s == crate::MASK);
        let same = masked || lookup(ctx, steps) == Some(v);
        if same && matches!(origins.of(&path), Some(Origin::File { .. } | Origin::Given)) {
            return;
        }
        match block_of(project, rendered, steps, &mut texts) {
            Some(o) => credits.push((path, o)),
            None if !same => credits.push((path, Origin::Derived("set by the render".into()))),
            None => {}
        }
    });
    for (path, o) in credits {
        origins.set(&path, o);
    }
}

/// The block of an included facet, last in fold order, that writes the
/// scope's leaf at `steps`, as an origin.
fn block_of(project: &Project, rendered: &Rendered, steps: &[&str], texts: &mut Texts) -> Option<Origin> {
    let mut found: Vec<(i64, &str, &Block, usize)> = Vec::new();
    for &i in &rendered.included {
        let Some(f) = project.facets.get(i) else { continue };
        for b in &f.config {
            let name: Vec<&str> = b.name.split('.').collect();
            if steps.len() >= name.len() && steps[..name.len()] == name[..] && writes(&b.body, &steps[name.len()..]) {
                found.push((b.ordinal.unwrap_or(f.ordinal), &f.file, b, name.len()));
            }
        }
    }
    found.sort_by_key(|(ordinal, ..)| *ordinal);
    let (_, file, b, n) = found.pop()?;
    let value = if matches!(project.format, Format::V09) {
        ".value"
    } else {
        ""
    };
    let rest = &steps[n..];
    let tail = if rest.is_empty() {
        String::new()
    } else {
        format!(".{}", yaml_path(rest))
    };
    let at = texts.locate(file, &format!("config[{}]{value}{tail}", b.name));
    Some(Origin::ConfigBlock {
        name: b.name.clone(),
        file: texts.shown(file),
        at,
    })
}

/// Whether template `t` may give a value at `steps` (a computed part may
/// give anything).
fn writes(t: &Tmpl, steps: &[&str]) -> bool {
    let Some((first, rest)) = steps.split_first() else {
        return true;
    };
    match t {
        Tmpl::Map(fields) => fields.iter().any(|(k, v)| &**k == *first && writes(v, rest)),
        Tmpl::Lit(v) => v.as_map().is_some_and(|m| lookup(m, steps).is_some()),
        Tmpl::Text { .. } => true,
        Tmpl::List(_) => false,
    }
}
