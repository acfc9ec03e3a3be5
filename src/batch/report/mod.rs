//! What a batch did, one record per target and test case: as JSON that
//! shards' reports merge from, and as JUnit XML that CI systems show.

mod json;

use super::manifest::Manifest;
use super::why::Why;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// What a record is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordKind {
    /// A Windsor context rendered.
    Windsor,
    /// A Bluelink blueprint rendered with one variable set.
    Bluelink,
    /// A Windsor test case (`--test`).
    Test,
}

impl RecordKind {
    /// `windsor`, `bluelink` or `test`.
    ///
    /// ```
    /// assert_eq!(bpvm::batch::RecordKind::Test.name(), "test");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            RecordKind::Windsor => "windsor",
            RecordKind::Bluelink => "bluelink",
            RecordKind::Test => "test",
        }
    }
}

/// How a target or test case came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Rendered (and written, or the same as what is there); a test case
    /// that passed.
    Ok,
    /// Did not render, could not be written, or a test case that failed.
    Failed,
    /// Rendered, but not what is in the output folder (`--check`).
    Drift,
}

/// One target or test case of a batch.
///
/// ```
/// use bpvm::batch::{Record, RecordKind, Status};
/// let r = Record::new("infra/dev", RecordKind::Windsor, Status::Ok);
/// assert!(r.diagnostics.is_empty() && r.seconds == 0.0);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The target's id, or `<project>/<test file>::<case name>`.
    pub id: String,
    /// What it is.
    pub kind: RecordKind,
    /// How it came out.
    pub status: Status,
    /// How long its render or test case took, in seconds (its template
    /// is loaded once for all its targets, and not counted).
    pub seconds: f64,
    /// Why it failed or drifted: `bpvm render`'s error, a test case's
    /// differences, or a unified diff.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<String>,
    /// What `bpvm render` says besides (values left until deploy time,
    /// warnings of a test case).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The output was taken from the render cache, not rendered.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// What the target's output depends on, when the batch tracked inputs
    /// (see [`Manifest`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<Manifest>,
    /// The manifest as JSON text ([`Manifest::to_json`]'s), instead of
    /// [`manifest`](Record::manifest), from a batch whose sink takes
    /// manifests so ([`Sink::manifests_as_json`](crate::batch::Sink::manifests_as_json)):
    /// a host that passes records on (to another process, into a report)
    /// writes it as it is. Not a field of a report's record: written
    /// there as its `manifest`.
    #[serde(skip)]
    pub manifest_json: Option<String>,
    /// Why it ran, when the batch ran the targets a change affects
    /// (`--affected-by`, `--changed-files`): the changed path, and how
    /// the target depends on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affected_by: Option<Why>,
}

impl Record {
    /// A record with no time, diagnostics or notes.
    pub fn new(id: impl Into<String>, kind: RecordKind, status: Status) -> Record {
        Record {
            id: id.into(),
            kind,
            status,
            seconds: 0.0,
            diagnostics: Vec::new(),
            notes: Vec::new(),
            cached: false,
            manifest: None,
            manifest_json: None,
            affected_by: None,
        }
    }
}

/// A batch's report: its records, sorted by id, and the shard it ran.
///
/// ```
/// use bpvm::batch::{Record, RecordKind, Report, Status};
/// let report = Report::new(vec![Record::new("api", RecordKind::Bluelink, Status::Ok)], Some((1, 2)));
/// let back = Report::from_json(&report.to_json()).unwrap();
/// assert_eq!(back, report);
/// assert_eq!(back.shard.as_deref(), Some("1/2"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// The version of bpvm that wrote it.
    pub bpvm: String,
    /// `K/N` when the batch ran one shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Every target and test case, sorted by id.
    pub records: Vec<Record>,
    /// How many targets were not run because no change affects them, when
    /// the batch ran the targets a change affects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unaffected: Option<usize>,
}

/// Counts of a report's records.
///
/// ```
/// use bpvm::batch::{Record, RecordKind, Report, Status};
/// let report = Report::new(vec![
///     Record::new("a", RecordKind::Windsor, Status::Ok),
///     Record::new("b", RecordKind::Windsor, Status::Drift),
///     Record::new("t::x", RecordKind::Test, Status::Failed),
/// ], None);
/// let c = report.counts();
/// assert_eq!((c.rendered, c.failed, c.drifted, c.tests, c.tests_failed), (2, 0, 1, 1, 1));
/// assert!(!c.clean());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Targets rendered (drifted ones included).
    pub rendered: usize,
    /// Targets that failed.
    pub failed: usize,
    /// Targets whose output drifted.
    pub drifted: usize,
    /// Test cases run.
    pub tests: usize,
    /// Test cases that failed.
    pub tests_failed: usize,
    /// Targets whose output came from the render cache (counted in
    /// `rendered` too).
    pub cached: usize,
}

impl Counts {
    /// Nothing failed or drifted.
    pub fn clean(&self) -> bool {
        self.failed == 0 && self.drifted == 0 && self.tests_failed == 0
    }
}

impl Report {
    /// The report of `records` (sorted here), for shard `(K, N)` if one.
    pub fn new(mut records: Vec<Record>, shard: Option<(usize, usize)>) -> Report {
        records.sort_by(|a, b| a.id.cmp(&b.id));
        Report {
            bpvm: env!("CARGO_PKG_VERSION").to_string(),
            shard: shard.map(|(k, n)| format!("{k}/{n}")),
            records,
            unaffected: None,
        }
    }

    /// How many records came out how.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for r in &self.records {
            match (r.kind, r.status) {
                (RecordKind::Test, status) => {
                    c.tests += 1;
                    c.tests_failed += usize::from(status != Status::Ok);
                }
                (_, Status::Ok) => {
                    c.rendered += 1;
                    c.cached += usize::from(r.cached);
                }
                (_, Status::Drift) => {
                    c.rendered += 1;
                    c.cached += usize::from(r.cached);
                    c.drifted += 1;
                }
                (_, Status::Failed) => c.failed += 1,
            }
        }
        c
    }

    /// Reads a report [`Report::to_json`] wrote.
    ///
    /// ```
    /// use bpvm::batch::Report;
    /// let e = Report::from_json("{\"bpvm\": \"0.1.0\"}").unwrap_err();
    /// assert!(e.starts_with("not a bpvm batch report: missing field `records`"), "{e}");
    /// ```
    pub fn from_json(text: &str) -> Result<Report, String> {
        serde_json::from_str(text).map_err(|e| format!("not a bpvm batch report: {e}"))
    }

    /// The shards' reports as one. Each id must come from one report
    /// only: shards of one batch are disjoint. When every report names
    /// its shard, all of `1/N … N/N` must be there.
    ///
    /// ```
    /// use bpvm::batch::{Record, RecordKind, Report, Status};
    /// let one = Report::new(vec![Record::new("b", RecordKind::Windsor, Status::Ok)], Some((1, 2)));
    /// let two = Report::new(vec![Record::new("a", RecordKind::Windsor, Status::Ok)], Some((2, 2)));
    /// let merged = Report::merge(&[one.clone(), two]).unwrap();
    /// assert_eq!(merged.records.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!(merged.shard, None);
    /// assert_eq!(Report::merge(&[one.clone(), one.clone()]).unwrap_err(), "reports 1 and 2 both have \"b\": they are not shards of one batch");
    /// assert_eq!(Report::merge(&[one]).unwrap_err(), "shard 2/2 is missing (the reports are of shards 1/2)");
    /// ```
    pub fn merge(reports: &[Report]) -> Result<Report, String> {
        let mut from: HashMap<&str, usize> = HashMap::new();
        let mut records = Vec::new();
        for (i, report) in reports.iter().enumerate() {
            for r in &report.records {
                let j = *from.entry(&r.id).or_insert(i);
                if j != i {
                    return Err(format!(
                        "reports {} and {} both have {:?}: they are not shards of one batch",
                        j + 1,
                        i + 1,
                        r.id
                    ));
                }
                records.push(r.clone());
            }
        }
        check_shards(reports)?;
        let mut merged = Report::new(records, None);
        merged.unaffected = reports.iter().filter_map(|r| r.unaffected).reduce(|a, b| a + b);
        Ok(merged)
    }

    /// The report as JUnit XML: one `<testsuite>` per kind (windsor,
    /// bluelink, test), one `<testcase>` per record, a `<failure>` for
    /// each that failed or drifted.
    ///
    /// ```
    /// use bpvm::batch::{Record, RecordKind, Report, Status};
    /// let mut r = Record::new("infra/dev", RecordKind::Windsor, Status::Failed);
    /// r.diagnostics.push("error: a < b".into());
    /// let xml = Report::new(vec![r], None).to_junit();
    /// assert!(xml.contains(r#"<testcase name="infra/dev" classname="windsor" time="0.000">"#), "{xml}");
    /// assert!(xml.contains("error: a &lt; b"), "{xml}");
    /// ```
    pub fn to_junit(&self) -> String {
        let mut kinds: BTreeMap<RecordKind, Vec<&Record>> = BTreeMap::new();
        for r in &self.records {
            kinds.entry(r.kind).or_default().push(r);
        }
        let failing = |rs: &[&Record]| rs.iter().filter(|r| r.status != Status::Ok).count();
        let time = |rs: &[&Record]| rs.iter().map(|r| r.seconds).sum::<f64>();
        let all: Vec<&Record> = self.records.iter().collect();
        let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            x,
            "<testsuites name=\"bpvm batch\" tests=\"{}\" failures=\"{}\" time=\"{:.3}\">",
            all.len(),
            failing(&all),
            time(&all)
        );
        for (kind, records) in &kinds {
            let _ = writeln!(
                x,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3}\">",
                kind.name(),
                records.len(),
                failing(records),
                time(records)
            );
            for r in records {
                let _ = write!(
                    x,
                    "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\">",
                    escape(&r.id),
                    kind.name(),
                    r.seconds
                );
                let message = match r.status {
                    Status::Ok => None,
                    Status::Failed if r.kind == RecordKind::Test => Some("the test case failed"),
                    Status::Failed => Some("the render failed"),
                    Status::Drift => Some("the output folder is not up to date"),
                };
                if let Some(message) = message {
                    let _ = write!(
                        x,
                        "\n      <failure type=\"{}\" message=\"{message}\">{}</failure>\n    ",
                        if r.status == Status::Drift { "drift" } else { "failed" },
                        escape(&r.diagnostics.join("\n"))
                    );
                }
                if !r.notes.is_empty() {
                    let _ = write!(
                        x,
                        "\n      <system-out>{}</system-out>\n    ",
                        escape(&r.notes.join("\n"))
                    );
                }
                x.push_str("</testcase>\n");
            }
            x.push_str("  </testsuite>\n");
        }
        x.push_str("</testsuites>\n");
        x
    }
}

/// When every report names its shard of N, each of 1..=N is there.
fn check_shards(reports: &[Report]) -> Result<(), String> {
    let shards: Option<Vec<(usize, usize)>> = reports
        .iter()
        .map(|r| {
            let (k, n) = r.shard.as_deref()?.split_once('/')?;
            Some((k.parse().ok()?, n.parse().ok()?))
        })
        .collect();
    let Some(shards) = shards else { return Ok(()) };
    let Some(&(_, n)) = shards.first() else { return Ok(()) };
    let named = || {
        shards
            .iter()
            .map(|(k, n)| format!("{k}/{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if shards.iter().any(|&(_, m)| m != n) {
        return Err(format!("the reports are of shards of different batches: {}", named()));
    }
    match (1..=n).find(|k| !shards.iter().any(|&(j, _)| j == *k)) {
        Some(k) => Err(format!(
            "shard {k}/{n} is missing (the reports are of shards {})",
            named()
        )),
        None => Ok(()),
    }
}

/// `text` fit for XML 1.0 text and attributes: markup characters as
/// entities, characters XML cannot hold as U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_keeps_xml_well_formed() {
        assert_eq!(
            escape("a<b>&\"'\u{1b}[31m\tz"),
            "a&lt;b&gt;&amp;&quot;&apos;\u{FFFD}[31m\tz"
        );
    }

    #[test]
    fn merging_reports_of_different_batches_is_refused() {
        let a = Report::new(vec![], Some((1, 2)));
        let b = Report::new(vec![], Some((2, 3)));
        assert_eq!(
            Report::merge(&[a, b]).unwrap_err(),
            "the reports are of shards of different batches: 1/2, 2/3"
        );
    }

    #[test]
    fn a_report_without_a_shard_merges_with_any() {
        let a = Report::new(vec![Record::new("x", RecordKind::Bluelink, Status::Ok)], Some((1, 2)));
        let b = Report::new(vec![Record::new("y", RecordKind::Bluelink, Status::Ok)], None);
        assert_eq!(Report::merge(&[a, b]).unwrap().records.len(), 2);
    }
}
