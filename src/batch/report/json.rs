//! A report as JSON: indented, but each record's manifest on one line of
//! its own (machine data: hashes and paths). Indented like the rest, the
//! manifests of a 1,200-target report took 1.5 of its 7.6 MB in
//! indentation, and writing it was 16 ms of the run's end (2026-11-28).
//!
//! A manifest comes from its record, or, from a caller that has it as
//! JSON already (a worker process sent it so), as given: written as it
//! is, never parsed and written again.

use super::{Record, Report};
use serde::ser::{Error as _, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// Each record's manifest as JSON, when the caller has it so.
type Given<'a> = &'a dyn Fn(&Record) -> Option<&'a RawValue>;

/// A report to write, with its given manifests.
struct ReportJson<'a> {
    report: &'a Report,
    given: Given<'a>,
}

impl Serialize for ReportJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.report;
        let mut out = s.serialize_struct("Report", 4)?;
        out.serialize_field("bpvm", &r.bpvm)?;
        if let Some(shard) = &r.shard {
            out.serialize_field("shard", shard)?;
        }
        out.serialize_field("records", &Records(self))?;
        if let Some(n) = r.unaffected {
            out.serialize_field("unaffected", &n)?;
        }
        out.end()
    }
}

struct Records<'a, 'b>(&'b ReportJson<'a>);

impl Serialize for Records<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.report.records.len()))?;
        for record in &self.0.report.records {
            seq.serialize_element(&RecordJson {
                record,
                given: (self.0.given)(record),
            })?;
        }
        seq.end()
    }
}

/// A record to write, with its manifest as JSON if given.
struct RecordJson<'a> {
    record: &'a Record,
    given: Option<&'a RawValue>,
}

impl Serialize for RecordJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.record;
        let mut out = s.serialize_struct("Record", 9)?;
        out.serialize_field("id", &r.id)?;
        out.serialize_field("kind", &r.kind)?;
        out.serialize_field("status", &r.status)?;
        out.serialize_field("seconds", &r.seconds)?;
        if !r.diagnostics.is_empty() {
            out.serialize_field("diagnostics", &r.diagnostics)?;
        }
        if !r.notes.is_empty() {
            out.serialize_field("notes", &r.notes)?;
        }
        if r.cached {
            out.serialize_field("cached", &true)?;
        }
        match (&r.manifest, self.given) {
            (Some(m), _) => {
                let json = String::from_utf8(m.to_json()).map_err(S::Error::custom)?;
                let line = RawValue::from_string(json).map_err(S::Error::custom)?;
                out.serialize_field("manifest", &line)?;
            }
            (None, Some(given)) => out.serialize_field("manifest", given)?,
            (None, None) => {}
        }
        if let Some(why) = &r.affected_by {
            out.serialize_field("affected_by", why)?;
        }
        out.end()
    }
}

impl Serialize for Record {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RecordJson {
            record: self,
            given: None,
        }
        .serialize(s)
    }
}

impl Serialize for Report {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ReportJson {
            report: self,
            given: &|_| None,
        }
        .serialize(s)
    }
}

impl Report {
    /// The report as indented JSON (each manifest on one line), ending in
    /// a newline.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        // Writing to memory fails only on a manifest serde cannot write.
        let _ = self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes [`Report::to_json`]'s text to `out` as it makes it (a large
    /// report is never whole in memory).
    ///
    /// ```
    /// use bpvm::batch::{Record, RecordKind, Report, Status};
    /// let report = Report::new(vec![Record::new("a", RecordKind::Windsor, Status::Ok)], None);
    /// let mut out = Vec::new();
    /// report.write_json(&mut out).unwrap();
    /// assert_eq!(out, report.to_json().as_bytes());
    /// ```
    pub fn write_json(&self, out: impl std::io::Write) -> std::io::Result<()> {
        self.write_json_with(out, &|_| None)
    }

    /// [`Report::write_json`], the manifest of each record that has none
    /// taken from `manifest` when it gives one: the manifest's JSON as is
    /// (a host whose worker processes sent each manifest as JSON writes
    /// it without parsing it first).
    ///
    /// ```
    /// use bpvm::batch::{Manifest, Record, RecordKind, Report, Status};
    /// let json = r#"{"key":"k","target":"a","bpvm":"1","options":{},"inputs":{}}"#;
    /// let manifest: Manifest = serde_json::from_str(json).unwrap();
    /// let raw = String::from_utf8(manifest.to_json()).unwrap();
    /// let raw = serde_json::value::RawValue::from_string(raw).unwrap();
    /// let mut with = Record::new("a", RecordKind::Windsor, Status::Ok);
    /// with.manifest = Some(manifest);
    /// let without = Record { manifest: None, ..with.clone() };
    /// let (mut one, mut two) = (Vec::new(), Vec::new());
    /// Report::new(vec![with], None).write_json(&mut one).unwrap();
    /// Report::new(vec![without], None).write_json_with(&mut two, &|_| Some(&*raw)).unwrap();
    /// assert_eq!(String::from_utf8(one).unwrap(), String::from_utf8(two).unwrap());
    /// ```
    pub fn write_json_with<'a>(
        &'a self,
        mut out: impl std::io::Write,
        manifest: &'a dyn Fn(&Record) -> Option<&'a serde_json::value::RawValue>,
    ) -> std::io::Result<()> {
        let json = ReportJson {
            report: self,
            given: manifest,
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        out.write_all(b"\n")
    }
}

#[cfg(test)]
mod tests {
    use super::super::{RecordKind, Status};
    use super::*;
    use crate::batch::{Manifest, Why};

    fn manifest() -> Manifest {
        let json = r#"{"key":"k","target":"a","bpvm":"1","options":{"format":"yaml"},"inputs":{"files":{"a \"q\".yaml":"aa"}}}"#;
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_report_reads_back_as_written_with_each_manifest_on_one_line() {
        let mut a = Record::new("a", RecordKind::Windsor, Status::Drift);
        a.diagnostics = vec!["--- x\n+++ y".into()];
        a.notes = vec!["a note".into()];
        a.cached = true;
        a.manifest = Some(manifest());
        a.affected_by = Some(Why::new("a.yaml", crate::batch::How::Read));
        let mut report = Report::new(vec![a, Record::new("b", RecordKind::Test, Status::Ok)], Some((1, 2)));
        report.unaffected = Some(3);
        let text = report.to_json();
        assert_eq!(Report::from_json(&text).unwrap(), report);
        let line = text.lines().find(|l| l.contains("\"manifest\"")).unwrap();
        assert!(line.ends_with("}}},"), "{line}");
        assert!(
            text.contains("\n      \"affected_by\": {\n        \"path\": \"a.yaml\","),
            "{text}"
        );
    }

    #[test]
    fn a_given_manifest_is_written_where_the_records_own_would_be() {
        let mut with = Record::new("a", RecordKind::Windsor, Status::Ok);
        with.manifest = Some(manifest());
        with.affected_by = Some(Why::new("a.yaml", crate::batch::How::Read));
        let without = Record {
            manifest: None,
            ..with.clone()
        };
        let raw = RawValue::from_string(String::from_utf8(manifest().to_json()).unwrap()).unwrap();
        let mut given = Vec::new();
        Report::new(vec![without.clone()], None)
            .write_json_with(&mut given, &|r| (r.id == "a").then_some(&*raw))
            .unwrap();
        assert_eq!(
            String::from_utf8(given).unwrap(),
            Report::new(vec![with], None).to_json()
        );
        let mut none = Vec::new();
        Report::new(vec![without.clone()], None)
            .write_json_with(&mut none, &|_| None)
            .unwrap();
        assert_eq!(
            String::from_utf8(none).unwrap(),
            Report::new(vec![without], None).to_json()
        );
    }
}
