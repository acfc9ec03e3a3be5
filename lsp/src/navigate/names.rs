//! The dotted names an expression reads (`cluster.workers.count`,
//! `resources.queues`), each with where it is written: what a position
//! in an expression refers to, and every place a name is used.

use bpvm::compiler::windsor::is_keyword;

/// A dotted name read by an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// Its segments, joined by `.` (an optional chain's `?.` too).
    pub path: String,
    /// The byte span of each segment in the text scanned.
    pub segments: Vec<(usize, usize)>,
}

impl Name {
    /// The byte span of the whole name.
    pub fn span(&self) -> (usize, usize) {
        let first = self.segments.first().map_or(0, |s| s.0);
        let last = self.segments.last().map_or(first, |s| s.1);
        (first, last)
    }

    /// The index of the segment byte `at` is in (or just after).
    pub fn segment_at(&self, at: usize) -> Option<usize> {
        self.segments.iter().position(|&(from, to)| from <= at && at <= to)
    }

    /// The first `count` segments, joined by `.`.
    pub fn prefix(&self, count: usize) -> String {
        self.path.split('.').take(count).collect::<Vec<_>>().join(".")
    }
}

/// The names `source` reads, each span offset by `base`: identifiers and
/// their `.`/`?.` members, outside string literals, not a function's
/// name, not a member of something else (`f(x).y`, `a[0].b` stop at the
/// call or index), not a number, and not a word of the language (`null`,
/// `and`, `in`, …).
///
/// ```
/// use bpvm_lsp::navigate::names;
/// let found = names("string(cluster.workers.count * 2) + 'a.b' + x?.y", 10);
/// let paths: Vec<&str> = found.iter().map(|n| n.path.as_str()).collect();
/// assert_eq!(paths, ["cluster.workers.count", "x.y"]);
/// assert_eq!(found[0].segments[1], (25, 32));
/// ```
pub fn names(source: &str, base: usize) -> Vec<Name> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if matches!(b, b'\'' | b'"' | b'`') {
            i = string_end(bytes, i);
        } else if b.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                i += 1;
            }
        } else if starts_name(b) {
            let member = previous_significant(bytes, i).is_some_and(|p| matches!(p, b'.' | b']' | b')'));
            let (segments, end) = segments(bytes, i);
            let call = next_significant(bytes, end) == Some(b'(');
            let keyword = segments.len() == 1 && not_a_name(&source[i..end]);
            if !member && !call && !keyword {
                let path: Vec<&str> = segments.iter().map(|&(f, t)| &source[f..t]).collect();
                out.push(Name {
                    path: path.join("."),
                    segments: segments.iter().map(|&(f, t)| (base + f, base + t)).collect(),
                });
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether `word` is an operator, starts a form or is a literal: never a
/// name a path reads.
fn not_a_name(word: &str) -> bool {
    is_keyword(word) || matches!(word, "true" | "false" | "nil" | "null")
}

fn starts_name(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn continues_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The segments of the name starting at `from`, and the byte after it.
fn segments(bytes: &[u8], from: usize) -> (Vec<(usize, usize)>, usize) {
    let mut out = Vec::new();
    let mut start = from;
    loop {
        let mut end = start + 1;
        while end < bytes.len() && continues_name(bytes[end]) {
            end += 1;
        }
        out.push((start, end));
        // `.x` or `?.x` continues the name.
        let dot = match bytes.get(end..end + 2) {
            Some([b'?', b'.']) => end + 2,
            _ if bytes.get(end) == Some(&b'.') => end + 1,
            _ => return (out, end),
        };
        match bytes.get(dot) {
            Some(&b) if starts_name(b) => start = dot,
            _ => return (out, end),
        }
    }
}

/// The byte after the string literal opening at `from` (backslash
/// escapes skipped); the end of the text when it is not closed.
fn string_end(bytes: &[u8], from: usize) -> usize {
    let quote = bytes[from];
    let mut i = from + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn previous_significant(bytes: &[u8], at: usize) -> Option<u8> {
    bytes[..at].iter().rev().find(|b| !b.is_ascii_whitespace()).copied()
}

fn next_significant(bytes: &[u8], at: usize) -> Option<u8> {
    bytes[at..].iter().find(|b| !b.is_ascii_whitespace()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (expression, the names it reads).
    const READS: &[(&str, &[&str])] = &[
        ("cluster.workers.count", &["cluster.workers.count"]),
        ("a ?? 'b.c'", &["a"]),
        ("\"x \\\" y.z\" + w", &["w"]),
        ("jsonnet(\"../c.jsonnet\")", &[]),
        ("cidrsubnets(network.cidr ?? \"10.0.0.0/16\", 8, 8)", &["network.cidr"]),
        ("resources.queues[0].spec.queueName", &["resources.queues"]),
        ("f(x).y + 1.5", &["x"]),
        ("dev ? 'nginx/debug' : ''", &["dev"]),
        ("a.b.", &["a.b"]),
        ("'unclosed a.b", &[]),
        ("é + ü.v", &[]),
        ("a != null and not (b in [true, nil]) || c.true", &["a", "b", "c.true"]),
    ];

    #[test]
    fn names_are_read_outside_strings_calls_and_members() {
        for &(source, want) in READS {
            let found: Vec<String> = names(source, 0).into_iter().map(|n| n.path).collect();
            assert_eq!(found, want, "{source}");
        }
    }

    #[test]
    fn segments_say_where_each_part_is() {
        let n = &names("  x?.yy.z", 100)[0];
        assert_eq!(n.segments, [(102, 103), (105, 107), (108, 109)]);
        assert_eq!(n.span(), (102, 109));
        assert_eq!(n.segment_at(106), Some(1));
        assert_eq!(n.segment_at(50), None);
        assert_eq!(n.prefix(2), "x.yy");
    }
}
