//! The ConfigMaps of a composed blueprint (Windsor v0.9): `values-common`
//! and `values-<kustomization>`.

use bpvm_runtime::{Map, Value, text};

/// `values-common` (the blueprint's substitutions, the values files'
/// `substitutions.common` and the variables Windsor has always set) and
/// `values-<kustomization>` from the values files. The variables read a
/// value as Windsor's config handler does: the one set, else the schema's
/// default at that path (`defaults`), whether or not the render applies
/// defaults.
pub fn config_maps(
    base: &Map,
    set: &Map,
    defaults: &Value,
    name: &str,
    substitutions: &Map,
    kustomize: &mut [(String, Map)],
) -> Map {
    let mut out = base
        .get("configMaps")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    let mut common = substitutions.clone();
    let given = set
        .get("substitutions")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    if let Some(Value::Map(c)) = given.get("common") {
        for (k, v) in c.iter() {
            common.insert(k.clone(), Value::Str(text::to_text(v).into()));
        }
    }
    let at = |from: Option<&'_ Map>, p: &str| -> Option<String> {
        let mut steps = p.split('.');
        let first = from?.get(steps.next()?)?;
        let found = steps.try_fold(first, |v, step| v.as_map()?.get(step))?;
        (!matches!(found, Value::Null)).then(|| text::to_text(found))
    };
    let path = |p: &str| -> String {
        at(Some(set), p)
            .or_else(|| at(defaults.as_map(), p))
            .unwrap_or_default()
    };
    let mut legacy: Vec<(&str, String)> = vec![
        ("DOMAIN", path("dns.domain")),
        ("CONTEXT", name.to_string()),
        ("CONTEXT_ID", path("id")),
    ];
    if path("workstation.runtime") != "docker-desktop" {
        let (start, end) = (
            path("network.loadbalancer_ips.start"),
            path("network.loadbalancer_ips.end"),
        );
        if !(start.is_empty() && end.is_empty()) {
            legacy.push(("LOADBALANCER_IP_RANGE", format!("{start}-{end}")));
        }
        legacy.push(("LOADBALANCER_IP_START", start));
        legacy.push(("LOADBALANCER_IP_END", end));
    }
    legacy.push(("REGISTRY_URL", path("docker.registry_url")));
    let volume = match set
        .get("cluster")
        .and_then(Value::as_map)
        .and_then(|c| c.get("workers"))
        .and_then(Value::as_map)
        .and_then(|w| w.get("volumes"))
    {
        Some(Value::List(l)) => l
            .first()
            .and_then(Value::as_str)
            .and_then(|v| v.split(':').nth(1))
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    };
    legacy.push(("LOCAL_VOLUME_PATH", volume));
    for (k, v) in legacy {
        if !v.is_empty() {
            common.insert(k, Value::Str(v.into()));
        }
    }
    common.retain(|_, v| !matches!(v, Value::Str(s) if s.is_empty()));
    if !common.is_empty() {
        out.insert("values-common", Value::Map(common));
    }
    for (target, values) in given.iter() {
        if target.as_str() == "common" {
            continue;
        }
        let Some(values) = values.as_map() else { continue };
        let texts = crate::blueprint::component::as_texts(values);
        out.insert(
            format!("values-{}", target.as_str()).as_str(),
            Value::Map(texts.clone()),
        );
        if let Some((_, k)) = kustomize.iter_mut().find(|(id, _)| id == target.as_str()) {
            crate::blueprint::merge::overlay_substitutions(k, &texts);
        }
    }
    out
}
