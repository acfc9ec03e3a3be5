//! The context's own `blueprint.yaml` overlaid on the composed lists:
//! a component or system of the same identity merged, any other added.

use crate::blueprint::component::{identity, list_of};
use crate::blueprint::merge::merge_component;
use crate::kind::Kind;
use crate::render::v09::apply::{List, Systems, name};
use bpvm_runtime::Map;

/// Overlays `user` (the context's blueprint.yaml) on `lists` (terraform,
/// kustomize) and `systems`.
pub(crate) fn overlay(user: &Map, lists: &mut [List; 2], systems: &mut Systems) {
    for (slot, kind) in [Kind::Terraform, Kind::Kustomize].into_iter().enumerate() {
        for c in list_of(user, kind.key()) {
            let Some(id) = identity(kind, &c) else { continue };
            match lists[slot].iter_mut().find(|(i, _)| *i == id) {
                Some((_, have)) => merge_component(kind, have, &c),
                None => lists[slot].push((id, c)),
            }
        }
    }
    for s in list_of(user, "flux") {
        systems.upsert(name(&s), s);
    }
}
