//! Shards balanced by time: `--shard K/N --timings REPORT` gives each of
//! the N shards about the same total render time, from the durations a
//! previous batch recorded, so that N machines finish together.
//!
//! The split is a plan made from the whole target list and the report.
//! A template's targets stay together, so that a shard loads the
//! templates of its own targets only (a template's load is not in its
//! targets' durations, and loading every template on every shard, as a
//! split by id does, costs as much as rendering on a repository of many
//! Windsor projects); a template with more than an eighth of a shard's
//! share of time is cut into pieces of at most that, in id order. The
//! pieces go longest first (ties by their first id) onto the shard with
//! the least time so far (ties to the one with fewer targets, then the
//! lowest). Targets without a duration come after: beside their
//! template's other targets when it has some (on the least-loaded of
//! their shards), otherwise as new pieces, each counted at the median
//! recorded duration. Nothing but the list, the report and N goes in
//! (durations as the report's JSON spells them, no clock, no hash seed),
//! so every machine given the same report makes the same plan, and new
//! targets never move the ones the report knows.

use super::report::{RecordKind, Report};
use super::shard::shard_of;
use super::target::Target;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// A shard's share of time is cut into pieces of at most an eighth of
/// it: small enough to balance, few enough that a template is loaded by
/// few shards.
const PIECES_PER_SHARD: f64 = 8.0;

/// Where each target of a batch goes among `N` shards balanced by time.
///
/// ```
/// use bpvm::batch::{Record, RecordKind, Report, Status, Target, TimedShards};
/// let targets: Vec<Target> = ["a", "b", "c", "d"].iter().map(|c| Target::windsor(".", "infra", c)).collect();
/// let timed = |id: &str, s: f64| Record { seconds: s, ..Record::new(id, RecordKind::Windsor, Status::Ok) };
/// let report = Report::new(vec![timed("infra/a", 9.0), timed("infra/b", 5.0), timed("infra/c", 4.0)], None);
/// let plan = TimedShards::new(&targets, &report, 2);
/// // a (9 s) alone; b and c (5 + 4 s) together; d, not in the report,
/// // counts as the median (5 s) and joins the shard with less time.
/// assert_eq!(plan.shard_of("infra/a"), 1);
/// assert_eq!([plan.shard_of("infra/b"), plan.shard_of("infra/c")], [2, 2]);
/// assert_eq!(plan.shard_of("infra/d"), 1);
/// assert_eq!(plan.seconds(), [14.0, 9.0]);
/// let first: Vec<String> = plan.shard(&targets, 1).into_iter().map(|t| t.id).collect();
/// assert_eq!(first, ["infra/a", "infra/d"]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TimedShards {
    n: usize,
    shard: HashMap<String, usize>,
    seconds: Vec<f64>,
    count: Vec<usize>,
}

impl TimedShards {
    /// The plan for `targets` over `n` shards, from the render durations
    /// `report` recorded (its test case records are not used: test cases
    /// are sharded by their id, as without a report).
    ///
    /// # Panics
    ///
    /// When `n` is 0.
    pub fn new(targets: &[Target], report: &Report, n: usize) -> TimedShards {
        assert!(n > 0, "timed shards: N is at least 1");
        let recorded = durations(report);
        let median = median(recorded.values().copied());
        let mut sorted: Vec<&Target> = targets.iter().collect();
        sorted.sort_by(|a, b| a.id.cmp(&b.id));
        let (timed, untimed): (Vec<&Target>, Vec<&Target>) =
            sorted.into_iter().partition(|t| recorded.contains_key(t.id.as_str()));
        let total: f64 = timed.iter().map(|t| recorded[t.id.as_str()]).sum();
        let limit = total / n as f64 / PIECES_PER_SHARD;
        let mut plan = TimedShards {
            n,
            shard: HashMap::with_capacity(targets.len()),
            seconds: vec![0.0; n],
            count: vec![0; n],
        };
        let cost = |t: &Target| recorded.get(t.id.as_str()).copied().unwrap_or(median);
        let mut homes: HashMap<&Path, Vec<usize>> = HashMap::new();
        for piece in pieces(&timed, &cost, limit) {
            let k = plan.place(&piece);
            homes.entry(piece.template).or_default().push(k);
        }
        // Untimed targets join their template where it already is (no
        // second load); the others come last, so they move nothing.
        let mut homeless: Vec<&Target> = Vec::new();
        for t in untimed {
            match homes.get(t.template.as_path()) {
                Some(shards) => {
                    let k = plan.least_of(shards);
                    plan.put(&t.id, k, median);
                }
                None => homeless.push(t),
            }
        }
        for piece in pieces(&homeless, &cost, limit) {
            plan.place(&piece);
        }
        plan
    }

    /// `piece` onto the shard with the least time so far; its index.
    fn place(&mut self, piece: &Piece<'_>) -> usize {
        let all: Vec<usize> = (0..self.n).collect();
        let k = self.least_of(&all);
        for id in &piece.ids {
            self.put(id, k, 0.0);
        }
        self.seconds[k] += piece.seconds;
        k
    }

    /// Of `shards` (0-based), the one with the least time so far; of
    /// equal times, the one with fewer targets (so that durations of 0
    /// still spread), then the lowest.
    fn least_of(&self, shards: &[usize]) -> usize {
        shards
            .iter()
            .copied()
            .min_by(|&a, &b| {
                let by_time = self.seconds[a].partial_cmp(&self.seconds[b]).unwrap_or(Ordering::Equal);
                by_time.then(self.count[a].cmp(&self.count[b])).then(a.cmp(&b))
            })
            .unwrap_or(0)
    }

    /// `id` on shard `k` (0-based), costing `seconds`.
    fn put(&mut self, id: &str, k: usize, seconds: f64) {
        if self.shard.contains_key(id) {
            return;
        }
        self.seconds[k] += seconds;
        self.count[k] += 1;
        self.shard.insert(id.to_string(), k + 1);
    }

    /// The shard (`1..=N`) of the target `id`; an id the plan was not
    /// made with (a test case, a file no target renders) falls in its
    /// shard by id ([`shard_of`](crate::batch::shard_of)).
    pub fn shard_of(&self, id: &str) -> usize {
        self.shard.get(id).copied().unwrap_or_else(|| shard_of(id, self.n))
    }

    /// The targets of shard `k` (1-based), order kept.
    pub fn shard(&self, targets: &[Target], k: usize) -> Vec<Target> {
        targets.iter().filter(|t| self.shard_of(&t.id) == k).cloned().collect()
    }

    /// Each shard's expected seconds, shard 1 first (targets without a
    /// recorded duration counted at the median).
    pub fn seconds(&self) -> &[f64] {
        &self.seconds
    }
}

/// A template's targets that go to one shard together.
struct Piece<'t> {
    template: &'t Path,
    ids: Vec<&'t str>,
    seconds: f64,
}

/// `targets` (sorted by id) as pieces: each template's targets together,
/// cut into consecutive runs of at most `limit` seconds (a piece holds
/// one target at least), longest first, ties by first id.
fn pieces<'t>(targets: &[&'t Target], cost: &dyn Fn(&Target) -> f64, limit: f64) -> Vec<Piece<'t>> {
    let mut by_template: BTreeMap<&Path, Vec<&'t Target>> = BTreeMap::new();
    for t in targets {
        by_template.entry(t.template.as_path()).or_default().push(t);
    }
    let mut pieces: Vec<Piece<'t>> = Vec::new();
    for (template, group) in by_template {
        let mut piece = Piece {
            template,
            ids: Vec::new(),
            seconds: 0.0,
        };
        for t in group {
            let s = cost(t);
            // No limit (no durations at all): one target a piece.
            if !piece.ids.is_empty() && (piece.seconds + s > limit || limit <= 0.0) {
                let next = Piece {
                    template,
                    ids: Vec::new(),
                    seconds: 0.0,
                };
                pieces.push(std::mem::replace(&mut piece, next));
            }
            piece.ids.push(&t.id);
            piece.seconds += s;
        }
        pieces.push(piece);
    }
    pieces.sort_by(|a, b| {
        b.seconds
            .partial_cmp(&a.seconds)
            .unwrap_or(Ordering::Equal)
            .then(a.ids[0].cmp(b.ids[0]))
    });
    pieces
}

/// Each rendered target's recorded seconds (the longest when an id is
/// there twice); negative, infinite or NaN durations are left out.
fn durations(report: &Report) -> HashMap<&str, f64> {
    let mut map: HashMap<&str, f64> = HashMap::new();
    for r in report.records.iter().filter(|r| r.kind != RecordKind::Test) {
        if r.seconds.is_finite() && r.seconds >= 0.0 {
            let s = map.entry(&r.id).or_insert(r.seconds);
            *s = s.max(r.seconds);
        }
    }
    map
}

/// The median (the lower middle of an even count); 0 when there is none.
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
    match v.len() {
        0 => 0.0,
        len => v[(len - 1) / 2],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Record, Status};
    use std::collections::BTreeSet;

    fn targets(count: usize) -> Vec<Target> {
        (0..count)
            .map(|i| Target::windsor("repo", "infra", &format!("c{i:03}")))
            .collect()
    }

    /// A report of `targets` where one in ten takes 20 times as long.
    fn skewed(targets: &[Target]) -> Report {
        let records = targets
            .iter()
            .enumerate()
            .map(|(i, t)| Record {
                seconds: if i % 10 == 3 { 2.0 } else { 0.1 + (i % 7) as f64 * 0.01 },
                ..Record::new(t.id.clone(), RecordKind::Windsor, Status::Ok)
            })
            .collect();
        Report::new(records, None)
    }

    fn sums(plan: &TimedShards, targets: &[Target], report: &Report, n: usize) -> Vec<f64> {
        let recorded = durations(report);
        (1..=n)
            .map(|k| plan.shard(targets, k).iter().map(|t| recorded[t.id.as_str()]).sum())
            .collect()
    }

    #[test]
    fn skewed_timings_are_balanced_within_15_percent() {
        let all = targets(300);
        let report = skewed(&all);
        for n in [2, 3, 4, 7] {
            let plan = TimedShards::new(&all, &report, n);
            let sums = sums(&plan, &all, &report, n);
            let mean = sums.iter().sum::<f64>() / n as f64;
            for (k, s) in sums.iter().enumerate() {
                assert!(
                    (s - mean).abs() <= mean * 0.15,
                    "shard {}/{n}: {s:.2} s, mean {mean:.2} s",
                    k + 1
                );
            }
        }
    }

    #[test]
    fn a_template_small_enough_stays_on_one_shard_and_a_large_one_is_cut() {
        let mut all: Vec<Target> = (0..120)
            .map(|i| Target::windsor("repo", &format!("p{:02}", i / 3), &format!("c{i:03}")))
            .collect();
        all.extend((0..40).map(|i| Target::windsor("repo", "big", &format!("c{i:03}"))));
        let records = all
            .iter()
            .map(|t| Record {
                seconds: 0.1,
                ..Record::new(t.id.clone(), RecordKind::Windsor, Status::Ok)
            })
            .collect();
        let plan = TimedShards::new(&all, &Report::new(records, None), 4);
        for p in 0..40 {
            let shards: BTreeSet<usize> = all[p * 3..p * 3 + 3].iter().map(|t| plan.shard_of(&t.id)).collect();
            assert_eq!(shards.len(), 1, "p{p:02} is on shards {shards:?}");
        }
        let big: BTreeSet<usize> = all[120..].iter().map(|t| plan.shard_of(&t.id)).collect();
        assert_eq!(big.len(), 4, "the big template (4 s of 16 s) is cut and spread");
        assert!(
            plan.seconds().iter().all(|s| (s - 4.0).abs() < 0.35),
            "{:?}",
            plan.seconds()
        );
    }

    #[test]
    fn every_target_is_in_exactly_one_shard() {
        let all = targets(250);
        let report = skewed(&all[..120]);
        for n in [1, 2, 4, 9] {
            let plan = TimedShards::new(&all, &report, n);
            let mut seen = BTreeSet::new();
            for k in 1..=n {
                for t in plan.shard(&all, k) {
                    assert!(seen.insert(t.id.clone()), "{} twice", t.id);
                }
            }
            assert_eq!(seen.len(), all.len());
        }
    }

    #[test]
    fn new_targets_without_a_timing_move_none_of_the_timed() {
        let all = targets(200);
        let report = skewed(&all[..150]);
        let before = TimedShards::new(&all[..150], &report, 4);
        let after = TimedShards::new(&all, &report, 4);
        for t in &all[..150] {
            assert_eq!(before.shard_of(&t.id), after.shard_of(&t.id), "{}", t.id);
        }
        // Counted at the median, they spread over the shards.
        let new: BTreeSet<usize> = all[150..].iter().map(|t| after.shard_of(&t.id)).collect();
        assert_eq!(new.len(), 4);
    }

    #[test]
    fn the_plan_depends_on_neither_order_nor_machine() {
        let all = targets(120);
        let report = skewed(&all[..100]);
        let mut reversed = all.clone();
        reversed.reverse();
        let plan = TimedShards::new(&all, &report, 3);
        assert_eq!(plan, TimedShards::new(&reversed, &report, 3));
        let again = Report::from_json(&report.to_json()).unwrap();
        assert_eq!(plan, TimedShards::new(&all, &again, 3));
    }

    #[test]
    fn without_any_timing_targets_spread_by_count() {
        let all = targets(10);
        let plan = TimedShards::new(&all, &Report::new(Vec::new(), None), 3);
        let counts: Vec<usize> = (1..=3).map(|k| plan.shard(&all, k).len()).collect();
        assert_eq!(counts, [4, 3, 3]);
        assert_eq!(plan.shard_of("not/a/target"), shard_of("not/a/target", 3));
    }

    #[test]
    fn test_records_and_bad_durations_are_not_timings() {
        let mut test = Record::new("infra/c000", RecordKind::Test, Status::Ok);
        test.seconds = 50.0;
        let mut nan = Record::new("infra/c001", RecordKind::Windsor, Status::Ok);
        nan.seconds = f64::NAN;
        let report = Report::new(vec![test, nan], None);
        assert!(durations(&report).is_empty());
        assert_eq!(median([3.0, 1.0, 2.0, 4.0].into_iter()), 2.0);
    }
}
