//! Windsor's network functions, with Terraform's semantics: `cidrhost`,
//! `cidrsubnet`, `cidrsubnets`, `cidrnetmask`.
//!
//! Addresses are handled as 128-bit integers so IPv4 and IPv6 share one
//! code path; a prefix with host bits set is taken as its network.

use super::args::{int_at, str_at};
use crate::func::{Builtin, Ctx, FnError, VARIADIC};
use crate::val::Val;
use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Bluelink's one network function; none in any argument gives none.
pub static CIDRSUBNET: &[Builtin] = &[builtin!("cidrsubnet", 3, 3, |c, a| {
    if a.iter().any(Val::is_nil) {
        return Ok(Val::Nil);
    }
    cidrsubnet(c, a)
})];

/// The network functions, by name.
pub static FUNCTIONS: &[Builtin] = &[
    builtin!("cidrhost", 2, 2, cidrhost),
    builtin!("cidrsubnet", 3, 3, cidrsubnet),
    builtin!("cidrsubnets", 1, VARIADIC, cidrsubnets),
    builtin!("cidrnetmask", 1, 1, cidrnetmask),
];

/// A parsed prefix: its network address as an integer, prefix length and
/// address width in bits.
#[derive(Clone, Copy)]
struct Prefix {
    addr: u128,
    len: u32,
    bits: u32,
}

impl Prefix {
    fn parse(f: &str, args: &[Val<'_>]) -> Result<Prefix, FnError> {
        let text = str_at(f, args, 0)?;
        let net: IpNet = text
            .parse()
            .map_err(|_| FnError::arg(0, format!("{f}() invalid CIDR prefix {text:?}")))?;
        let (addr, bits) = match net.network() {
            IpAddr::V4(a) => (u32::from(a) as u128, 32),
            IpAddr::V6(a) => (u128::from(a), 128),
        };
        Ok(Prefix {
            addr,
            len: net.prefix_len() as u32,
            bits,
        })
    }

    fn host_bits(self) -> u32 {
        self.bits - self.len
    }

    fn addr_text(self, addr: u128) -> String {
        if self.bits == 32 {
            Ipv4Addr::from(addr as u32).to_string()
        } else {
            Ipv6Addr::from(addr).to_string()
        }
    }

    /// The `num`th subnet with `newbits` more prefix bits.
    fn subnet(self, f: &str, newbits: i64, num: i64) -> Result<Prefix, FnError> {
        let len = self.len as i64 + newbits;
        if newbits < 0 || len > self.bits as i64 {
            return Err(FnError::new(format!(
                "{f}() cannot extend prefix /{} by {newbits} bits in a {}-bit address",
                self.len, self.bits
            )));
        }
        let len = len as u32;
        let count = 1u128.checked_shl(newbits as u32).unwrap_or(0);
        if num < 0 || (count != 0 && num as u128 >= count) {
            return Err(FnError::new(format!(
                "{f}() prefix extension of {newbits} bits has no subnet number {num}"
            )));
        }
        let shift = self.bits - len;
        let offset = (num as u128).checked_shl(shift).unwrap_or(0);
        Ok(Prefix {
            addr: self.addr | offset,
            len,
            bits: self.bits,
        })
    }

    fn text(self) -> String {
        format!("{}/{}", self.addr_text(self.addr), self.len)
    }
}

fn cidrhost<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let p = Prefix::parse("cidrhost", a)?;
    let n = int_at("cidrhost", a, 1)?;
    let size = 1u128.checked_shl(p.host_bits());
    // Negative host numbers count back from the end of the range.
    let offset = match (n, size) {
        (0.., None) => Some(n as u128),
        (0.., Some(size)) => ((n as u128) < size).then_some(n as u128),
        (_, None) => Some(u128::MAX - (n.unsigned_abs() as u128) + 1),
        (_, Some(size)) => size.checked_sub(n.unsigned_abs() as u128),
    };
    match offset {
        Some(off) => Ok(c.str(&p.addr_text(p.addr | off))),
        None => Err(FnError::arg(
            1,
            format!("cidrhost() host number {n} is outside prefix {}", p.text()),
        )),
    }
}

fn cidrsubnet<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let p = Prefix::parse("cidrsubnet", a)?;
    let newbits = int_at("cidrsubnet", a, 1)?;
    let num = int_at("cidrsubnet", a, 2)?;
    Ok(c.str(&p.subnet("cidrsubnet", newbits, num)?.text()))
}

/// Consecutive subnets, each aligned to its own size, never overlapping.
fn cidrsubnets<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let p = Prefix::parse("cidrsubnets", a)?;
    let end = if p.host_bits() == 128 {
        u128::MAX
    } else {
        p.addr | ((1u128 << p.host_bits()) - 1)
    };
    let mut next = p.addr;
    let mut exhausted = false;
    let mut out = Vec::with_capacity(a.len() - 1);
    for i in 1..a.len() {
        let newbits = int_at("cidrsubnets", a, i)?;
        // A zero-width subnet at the start is the whole prefix.
        let first = p.subnet("cidrsubnets", newbits, 0)?;
        let size_bits = p.bits - first.len;
        let size = 1u128.checked_shl(size_bits);
        let start = match size {
            Some(size) => next.div_ceil(size).checked_mul(size),
            None => (next == 0).then_some(0),
        };
        let last = start.and_then(|s| s.checked_add(size.map_or(u128::MAX, |n| n - 1)));
        match (start, last) {
            (Some(s), Some(l)) if !exhausted && l <= end => {
                out.push(c.str(&Prefix { addr: s, ..first }.text()));
                exhausted = l == u128::MAX;
                next = l.wrapping_add(1);
            }
            _ => {
                return Err(FnError::arg(
                    i,
                    format!(
                        "cidrsubnets() not enough room in {} for a /{} subnet",
                        p.text(),
                        first.len
                    ),
                ));
            }
        }
    }
    Ok(c.list(out))
}

fn cidrnetmask<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let p = Prefix::parse("cidrnetmask", a)?;
    if p.bits != 32 {
        return Err(FnError::arg(0, "cidrnetmask() CIDR prefix must be IPv4, got IPv6"));
    }
    let mask = u32::MAX.checked_shl(32 - p.len).unwrap_or(0);
    Ok(c.str(&Ipv4Addr::from(mask).to_string()))
}
