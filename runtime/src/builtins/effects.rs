//! Bluelink's functions that look outside the expression (seed 003):
//! `uuid()`, `datetime(format)`, `cwd()`, `file(path)`,
//! `http_resource(url)`, `link(a, b)`.
//! What they may do, and what pins them for reproducible output (B11),
//! is an [`Effects`] the host passes to the VM (`Vm::run_with`); without
//! one, `uuid()` is random, `datetime()` reads the clock, `cwd()` is the
//! process's, `http_resource()` fetches from no host, and `file()` and
//! `link()` have nothing to read.

use super::args::{str_at, wrong};
use super::http;
use crate::func::{Builtin, Ctx, FnError};
use crate::root::Root;
use crate::val::Val;
use crate::value::Value;
use chrono::{DateTime, Utc};
use std::cell::Cell;
use std::path::PathBuf;
use std::time::Duration;

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
    /// The folder a relative `file()` path starts from: the folder of the
    /// blueprint being rendered, so that a child reads the same files
    /// included and alone (the root's folder when unset).
    pub dir: Option<PathBuf>,
    /// Hosts `http_resource()` may fetch from (none by default, B11).
    pub allow_http: Vec<String>,
    /// How long one `http_resource()` call may take in all, redirects and
    /// body included ([`http::timeout`] when unset).
    pub http_timeout: Option<Duration>,
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
    let from = effects(c).and_then(|e| e.dir.as_deref()).unwrap_or(root.dir());
    match root.read(from, path) {
        Ok(bytes) => {
            c.reserve("file()", bytes.len())?;
            Ok(Val::Bytes(c.arena.alloc_slice_copy(&bytes)))
        }
        Err(e) => Err(FnError::arg(0, format!("file() path {e}"))),
    }
}

fn http_resource<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let url = str_at("http_resource", a, 0)?;
    let fx = effects(c);
    let allowed = fx.map_or(&[][..], |e| e.allow_http.as_slice());
    let timeout = fx.and_then(|e| e.http_timeout).unwrap_or_else(http::timeout);
    let bytes = http::fetch(url, allowed, timeout)?;
    Ok(Val::Bytes(c.arena.alloc_slice_copy(&bytes)))
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
