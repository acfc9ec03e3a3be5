//! The contributions to what a target names, found in the project before
//! any is evaluated — the base blueprint's and each facet's, with the
//! conditions that decided them — and the value the render gave it.

use super::contribution::{Origin, conditions};
use super::lookup::{component, listed, lookup};
use super::target::{FluxField, Target};
use crate::format::Format;
use crate::kind::{Kind, Strategy};
use crate::load::facet::Facet;
use crate::load::project::Project;
use crate::render::outcome::Rendered;
use crate::template::tmpl::{Evaluator, Tmpl};
use bpvm_runtime::{Map, Value};

/// A contribution found: who made it, its template, the steps inside it.
pub(super) type Source<'p> = (Origin<'p>, &'p Tmpl, Vec<&'p str>);

/// Where to look: the project, its render, an evaluator over the render's
/// scope for the conditions, and the base blueprint's file.
pub(super) struct Search<'p, 'e> {
    pub project: &'p Project,
    pub rendered: &'p Rendered,
    pub ev: &'e mut Evaluator,
    pub base_file: &'p str,
    pub out: Vec<Source<'p>>,
    /// The render failed: there is no blueprint to find things in.
    pub failed: bool,
}

impl<'p> Search<'p, '_> {
    /// Finds the contributions to `target`; gives the render's value.
    pub(super) fn find(&mut self, target: &Target<'p>) -> Result<Option<Value>, String> {
        match target {
            Target::Component(kind, id, field) => self.component(*kind, id, field),
            Target::Block(name, key) => Ok(self.block(name, key)),
            Target::Flux(name, field, variant, key) => self.flux(name, *field, *variant, *key),
            Target::Substitution(key, config_map) => Ok(self.substitution(key, *config_map)),
            Target::Scope(steps) => Ok(lookup(&self.rendered.scope, steps).cloned()),
        }
    }

    /// Facet `i`'s conditions, then `own`, as the render decided them.
    fn decided(
        &mut self,
        i: usize,
        f: &Facet,
        own: Option<&crate::template::condition::Cond>,
    ) -> (Vec<(String, bool)>, bool) {
        let included = self.rendered.included.contains(&i);
        conditions(self.ev, f.when.as_ref(), included, own)
    }

    fn component(&mut self, kind: Kind, id: &'p str, field: &[&'p str]) -> Result<Option<Value>, String> {
        let c = component(&self.rendered.blueprint, kind, id);
        if c.is_none() && !self.failed {
            let what = match kind {
                Kind::Terraform => "terraform component",
                Kind::Kustomize => "kustomization",
            };
            let known = super::unknown::component_ids(self.project, &self.rendered.blueprint, kind);
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            return Err(format!(
                "{what} {id:?} not found in the blueprint{}",
                super::unknown::did_you_mean(id, &known)
            ));
        }
        let yaml = format!("{}[{id}]{}", kind.key(), dotted(field));
        let project = self.project;
        for p in project.base.iter().filter(|p| p.kind == kind && p.id == id) {
            let origin = Origin {
                facet: None,
                file: self.base_file,
                yaml: yaml.clone(),
                ordinal: None,
                strategy: p.strategy,
                conditions: Vec::new(),
                active: true,
            };
            self.out.push((origin, &p.body, field.to_vec()));
        }
        for (i, f) in project.facets.iter().enumerate() {
            for p in f.parts.iter().filter(|p| p.kind == kind && p.id == id) {
                let (conditions, active) = self.decided(i, f, p.when.as_ref());
                let origin = Origin {
                    facet: Some(&f.name),
                    file: &f.file,
                    yaml: yaml.clone(),
                    ordinal: Some(p.ordinal.unwrap_or(f.ordinal)),
                    strategy: p.strategy,
                    conditions,
                    active,
                };
                self.out.push((origin, &p.body, field.to_vec()));
            }
        }
        Ok(c.and_then(|c| at(c, field)))
    }

    fn block(&mut self, name: &'p str, key: &[&'p str]) -> Option<Value> {
        let project = self.project;
        let v09 = matches!(project.format, Format::V09);
        for (i, f) in project.facets.iter().enumerate() {
            for b in f.config.iter().filter(|b| b.name == name) {
                let (conditions, active) = self.decided(i, f, b.when.as_ref());
                let origin = Origin {
                    facet: Some(&f.name),
                    file: &f.file,
                    yaml: format!("config[{name}]{}{}", if v09 { ".value" } else { "" }, dotted(key)),
                    ordinal: Some(b.ordinal.unwrap_or(f.ordinal)),
                    strategy: b.strategy,
                    conditions,
                    active,
                };
                self.out.push((origin, &b.body, key.to_vec()));
            }
        }
        let block = self.rendered.scope.get(name);
        block
            .and_then(|b| key.iter().try_fold(b, |v, k| v.as_map()?.get(k)))
            .cloned()
    }

    fn flux(
        &mut self,
        name: &'p str,
        field: FluxField,
        variant: Option<&'p str>,
        key: Option<&'p str>,
    ) -> Result<Option<Value>, String> {
        let system = listed(&self.rendered.blueprint, "flux", name);
        if system.is_none() && !self.failed {
            return Err(format!("flux system {name:?} not found in the blueprint"));
        }
        // The field's steps inside its tier (the system, for dependsOn).
        let tail: Vec<&str> = match field {
            FluxField::DependsOn => vec!["dependsOn"],
            FluxField::InstallComponents | FluxField::VariantComponents => vec!["components"],
            FluxField::InstallSubstitutions | FluxField::VariantSubstitutions => {
                ["substitutions"].into_iter().chain(key).collect()
            }
        };
        let project = self.project;
        for (i, f) in project.facets.iter().enumerate() {
            // By position: a facet may define a system twice (under two
            // conditions).
            for (j, sys) in f.flux.iter().enumerate().filter(|(_, sys)| sys.name == name) {
                let Some((tmpl, place)) = system_field(sys, field, variant) else {
                    continue;
                };
                let (conditions, active) = self.decided(i, f, sys.when.as_ref());
                let origin = Origin {
                    facet: Some(&f.name),
                    file: &f.file,
                    yaml: format!("flux[{j}]{place}.{}", tail.join(".")),
                    ordinal: Some(sys.ordinal.unwrap_or(f.ordinal)),
                    strategy: sys.strategy,
                    conditions,
                    active,
                };
                self.out.push((origin, tmpl, key.into_iter().collect()));
            }
        }
        Ok(system
            .and_then(|s| rendered_tier(s, field, variant))
            .and_then(|t| at(t, &tail)))
    }

    fn substitution(&mut self, key: &'p str, config_map: bool) -> Option<Value> {
        let project = self.project;
        for (i, f) in project.facets.iter().enumerate() {
            let Some(tmpl) = &f.substitutions else { continue };
            let (conditions, active) = self.decided(i, f, None);
            let origin = Origin {
                facet: Some(&f.name),
                file: &f.file,
                yaml: format!("substitutions.{key}"),
                ordinal: Some(f.ordinal),
                strategy: Strategy::Merge,
                conditions,
                active,
            };
            self.out.push((origin, tmpl, vec![key]));
        }
        let (section, steps) = if config_map {
            ("configMaps", vec!["values-common", key])
        } else {
            ("substitutions", vec![key])
        };
        self.rendered
            .blueprint
            .as_map()
            .and_then(|m| m.get(section))
            .and_then(|v| steps.iter().try_fold(v, |v, k| v.as_map()?.get(k)))
            .cloned()
    }
}

/// The template of `field` in system `sys` as a facet writes it, and
/// where its tier is (`.install`, `.resources[n]`); none when the facet's
/// system does not write it.
fn system_field<'s>(
    sys: &'s crate::flux::System,
    field: FluxField,
    variant: Option<&str>,
) -> Option<(&'s Tmpl, String)> {
    let (tier, place) = match field {
        FluxField::DependsOn => (None, String::new()),
        FluxField::InstallComponents | FluxField::InstallSubstitutions => {
            (sys.install.as_ref(), ".install".to_string())
        }
        FluxField::VariantComponents | FluxField::VariantSubstitutions => {
            let (n, t) = variant.and_then(|v| variant_of(&sys.resources, v))?;
            (Some(t), format!(".resources[{n}]"))
        }
    };
    let tmpl = match field {
        FluxField::DependsOn => sys.depends_on.as_ref(),
        FluxField::InstallComponents | FluxField::VariantComponents => tier.and_then(|t| t.components.as_ref()),
        FluxField::InstallSubstitutions | FluxField::VariantSubstitutions => {
            tier.and_then(|t| t.substitutions.as_ref())
        }
    };
    tmpl.map(|t| (t, place))
}

/// The tier of the rendered system that holds `field`.
fn rendered_tier<'b>(system: &'b Map, field: FluxField, variant: Option<&str>) -> Option<&'b Map> {
    match field {
        FluxField::DependsOn => Some(system),
        FluxField::InstallComponents | FluxField::InstallSubstitutions => system.get("install").and_then(Value::as_map),
        FluxField::VariantComponents | FluxField::VariantSubstitutions => match system.get("resources") {
            Some(Value::List(variants)) => {
                let maps: Vec<&Map> = variants.iter().filter_map(Value::as_map).collect();
                let named = maps
                    .iter()
                    .position(|m| m.get("name").and_then(Value::as_str) == variant);
                named
                    .or_else(|| variant.and_then(|v| v.parse().ok()))
                    .and_then(|n| maps.get(n).copied())
            }
            _ => None,
        },
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

/// The value at `field` of a component.
fn at(c: &Map, field: &[&str]) -> Option<Value> {
    let (first, rest) = field.split_first()?;
    rest.iter().try_fold(c.get(first)?, |v, k| v.as_map()?.get(k)).cloned()
}

fn dotted(key: &[&str]) -> String {
    key.iter().map(|k| format!(".{k}")).collect()
}
