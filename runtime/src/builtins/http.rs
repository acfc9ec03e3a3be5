//! `http_resource(url)`: a GET from an allowed host (B11), bounded in
//! size and in time so that a slow or endless response cannot hold a
//! render. Redirects are followed here, not by the client, so that every
//! target is held to the allow-list.

use crate::func::FnError;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Responses larger than this are refused rather than read into memory.
pub const MAX_BYTES: u64 = 16 << 20;

/// Redirects followed before a fetch gives up.
const MAX_REDIRECTS: usize = 10;

/// The default time one fetch may take in all, in seconds (the
/// reference's client waits as long).
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// The environment variable that sets that time, in whole seconds.
pub const TIMEOUT_VARIABLE: &str = "BPVM_HTTP_TIMEOUT_SECS";

/// The time one fetch may take: [`TIMEOUT_VARIABLE`] when it is set to a
/// whole number of seconds above zero, else [`DEFAULT_TIMEOUT_SECS`].
///
/// ```
/// assert!(bpvm_runtime::builtins::http::timeout().as_secs() >= 1);
/// ```
pub fn timeout() -> Duration {
    static SECS: OnceLock<u64> = OnceLock::new();
    Duration::from_secs(*SECS.get_or_init(|| {
        std::env::var(TIMEOUT_VARIABLE)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|&s| s > 0)
            .unwrap_or(DEFAULT_TIMEOUT_SECS)
    }))
}

/// The body at `url`, fetched when its host (and every redirect target's)
/// is in `allowed`, within `limit` from the first byte sent to the last
/// byte read and at most [`MAX_BYTES`] long.
pub fn fetch(first: &str, allowed: &[String], limit: Duration) -> Result<Vec<u8>, FnError> {
    let deadline = Instant::now() + limit;
    let mut url = first.to_string();
    for hop in 0..=MAX_REDIRECTS {
        let host = host_of(&url)?;
        if !allowed.iter().any(|h| h == host) {
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
        let late = |e: ureq::Error, what: &str| match e {
            ureq::Error::Timeout(_) => too_slow(first, limit),
            e => FnError::new(format!("http_resource() could not {what} {url:?}: {e}")),
        };
        // What is left of the deadline, for this hop and its body.
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(too_slow(first, limit));
        }
        let config = ureq::Agent::config_builder()
            .max_redirects(0)
            .timeout_global(Some(left))
            .build();
        let mut response = ureq::Agent::new_with_config(config)
            .get(&url)
            .call()
            .map_err(|e| late(e, "fetch"))?;
        if response.status().is_redirection() {
            let Some(location) = response.headers().get("location").and_then(|l| l.to_str().ok()) else {
                return Err(FnError::new(format!(
                    "http_resource() got a redirect without a location from {url:?}"
                )));
            };
            url = follow(&url, location);
            continue;
        }
        return response
            .body_mut()
            .with_config()
            .limit(MAX_BYTES)
            .read_to_vec()
            .map_err(|e| late(e, "read"));
    }
    Err(FnError::new(format!(
        "http_resource() followed {MAX_REDIRECTS} redirects from {first:?} without reaching a document"
    )))
}

fn too_slow(url: &str, limit: Duration) -> FnError {
    FnError::new(format!(
        "http_resource() gave up on {url:?}: no whole response within {} s (set {TIMEOUT_VARIABLE} to raise the limit)",
        limit.as_secs_f64()
    ))
}

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
