//! A report as JSON, written by hand: indented as `serde_json` indents,
//! but each record's manifest on one line of its own (machine data:
//! hashes and paths). Indented like the rest, the manifests of a
//! 1,200-target report took 1.5 of its 7.6 MB in indentation, and
//! writing it was 16 ms of the run's end (2026-11-28).
//!
//! A record's manifest is written from the struct, or from its JSON text
//! ([`Record::manifest_json`], which a worker process wrote) as it is:
//! copied, never parsed. Checked as JSON on its way into the report
//! (serde's only way to write a text as it is), the manifests of a
//! 1,200-target batch cost the parent about 35 M instructions
//! (callgrind, 2026-11-28).

use super::{Record, Report};
use serde::Serialize;
use std::io::{self, Write};

impl Report {
    /// The report as indented JSON (each manifest on one line), ending in
    /// a newline.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        // Writing to memory cannot fail.
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
    pub fn write_json(&self, out: impl Write) -> io::Result<()> {
        let mut w = Indented {
            out,
            scratch: Vec::new(),
        };
        let mut report = w.open(0)?;
        w.field(&mut report, "bpvm", &self.bpvm)?;
        if let Some(shard) = &self.shard {
            w.field(&mut report, "shard", shard)?;
        }
        w.key(&mut report, "records")?;
        w.records(&self.records)?;
        if let Some(n) = self.unaffected {
            w.field(&mut report, "unaffected", &n)?;
        }
        w.close(report)?;
        w.out.write_all(b"\n")
    }
}

/// A writer of indented JSON (two spaces a level, as serde's pretty form).
struct Indented<W> {
    out: W,
    /// A value written before it is indented (reused).
    scratch: Vec<u8>,
}

/// An object or array being written: its depth, and whether it has an
/// entry yet.
struct Open {
    depth: usize,
    empty: bool,
}

impl<W: Write> Indented<W> {
    fn records(&mut self, records: &[Record]) -> io::Result<()> {
        let depth = 1;
        if records.is_empty() {
            return self.out.write_all(b"[]");
        }
        self.out.write_all(b"[")?;
        for (i, record) in records.iter().enumerate() {
            self.out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
            self.indent(depth + 1)?;
            self.record(record, depth + 1)?;
        }
        self.out.write_all(b"\n")?;
        self.indent(depth)?;
        self.out.write_all(b"]")
    }

    fn record(&mut self, r: &Record, depth: usize) -> io::Result<()> {
        let mut o = self.open(depth)?;
        self.field(&mut o, "id", &r.id)?;
        self.field(&mut o, "kind", &r.kind)?;
        self.field(&mut o, "status", &r.status)?;
        self.field(&mut o, "seconds", &r.seconds)?;
        if !r.diagnostics.is_empty() {
            self.field(&mut o, "diagnostics", &r.diagnostics)?;
        }
        if !r.notes.is_empty() {
            self.field(&mut o, "notes", &r.notes)?;
        }
        if r.cached {
            self.field(&mut o, "cached", &true)?;
        }
        match (&r.manifest, &r.manifest_json) {
            (Some(m), _) => {
                self.key(&mut o, "manifest")?;
                self.out.write_all(&m.to_json())?;
            }
            (None, Some(text)) => {
                self.key(&mut o, "manifest")?;
                self.out.write_all(text.as_bytes())?;
            }
            (None, None) => {}
        }
        if let Some(why) = &r.affected_by {
            self.field(&mut o, "affected_by", why)?;
        }
        self.close(o)
    }

    fn open(&mut self, depth: usize) -> io::Result<Open> {
        self.out.write_all(b"{")?;
        Ok(Open { depth, empty: true })
    }

    /// Starts the entry `name` of `o`, up to its value.
    fn key(&mut self, o: &mut Open, name: &str) -> io::Result<()> {
        self.out.write_all(if o.empty { b"\n" } else { b",\n" })?;
        o.empty = false;
        self.indent(o.depth + 1)?;
        serde_json::to_writer(&mut self.out, name)?;
        self.out.write_all(b": ")
    }

    /// The entry `name` of `o`: `value` indented as serde indents it
    /// there (its lines after the first moved in to `o`'s entries' depth;
    /// a text's line breaks are escaped, so each break is the layout's).
    fn field(&mut self, o: &mut Open, name: &str, value: &impl Serialize) -> io::Result<()> {
        self.key(o, name)?;
        self.scratch.clear();
        serde_json::to_writer_pretty(&mut self.scratch, value)?;
        let scratch = std::mem::take(&mut self.scratch);
        for (i, line) in scratch.split(|&b| b == b'\n').enumerate() {
            if i > 0 {
                self.out.write_all(b"\n")?;
                self.indent(o.depth + 1)?;
            }
            self.out.write_all(line)?;
        }
        self.scratch = scratch;
        Ok(())
    }

    fn close(&mut self, o: Open) -> io::Result<()> {
        if !o.empty {
            self.out.write_all(b"\n")?;
            self.indent(o.depth)?;
        }
        self.out.write_all(b"}")
    }

    fn indent(&mut self, depth: usize) -> io::Result<()> {
        const SPACES: &[u8] = &[b' '; 64];
        let mut n = 2 * depth;
        while n > 0 {
            let k = n.min(SPACES.len());
            self.out.write_all(&SPACES[..k])?;
            n -= k;
        }
        Ok(())
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

    fn full() -> Report {
        let mut a = Record::new("a", RecordKind::Windsor, Status::Drift);
        a.seconds = 0.002057316;
        a.diagnostics = vec!["--- x\n+++ y".into(), "two\tlines\r\n\"q\"".into()];
        a.notes = vec!["a note".into()];
        a.cached = true;
        a.manifest = Some(manifest());
        a.affected_by = Some(Why::new("a.yaml", crate::batch::How::Read));
        let mut report = Report::new(vec![a, Record::new("b", RecordKind::Test, Status::Ok)], Some((1, 2)));
        report.unaffected = Some(3);
        report
    }

    #[test]
    fn a_report_reads_back_as_written_with_each_manifest_on_one_line() {
        let report = full();
        let text = report.to_json();
        assert_eq!(Report::from_json(&text).unwrap(), report);
        let line = text.lines().find(|l| l.contains("\"manifest\"")).unwrap();
        assert_eq!(
            line,
            format!(
                "      \"manifest\": {},",
                String::from_utf8(manifest().to_json()).unwrap()
            )
        );
        assert!(
            text.contains("\n      \"affected_by\": {\n        \"path\": \"a.yaml\","),
            "{text}"
        );
    }

    #[test]
    fn a_report_is_laid_out_as_serde_lays_it_out_but_for_the_manifests() {
        let mut report = full();
        for r in &mut report.records {
            r.manifest = None;
        }
        let empty = Report::new(Vec::new(), None);
        for r in [report, empty] {
            assert_eq!(r.to_json(), serde_json::to_string_pretty(&r).unwrap() + "\n");
        }
    }

    #[test]
    fn a_manifest_as_text_is_written_where_the_struct_would_be() {
        let mut with = Record::new("a", RecordKind::Windsor, Status::Ok);
        with.manifest = Some(manifest());
        with.affected_by = Some(Why::new("a.yaml", crate::batch::How::Read));
        let text = Record {
            manifest: None,
            manifest_json: Some(String::from_utf8(manifest().to_json()).unwrap()),
            ..with.clone()
        };
        let none = Record {
            manifest: None,
            ..with.clone()
        };
        assert_eq!(
            Report::new(vec![text], None).to_json(),
            Report::new(vec![with], None).to_json()
        );
        assert!(!Report::new(vec![none], None).to_json().contains("manifest"));
    }
}
