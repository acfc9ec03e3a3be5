//! The fast YAML event scanner against the parser it stands in for: on
//! every YAML file of the repository and of `../shared`, on inputs written
//! to probe the edges and on a few thousand generated documents, whenever
//! the scanner reads a text its events and spans (line, column, character
//! index, byte offset, indent) are exactly the parser's. It must also read
//! the corpus templates and the benchmark blueprint (or nothing is gained)
//! and leave to the parser what it does not know.
//!
//! `../shared` is skipped when it is not there, unless
//! `BPVM_CORPUS=required`.

use crate::shared;

use bpvm_runtime::yaml_events::{events, scanned};
use saphyr_parser_bw::{Event, Marker, Parser, Span};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn marker(m: &Marker) -> String {
    format!("{}:{}@{}/{:?}", m.line(), m.col(), m.index(), m.byte_offset())
}

/// One event and everything its span says.
fn shown(e: &(Event<'_>, Span)) -> String {
    format!(
        "{:?} {}..{} indent {:?}",
        e.0,
        marker(&e.1.start),
        marker(&e.1.end),
        e.1.indent
    )
}

/// The parser's events for `text`, or its error.
fn parsed(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for next in Parser::new_from_str(text) {
        out.push(shown(&next.map_err(|e| e.to_string())?));
    }
    Ok(out)
}

/// Whether the scanner reads `text`; a difference from the parser when it
/// does is returned as a message.
fn check(name: &str, text: &str) -> Result<bool, String> {
    let Some(fast) = scanned(text) else {
        return Ok(false);
    };
    let fast: Vec<String> = fast.iter().map(shown).collect();
    let slow = parsed(text).map_err(|e| format!("{name}: scanned, but the parser fails: {e}\n{text:?}"))?;
    if fast != slow {
        let at = fast.iter().zip(&slow).take_while(|(a, b)| a == b).count();
        return Err(format!(
            "{name}: event {at} differs\n  scanner: {:?}\n  parser:  {:?}\n  text: {text:?}",
            fast.get(at),
            slow.get(at)
        ));
    }
    Ok(true)
}

/// Checks every YAML file under `dirs`; returns the files and whether each was scanned.
fn check_files(dirs: &[PathBuf]) -> Vec<(PathBuf, bool)> {
    let mut files = Vec::new();
    for dir in dirs {
        shared::yaml_files(dir, &mut files);
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        match check(&file.display().to_string(), &text) {
            Ok(read) => out.push((file, read)),
            Err(e) => errors.push(e),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    out
}

fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    shared::present(&dir.join("corpus")).then_some(dir)
}

#[test]
fn the_repositorys_yaml_files_scan_as_the_parser_reads_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dirs = [
        "tests",
        "windsor/tests",
        "bluelink/tests",
        "examples",
        "benches",
        "cli",
        "capi",
    ]
    .map(|d| root.join(d));
    let files = check_files(&dirs);
    assert!(files.len() > 50, "only {} YAML files found", files.len());
    let read = files.iter().filter(|f| f.1).count();
    assert!(
        read * 2 > files.len(),
        "the scanner reads only {read} of {} files",
        files.len()
    );
}

#[test]
fn the_shared_corpus_scans_as_the_parser_reads_it() {
    let Some(shared) = shared() else {
        return;
    };
    let files = check_files(&[shared.join("corpus"), shared.join("seeds")]);
    // Templates' facets, schemas and values are what loading reads; the
    // scanner must read every facet, and the schema and values of the
    // template the benchmark loads (the older schema has anchors, left to
    // the parser).
    let missed: Vec<_> = files
        .iter()
        .filter(|(f, read)| {
            let f = f.display().to_string();
            let whole = f.ends_with("schema.yaml") || f.ends_with("values.yaml");
            !read
                && f.contains("/corpus/")
                && (f.contains("/facets/") || whole && f.contains("/windsor-core-aae5e79e/"))
        })
        .map(|f| f.0.display().to_string())
        .collect();
    assert!(missed.is_empty(), "left to the parser: {missed:?}");
}

/// The blueprint `benches/blueprint.rs` loads, in small: the same lines.
fn bench_blueprint() -> String {
    let mut s = String::from("version: 2023-04-20\nvariables:\n");
    for i in 0..10 {
        let _ = writeln!(s, "  v{i}: {{type: integer, default: {i}}}");
        let _ = writeln!(s, "  w{i}: {{type: string, default: value-{i}}}");
        let _ = writeln!(s, "  x{i}: {{type: integer, value: \"${{variables.v{i}}}\"}}");
    }
    s.push_str("resources:\n");
    for i in 0..10 {
        let _ = writeln!(s, "  r{i}:\n    type: aws/lambda/function");
        let _ = writeln!(s, "    metadata: {{displayName: \"Function ${{variables.v{i}}} {i}\"}}");
        let _ = writeln!(
            s,
            "    spec:\n      name: fn-${{variables.v{i}}}-{i}\n      value: ${{values.x{i}}}"
        );
        let _ = writeln!(s, "      trimmed: ${{trimprefix(variables.v{i}, \"value-\")}}");
        let _ = writeln!(
            s,
            "      joined: '${{join(list(variables.v{i}, variables.v{i}), \",\")}}'"
        );
        let _ = writeln!(s, "      previous: none");
        let _ = writeln!(
            s,
            "      env: {{HOST: \"${{variables.v{i}}}.internal\", PORT: \"${{variables.v{i}}}\"}}"
        );
    }
    s
}

#[test]
fn the_benchmark_blueprint_is_scanned() {
    assert_eq!(check("blueprint", &bench_blueprint()), Ok(true));
}

/// Inputs the scanner reads; each must give the parser's events.
const READ: &[&str] = &[
    "a: 1\n",
    "a: 1",
    "a: 1\n\n\n",
    "a: 1\n# end",
    "a: 1\n   ",
    "a:\n",
    "a:",
    "a:   # nothing\nb: 2\n",
    "a:\n# comment\nb:\n",
    "a:\n  b:\n    c: d\n  e: f\ng: h\n",
    "a:\n- x\n- y\nb: 1\n",
    "a:\n-\n- y\n",
    "a:\n  -\n  - y\n",
    "- a\n- b\n",
    "-\n-\n",
    "- # c\n- x\n",
    "- k: v\n  j: w\n- z\n",
    "- k:\n  j:\n",
    "- k:\n  - x\n",
    "- k:\n  - x\n  l: 2\n",
    "-\n  k: v\n",
    "-   x   \n",
    "- [a, b]\n- {k: v}\n",
    "a: [1, [2, 3], {b: c}]   # trailing\n",
    "a: []\nb: {}\nc: [ ]\nd: { }\n",
    "a: {type: integer, default: 3}\n",
    "a: [\"/v\", b ,c]\n",
    "a: 'it''s'\nb: \"q\\n\\t\\\\\\\"\"\n",
    "\"a b\": 1\n'c': 2\n",
    "a : 1\n",
    "a: b # c\n",
    "a: b#c\n",
    "a: http://x.y/z?q=1\n",
    "a: -1\nb: -x\n",
    "a: ${x.y}\n",
    "a: x, y [z] {w}\n",
    "a: é\nb: ü ü # ß\nc: \"ß\"\nd: [é, ü]\n",
    "ключ: значение\n",
    "---\na: 1\n",
    "--- # doc\na: 1\n",
    "# lead\n\na: 1\n",
    "a:\n    b: 1\n    c:\n        - 1\n",
    "a: ~\nb: null\n",
    "a: 1\n  # indented comment\nb: 2\n",
    "a:\n  - b: 1\n    c:\n    - d\n    e: f\n",
    "a:\n  b: 1\n# last, no break",
    "- a:\n  - b\n",
    "a: |\n  x\n  y\nb: 1\n",
    "a: |-\n  x\n\n  y\n\n\nb: 1\n",
    "a: |\n  x\n# c\nb: 1\n",
    "a: |\n  x\n # c\nb: 1\n",
    "a: |\n  x\n  # c\n",
    "a: |\n  x",
    "a: |\n  x\n   y\n  \n    z\n",
    "a: > # h\n  x\n  y\n\n  z\n",
    "a: >-\n  x\n  y\n\n\n  z\n\n",
    "- |\n  x\n- y\n",
    "a:\n- |\n  x\n- >\n   é ü\n   😀\n",
    "a:\n  b: |\n    x\n  c: 1\n",
    "a: |\n  x\n \n",
    "a: |\n x\n",
    "- k: |\n    x\n  j: >-\n    y\n",
    "a: >\n  x\n   y\n    z\n  w\n\n   v\n  u\n",
];

/// Inputs the scanner must leave to the parser.
const REFUSED: &[&str] = &[
    "",
    "# only a comment\n",
    "scalar\n",
    "a: &x 1\nb: *x\n",
    "a: !tag 1\n",
    "a: !!str 1\n",
    "a:\t1\n",
    "\ta: 1\n",
    "a: 1\r\nb: 2\r\n",
    "a: |+\n  text\n",
    "a: |2\n  text\n",
    "a: >+\n  text\n",
    "a: |\n\n  text\n",
    "a: |\n  x\n     \n",
    "a: |\nb: 1\n",
    "a: |\n",
    "a: |#c\n  x\n",
    "a: |\n  x\n  ",
    "a: b\n  c\n",
    "a: \"b\n  c\"\n",
    "a: [b,\n  c]\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: 1\n---\nb: 2\n",
    "a: 1\n...\n",
    "? a\n: b\n",
    "a: \"\\x41\"\n",
    "a: \"\\u00e9\"\n",
    "a: b: c\n",
    "- - a\n",
    "a: [b, ]\n",
    "a: {b}\n",
    "a: {b: }\n",
    "\u{feff}a: 1\n",
    "a: @x\n",
    "a: `x\n",
    "  a: 1\n",
    "a:\n  b: 1\n c: 2\n",
];

#[test]
fn written_inputs_scan_as_the_parser_reads_them() {
    let mut errors = Vec::new();
    for (i, text) in READ.iter().enumerate() {
        match check(&format!("read #{i}"), text) {
            Ok(true) => {}
            Ok(false) => errors.push(format!("read #{i}: left to the parser: {text:?}")),
            Err(e) => errors.push(e),
        }
    }
    for (i, text) in REFUSED.iter().enumerate() {
        if scanned(text).is_some() {
            errors.push(format!("refused #{i}: scanned: {text:?}"));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Events until the first error (the parser repeats an error if asked on).
fn until_error(
    events: impl Iterator<Item = Result<(Event<'static>, Span), saphyr_parser_bw::ScanError>>,
) -> Vec<String> {
    let mut out = Vec::new();
    for next in events {
        match next {
            Ok(e) => out.push(shown(&e)),
            Err(e) => {
                out.push(e.to_string());
                break;
            }
        }
    }
    out
}

#[test]
fn events_falls_back_to_the_parser_with_its_errors() {
    for text in ["a: [1\n", "a: &x 1\nb: *x\n", "a: b: c\n", "a: 1\n"] {
        assert_eq!(
            until_error(events(text)),
            until_error(Parser::new_from_str(text)),
            "{text:?}"
        );
    }
}

#[test]
fn texts_past_the_scanners_limits_go_to_the_parser() {
    let nested = |levels: usize| {
        let mut s = String::new();
        for i in 0..levels {
            let _ = writeln!(s, "{}k:", " ".repeat(i));
        }
        s
    };
    assert_eq!(check("20 levels", &nested(20)), Ok(true));
    assert_eq!(check("100 levels", &nested(100)), Ok(false));
    let flow = format!("a: {}{}\n", "[".repeat(100), "]".repeat(100));
    assert_eq!(check("100 brackets", &flow), Ok(false));
    let key = |n: usize| format!("{}: 1\n", "k".repeat(n));
    assert_eq!(check("short key", &key(900)), Ok(true));
    assert_eq!(check("long key", &key(1100)), Ok(false));
    let in_brackets = |n: usize| format!("a: {{{}: 1}}\n", "k".repeat(n));
    assert_eq!(check("short key in brackets", &in_brackets(900)), Ok(true));
    assert_eq!(check("long key in brackets", &in_brackets(1100)), Ok(false));
    let wide = format!("a: {}\n", "é".repeat(3000));
    assert_eq!(check("wide line", &wide), Ok(false));
    assert_eq!(check("narrow line", &format!("a: {}\n", "é".repeat(100))), Ok(true));
    // The scanner holds a text's events at once: past 1 MiB the parser
    // streams them instead.
    let lines = |n: usize| (0..n).map(|i| format!("key{i:07}: value\n")).collect::<String>();
    assert_eq!(check("under 1 MiB", &lines((1 << 20) / 18 - 10)), Ok(true));
    assert_eq!(check("over 1 MiB", &lines((1 << 20) / 18 + 10)), Ok(false));
}

/// A small deterministic generator of pseudo-random numbers (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const KEYS: &[&str] = &[
    "a",
    "key",
    "long_key-name",
    "a b",
    "x.y",
    "-k",
    "é",
    "\"q k\"",
    "'s k'",
    "\"\"",
    "k#h",
    "http://h",
    "1",
    "?k",
    ":k",
    "[k]",
    "k:k",
    "ü ü",
    "\"a\\\"b\"",
];
const SCALARS: &[&str] = &[
    "v",
    "1",
    "-1",
    "true",
    "~",
    "null",
    "a b  c",
    "${x.y}",
    "a:b",
    "a#b",
    "x, y",
    "[a]",
    "{a}",
    "ü",
    "😀x",
    "\"d\"",
    "\"d\\n\\\\\"",
    "\"d\\x41\"",
    "\"\\u00e9\"",
    "'s''q'",
    "''",
    "\"\"",
    "&a v",
    "*a",
    "!t v",
    "|",
    ">-",
    "@x",
    "`x",
    "%x",
    "- x",
    "-",
    "? x",
    ": x",
    "a: b",
    "[a, b]",
    "[a,b]",
    "[ a ]",
    "[]",
    "{}",
    "{ }",
    "{a: b}",
    "{a: [1, 2], b: {c: d}}",
    "{\"a\": 'b'}",
    "[a, ]",
    "{a}",
    "[a #c]",
    "x # c",
    "x #c",
    "x#",
    "---",
    "...",
    "a\tb",
    "[\"x\", -1, ü]",
    "{a: b, c: d}",
];

/// Scalars as they may stand inside brackets, and odd ones.
const FLOW_SCALARS: &[&str] = &[
    "a",
    "-1",
    "a b",
    "a:b",
    "http://x",
    "é",
    "'q'",
    "\"a\\\"b\"",
    "\"\"",
    "''",
    "${v}",
    "a#b",
];
const FLOW_ODD: &[&str] = &[
    "a #b",
    "-",
    "?",
    ":",
    "&a",
    "*a",
    "!t",
    "a :",
    "x\ty",
    "a -",
    "\"\\x41\"",
];

fn flow_scalar<'a>(rng: &mut Rng) -> &'a str {
    if rng.below(6) == 0 {
        rng.pick(FLOW_ODD)
    } else {
        rng.pick(FLOW_SCALARS)
    }
}

/// A flow collection on one line, `depth` levels at most, spaced at random.
fn flow(rng: &mut Rng, depth: usize, out: &mut String) {
    let map = rng.below(2) == 0;
    let space = |rng: &mut Rng, out: &mut String| out.push_str(["", "", " ", "  "][rng.below(4)]);
    out.push(if map { '{' } else { '[' });
    space(rng, out);
    let n = rng.below(4);
    for i in 0..n {
        if i > 0 {
            space(rng, out);
            out.push(',');
            out.push_str(["", " ", " ", "  "][rng.below(4)]);
        }
        if map {
            out.push_str(flow_scalar(rng));
            out.push_str([": ", ": ", ":", " : ", ":  "][rng.below(5)]);
        }
        if depth > 0 && rng.below(4) == 0 {
            flow(rng, depth - 1, out);
        } else {
            out.push_str(flow_scalar(rng));
        }
    }
    if rng.below(12) == 0 {
        out.push(',');
    }
    space(rng, out);
    out.push(if map { '}' } else { ']' });
}

/// One line's end: maybe trailing spaces or a comment, then a break.
fn line_end(rng: &mut Rng, crlf: bool, out: &mut String) {
    match rng.below(12) {
        0 => out.push_str("  "),
        1 => out.push_str(" # note"),
        2 => out.push_str("#x"),
        _ => {}
    }
    out.push_str(if crlf { "\r\n" } else { "\n" });
    match rng.below(14) {
        0 => out.push('\n'),
        1 => {
            let pad = rng.below(6);
            out.push_str(&" ".repeat(pad));
            out.push_str("# comment\n");
        }
        _ => {}
    }
}

/// The lines of a block scalar at column `indent`: text, empty lines,
/// lines indented further, lines of spaces, `#` lines.
fn block_lines(rng: &mut Rng, indent: usize, crlf: bool, out: &mut String) {
    for _ in 0..1 + rng.below(4) {
        match rng.below(10) {
            0 => {}
            1 => out.push_str(&" ".repeat(rng.below(indent + 3))),
            2 => {
                out.push_str(&" ".repeat(indent + 1 + rng.below(2)));
                out.push_str("more");
            }
            3 => {
                out.push_str(&" ".repeat(indent));
                out.push_str("# not a comment");
            }
            _ => {
                out.push_str(&" ".repeat(indent));
                out.push_str(rng.pick(&["text", "a: b", "- x", "é ü  ", "\"q\"", "[x]"]));
            }
        }
        out.push_str(if crlf { "\r\n" } else { "\n" });
    }
}

/// A block collection at column `indent` with `depth` levels left below it.
fn collection(rng: &mut Rng, indent: usize, depth: usize, map: bool, crlf: bool, out: &mut String) {
    let pad = " ".repeat(indent);
    for _ in 0..1 + rng.below(4) {
        out.push_str(&pad);
        if map {
            out.push_str(rng.pick(KEYS));
            out.push_str(if rng.below(10) == 0 { " :" } else { ":" });
        } else {
            out.push('-');
        }
        value(rng, indent, depth, map, crlf, out);
    }
}

/// What follows a key's `:` or an item's `-`.
fn value(rng: &mut Rng, indent: usize, depth: usize, in_map: bool, crlf: bool, out: &mut String) {
    let step = [1, 2, 2, 2, 3, 4][rng.below(6)];
    match rng.below(if depth == 0 { 3 } else { 7 }) {
        0 | 1 => {
            out.push(' ');
            out.push_str(rng.pick(SCALARS));
            line_end(rng, crlf, out);
            if rng.below(30) == 0 {
                // A line that would continue a plain scalar.
                out.push_str(&" ".repeat(indent + step));
                out.push_str("more\n");
            }
        }
        2 => line_end(rng, crlf, out),
        3 => {
            line_end(rng, crlf, out);
            collection(rng, indent + step, depth - 1, true, crlf, out);
        }
        4 => {
            line_end(rng, crlf, out);
            // A sequence under a key may stand in the key's column.
            let at = if in_map && rng.below(2) == 0 {
                indent
            } else {
                indent + step
            };
            collection(rng, at, depth - 1, false, crlf, out);
        }
        5 if !in_map => {
            // `- key: value`, more keys below in the key's column.
            let spaces = 1 + rng.below(3) * (rng.below(3) / 2);
            out.push_str(&" ".repeat(spaces));
            let inner = indent + 1 + spaces;
            out.push_str(rng.pick(KEYS));
            out.push(':');
            value(rng, inner, depth - 1, true, crlf, out);
            if rng.below(2) == 0 {
                collection(rng, inner, depth - 1, true, crlf, out);
            }
        }
        6 if rng.below(2) == 0 => {
            out.push(' ');
            out.push_str(rng.pick(&["|", "|-", ">", ">-", "|+", "|2", "| # h"]));
            line_end(rng, crlf, out);
            block_lines(rng, indent + step, crlf, out);
        }
        _ => {
            out.push(' ');
            flow(rng, 3, out);
            line_end(rng, crlf, out);
        }
    }
}

/// A document, sometimes spoiled afterwards by a change of one byte.
fn document(rng: &mut Rng) -> String {
    let crlf = rng.below(20) == 0;
    let mut out = String::new();
    if rng.below(10) == 0 {
        out.push_str("---\n");
    }
    let map = rng.below(4) != 0;
    let depth = 1 + rng.below(4);
    collection(rng, 0, depth, map, crlf, &mut out);
    if rng.below(8) == 0 {
        out.pop();
    }
    if rng.below(4) == 0 && !out.is_empty() {
        let mut bytes = out.into_bytes();
        let at = rng.below(bytes.len());
        bytes[at] = [b' ', b':', b'-', b'#', b'\n', b'"', b'[', b'a'][rng.below(8)];
        out = String::from_utf8_lossy(&bytes).into_owned();
    }
    out
}

#[test]
fn generated_documents_scan_as_the_parser_reads_them() {
    // BPVM_YAML_DOCUMENTS=n runs longer, BPVM_YAML_SEED=n other documents.
    let setting = |name: &str| std::env::var(name).ok().and_then(|n| n.parse::<u64>().ok());
    let documents = setting("BPVM_YAML_DOCUMENTS").unwrap_or(10_000) as usize;
    let mut rng = Rng(setting("BPVM_YAML_SEED").unwrap_or(0x9e37_79b9_7f4a_7c15) | 1);
    let (mut read, mut errors) = (0, Vec::new());
    for i in 0..documents {
        let text = document(&mut rng);
        match check(&format!("generated #{i}"), &text) {
            Ok(r) => read += usize::from(r),
            Err(e) => errors.push(e),
        }
    }
    assert!(
        errors.is_empty(),
        "{} differences, first ones:\n{}",
        errors.len(),
        errors[..errors.len().min(8)].join("\n")
    );
    // The generator must keep the scanner busy, not only the parser.
    eprintln!("the scanner read {read} of {documents} documents");
    assert!(
        read * 10 > documents,
        "the scanner read only {read} of {documents} documents"
    );
}
