//! `bpvm check`'s report as a SARIF 2.1.0 log, the format code scanning
//! services read (GitHub shows each result as an alert on its line).

use super::report::{Report, Tally};
use bpvm_checker::{Finding, Rule, Severity};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt::Write;

/// The schema a SARIF 2.1.0 log names.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    /// Columns count characters (Unicode code points), as findings do.
    column_kind: &'static str,
    results: Vec<Outcome<'a>>,
    properties: Properties,
}

/// The run's own properties: how many findings of each rule.
#[derive(Serialize)]
struct Properties {
    summary: Vec<Tally>,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<&'static str>,
    rules: Vec<Descriptor<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor<'a> {
    id: &'a str,
    name: String,
    short_description: Text,
    full_description: Text,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

/// A SARIF `result`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Outcome<'a> {
    rule_id: &'a str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location<'a>; 1],
    partial_fingerprints: Fingerprints,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
}

/// Why a result is not an alert: a comment in the file says why.
#[derive(Serialize)]
struct Suppression {
    kind: &'static str,
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<usize>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation<'a> {
    fully_qualified_name: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Fingerprints {
    primary_location_line_hash: String,
}

/// The report as a SARIF 2.1.0 log with one run of the `bpvm` tool, for
/// code scanning (GitHub's `upload-sarif` shows each result inline).
///
/// The driver lists `rules`, each with its id, its id in UpperCamelCase
/// as `name`, its summary and its default level, followed by the rule of
/// any finding that `rules` leaves out. Each result has its rule's id and
/// index, a level, the message (with `; did you mean X?` when there is a
/// suggestion, and after the YAML path when the line is unknown), the file
/// relative to `%SRCROOT%` (`/`-separated; an absolute path becomes a
/// `file://` URI, which code scanning cannot place, so run the check on
/// relative paths from the repository's root), the line and columns when
/// known, the YAML path as a logical location, and a
/// `primaryLocationLineHash`: the SHA-256 (hex) of the rule, file, YAML path
/// and message, then `:N` for the Nth finding with the same four, so an
/// alert keeps its identity when lines move. A finding a `bpvm:ignore`
/// comment suppressed is a result too, with an `inSource` suppression
/// whose justification is the comment's reason. The run's `properties`
/// hold a `summary`: per rule, how many errors, warnings, notes and
/// suppressed findings. Ends with a newline.
///
/// ```
/// use bpvm::check::{Checked, Finding, Report, sarif};
/// use bpvm::checker::rules::{SHARED, UNKNOWN_PATH};
///
/// let finding = Finding::new(&UNKNOWN_PATH, "facets/aws.yaml", "when", "cluster.wokers: no such property")
///     .at(3, 7)
///     .suggest("cluster.workers");
/// let report = Report {
///     templates: vec![Checked { language: "windsor", folder: "infra".into(), findings: vec![finding], suppressed: vec![] }],
/// };
/// let log: serde_json::Value = serde_json::from_str(&sarif(&report, SHARED)).unwrap();
/// assert_eq!(log["version"], "2.1.0");
/// let result = &log["runs"][0]["results"][0];
/// assert_eq!(result["ruleId"], "unknown-path");
/// assert_eq!(log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"].as_u64().unwrap() as usize]["name"], "UnknownPath");
/// assert_eq!(result["message"]["text"], "cluster.wokers: no such property; did you mean cluster.workers?");
/// assert_eq!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "infra/facets/aws.yaml");
/// assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 3);
/// ```
pub fn sarif(report: &Report, rules: &[&Rule]) -> String {
    let mut listed: Vec<&Rule> = rules.to_vec();
    let quiet = report
        .suppressed()
        .map(|(file, s)| (file, &s.finding, Some(s.reason.as_str())));
    let all: Vec<(String, &Finding, Option<&str>)> = report
        .findings()
        .map(|(file, f)| (file, f, None))
        .chain(quiet)
        .collect();
    for (_, f, _) in &all {
        if !listed.iter().any(|r| r.id == f.rule.id) {
            listed.push(f.rule);
        }
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let results = all
        .into_iter()
        .map(|(file, f, reason)| {
            let uri = Uri::of(&file);
            let hash = fingerprint(f, &uri.uri);
            let n = seen.entry(hash.clone()).or_default();
            *n += 1;
            let mut o = outcome(f, &listed, uri, format!("{hash}:{n}"));
            if let Some(reason) = reason {
                o.suppressions.push(Suppression {
                    kind: "inSource",
                    justification: reason.to_string(),
                });
            }
            o
        })
        .collect();
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "bpvm",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: Some(env!("CARGO_PKG_REPOSITORY")).filter(|uri| !uri.is_empty()),
                    rules: listed.iter().map(|r| descriptor(r)).collect(),
                },
            },
            column_kind: "unicodeCodePoints",
            results,
            properties: Properties {
                summary: report.by_rule(),
            },
        }],
    };
    let mut out = serde_json::to_string_pretty(&log).expect("a SARIF log serializes to JSON");
    out.push('\n');
    out
}

fn descriptor(rule: &Rule) -> Descriptor<'_> {
    let consequence = match rule.severity {
        Severity::Note => "Its findings are notes: `bpvm check` never fails on them.",
        Severity::Error => "Its findings are errors: `bpvm check` fails on them.",
        Severity::Warning => "Its findings are warnings: `bpvm check` fails on them only with --deny-warnings.",
    };
    Descriptor {
        id: rule.id,
        name: upper_camel_case(rule.id),
        short_description: Text {
            text: rule.summary.to_string(),
        },
        full_description: Text {
            text: format!("{} {consequence}", rule.summary),
        },
        default_configuration: Configuration {
            level: rule.severity.name(),
        },
    }
}

fn outcome<'a>(f: &'a Finding, rules: &[&Rule], uri: Uri, fingerprint: String) -> Outcome<'a> {
    let text = f.text();
    let region = (f.line > 0).then(|| Region {
        start_line: f.line,
        start_column: (f.column > 0).then_some(f.column),
        end_column: (f.column > 0).then(|| f.column + f.width.max(1)),
    });
    let logical_locations = if f.path.is_empty() {
        Vec::new()
    } else {
        vec![LogicalLocation {
            fully_qualified_name: &f.path,
        }]
    };
    Outcome {
        rule_id: f.rule.id,
        rule_index: rules
            .iter()
            .position(|r| r.id == f.rule.id)
            .expect("every finding's rule is listed"),
        level: f.severity().name(),
        message: Text { text },
        locations: [Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation {
                    uri: uri.uri,
                    uri_base_id: uri.relative.then_some("%SRCROOT%"),
                },
                region,
            },
            logical_locations,
        }],
        partial_fingerprints: Fingerprints {
            primary_location_line_hash: fingerprint,
        },
        suppressions: Vec::new(),
    }
}

/// A file's path as a URI reference.
struct Uri {
    uri: String,
    /// Whether it is relative (to `%SRCROOT%`).
    relative: bool,
}

impl Uri {
    /// `path` with `/` between its parts, without a leading `./`, and
    /// percent-encoded; an absolute path as a `file://` URI.
    fn of(path: &str) -> Uri {
        let path = if cfg!(windows) {
            path.replace('\\', "/")
        } else {
            path.to_string()
        };
        let mut rest = path.as_str();
        while let Some(r) = rest.strip_prefix("./") {
            rest = r.trim_start_matches('/');
        }
        if std::path::Path::new(&path).is_absolute() {
            let rooted = if rest.starts_with('/') { "" } else { "/" };
            Uri {
                uri: format!("file://{rooted}{}", encode(rest, true)),
                relative: false,
            }
        } else {
            Uri {
                uri: encode(rest, false),
                relative: true,
            }
        }
    }
}

/// `path` with every byte but letters, digits, `-._~` and `/` as `%XX`
/// (and `:` kept too in a `file://` URI's path, for a Windows drive).
fn encode(path: &str, absolute: bool) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) || (absolute && b == b':') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The SHA-256, in hex, of what identifies a finding whatever its line.
fn fingerprint(f: &Finding, uri: &str) -> String {
    let mut hasher = Sha256::new();
    for part in [f.rule.id, uri, &f.path, &f.message] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    let mut hex = String::with_capacity(64);
    for byte in hasher.finalize() {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// `unknown-path` → `UnknownPath`.
fn upper_camel_case(id: &str) -> String {
    id.split(['-', '_'])
        .flat_map(|word| {
            let mut chars = word.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars))
        })
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Checked;
    use bpvm_checker::rules::{INVALID_TEMPLATE, SHARED, TYPE_MISMATCH, UNKNOWN_PATH};
    use serde_json::{Value, json};

    static EXTRA: Rule = Rule {
        id: "missing_facet",
        severity: Severity::Warning,
        summary: "A facet nothing includes.",
    };

    fn log(findings: Vec<Finding>, folder: &str) -> Value {
        let report = Report {
            templates: vec![Checked {
                language: "windsor",
                folder: folder.into(),
                findings,
                ..Checked::default()
            }],
        };
        serde_json::from_str(&sarif(&report, SHARED)).unwrap()
    }

    #[test]
    fn a_finding_is_a_result_on_its_line() {
        let mut f = Finding::new(
            &TYPE_MISMATCH,
            "facets/aws.yaml",
            "terraform[0].when",
            "'1' + 2: a text and a number",
        )
        .at(12, 9)
        .suggest("1 + 2");
        f.width = 7;
        let log = log(vec![f], "./infra");
        let result = &log["runs"][0]["results"][0];
        let hash = result["partialFingerprints"]["primaryLocationLineHash"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            *result,
            json!({
                "ruleId": "type-mismatch",
                "ruleIndex": 2,
                "level": "error",
                "message": {"text": "'1' + 2: a text and a number; did you mean 1 + 2?"},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": "infra/facets/aws.yaml", "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 12, "startColumn": 9, "endColumn": 16}
                    },
                    "logicalLocations": [{"fullyQualifiedName": "terraform[0].when"}]
                }],
                "partialFingerprints": {"primaryLocationLineHash": hash}
            })
        );
        assert!(hash.ends_with(":1") && hash.len() == 66, "{hash}");
        let rules = &log["runs"][0]["tool"]["driver"]["rules"];
        assert_eq!(rules.as_array().unwrap().len(), SHARED.len());
        assert_eq!(
            rules[2],
            json!({
                "id": "type-mismatch",
                "name": "TypeMismatch",
                "shortDescription": {"text": TYPE_MISMATCH.summary},
                "fullDescription": {"text": format!("{} Its findings are errors: `bpvm check` fails on them.", TYPE_MISMATCH.summary)},
                "defaultConfiguration": {"level": "error"}
            })
        );
        assert_eq!(rules[1]["defaultConfiguration"]["level"], "warning");
    }

    #[test]
    fn without_a_line_a_result_has_no_region() {
        let f = Finding::new(&INVALID_TEMPLATE, "blueprint.yaml", "resources", "not a mapping");
        let log = log(vec![f], "");
        let location = &log["runs"][0]["results"][0]["locations"][0];
        assert_eq!(
            location["physicalLocation"],
            json!({"artifactLocation": {"uri": "blueprint.yaml", "uriBaseId": "%SRCROOT%"}})
        );
        assert_eq!(
            log["runs"][0]["results"][0]["message"]["text"],
            "resources: not a mapping"
        );
        let whole = Finding::new(&INVALID_TEMPLATE, "blueprint.yaml", "", "not YAML").at(2, 0);
        let log = super::tests::log(vec![whole], "");
        let location = &log["runs"][0]["results"][0]["locations"][0];
        assert_eq!(location.get("logicalLocations"), None);
        assert_eq!(location["physicalLocation"]["region"], json!({"startLine": 2}));
        assert_eq!(log["runs"][0]["results"][0]["message"]["text"], "not YAML");
    }

    #[test]
    fn fingerprints_ignore_lines_and_count_repeats() {
        let f = || Finding::new(&UNKNOWN_PATH, "a.yaml", "when", "x: no such property");
        let hash = |log: &Value, i: usize| {
            log["runs"][0]["results"][i]["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap()
                .to_string()
        };
        let before = log(vec![f().at(3, 7), f().at(9, 1)], "");
        let after = log(vec![f().at(5, 2), f().at(20, 4)], "");
        assert_eq!((hash(&before, 0), hash(&before, 1)), (hash(&after, 0), hash(&after, 1)));
        assert_eq!(
            hash(&before, 0).split_once(':').unwrap().0,
            hash(&before, 1).split_once(':').unwrap().0
        );
        assert!(hash(&before, 1).ends_with(":2"));
        let other = log(
            vec![Finding::new(&UNKNOWN_PATH, "a.yaml", "when", "y: no such property")],
            "",
        );
        assert_ne!(hash(&other, 0)[..64], hash(&before, 0)[..64]);
        let moved = log(vec![f()], "b");
        assert_ne!(hash(&moved, 0)[..64], hash(&before, 0)[..64]);
    }

    #[test]
    fn a_rule_left_out_is_listed_after_those_given() {
        let f = Finding::new(&EXTRA, "a b/ü.yaml", "", "unused");
        let report = Report {
            templates: vec![Checked {
                language: "windsor",
                folder: "".into(),
                findings: vec![f],
                ..Checked::default()
            }],
        };
        let log: Value = serde_json::from_str(&sarif(&report, &[&UNKNOWN_PATH])).unwrap();
        let rules = &log["runs"][0]["tool"]["driver"]["rules"];
        assert_eq!(
            (rules[0]["id"].as_str(), rules[1]["name"].as_str()),
            (Some("unknown-path"), Some("MissingFacet"))
        );
        let result = &log["runs"][0]["results"][0];
        assert_eq!(result["ruleIndex"], 1);
        assert_eq!(
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "a%20b/%C3%BC.yaml"
        );
    }

    #[test]
    fn an_empty_report_is_a_run_without_results() {
        let log: Value = serde_json::from_str(&sarif(&Report::default(), SHARED)).unwrap();
        assert_eq!(log["$schema"], SCHEMA);
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["runs"][0]["results"], json!([]));
        assert_eq!(log["runs"][0]["tool"]["driver"]["name"], "bpvm");
        assert_eq!(log["runs"][0]["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn paths_become_uri_references() {
        let uri = |p: &str| {
            let u = Uri::of(p);
            (u.uri, u.relative)
        };
        assert_eq!(uri("./infra/a.yaml"), ("infra/a.yaml".into(), true));
        assert_eq!(uri("../x/a:b.yaml"), ("../x/a%3Ab.yaml".into(), true));
        assert_eq!(uri("/srv/a b.yaml"), ("file:///srv/a%20b.yaml".into(), false));
        assert_eq!(upper_camel_case("not-in-enum"), "NotInEnum");
    }
}
