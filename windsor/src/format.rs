//! Which Windsor rules a template is rendered by (DECISIONS W10): the
//! v0.9 rules when `contexts/_template/metadata.yaml` has a `cliVersion`
//! constraint that admits 0.9 or later, the seed rules otherwise.
//!
//! A constraint is read as Windsor reads it (Masterminds semver): `||`
//! separates alternatives, each a list of comparators (`>=0.9.0 <1.0`,
//! also comma-separated), with `~`, `^`, `x` wildcards and partial
//! versions. What it admits is a union of version intervals; the template
//! targets v0.9 when that union reaches 0.9.0 or beyond.

use std::fmt;

/// The rules a template is rendered by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Format {
    /// Seeds 000/001 (February 2026), decisions W1–W9.
    Seed,
    /// Windsor CLI v0.9; holds the constraint that selected it.
    V09(String),
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::Seed => write!(f, "the seed facet format (no cliVersion admitting 0.9)"),
            Format::V09(c) => write!(f, "Windsor v0.9 (metadata.yaml cliVersion {c:?})"),
        }
    }
}

impl Format {
    /// The format a `cliVersion` constraint selects (`None`: no constraint).
    ///
    /// ```
    /// use bpvm_windsor::Format;
    /// assert!(matches!(Format::of(Some(">=0.9.0")), Ok(Format::V09(_))));
    /// assert_eq!(Format::of(Some("~0.7.0")), Ok(Format::Seed));
    /// assert_eq!(Format::of(None), Ok(Format::Seed));
    /// ```
    pub fn of(constraint: Option<&str>) -> Result<Format, String> {
        let Some(c) = constraint.map(str::trim).filter(|c| !c.is_empty()) else {
            return Ok(Format::Seed);
        };
        let v09 = Version(0, 9, 0);
        for alternative in c.split("||") {
            let (mut low, mut high) = (Version(0, 0, 0), None::<(Version, bool)>);
            let mut any = false;
            for token in comparators(alternative) {
                let token = token.as_str();
                any = true;
                let (from, to) = interval(token).map_err(|why| format!("cliVersion {c:?}: {why}"))?;
                low = low.max(from);
                high = match (high, to) {
                    (Some(a), Some(b)) => Some(if b.0 < a.0 || (b.0 == a.0 && !b.1) { b } else { a }),
                    (a, b) => a.or(b),
                };
            }
            if !any {
                return Err(format!("cliVersion {c:?}: an alternative has no version"));
            }
            // The interval reaches 0.9.0 or beyond when its upper end is
            // above 0.9.0 (or is 0.9.0 itself, included) and not below its
            // lower end.
            let reaches = match high {
                None => true,
                Some((h, inclusive)) => (h > v09 || (h == v09 && inclusive)) && (low < h || (low == h && inclusive)),
            };
            if reaches {
                return Ok(Format::V09(c.to_string()));
            }
        }
        Ok(Format::Seed)
    }
}

/// The comparators of one alternative; an operator written apart from its
/// version (`>= 0.9`) joins it.
fn comparators(alternative: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending = String::new();
    for t in alternative.split([' ', ',']).filter(|t| !t.is_empty()) {
        if t.chars().all(|c| "<>=!~^".contains(c)) {
            pending.push_str(t);
        } else {
            out.push(format!("{pending}{t}"));
            pending.clear();
        }
    }
    if !pending.is_empty() {
        out.push(pending);
    }
    out
}

/// A version, major.minor.patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Version(u64, u64, u64);

/// What one comparator admits: from (inclusive) to an upper end (the
/// version and whether it is included), `None` for no upper end.
fn interval(token: &str) -> Result<(Version, Option<(Version, bool)>), String> {
    let (op, rest) = match token.find(|c: char| c.is_ascii_digit() || c == 'x' || c == 'X' || c == '*') {
        Some(i) => token.split_at(i),
        None => return Err(format!("{token:?} is not a version")),
    };
    // `v0.9.0` is a version with its customary prefix, not an operator.
    let op = op.strip_suffix('v').unwrap_or(op);
    let rest = rest.trim_start_matches('v');
    // The pre-release and build parts do not move the interval.
    let core = rest.split(['-', '+']).next().unwrap_or(rest);
    let parts: Vec<&str> = core.split('.').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("{token:?} is not a version"));
    }
    let mut nums = Vec::new();
    for p in &parts {
        match *p {
            "x" | "X" | "*" => break,
            n => nums.push(n.parse::<u64>().map_err(|_| format!("{token:?} is not a version"))?),
        }
    }
    let at = |n: &[u64]| {
        Version(
            n.first().copied().unwrap_or(0),
            n.get(1).copied().unwrap_or(0),
            n.get(2).copied().unwrap_or(0),
        )
    };
    let v = at(&nums);
    // The first version past every version that `nums` (a partial version) names.
    let past = |n: &[u64]| match n.len() {
        0 => None,
        1 => Some(Version(n[0] + 1, 0, 0)),
        2 => Some(Version(n[0], n[1] + 1, 0)),
        _ => Some(Version(n[0], n[1], n[2] + 1)),
    };
    let open = |v: Option<Version>| v.map(|v| (v, false));
    Ok(match op.trim() {
        "" | "=" | "==" => (v, open(past(&nums))),
        ">=" => (v, None),
        ">" => (past(&nums).unwrap_or(Version(u64::MAX, 0, 0)), None),
        "<" => (Version(0, 0, 0), Some((v, false))),
        "<=" => (Version(0, 0, 0), open(past(&nums)).or(Some((v, true)))),
        "!=" => (Version(0, 0, 0), None),
        "~" | "~>" => {
            let up = match nums.len() {
                0 => None,
                1 => Some(Version(nums[0] + 1, 0, 0)),
                _ => Some(Version(nums[0], nums[1] + 1, 0)),
            };
            (v, open(up))
        }
        "^" => {
            // Up to the next change of the first non-zero part.
            let up = match (nums.first(), nums.get(1), nums.get(2)) {
                (None, ..) => None,
                (Some(&m), ..) if m > 0 => Some(Version(m + 1, 0, 0)),
                (Some(_), None, _) => Some(Version(1, 0, 0)),
                (Some(_), Some(&n), _) if n > 0 => Some(Version(0, n + 1, 0)),
                (Some(_), Some(_), None) => Some(Version(0, 1, 0)),
                (Some(_), Some(_), Some(&p)) => Some(Version(0, 0, p + 1)),
            };
            (v, open(up))
        }
        other => return Err(format!("{other:?} is not a comparison")),
    })
}

#[cfg(test)]
mod tests {
    use super::Format;

    fn v09(c: &str) -> bool {
        matches!(Format::of(Some(c)), Ok(Format::V09(_)))
    }

    #[test]
    fn constraints_that_admit_0_9_or_later_select_v0_9() {
        for c in [
            ">=0.9.0",
            ">=0.7.1",
            ">= 0.9",
            "^0.9.0",
            "~0.9",
            "0.9.x",
            ">=0.10.0",
            ">0.8",
            "0.9.0",
            "<1.0.0 >=0.8",
            "~0.7.0 || >=0.9.0",
            "*",
            ">=1.0.0",
            "v0.9.0-rc.1",
        ] {
            assert!(v09(c), "{c}");
        }
    }

    #[test]
    fn constraints_below_0_9_select_the_seed_rules() {
        for c in [
            "~0.7.0",
            ">=0.7.0 <0.8.0",
            "^0.8.0",
            "<0.9.0",
            "0.8.x",
            "<=0.8.5",
            "=0.7.0",
        ] {
            assert!(!v09(c), "{c}");
        }
        assert_eq!(Format::of(None), Ok(Format::Seed));
        assert_eq!(Format::of(Some("  ")), Ok(Format::Seed));
    }

    #[test]
    fn a_constraint_that_is_no_version_is_an_error() {
        assert_eq!(
            Format::of(Some(">=banana")),
            Err("cliVersion \">=banana\": \">=banana\" is not a version".into())
        );
        assert_eq!(
            Format::of(Some("%1.0")),
            Err("cliVersion \"%1.0\": \"%\" is not a comparison".into())
        );
    }
}
