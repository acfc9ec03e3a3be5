//! The YAML reader against the one bpvm had before (serde_saphyr's
//! Deserialize path, kept in `old_yaml` for this comparison only): every
//! YAML file of the repository and of `../shared` (corpus and seeds), and
//! a list of inputs written to probe the edges, must read to the same
//! value or fail with the same message. The few inputs read differently
//! on purpose are listed with both readers' answers.
//!
//! `../shared` is skipped when it is not there, unless
//! `BPVM_CORPUS=required`.

use crate::{old_yaml, shared};

use bpvm_runtime::Value;
use bpvm_runtime::limits::VALUE_DEPTH;
use std::path::{Path, PathBuf};

const MAX_NODES: usize = 4 << 20;

/// A reader's answer, exact: `Debug` tells an integer from a float, text
/// from bytes, and keeps map order.
fn answer(r: &Result<Value, String>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("error {e}"),
    }
}

fn new(text: &str) -> String {
    answer(&Value::from_yaml(text))
}

fn old(text: &str) -> String {
    answer(&old_yaml::read_yaml(text, MAX_NODES))
}

/// Messages of the old reader that named its own API, a Rust type or a
/// setting of its own, and what they say now, at the same place.
const REWORDED: &[(&str, &str)] = &[
    (
        "multiple YAML documents detected; use from_str_multiple or from_str_multiple_with_options",
        "a second YAML document starts here; the file must hold one document",
    ),
    (
        "recursive references require weak recursion types",
        "an alias (*name) cannot stand inside the value its anchor (&name) names",
    ),
    (
        "!!binary scalar is not valid UTF-8 so cannot be stored into string. If you just use !!binary for documentation/annotation, set ignore_binary_tag_for_string in Options",
        "!!binary scalar is not valid UTF-8 text",
    ),
];

/// The old reader's answer, its messages reworded.
fn old_reworded(text: &str) -> String {
    let mut answer = old(text);
    for (before, now) in REWORDED {
        if let Some(at) = answer.strip_suffix(before) {
            answer = format!("{at}{now}");
        }
    }
    answer
}

/// Every difference between the readers over `inputs`, for a message.
fn differences<'a>(inputs: impl IntoIterator<Item = (String, &'a str)>) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in inputs {
        let (o, n) = (old_reworded(text), new(text));
        if o != n {
            let cut = |s: &str| s.chars().take(400).collect::<String>();
            out.push(format!("{name}\n  old: {}\n  new: {}", cut(&o), cut(&n)));
        }
    }
    out
}

fn compare_files(dirs: &[PathBuf]) -> usize {
    let mut files = Vec::new();
    for dir in dirs {
        shared::yaml_files(dir, &mut files);
    }
    let texts: Vec<(String, String)> = files
        .iter()
        .filter_map(|f| Some((f.display().to_string(), std::fs::read_to_string(f).ok()?)))
        .collect();
    let diffs = differences(texts.iter().map(|(name, text)| (name.clone(), text.as_str())));
    assert!(diffs.is_empty(), "the readers differ:\n{}", diffs.join("\n"));
    texts.len()
}

#[test]
fn the_repositorys_yaml_files_read_as_before() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dirs = ["tests", "windsor/tests", "bluelink/tests", "examples", "benches"].map(|d| root.join(d));
    let n = compare_files(&dirs);
    assert!(n > 50, "only {n} YAML files found under {}", root.display());
}

#[test]
fn the_shared_corpus_and_seeds_read_as_before() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if !shared::present(&shared.join("corpus")) {
        return;
    }
    let n = compare_files(&[shared.join("corpus"), shared.join("seeds")]);
    assert!(n > 20, "only {n} YAML files found under {}", shared.display());
}

/// Scalars read as the value of `v: …`.
const SCALARS: &[&str] = &[
    "010",
    "0",
    "00",
    "-0",
    "+0",
    "-00",
    "-010",
    "+1",
    "1_000",
    "-1_000",
    "1__0",
    "_1",
    "1_",
    "0_1",
    "-0_1",
    "0x1F",
    "0X1F",
    "0x_1F",
    "+0x_1",
    "0x1F_FF",
    "0o17",
    "0O17",
    "0o",
    "0o8",
    "-0o17",
    "0b101",
    "0B1",
    "0b",
    "0b2",
    "-0b1",
    "0x",
    "-0x10",
    "+0x10",
    "0xabcdef",
    "0x1g",
    "0xFFFFFFFFFFFFFFFF",
    "0x8000000000000000",
    "-0x8000000000000000",
    "-0x8000000000000001",
    "0x1FFFFFFFFFFFFFFFF",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1_000_000_000_000_000_000_000",
    "1.5",
    "1.",
    ".5",
    "-.5",
    "+.5",
    "5.e3",
    ".5e3",
    "1e3",
    "1E3",
    "1e+3",
    "1e-3",
    "+1e3",
    "1.5e3",
    "1.5E+3",
    "-1.5e-3",
    "1e",
    "e1",
    "1.2.3",
    "1_000.5",
    "1_0e3",
    "0.0",
    "-0.0",
    "00.0",
    "0.",
    "00.5",
    "010.5",
    "0e0",
    "1e-400",
    "1.7976931348623157e308",
    "-",
    "+",
    ".",
    "++1",
    "+-1",
    "inf",
    "Infinity",
    "nan",
    "NaN",
    "true",
    "True",
    "TRUE",
    "tRue",
    "false",
    "False",
    "FALSE",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "null",
    "Null",
    "NULL",
    "nUll",
    "~",
    "",
    "2023-04-20",
    "12:30",
    "1:20:30",
    "\u{661}\u{662}",
    "1 ",
    "1\t",
    " 1",
    "x#y",
    "1 # c",
    "'1'",
    "\"1\"",
    "\"true\"",
    "'null'",
    "''",
    "\"\"",
    "|\n  1\n",
    ">\n  1\n",
    "|\n  true\n",
    "|-\n  x\n",
    "|+\n  x\n\n",
    ">\n  x\n\n  y\n",
    "|2\n   x\n",
    ">-\n  x\n  y\n",
    "\"\\u00e9\\x41\\t\"",
    "\"\\U0001F600\"",
    "\"\\0\\a\\b\\e\\f\\n\\r\\t\\v\\\"\\/\\\\\\N\\_\\L\\P\\ \"",
    "'it''s'",
    "\"multi\n  line\"",
    "plain\n  multi line",
    "\"\\\n  b\"",
    "'x\ty'",
    "'\u{feff}x'",
    // Tags.
    "!!str 1",
    "!!str true",
    "!!str null",
    "!!str ~",
    "!!str",
    "! 1",
    "! null",
    "! ~",
    "!str 5",
    "!!int 1",
    "!!int \"1\"",
    "!!int ' 1 '",
    "!!int -1",
    "!!int +5",
    "!!int 0x10",
    "!!int -0x10",
    "!!int 0b11",
    "!!int 1_000",
    "!!int 18446744073709551615",
    "!int 5",
    "!<!int> 5",
    "!<tag:yaml.org,2002:int> 5",
    "!!float 1",
    "!!float \"1.5\"",
    "!!float ' 1.5 '",
    "!!float 010",
    "!float 1",
    "!!bool true",
    "!!bool \"true\"",
    "!!bool 'True'",
    "!bool true",
    "!!null ~",
    "!!null x",
    "!!null \"\"",
    "!!null",
    "!null x",
    "!!binary aGVsbG8=",
    "!!binary \"aGVsbG8=\"",
    "!!binary |\n  aGVs\n  bG8=\n",
    "!binary aGk=",
    "!foo 1",
    "!foo bar",
    "!foo null",
    "!foo",
    "!foo ''",
    "!foo 'null'",
    "!<!foo> 5",
    "!<tag:yaml.org,2002:str> 5",
    "!include foo",
    "!include",
    "!!include x",
    "!!merge x",
    "!!value x",
    "!!seq [1]",
    "!!map {a: 1}",
    "!foo [1]",
    "!foo {a: 1}",
    "!!omap [a]",
    "!!set {a}",
    "!!pairs [a]",
    "&a !!int '5'",
    "!!int &a '5'",
    // Refused.
    "1e400",
    "-1e400",
    "1E400",
    "9e999999",
    "1.8e308",
    ".inf",
    ".Inf",
    ".INF",
    "-.inf",
    "+.inf",
    ".nan",
    ".NaN",
    ".NAN",
    "-.nan",
    "+.nan",
    "!!int x",
    "!!int 1.5",
    "!!int 010",
    "!!int -010",
    "!!int ~",
    "!!int",
    "!!int 99999999999999999999999",
    "!!int -9223372036854775809",
    "!!float x",
    "!!float .inf",
    "!!float 1e400",
    "!!float 1_000.5",
    "!!float ~",
    "!!float",
    "!!bool yes",
    "!!bool ~",
    "!!bool",
    "!!binary aGk",
    "!!binary aGVsbG9=",
    "!!timestamp 2001-12-14",
    "!!timestamp",
    "!timestamp 2001",
    "!time 5",
    "!!time 5",
    "!degrees 5",
    "!!map [1]",
    "!!seq {a: 1}",
    "!!str [1]",
    "!!int [1]",
    "!int [1]",
    "!str {a: 1}",
    "!!seq x",
    "!!map x",
    "!!seq",
    "!!map",
    "!!seq # c",
    "&a !!seq",
    "!e!x 1",
    "&",
    "*",
    "@x",
    "`x",
    "\"\\q\"",
    "\"\\u00\"",
    "\"\\uD800\"",
    "\"\\x4\"",
    "|0\n x\n",
    "| x\n",
    "'abc\n",
    "\"abc\n",
    "[1, 2\n",
    "{b: 1\n",
    "}",
    "'b'c",
    "\"x\" y",
    "'b' c",
];

/// Whole documents.
const DOCUMENTS: &[&str] = &[
    "",
    "# comment only\n",
    "---\n",
    "---\n...\n",
    "a: 1\n...\n",
    "a: 1\n...\n# x\n",
    "1",
    "[1, 2]",
    "null",
    "'x'",
    "%YAML 1.2\n---\na: 1\n",
    "%FOO bar\n---\na: 1\n",
    "%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n",
    "%TAG !e! tag:yaml.org,2002:\n---\nv: !e!int '5'\n",
    "%TAG ! tag:yaml.org,2002:\n---\nv: !int '5'\n",
    "\u{feff}a: 1\n",
    "\u{feff}\u{feff}a: 1\n",
    "\u{feff}\na: 1\n",
    "\u{feff}---\na: 1\n",
    "\u{feff}a: [1\n",
    "\u{feff}",
    "a: \u{feff}1\n",
    "a: 1\n\u{feff}b: 2\n",
    "a: {b: [1, {c: 2}]}",
    "{\"a\": 1, \"b\": [true, null, 1.5, \"x\"]}",
    "- - - 1\n",
    "-\n-\n",
    "a:\nb:\n",
    "- a\n - b\n",
    "a:\n- b\n- c\n",
    "\t- a\n",
    "- a\n-\tb\n",
    "{a: 1,\tb: 2}",
    "a: b\t\n",
    "key with spaces: v\n",
    "- [a, b]\n- {c: d}\n",
    "[a, [b, {c: d}]]",
    "[a: 1, b: 2]",
    "[? a : 1]",
    "{a, b}",
    "[a,]",
    "{a: 1,}",
    "key: &anc\n",
    "- &a\n- *a\n",
    // Keys.
    ": a\n",
    "? a\n",
    "[1, 2]: a\n",
    "? [1, 2]\n: a\n",
    "? {a: 1}\n: b\n",
    "{a: 1}: 2\n",
    "? - a\n  - b\n: c\n",
    "? !!null\n: a\n",
    "? ''\n: a\n",
    "? ~\n: a\n? ''\n: b\n",
    "1.5: a\n",
    "0x10: a\n",
    "010: a\n",
    "true: a\n",
    "!!str 1: a\n",
    "? |\n  x\n: a\n",
    // Anchors, aliases and merge keys.
    "a: &x 1\nb: *x\n",
    "a: &x [1, 2]\nb: *x\n",
    "a: &x\n  b: [1, 2]\nc: [*x, *x]\n",
    "a: &x 1\na2: &x 2\nb: *x\n",
    "&x a: 1\nb: *x\n",
    "v: &a !!int '5'\nw: *a\n",
    "base: &b\n  x: 1\n  y: 2\nc:\n  <<: *b\n  y: 3\n",
    "base: &b\n  x: 1\nc:\n  y: 3\n  <<: *b\n",
    "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc:\n  <<: [*a, *b]\n",
    "c:\n  <<: {x: 1}\n",
    "c:\n  '<<': {x: 1}\n",
    "c:\n  <<: {x: 1}\n  <<: {y: 2}\n",
    "c:\n  !!merge <<: {x: 1}\n",
    "<<: {x: 1}\nx: 2\n",
    "x: 2\n<<: {x: 1}\n",
    "c:\n  <<: ~\n",
    "c:\n  <<: []\n",
    "c:\n  <<: [{a: 1}, {a: 2, b: 3}]\n",
    "c:\n  <<: {a: {b: 1}}\n  a: {c: 2}\n",
    "c:\n  <<: [[{a: 1}]]\n",
    "c:\n  <<: [[]]\n",
    "c:\n  <<: [{a: 1}, [{b: 2}]]\n",
    "<<: {a: 1, b: 2}\nc: 3\nb: 4\n",
    "<<: {x: 1}\n<<: {x: 2}\n",
    "<<: [{a: 1}, {a: 2}]\n",
    "<<: [~]\n",
    "<<: [{a: 1}, ~]\n",
    "!!merge foo: {x: 1}\n",
    "!!str <<: {x: 1}\n",
    "<<: {<<: {a: 1}, b: 2}\n",
    "{<<: {a: 1}, b: 2}",
    "<<: {1: a}\n1: b\n",
    "- <<: {a: 1}\n  b: 2\n",
    "<<:\n  - &a {x: 1}\n  - *a\n",
    "? <<\n: {a: 1}\n",
    "<<: &m {a: 1}\nb: *m\n",
    "a: &a 1\nb: &b [*a, *a, *a]\nc: [*b, *b]\n",
    // Refused.
    "a: 1\na: 2\n",
    "a: 1\n'a': 2\n",
    "{a: 1, a: 2}",
    "a: {b: 1, b: 2}\n",
    "a: 1\nb:\n  c: 1\n  c: 2\n",
    "true: a\n'true': b\n",
    "? a\n? a\n",
    ": a\n: b\n",
    "? \n: a\n? \n: b\n",
    "0x10: a\n0x10: b\n",
    "1.0: a\n1.0: b\n",
    "010: a\n010: b\n",
    "~: a\n~: b\n",
    "[1]: a\n[1]: b\n",
    "{a: 1}: x\n{a: 1}: y\n",
    "'1': a\n!!str 1: b\n",
    "&x a: 1\n&y a: 2\n",
    "&x a: 1\n*x : 2\n",
    "? |\n  x\n: a\n? |\n  x\n: b\n",
    "a: *x\n",
    "c:\n  <<: 1\n",
    "c:\n  <<: [1]\n",
    "c:\n  <<: [[1]]\n",
    "<<: 'x'\n",
    "<<: [{a: 1}, 2]\n",
    "a: &a 1\n<<: *a\n",
    "a:\n\tb: 1\n",
    "a:\n  - b\n\t- c\n",
    "a:\n  b: 1\n c: 2\n",
    "a: 1\n  b: 2\n",
    "a: b: c\n",
    "- a\nb: 1\n",
    "a: 1\n- b\n",
    "a: [1, 2]]\n",
    "a: [1, 2\nb: 3\n",
    "a: |\n  x\n b\n",
    "'a\nb': 1\n",
    "a: [1\n---\nb: 2\n",
    "a:\n  - b\n  -c\n",
    "a: 1\nfoo\nb: 2\n",
    "a:\n  b: 1\n  # c\n  contr\nlplanes: 2\n",
    "a: [1, 2}\n",
    "- {expr: 'x', r]: 1}\n",
    "a: {b: [1, 2}}\n",
    "a:\n  b: [1,\n    2}\n",
    "a: {b\n  c: 1}\n",
    "- !!seq\n",
    "- !!seq\n- 1\n",
    "[!!seq , 1]",
    "{a: !!seq }",
    "v:\n  !!int\n",
    "v: !!",
    "v: !! x",
    "[!!]",
    "v: !<> x",
    // More than one document.
    "a: 1\n---\nb: 2\n",
    "---\na: 1\n...\n---\nb: 2\n",
    "a: 1\n---\nb: [1\n",
    "--- 1\n--- 2\n",
    "a: 1\n--- |\n  x\n",
    "a: 1\n---\n",
    "a: 1\n--- \n# c\n",
    "a: 1\n---\n...\n",
    "---\n---\n",
    "a: 1\n...\n---\n",
    "--- !!str\n--- x\n",
    "a: 1\n--- # c\n",
];

#[test]
fn scalars_read_as_before() {
    let docs: Vec<String> = SCALARS.iter().map(|s| format!("v: {s}")).collect();
    let diffs = differences(docs.iter().map(|d| (format!("{d:?}"), d.as_str())));
    assert!(diffs.is_empty(), "the readers differ:\n{}", diffs.join("\n"));
}

#[test]
fn documents_read_as_before() {
    let diffs = differences(DOCUMENTS.iter().map(|d| (format!("{d:?}"), *d)));
    assert!(diffs.is_empty(), "the readers differ:\n{}", diffs.join("\n"));
}

fn nest(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

#[test]
fn deep_documents_read_as_before() {
    let anchored = nest("[", "", "]", 60);
    let inputs = [
        nest("[", "1", "]", VALUE_DEPTH),
        nest("[", "1", "]", VALUE_DEPTH + 1),
        nest("[", "1", "]", 300),
        nest("{", "", "}", VALUE_DEPTH + 1),
        nest("{a: ", "1", "}", VALUE_DEPTH + 1),
        format!("a:\n  {}", nest("[", "", "]", VALUE_DEPTH - 1)),
        format!("a:\n  {}", nest("[", "", "]", VALUE_DEPTH)),
        format!("a:\n  {}", "[".repeat(100)),
        format!("a: {}", "[".repeat(70)),
        format!("a:\n  {}", "[".repeat(300)),
        format!("top:\n  {}", nest("{a: ", "1", "}", 300)),
        format!("a: 'x'\nb: [\"]]\", {}", "[".repeat(300)),
        (0..100).map(|i| format!("{}k:\n", "  ".repeat(i))).collect(),
        (0..100).map(|i| format!("{}- \n", " ".repeat(i))).collect(),
        format!("a: &a {anchored}\nb: {}\n", nest("[", "*a", "]", 3)),
        format!("a: &a {anchored}\nb: {}\n", nest("[", "*a", "]", 4)),
        format!("a: &a {anchored}\nb: {}\n", nest("[", "*a", "]", 10)),
    ];
    let diffs = differences(
        inputs
            .iter()
            .map(|d| (format!("{:?}", d.chars().take(80).collect::<String>()), d.as_str())),
    );
    assert!(diffs.is_empty(), "the readers differ:\n{}", diffs.join("\n"));
}

/// Inputs read differently on purpose: the input, the answer now, the
/// answer before.
const CHANGED: &[(&str, &str, &str)] = &[
    // Reworded (see REWORDED); the place is the same.
    (
        "a: 1\n---\nb: 2\n",
        "error 3:1: a second YAML document starts here; the file must hold one document",
        "error 3:1: multiple YAML documents detected; use from_str_multiple or from_str_multiple_with_options",
    ),
    // Keys the old reader found equal only after typing them had no place.
    (
        "1: a\n'1': b\n",
        "error 2:1: duplicate key \"1\"",
        "error 0:0: duplicate key \"1\"",
    ),
    (
        "1: a\n1.0: b\n",
        "error 2:1: duplicate key \"1.0\"",
        "error 0:0: duplicate key \"1\"",
    ),
    (
        "~: a\nnull: b\n",
        "error 2:1: duplicate key \"null\"",
        "error 0:0: duplicate key \"null\"",
    ),
    (
        "!foo a: 1\na: 2\n",
        "error 2:1: duplicate key \"a\"",
        "error 0:0: duplicate key \"a\"",
    ),
    // A merged key is overridden by the same key written, whatever its spelling.
    (
        "<<: {1: a}\n'1': b\n",
        "Map({\"1\": Str(\"b\")})",
        "error 0:0: duplicate key \"1\"",
    ),
    // Reworded (see REWORDED).
    (
        "a: &x {b: *x}\n",
        "error 1:11: an alias (*name) cannot stand inside the value its anchor (&name) names",
        "error 1:11: recursive references require weak recursion types",
    ),
    (
        "v: !!binary //8=\n",
        "error 1:13: !!binary scalar is not valid UTF-8 text",
        "error 1:13: !!binary scalar is not valid UTF-8 so cannot be stored into string. If you just use !!binary for documentation/annotation, set ignore_binary_tag_for_string in Options",
    ),
    // The parser refuses a tab right after ':' (bluelink's reader always did).
    (
        "a:\t1\n",
        "error 1:4: ':' must be followed by a space here, not a tab",
        "Map({\"a\": Int(1)})",
    ),
    (
        "{a:\tb}",
        "error 1:5: ':' must be followed by a space here, not a tab",
        "Map({\"a\": Str(\"b\")})",
    ),
    // The parser wants the lines of a list or map in brackets indented
    // past the block they stand in.
    (
        "a: [b,\nc]\n",
        "error 2:1: invalid indentation in flow construct",
        "Map({\"a\": List([Str(\"b\"), Str(\"c\")])})",
    ),
    (
        "a:\n  - {x: 1,\n y: 2}\n",
        "error 3:2: invalid indentation",
        "Map({\"a\": List([Map({\"x\": Int(1), \"y\": Int(2)})])})",
    ),
    // It reads `|` and `>` starting a word inside brackets as text.
    (
        "a: [|x]\n",
        "Map({\"a\": List([Str(\"|x\")])})",
        "error 1:5: unexpected character: `|'",
    ),
    // The parsers word or place these errors differently.
    (
        "v: !!binary !!!\n",
        "error 1:13: while scanning a tag, did not find expected whitespace or line break",
        "error 1:13: while parsing a tag, did not find expected tag URI",
    ),
    (
        "v: !!! x\n",
        "error 1:4: while scanning a tag, did not find expected whitespace or line break",
        "error 1:4: while parsing a tag, did not find expected tag URI",
    ),
    (
        "[a, , b]",
        "error 1:5: unexpected EOF while parsing a flow sequence",
        "error 1:5: unexpected EOF while parsing an implicit flow mapping",
    ),
    (
        "x: &x [1]\n<<: *x\n",
        "error 1:7: YAML merge value must be mapping or sequence of mappings",
        "error 1:8: YAML merge value must be mapping or sequence of mappings",
    ),
    (
        "a: 1\n\u{feff}",
        "error 2:1: simple key expected",
        "error 2:1: a BOM must not appear inside a document",
    ),
];

#[test]
fn what_reads_differently_on_purpose() {
    for (text, now, before) in CHANGED {
        assert_eq!((new(text).as_str(), old(text).as_str()), (*now, *before), "{text:?}");
    }
}

/// A billion laughs: nine levels of ten aliases each.
fn alias_bomb() -> String {
    let mut text = String::from("a: &a [1,1,1,1,1,1,1,1,1,1]\n");
    for (name, prev) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        let items = vec![format!("*{prev}"); 10].join(",");
        text.push_str(&format!("{name}: &{name} [{items}]\n"));
    }
    text
}

#[test]
fn an_alias_bomb_stops_at_the_value_limit_before_it_is_built() {
    let text = alias_bomb();
    let started = std::time::Instant::now();
    assert_eq!(
        new(&text),
        format!("error 7:14: the document holds more than {MAX_NODES} values (an alias counts the values it repeats)")
    );
    assert!(started.elapsed().as_secs() < 5, "took {:?}", started.elapsed());
    assert_eq!(old(&text), "error 6:29: the document is too large (a reader limit)");
    // Four levels (11,110 values) are well within the limit, as before.
    let small: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    assert_eq!(new(&small), old(&small));
    assert!(new(&small).starts_with("Map("));
}

#[test]
fn many_aliases_of_one_anchor_read() {
    // The old reader refused more than 100 aliases at more than 10 per
    // anchor, however few values they repeat; only the value limit counts now.
    let text = format!("a: &a 1\nb: [{}]\n", vec!["*a"; 200].join(", "));
    assert_eq!(old(&text), "error 3:1: the document uses too many aliases (*name)");
    let Ok(Value::Map(m)) = Value::from_yaml(&text) else {
        panic!("{}", new(&text))
    };
    assert!(matches!(m.get("b"), Some(Value::List(items)) if items.len() == 200));
}
