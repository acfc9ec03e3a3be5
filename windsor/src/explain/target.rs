//! The paths `explain` understands, read into what they name.

use crate::kind::Kind;
use crate::load::project::Project;

/// The paths `explain` understands, for its messages.
pub const FORMS: &str = "terraform.<id>.inputs.<key>, kustomize.<name>.substitutions.<key>, \
                         kustomize.<name>.components, flux.<name>.dependsOn, flux.<name>.install.components, \
                         flux.<name>.install.substitutions.<key>, substitutions.<key>, \
                         configMaps.values-common.<key>, <config block>.<key> or a value of the context (cluster.workers.count)";

/// What a path names.
pub(super) enum Target<'p> {
    /// A field of a component: its kind, identity, the field's steps.
    Component(Kind, &'p str, Vec<&'p str>),
    /// A config block, or a key inside it.
    Block(&'p str, Vec<&'p str>),
    /// A flux system's field: its name, which field, the resources
    /// variant, the key inside.
    Flux(&'p str, FluxField, Option<&'p str>, Option<&'p str>),
    /// A value of the scope: the context's values, and what config
    /// blocks set (a block name is a `Block`).
    Scope(Vec<&'p str>),
    /// A key of the facets' `substitutions`, as the blueprint's
    /// `substitutions` (`configMaps`: as `configMaps.values-common`).
    Substitution(&'p str, bool),
}

/// The fields of a flux system `explain` follows.
#[derive(Clone, Copy)]
pub(super) enum FluxField {
    DependsOn,
    InstallComponents,
    InstallSubstitutions,
    /// Of a resources variant: by its `name`, else its number.
    VariantComponents,
    VariantSubstitutions,
}

pub(super) fn target<'p>(project: &Project, path: &'p str) -> Result<Target<'p>, String> {
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
        _ => Ok(Target::Scope(steps)),
    }
}
