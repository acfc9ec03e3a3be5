//! Bluelink's functions that look outside the expression (seed 003):
//! `uuid()`, `datetime(format)`, `cwd()`, `file(path)`,
//! `http_resource(url)`, `link(a, b)`.
//! What they may do, and what pins them for reproducible output (B11),
//! is an [`Effects`] the host passes to the VM (`Vm::run_with`); without
//! one, `uuid()` is random, `datetime()` reads the clock, `cwd()` is the
//! process's, `http_resource()` fetches from no host, and `file()` and
//! `link()` have nothing to read.

use super::args::{str_at, wrong};
use crate::func::{Builtin, Ctx, FnError};
use crate::root::Root;
use crate::val::Val;
use crate::value::Value;
use chrono::{DateTime, Utc};
use std::cell::Cell;
use std::path::PathBuf;

/// The functions with effects.
pub static FUNCTIONS: &[Builtin] = &[
    builtin!(effect "uuid", 0, 0, uuid),
    builtin!(effect "datetime", 1, 1, datetime),
    builtin!(effect "cwd", 0, 0, |c, _| {
        let dir = match effects(c).and_then(|e| e.cwd.clone()) {
            Some(d) => d,
            None => {
                std::env::current_dir().map_err(|e| FnError::new(format!("cwd() cannot read the directory: {e}")))?
            }
        };
        Ok(c.str(&dir.to_string_lossy()))
    }),
    builtin!(effect "file", 1, 1, file),
    builtin!(effect "http_resource", 1, 1, http_resource),
    builtin!(effect "link", 2, 2, link),
];

/// What the effect functions may do, and what pins them.
///
/// ```
/// use bpvm_runtime::builtins::effects::Effects;
/// let e = Effects { seed: Some(7), now: Some("2024-05-06T07:08:09Z".parse().unwrap()), ..Effects::default() };
/// assert!(e.seed.is_some());
/// ```
#[derive(Debug, Default)]
pub struct Effects {
    /// Pins `uuid()`: the same seed gives the same sequence of ids.
    pub seed: Option<u64>,
    /// Pins `datetime()` to this instant.
    pub now: Option<DateTime<Utc>>,
    /// What `cwd()` returns (the process's directory when unset).
    pub cwd: Option<PathBuf>,
    /// The blueprint root: `file()` reads inside it only (and not at all
    /// when unset).
    pub root: Option<Root>,
    /// Hosts `http_resource()` may fetch from (none by default, B11).
    pub allow_http: Vec<String>,
    /// Links by resource names, `links.<a>.<b>` (what `link(a, b)` returns).
    pub links: Value,
    /// How many ids a pinned `uuid()` has given.
    pub issued: Cell<u64>,
}

fn effects<'a>(c: &Ctx<'a>) -> Option<&'a Effects> {
    c.host.downcast_ref::<Effects>()
}

/// SplitMix64: a small, well-mixed sequence from a seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn uuid<'a>(c: &mut Ctx<'a>, _: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let id = match effects(c) {
        Some(e) if e.seed.is_some() => {
            let n = e.issued.get();
            e.issued.set(n + 1);
            let seed = e.seed.unwrap_or_default() ^ n.wrapping_mul(0x2545_f491_4f6c_dd1d);
            let (hi, lo) = (mix(seed), mix(seed ^ 0xdead_beef));
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&hi.to_le_bytes());
            bytes[8..].copy_from_slice(&lo.to_le_bytes());
            uuid::Builder::from_random_bytes(bytes).into_uuid()
        }
        _ => uuid::Uuid::new_v4(),
    };
    Ok(c.str(&id.to_string()))
}

fn datetime<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let format = str_at("datetime", a, 0)?;
    let now = effects(c).and_then(|e| e.now).unwrap_or_else(Utc::now);
    let text = match format {
        "unix" => now.timestamp().to_string(),
        "rfc3339" => now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "tag" => now.format("%Y-%m-%d--%H-%M-%S").to_string(),
        "tagcompact" => now.format("%Y%m%d%H%M%S").to_string(),
        other => {
            return Err(FnError::arg(
                0,
                format!("datetime() format {other:?} is not one of unix, rfc3339, tag, tagcompact"),
            ));
        }
    };
    Ok(c.str(&text))
}

fn file<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let path = str_at("file", a, 0)?;
    if let Some((scheme, _)) = path.split_once("://") {
        return Err(FnError::arg(
            0,
            format!("file() does not support the {scheme}:// scheme; only local paths are read"),
        ));
    }
    let Some(root) = effects(c).and_then(|e| e.root.as_ref()) else {
        return Err(FnError::arg(0, "file() has no blueprint folder to read from"));
    };
    match root.read(root.dir(), path) {
        Ok(bytes) => {
            c.reserve("file()", bytes.len())?;
            Ok(Val::Bytes(c.arena.alloc_slice_copy(&bytes)))
        }
        Err(e) => Err(FnError::arg(0, format!("file() path {e}"))),
    }
}

/// Responses larger than this are refused rather than read into memory.
const MAX_HTTP_BYTES: u64 = 16 << 20;

/// Redirects followed before a fetch gives up.
const MAX_REDIRECTS: usize = 10;

/// The host of an `http://` or `https://` URL.
fn host_of(url: &str) -> Result<&str, FnError> {
    let Some(rest) = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")) else {
        return Err(FnError::arg(
            0,
            format!("http_resource() needs an http:// or https:// URL, got {url:?}"),
        ));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    Ok(match authority.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => authority,
    })
}

/// `location` (a redirect's target) read against the URL it came from.
fn follow(from: &str, location: &str) -> String {
    if location.starts_with("http://") || location.starts_with("https://") {
        return location.to_string();
    }
    let scheme_end = from.find("://").map_or(0, |i| i + 3);
    let scheme = &from[..scheme_end];
    if let Some(rest) = location.strip_prefix("//") {
        return format!("{scheme}{rest}");
    }
    let path_start = from[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(from.len(), |i| scheme_end + i);
    if location.starts_with('/') {
        return format!("{}{location}", &from[..path_start]);
    }
    let path_end = from[path_start..]
        .find(['?', '#'])
        .map_or(from.len(), |i| path_start + i);
    let dir_end = from[..path_end]
        .rfind('/')
        .filter(|&i| i >= path_start)
        .map_or(path_start, |i| i + 1);
    let dir = &from[..dir_end];
    if dir_end == path_start {
        format!("{dir}/{location}")
    } else {
        format!("{dir}{location}")
    }
}

fn http_resource<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let first = str_at("http_resource", a, 0)?;
    // Redirects are followed here, not by the client, so that every
    // target is held to the allow-list (B11).
    let agent = ureq::Agent::new_with_config(ureq::Agent::config_builder().max_redirects(0).build());
    let mut url = first.to_string();
    for hop in 0..=MAX_REDIRECTS {
        let host = host_of(&url)?;
        let allowed = effects(c).is_some_and(|e| e.allow_http.iter().any(|h| h == host));
        if !allowed {
            let via = if hop == 0 {
                String::new()
            } else {
                format!(" (redirected from {first:?})")
            };
            return Err(FnError::arg(
                0,
                format!(
                    "http_resource() may not fetch from {host:?}{via}; allow the host first (bpvm: --allow-http {host})"
                ),
            ));
        }
        let mut response = agent
            .get(&url)
            .call()
            .map_err(|e| FnError::new(format!("http_resource() could not fetch {url:?}: {e}")))?;
        if response.status().is_redirection() {
            let Some(location) = response.headers().get("location").and_then(|l| l.to_str().ok()) else {
                return Err(FnError::new(format!(
                    "http_resource() got a redirect without a location from {url:?}"
                )));
            };
            url = follow(&url, location);
            continue;
        }
        let bytes = response
            .body_mut()
            .with_config()
            .limit(MAX_HTTP_BYTES)
            .read_to_vec()
            .map_err(|e| FnError::new(format!("http_resource() could not read {url:?}: {e}")))?;
        return Ok(Val::Bytes(c.arena.alloc_slice_copy(&bytes)));
    }
    Err(FnError::new(format!(
        "http_resource() followed {MAX_REDIRECTS} redirects from {first:?} without reaching a document"
    )))
}

fn link<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let name = |i: usize| match a[i] {
        Val::Str(s) => Ok(s),
        other => Err(wrong("link", i, "a resource name", other)),
    };
    let (x, y) = (name(0)?, name(1)?);
    let found = effects(c)
        .and_then(|e| e.links.as_map())
        .and_then(|m| m.get(x))
        .and_then(Value::as_map)
        .and_then(|m| m.get(y));
    match found {
        Some(v) => Ok(c.import(v)),
        None => Err(FnError::new(format!("link() knows no link between {x:?} and {y:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::{follow, host_of};

    #[test]
    fn redirect_targets_read_against_their_url() {
        let from = "https://a.example:8443/x/y/doc.json?q=1";
        assert_eq!(follow(from, "https://b.example/z"), "https://b.example/z");
        assert_eq!(follow(from, "//c.example/z"), "https://c.example/z");
        assert_eq!(follow(from, "/root.json"), "https://a.example:8443/root.json");
        assert_eq!(follow(from, "next.json"), "https://a.example:8443/x/y/next.json");
        assert_eq!(follow("http://h", "p"), "http://h/p");
    }

    #[test]
    fn the_host_ignores_port_and_user() {
        assert_eq!(host_of("http://user@127.0.0.2:80/x").ok(), Some("127.0.0.2"));
        assert_eq!(host_of("https://example.com").ok(), Some("example.com"));
        assert!(host_of("ftp://x").is_err());
    }
}
