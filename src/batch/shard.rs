//! Splitting a batch across machines: shard `K/N` of a target list.
//!
//! A target belongs to the shard its id hashes to, so each target's shard
//! depends on nothing but its own id and `N`. Adding, removing or
//! renaming other targets never moves it: shard `2/4` keeps rendering
//! what it rendered yesterday, plus its share of what is new. (Cutting
//! the sorted list into `N` runs would shift every boundary after an
//! inserted target.) The hash is FNV-1a (64 bits) with a fixed offset
//! basis, followed by a fixed bit mixer, both written out here: it never
//! changes between Rust releases, machines or runs, unlike std's
//! `DefaultHasher` or a randomly seeded hasher, so `N` CI jobs on
//! different machines agree on the split.

use super::target::Target;

/// The targets of shard `k` of `n` (1-based, as `--shard K/N` names it):
/// disjoint for different `k`, all of `targets` over `k = 1..=n`, order
/// kept.
///
/// # Panics
///
/// Unless `1 <= k <= n` (see [`parse_shard`] for checked input).
///
/// ```
/// use bpvm::batch::{Target, shard};
/// let all: Vec<Target> = ["dev", "staging", "prod", "qa"].iter().map(|c| Target::windsor(".", "infra", c)).collect();
/// let mut together: Vec<Target> = (1..=3).flat_map(|k| shard(&all, k, 3)).collect();
/// together.sort_by(|a, b| a.id.cmp(&b.id));
/// let mut sorted = all.clone();
/// sorted.sort_by(|a, b| a.id.cmp(&b.id));
/// assert_eq!(together, sorted);
/// assert_eq!(shard(&all, 1, 1), all);
/// ```
pub fn shard(targets: &[Target], k: usize, n: usize) -> Vec<Target> {
    assert!(1 <= k && k <= n, "shard {k}/{n}: K is from 1 to N");
    targets.iter().filter(|t| shard_of(&t.id, n) == k).cloned().collect()
}

/// The shard (`1..=n`) the target with id `id` belongs to.
///
/// # Panics
///
/// When `n` is 0.
///
/// ```
/// use bpvm::batch::shard_of;
/// assert_eq!(shard_of("platform/aws/prod", 1), 1);
/// let k = shard_of("platform/aws/prod", 7);
/// assert!((1..=7).contains(&k));
/// assert_eq!(shard_of("platform/aws/prod", 7), k, "the same on every call and machine");
/// ```
pub fn shard_of(id: &str, n: usize) -> usize {
    assert!(n > 0, "shard of 0 shards");
    // Multiply-shift maps the hash onto 0..n from its high bits (the
    // best mixed ones), without modulo's bias towards low shards.
    ((u128::from(stable_hash(id)) * n as u128) >> 64) as usize + 1
}

/// `K/N` (`--shard 2/7`) read as `(k, n)`, with `1 <= k <= n`.
///
/// ```
/// use bpvm::batch::parse_shard;
/// assert_eq!(parse_shard("2/7"), Ok((2, 7)));
/// assert_eq!(parse_shard("0/3").unwrap_err(), "shard 0/3: K is from 1 to N (1-based, like 1/3 … 3/3)");
/// assert_eq!(parse_shard("0/0").unwrap_err(), "shard 0/0: N is how many shards there are, at least 1 (like 1/2)");
/// assert!(parse_shard("two").is_err());
/// ```
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let malformed = || format!("shard {text:?}: expected K/N, such as 1/4 (the first of four shards)");
    let (k, n) = text.trim().split_once('/').ok_or_else(malformed)?;
    let k: usize = k.trim().parse().map_err(|_| malformed())?;
    let n: usize = n.trim().parse().map_err(|_| malformed())?;
    if n == 0 {
        return Err(format!(
            "shard {k}/0: N is how many shards there are, at least 1 (like 1/2)"
        ));
    }
    if k == 0 || k > n {
        return Err(format!(
            "shard {k}/{n}: K is from 1 to N (1-based, like 1/{n} … {n}/{n})"
        ));
    }
    Ok((k, n))
}

/// `I/N` counted from 0 (`--shard-index 1/7`), as Kubernetes' job
/// completion index and other CI systems number parallel jobs, read as
/// the 1-based `(k, n)` of [`parse_shard`]: `I/N` is shard `I+1/N`.
///
/// ```
/// use bpvm::batch::parse_shard_index;
/// assert_eq!(parse_shard_index("0/7"), Ok((1, 7)));
/// assert_eq!(parse_shard_index("6/7"), Ok((7, 7)));
/// assert_eq!(parse_shard_index("7/7").unwrap_err(), "shard index 7/7: I is from 0 to N-1 (0-based, like 0/7 … 6/7)");
/// assert!(parse_shard_index("0/0").is_err());
/// ```
pub fn parse_shard_index(text: &str) -> Result<(usize, usize), String> {
    let malformed = || format!("shard index {text:?}: expected I/N, such as 0/4 (the first of four shards)");
    let (i, n) = text.trim().split_once('/').ok_or_else(malformed)?;
    let i: usize = i.trim().parse().map_err(|_| malformed())?;
    let n: usize = n.trim().parse().map_err(|_| malformed())?;
    if n == 0 {
        return Err(format!(
            "shard index {i}/0: N is how many shards there are, at least 1 (like 0/2)"
        ));
    }
    if i >= n {
        let last = n - 1;
        return Err(format!(
            "shard index {i}/{n}: I is from 0 to N-1 (0-based, like 0/{n} … {last}/{n})"
        ));
    }
    Ok((i + 1, n))
}

/// FNV-1a over `text`'s bytes, then a SplitMix64 finaliser so that every
/// bit of the result depends on every byte (FNV alone leaves the low
/// bits weak).
fn stable_hash(text: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(PRIME);
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Files;
    use std::collections::BTreeSet;

    fn targets(count: usize) -> Vec<Target> {
        (0..count)
            .map(|i| match i % 3 {
                0 => Target::windsor("repo", &format!("platform/p{}", i / 25), &format!("ctx-{i}")),
                1 => Target::bluelink("repo", &format!("apps/a{i}.yaml"), None, Files::default()),
                _ => Target::bluelink("repo", "apps/shared.yaml", Some(&format!("set{i}")), Files::default()),
            })
            .collect()
    }

    #[test]
    fn shards_are_disjoint_and_cover_the_whole() {
        let all = targets(500);
        let whole: BTreeSet<&str> = all.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(whole.len(), all.len());
        for n in [1, 2, 3, 7] {
            let mut seen: BTreeSet<String> = BTreeSet::new();
            let mut count = 0;
            for k in 1..=n {
                let part = shard(&all, k, n);
                count += part.len();
                for t in part {
                    assert_eq!(shard_of(&t.id, n), k);
                    assert!(seen.insert(t.id.clone()), "{} is in two shards of {n}", t.id);
                }
            }
            assert_eq!(count, all.len(), "N = {n}");
            assert_eq!(
                seen.iter().map(String::as_str).collect::<BTreeSet<_>>(),
                whole,
                "N = {n}"
            );
        }
    }

    #[test]
    fn shards_keep_the_order_and_are_balanced() {
        let all = targets(700);
        for n in [2, 3, 7] {
            for k in 1..=n {
                let part = shard(&all, k, n);
                let expected = all.len() / n;
                assert!(
                    part.len() > expected * 3 / 4 && part.len() < expected * 5 / 4,
                    "shard {k}/{n} has {} of {} targets",
                    part.len(),
                    all.len()
                );
                let positions: Vec<usize> = part
                    .iter()
                    .map(|t| all.iter().position(|a| a.id == t.id).unwrap())
                    .collect();
                assert!(positions.windows(2).all(|w| w[0] < w[1]));
            }
        }
    }

    #[test]
    fn adding_targets_moves_none_of_the_others() {
        let before = targets(300);
        let after = targets(600);
        for n in [2, 3, 7] {
            for t in &before {
                let k = shard_of(&t.id, n);
                assert!(shard(&after, k, n).iter().any(|a| a.id == t.id));
            }
        }
    }

    #[test]
    fn the_hash_is_fixed() {
        // Pinned: a change here would re-split every repository's shards.
        assert_eq!(stable_hash(""), 0xf52a_15e9_a9b5_e89b);
        let pinned = [
            ("platform/aws/prod", [2, 2, 5]),
            ("apps/orders@prod", [2, 3, 7]),
            ("infra/dev", [2, 3, 6]),
        ];
        for (id, shards) in pinned {
            assert_eq!([2, 3, 7].map(|n| shard_of(id, n)), shards, "{id}");
        }
        let spread: BTreeSet<usize> = (0..50).map(|i| shard_of(&format!("t{i}"), 7)).collect();
        assert_eq!(spread.len(), 7);
    }

    #[test]
    #[should_panic(expected = "K is from 1 to N")]
    fn shard_zero_panics() {
        shard(&targets(3), 0, 3);
    }
}
