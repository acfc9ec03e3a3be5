//! What `bpvm batch` and its worker processes say to each other over
//! pipes: a job (a template's targets) one way, progress and records the
//! other. A leaf of the command's folder.
//!
//! Each field is written as a little-endian length and its bytes, so
//! paths go as the system names them, UTF-8 or not.

mod frame;

use bpvm::batch::{Files, Format, Kind, Record, RecordKind, Status, Suite, Target};
use frame::{
    broken, field, number, option, path, put, put_list, put_number, put_option, put_path, strings, take, text,
    text_option,
};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// The work of one template: its targets (and test suite), less those
/// already done.
#[derive(Debug, Clone)]
pub struct Job {
    pub format: Format,
    /// Send each rendered text back (it is written or compared).
    pub texts: bool,
    pub fail_fast: bool,
    /// `--strict`: values the schema refuses fail a target.
    pub strict: bool,
    /// Record each target's manifest.
    pub track: bool,
    /// Send each manifest back (a JSON report or `--watch` needs them;
    /// a cache alone only tracks).
    pub manifests: bool,
    /// The render cache's folder.
    pub cache: Option<PathBuf>,
    /// The key this run hashes environment variables' values under when
    /// there is no cache: every worker of the run uses the same one.
    pub env_key: [u8; 32],
    pub shard: Option<(usize, usize)>,
    pub suite: Option<Suite>,
    /// Ids not to run: done, or the cause of an earlier crash.
    pub skip: Vec<String>,
    pub targets: Vec<Target>,
}

/// What a worker says while it does a job.
#[derive(Debug)]
pub enum Message {
    /// A target's render or a test case is starting.
    Started(String),
    /// A target's rendered text (before its record).
    Text(String, String),
    /// A target or test case is done: its record, with its manifest as
    /// JSON text ([`Record::manifest_json`]) when the job asks for
    /// manifests, which the parent writes into the report as it is. Sent
    /// as fields and read back into a manifest, the manifests of a batch
    /// of 120 targets cost the parent 5.8 M instructions, and writing
    /// them as JSON at the end 9 M more; parsed as JSON to be checked,
    /// 3.5 M (callgrind, 2026-11-28).
    Done(Box<Record>),
    /// The job is done.
    End,
}

fn put_target(out: &mut impl Write, t: &Target) -> io::Result<()> {
    put(out, t.id.as_bytes())?;
    put_path(out, &t.base)?;
    put_path(out, &t.template)?;
    match &t.kind {
        Kind::Windsor { context } => {
            put(out, b"w")?;
            put(out, context.as_bytes())
        }
        Kind::Bluelink { set, files } => {
            put(out, b"b")?;
            put_option(out, set.as_deref().map(str::as_bytes))?;
            for file in [&files.vars, &files.datasources, &files.resource_state] {
                put_option(out, file.as_deref().map(|p| p.as_os_str().as_bytes()))?;
            }
            Ok(())
        }
    }
}

fn target(input: &mut impl Read) -> io::Result<Target> {
    let id = text(input)?;
    let base = path(field(input)?);
    let template = path(field(input)?);
    let kind = match field(input)?.as_slice() {
        b"w" => Kind::Windsor { context: text(input)? },
        b"b" => {
            let set = option(input)?.map(String::from_utf8).transpose();
            let set = set.map_err(|_| broken("text that is not UTF-8"))?;
            let mut file = || option(input).map(|b| b.map(path));
            let files = Files {
                vars: file()?,
                datasources: file()?,
                resource_state: file()?,
            };
            Kind::Bluelink { set, files }
        }
        _ => return Err(broken("an unknown kind of target")),
    };
    Ok(Target {
        id,
        base,
        template,
        kind,
    })
}

impl Job {
    /// Writes the job to a worker.
    pub fn send(&self, out: &mut impl Write) -> io::Result<()> {
        put(out, if self.format == Format::Json { b"json" } else { b"yaml" })?;
        put(
            out,
            &[
                u8::from(self.texts),
                u8::from(self.fail_fast),
                u8::from(self.strict),
                u8::from(self.track),
                u8::from(self.manifests),
            ],
        )?;
        put_option(out, self.cache.as_ref().map(|c| c.as_os_str().as_bytes()))?;
        put(out, &self.env_key)?;
        let shard = self.shard.map(|(k, n)| format!("{k}/{n}"));
        put_option(out, shard.as_deref().map(str::as_bytes))?;
        put_option(out, self.suite.as_ref().map(|s| s.id.as_bytes()))?;
        put_option(out, self.suite.as_ref().map(|s| s.project.as_os_str().as_bytes()))?;
        put_list(out, self.skip.iter().map(String::as_bytes))?;
        put_number(out, self.targets.len() as u64)?;
        for t in &self.targets {
            put_target(out, t)?;
        }
        out.flush()
    }

    /// Reads the next job; `Ok(None)` when the parent has no more.
    pub fn receive(input: &mut impl Read) -> io::Result<Option<Job>> {
        let Some(format) = take(input)? else {
            return Ok(None);
        };
        let flags = field(input)?;
        let cache = option(input)?.map(path);
        let env_key = field(input)?
            .try_into()
            .map_err(|_| broken("a key that is not 32 bytes"))?;
        let shard = option(input)?
            .map(|s| bpvm::batch::parse_shard(&String::from_utf8_lossy(&s)))
            .transpose()
            .map_err(|e| broken(&e))?;
        let suite_id = text_option(input)?;
        let project = option(input)?.map(path);
        let skip = strings(input)?;
        let n = number(input)?;
        let targets = (0..n).map(|_| target(input)).collect::<io::Result<_>>()?;
        Ok(Some(Job {
            format: if format == b"json" { Format::Json } else { Format::Yaml },
            texts: flags.first() == Some(&1),
            fail_fast: flags.get(1) == Some(&1),
            strict: flags.get(2) == Some(&1),
            track: flags.get(3) == Some(&1),
            manifests: flags.get(4) == Some(&1),
            cache,
            env_key,
            shard,
            suite: suite_id.zip(project).map(|(id, project)| Suite { id, project }),
            skip,
            targets,
        }))
    }
}

fn kind_code(kind: RecordKind) -> &'static [u8] {
    match kind {
        RecordKind::Windsor => b"w",
        RecordKind::Bluelink => b"b",
        RecordKind::Test => b"t",
    }
}

fn status_code(status: Status) -> &'static [u8] {
    match status {
        Status::Ok => b"ok",
        Status::Drift => b"drift",
        Status::Failed => b"failed",
    }
}

impl Message {
    /// Writes the message to the parent.
    pub fn send(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Message::Started(id) => {
                put(out, b"started")?;
                put(out, id.as_bytes())
            }
            Message::Text(id, text) => {
                put(out, b"text")?;
                put(out, id.as_bytes())?;
                put(out, text.as_bytes())
            }
            Message::Done(record) => put_done(out, record, true),
            Message::End => put(out, b"end"),
        }
    }

    /// Reads the next message; `Ok(None)` when the worker is gone.
    pub fn receive(input: &mut impl Read) -> io::Result<Option<Message>> {
        let Some(tag) = take(input)? else {
            return Ok(None);
        };
        let message = match tag.as_slice() {
            b"started" => Message::Started(text(input)?),
            b"text" => Message::Text(text(input)?, text(input)?),
            b"done" => Message::Done(Box::new(done(input)?)),
            b"end" => Message::End,
            _ => return Err(broken("an unknown message")),
        };
        Ok(Some(message))
    }
}

/// Writes the message that `r` is done, with its manifest as JSON when
/// `manifest` (a worker whose parent needs none sends the record
/// without).
pub fn put_done(out: &mut impl Write, r: &Record, manifest: bool) -> io::Result<()> {
    put_record(out, r)?;
    let made;
    let json = match (&r.manifest_json, &r.manifest) {
        _ if !manifest => None,
        (Some(json), _) => Some(json.as_bytes()),
        (None, Some(m)) => {
            made = m.to_json();
            Some(made.as_slice())
        }
        (None, None) => None,
    };
    put_option(out, json)
}

/// Writes the message `done` but its manifest.
fn put_record(out: &mut impl Write, r: &Record) -> io::Result<()> {
    put(out, b"done")?;
    put(out, r.id.as_bytes())?;
    put(out, kind_code(r.kind))?;
    put(out, status_code(r.status))?;
    put_number(out, r.seconds.to_bits())?;
    put_list(out, r.diagnostics.iter().map(String::as_bytes))?;
    put_list(out, r.notes.iter().map(String::as_bytes))?;
    put(out, &[u8::from(r.cached)])
}

fn done(input: &mut impl Read) -> io::Result<Record> {
    let id = text(input)?;
    let kind = match field(input)?.as_slice() {
        b"w" => RecordKind::Windsor,
        b"b" => RecordKind::Bluelink,
        _ => RecordKind::Test,
    };
    let status = match field(input)?.as_slice() {
        b"ok" => Status::Ok,
        b"drift" => Status::Drift,
        _ => Status::Failed,
    };
    let mut record = Record {
        seconds: f64::from_bits(number(input)?),
        diagnostics: strings(input)?,
        notes: strings(input)?,
        cached: field(input)? == [1],
        // `affected_by` is set by the parent, which chose the targets.
        ..Record::new(id, kind, status)
    };
    record.manifest_json = match text_option(input)? {
        // Not parsed: the worker wrote it with `Manifest::to_json`, and
        // the frame's length tells a message cut short. Its shape is
        // checked (a pass over it was a tenth of the parent's work).
        Some(json) if !(json.starts_with("{\"") && json.ends_with('}')) => {
            return Err(broken("a manifest that is not a JSON object"));
        }
        json => json,
    };
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_and_its_messages_go_through_a_pipe_unchanged() {
        let files = Files {
            vars: Some(PathBuf::from(std::ffi::OsStr::from_bytes(b"r/a.\xff.vars.yaml"))),
            ..Files::default()
        };
        let job = Job {
            format: Format::Json,
            texts: true,
            fail_fast: false,
            strict: true,
            track: true,
            manifests: true,
            cache: Some("c".into()),
            env_key: [9; 32],
            shard: Some((2, 3)),
            suite: Some(Suite {
                id: "p".into(),
                project: "r/p".into(),
            }),
            skip: vec!["p/dev".into()],
            targets: vec![
                Target::windsor("r", "p", "dev"),
                Target::bluelink("r", "a.yaml", Some("x"), files),
            ],
        };
        let mut bytes = Vec::new();
        job.send(&mut bytes).unwrap();
        let back = Job::receive(&mut bytes.as_slice()).unwrap().unwrap();
        assert_eq!(back.targets, job.targets);
        assert_eq!(
            (back.format, back.texts, back.strict, back.shard),
            (Format::Json, true, true, Some((2, 3)))
        );
        assert_eq!((back.suite, back.skip), (job.suite, job.skip));
        assert_eq!((back.track, back.manifests, back.cache), (true, true, Some("c".into())));
        assert_eq!(back.env_key, [9; 32]);

        let mut bytes = Vec::new();
        let record = Record {
            seconds: 0.25,
            diagnostics: vec!["error: x".into()],
            cached: true,
            manifest_json: Some(r#"{"key":"k","inputs":{"files":{"p/ü.yaml":"aa"}}}"#.into()),
            ..Record::new("p/dev", RecordKind::Windsor, Status::Failed)
        };
        Message::Started("p/dev".into()).send(&mut bytes).unwrap();
        Message::Done(Box::new(record.clone())).send(&mut bytes).unwrap();
        let mut input = bytes.as_slice();
        assert!(matches!(Message::receive(&mut input).unwrap(), Some(Message::Started(id)) if id == "p/dev"));
        let Some(Message::Done(back)) = Message::receive(&mut input).unwrap() else {
            panic!("not a record")
        };
        assert_eq!(*back, record);
        assert!(Message::receive(&mut input).unwrap().is_none());
    }

    #[test]
    fn a_record_cut_short_or_with_a_manifest_that_is_not_a_json_object_is_an_error() {
        let mut record = Record::new("p/dev", RecordKind::Windsor, Status::Ok);
        record.manifest =
            serde_json::from_str(r#"{"key":"k","target":"p/dev","bpvm":"1","options":{},"inputs":{}}"#).ok();
        let mut bytes = Vec::new();
        put_done(&mut bytes, &record, true).unwrap();
        let Some(Message::Done(whole)) = Message::receive(&mut bytes.as_slice()).unwrap() else {
            panic!("not a record")
        };
        assert_eq!(
            whole.manifest_json.unwrap().as_bytes(),
            record.manifest.as_ref().unwrap().to_json()
        );
        for len in [9, bytes.len() / 2, bytes.len() - 1] {
            let e = Message::receive(&mut &bytes[..len]).unwrap_err();
            assert!(e.to_string().starts_with("batch worker pipe: "), "{len}: {e}");
        }
        for text in [&b"{\"key\":"[..], b"[]", b"{}x"] {
            let mut bad = Vec::new();
            put_record(&mut bad, &record).unwrap();
            put_option(&mut bad, Some(text)).unwrap();
            let e = Message::receive(&mut bad.as_slice()).unwrap_err();
            assert_eq!(e.to_string(), "batch worker pipe: a manifest that is not a JSON object");
        }
    }
}
