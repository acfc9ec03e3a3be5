//! How Windsor v0.9 resolves a context for `windsor show blueprint`
//! (W11), before and after it reads the context's files. `bpvm test`
//! does none of this: a test case's values are all there is.
//!
//! bpvm departs from Windsor in two places, so that a render depends on
//! its inputs only (D1): a dev context's default `workstation.runtime` is
//! `docker` on every host (Windsor picks `docker-desktop` on macOS and
//! Windows), and an unset `id` stays unset (Windsor invents a random one).

use bpvm_runtime::{Map, Value};

/// A dev context: `local` or `local-*` (Windsor decides before it reads
/// any file).
pub fn is_dev(name: &str) -> bool {
    name == "local" || name.starts_with("local-")
}

fn text<'m>(m: &'m Map, path: &[&str]) -> Option<&'m str> {
    let (last, head) = path.split_last()?;
    let mut at = m;
    for step in head {
        at = at.get(step)?.as_map()?;
    }
    at.get(last).and_then(Value::as_str)
}

fn set(m: &mut Map, path: &[&str], v: Value) {
    let Some((last, head)) = path.split_last() else { return };
    let mut at = m;
    for step in head {
        if !matches!(at.get(step), Some(Value::Map(_))) {
            at.insert(*step, Value::Map(Map::new()));
        }
        let Some(Value::Map(next)) = at.get_mut(step) else {
            return;
        };
        at = next;
    }
    at.insert(*last, v);
}

/// What Windsor sets before reading the files of context `name`: a dev
/// context is `dev: true` on platform `docker` with a `docker`
/// workstation; any other context starts on platform `none`.
pub fn before_files(name: &str) -> Map {
    let mut m = Map::new();
    if is_dev(name) {
        m.insert("dev", Value::Bool(true));
        m.insert("platform", Value::Str("docker".into()));
        set(&mut m, &["workstation", "runtime"], Value::Str("docker".into()));
    } else {
        m.insert("platform", Value::Str("none".into()));
    }
    m
}

/// What Windsor derives once the files are read; `files` is what they
/// set, `values` the resolved values so far.
pub fn after_files(files: &Map, values: &mut Map) {
    // A platform named by the older `provider` key.
    if text(files, &["platform"]).is_none()
        && let Some(p) = text(files, &["provider"])
    {
        values.insert("platform", Value::Str(p.into()));
    }
    // The deprecated `vm.driver` when `workstation.runtime` is not set.
    if text(files, &["workstation", "runtime"]).is_none()
        && let Some(d) = text(files, &["vm", "driver"])
    {
        set(values, &["workstation", "runtime"], Value::Str(d.into()));
    }
    let runtime = text(values, &["workstation", "runtime"]).map(str::to_string);
    let dns_on = !matches!(
        values.get("dns").and_then(Value::as_map).and_then(|d| d.get("enabled")),
        Some(Value::Bool(false))
    );
    if let Some(runtime) = runtime
        && dns_on
    {
        if text(values, &["dns", "domain"]).is_none() {
            set(values, &["dns", "domain"], Value::Str("test".into()));
        }
        if runtime == "docker-desktop" && text(values, &["workstation", "dns", "address"]).is_none() {
            set(
                values,
                &["workstation", "dns", "address"],
                Value::Str("127.0.0.1".into()),
            );
        }
    }
}

/// The context values Windsor derives before composing (W11): the
/// cluster driver a platform implies, a `workstation` map with an
/// architecture, and node maps that are always maps.
pub fn derive(ctx: &mut Map) {
    let platform = ctx
        .get("platform")
        .or_else(|| ctx.get("provider"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let driver = match platform.as_str() {
        "docker" | "incus" | "metal" | "hetzner" | "omni" | "hyperv" | "vsphere" => Some("talos"),
        "aws" => Some("eks"),
        "azure" => Some("aks"),
        "gcp" => Some("gke"),
        _ => None,
    };
    let has_driver = ctx
        .get("cluster")
        .and_then(Value::as_map)
        .is_some_and(|c| c.contains_key("driver"));
    if let Some(d) = driver
        && !has_driver
    {
        let mut cluster = ctx.get("cluster").and_then(Value::as_map).cloned().unwrap_or_default();
        cluster.insert("driver", Value::Str(d.into()));
        ctx.insert("cluster", Value::Map(cluster));
    }
    let mut ws = ctx
        .get("workstation")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    if !ws.contains_key("arch") {
        // Windsor uses the host's; a fixed value keeps renders the same
        // on every machine (D1).
        ws.insert("arch", Value::Str("amd64".into()));
    }
    ctx.insert("workstation", Value::Map(ws));
    match ctx.get("cluster") {
        None | Some(Value::Null) => {
            let mut c = Map::new();
            for pool in ["controlplanes", "workers"] {
                let mut p = Map::new();
                p.insert("nodes", Value::Map(Map::new()));
                c.insert(pool, Value::Map(p));
            }
            ctx.insert("cluster", Value::Map(c));
        }
        Some(Value::Map(c)) => {
            let mut c = c.clone();
            for pool in ["controlplanes", "workers"] {
                let mut p = c.get(pool).and_then(Value::as_map).cloned().unwrap_or_default();
                if !p.contains_key("nodes") {
                    p.insert("nodes", Value::Map(Map::new()));
                }
                c.insert(pool, Value::Map(p));
            }
            ctx.insert("cluster", Value::Map(c));
        }
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(name: &str, files: &str) -> String {
        let files = Value::from_yaml(files).unwrap();
        let files = files.as_map().cloned().unwrap_or_default();
        let mut v = Value::Map(before_files(name));
        crate::blueprint::merge::deep_merge(&mut v, Value::Map(files.clone()));
        let Value::Map(mut m) = v else { unreachable!() };
        after_files(&files, &mut m);
        Value::Map(m).to_json()
    }

    #[test]
    fn a_dev_context_gets_a_docker_workstation_and_the_test_domain() {
        assert_eq!(
            resolve("local", "{}"),
            r#"{"dev":true,"platform":"docker","workstation":{"runtime":"docker"},"dns":{"domain":"test"}}"#
        );
        assert_eq!(
            resolve("local-eu", "{workstation: {runtime: docker-desktop}}"),
            r#"{"dev":true,"platform":"docker","workstation":{"runtime":"docker-desktop","dns":{"address":"127.0.0.1"}},"dns":{"domain":"test"}}"#
        );
    }

    #[test]
    fn other_contexts_start_on_no_platform() {
        assert_eq!(resolve("prod", "{}"), r#"{"platform":"none"}"#);
        assert_eq!(
            resolve("prod", "{provider: aws}"),
            r#"{"platform":"aws","provider":"aws"}"#
        );
        assert_eq!(
            resolve("prod", "{dns: {enabled: false}, vm: {driver: colima}}"),
            r#"{"platform":"none","dns":{"enabled":false},"vm":{"driver":"colima"},"workstation":{"runtime":"colima"}}"#
        );
    }
}
