//! The `.bp` language cases (`tests/blueprints/lang/*.yaml`): a `.bp`
//! source (`bp`) read into its document tree, which must be the tree its
//! `yaml` (the same blueprint as a YAML author writes it) reads into —
//! the same values, of the same types, entries in the same order — or
//! fail with the `error` (text the `line:col: message` contains). `at`
//! and `key_at` give where nodes and keys of the tree must be (path →
//! `line:col`; a path is keys and list indexes joined by `/`).
//!
//! A case without `bp` is a blueprint rendered as in the other case files
//! (a `.bp` blueprint, or one including one, with `files` and
//! `blueprint`).

use bpvm_bluelink::node::{Node, read};
use bpvm_bluelink::{Pos, lang};
use bpvm_harness::{Case, Failure, Fix};
use bpvm_runtime::Value;
use bpvm_runtime::text::to_yaml;

const FIELDS: &[&str] = &[
    "name",
    "from",
    "note",
    "bp",
    "yaml",
    "error",
    "at",
    "key_at",
    "formatted",
    "converted",
];

/// Runs a case with a `bp` source.
pub fn parse_case(case: &Case) -> Result<(), Failure> {
    if let Some((k, _)) = case.fields.iter().find(|(k, _)| !FIELDS.contains(&k.as_str())) {
        return Err(Failure::problem(format!("unknown case field {:?}", k.as_str())));
    }
    let bp = case.text("bp").ok_or(Failure::problem("bp is the .bp source"))?;
    let got = lang::read(bp);
    let mut failure = Failure::default();
    match (got, case.text("yaml"), case.text("error")) {
        (Ok(doc), Some(yaml), None) => {
            let want = read(yaml).map_err(|e| Failure::problem(format!("yaml: {}", e.message)))?;
            let (got_json, want_json) = (doc.to_value().to_json(), want.to_value().to_json());
            if got_json != want_json {
                let fix = Fix::Field("yaml".into(), Value::from(to_yaml(&doc.to_value()).as_str()));
                failure.differs("the document", want_json, got_json, Some(fix));
            }
            places(case, &doc, &mut failure);
            formatted(bp, &doc, &mut failure);
            printed(case, bp, &mut failure);
        }
        (Err(e), None, Some(want)) => {
            let line = format!("{}:{}: {}", e.at.line, e.at.col, e.message);
            if !line.contains(want) {
                failure.differs(
                    "error",
                    want.into(),
                    line.clone(),
                    Some(Fix::Field("error".into(), Value::from(line.as_str()))),
                );
            }
        }
        (Ok(doc), None, Some(want)) => {
            failure.differs(
                "error",
                want.into(),
                format!("read:\n{}", to_yaml(&doc.to_value())),
                None,
            );
        }
        (Err(e), Some(_), None) => {
            let line = format!("{}:{}: {}", e.at.line, e.at.col, e.message);
            failure.differs("the document", "a document".into(), format!("failed: {line}"), None);
        }
        _ => failure
            .problems
            .push("a bp case has exactly one of yaml and error".into()),
    }
    failure.result()
}

/// `fmt` of a source that reads keeps its tree (values, types, order)
/// and changes nothing the second time; the tree printed as `.bp`, and
/// its YAML, read into the same tree.
fn formatted(bp: &str, doc: &Node, failure: &mut Failure) {
    let want = doc.to_value().to_json();
    match lang::print::format(bp) {
        Ok(once) => {
            let again = lang::print::format(&once).unwrap_or_else(|e| e.message);
            if again != once {
                failure.differs("fmt of fmt", once.clone(), again, None);
            }
            let read_back = lang::read(&once).map(|d| d.to_value().to_json());
            if read_back.as_ref() != Ok(&want) {
                failure.differs(
                    "the tree after fmt",
                    want.clone(),
                    format!("{read_back:?}\n{once}"),
                    None,
                );
            }
        }
        Err(e) => failure.differs("fmt", "the source formatted".into(), e.message, None),
    }
    // Bluelink's emit corpus test: the tree printed as .bp reads back
    // as the same tree.
    match lang::print::to_bp(doc).map(|printed| (lang::read(&printed).map(|d| d.to_value().to_json()), printed)) {
        Ok((Ok(j), _)) if j == want => {}
        Ok((got, printed)) => failure.differs(
            "the tree printed as .bp",
            want.clone(),
            format!("{got:?}\n{printed}"),
            None,
        ),
        Err(e) => failure.differs(
            "the tree printed as .bp",
            want.clone(),
            format!("refused: {}", e.message),
            None,
        ),
    }
    let yaml = lang::print::to_yaml(bp).map_err(|e| e.message);
    let read_back = yaml
        .as_ref()
        .map(|y| read(y).map(|d| d.to_value().to_json()).map_err(|e| e.message));
    if !matches!(&read_back, Ok(Ok(j)) if *j == want) {
        failure.differs("the tree of the YAML", want, format!("{read_back:?}\n{yaml:?}"), None);
    }
}

/// The case's `formatted` (what `fmt` makes of `bp`) and `converted`
/// (the YAML `convert --to yaml` writes, comments and all), when given.
fn printed(case: &Case, bp: &str, failure: &mut Failure) {
    let outputs = [
        ("formatted", lang::print::format(bp)),
        ("converted", lang::print::to_yaml(bp)),
    ];
    for (field, got) in outputs {
        let Some(want) = case.text(field) else {
            continue;
        };
        let got = got.unwrap_or_else(|e| e.message);
        if got != want {
            let fix = Fix::Field(field.into(), Value::from(got.as_str()));
            failure.differs(field, want.into(), got, Some(fix));
        }
    }
}

/// Checks the case's `at` and `key_at` against the tree `doc`.
fn places(case: &Case, doc: &Node, failure: &mut Failure) {
    for (field, key) in [("at", false), ("key_at", true)] {
        let Some(wanted) = case.get(field).and_then(Value::as_map) else {
            continue;
        };
        for (path, want) in wanted.iter() {
            let got = match place(doc, path.as_str(), key) {
                Some(p) => format!("{}:{}", p.line, p.col),
                None => "nothing there".into(),
            };
            let want = want.as_str().unwrap_or("");
            if got != want {
                failure.differs(&format!("{field} {}", path.as_str()), want.into(), got, None);
            }
        }
    }
}

/// Where the node at `path` starts (or, when `key`, its key).
fn place(doc: &Node, path: &str, key: bool) -> Option<Pos> {
    let mut node = doc;
    let mut key_at = doc.at;
    for seg in path.split('/') {
        match &node.kind {
            bpvm_bluelink::node::Kind::List(items) => node = items.get(seg.parse::<usize>().ok()?)?,
            _ => {
                let e = node.entries()?.iter().find(|e| e.key.as_str() == seg)?;
                key_at = e.key_at;
                node = &e.value;
            }
        }
    }
    Some(if key { key_at } else { node.at })
}
