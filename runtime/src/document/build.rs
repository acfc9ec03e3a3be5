//! YAML documents built into values straight from the parser's events.
//!
//! Scalars are typed by the YAML 1.2 core schema as bpvm has always read
//! them (see [`plain`]); anchors and aliases, merge keys (`<<`) and the
//! core tags are honoured. Every limit of [`crate::document`] holds: at
//! most [`VALUE_DEPTH`] levels, at most a given number of values (aliases
//! count what they expand to, so an alias bomb stops at the limit, not
//! after it has been built), one document, no key given twice.

use crate::excerpt;
use crate::key::Key;
use crate::limits::VALUE_DEPTH;
use crate::map::Map;
use crate::value::Value;
use saphyr_parser_bw::{Event, Marker, ScalarStyle, ScanError, Span, Tag};

/// What a reader is told when a document goes past [`VALUE_DEPTH`].
pub(crate) const TOO_DEEP: &str = "document nested too deeply";

/// The message for a document nested past [`VALUE_DEPTH`], at `line:column`.
pub(crate) fn too_deep(line: usize, column: usize) -> String {
    format!("{line}:{column}: {TOO_DEEP} (more than {VALUE_DEPTH} levels)")
}

/// Reads one YAML document holding at most `max_nodes` values.
pub(crate) fn read(text: &str, max_nodes: usize) -> Result<Value, String> {
    // Byte order marks before the document are no part of it.
    let text = text.trim_start_matches('\u{feff}');
    let mut b = Builder {
        text,
        stack: Vec::new(),
        root: None,
        anchors: Vec::new(),
        nodes: 0,
        max_nodes,
        last_end: Marker::new(0, 1, 0).with_byte_offset(Some(0)),
        after_document_start: false,
    };
    for next in crate::yaml_events::events(text) {
        let (event, span) = next.map_err(|e| b.scan_words(&e))?;
        b.event(event, &span).map_err(|e| e.to_string())?;
    }
    Ok(b.root.unwrap_or(Value::Null))
}

/// A place in the text: line and column, both from 1.
#[derive(Clone, Copy, Debug)]
struct At {
    line: usize,
    col: usize,
}

impl At {
    fn of(m: &Marker) -> At {
        At {
            line: m.line(),
            col: m.col() + 1,
        }
    }
}

/// An error at a place; shown as `line:column: message`.
struct Error {
    at: At,
    message: String,
}

impl Error {
    fn new(at: At, message: impl Into<String>) -> Error {
        Error {
            at,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.at.line, self.at.col, self.message)
    }
}

type Built<T> = Result<T, Error>;

/// A value an anchor (`&name`) names, ready for its aliases (`*name`).
struct Anchored {
    value: Value,
    /// Where the anchored value starts.
    at: At,
    /// How many values it holds, itself included.
    nodes: usize,
    /// How many levels of lists and maps it has (0 for a scalar).
    levels: usize,
}

/// A list or map being read.
struct Open {
    at: At,
    anchor: usize,
    /// Values read before this one.
    nodes_before: usize,
    /// The most levels a value inside has.
    inner_levels: usize,
    /// Written with brackets (`[…]`, `{…}`).
    flow: bool,
    kind: OpenKind,
}

enum OpenKind {
    /// A list; `merge` when it is the value of a merge key (`<<: [*a, *b]`)
    /// or inside one.
    List { items: Vec<Value>, merge: bool },
    Map {
        entries: Vec<(Key, Value)>,
        /// Looks keys up once a map is too long to scan.
        index: Option<Map>,
        /// The key read, waiting for its value.
        key: Option<Pending>,
        /// Maps named by merge keys, first one first.
        merges: Vec<Map>,
    },
}

enum Pending {
    Key(Key),
    Merge,
}

/// From this many entries on, a map being read looks its keys up in a hash index.
const SCAN_UP_TO: usize = 12;

struct Builder<'t> {
    text: &'t str,
    stack: Vec<Open>,
    root: Option<Value>,
    /// By anchor id (the parser numbers anchors from 1); `None` while the
    /// anchored value is still being read.
    anchors: Vec<Option<Anchored>>,
    nodes: usize,
    max_nodes: usize,
    /// Where the last event ends.
    last_end: Marker,
    /// The last event started a document.
    after_document_start: bool,
}

impl Builder<'_> {
    fn event(&mut self, event: Event<'_>, span: &Span) -> Built<()> {
        let mut at = At::of(&span.start);
        let from = self.last_end;
        // A value left out (`a:`, `- `) is an empty or `~` scalar whose
        // span is the token after it.
        let implied = match &event {
            Event::Scalar(value, ScalarStyle::Plain, ..) => {
                value.is_empty()
                    || value == "~" && span.start.byte_offset().and_then(|i| self.text.as_bytes().get(i)) != Some(&b'~')
            }
            _ => false,
        };
        let end = if implied { span.start } else { span.end };
        if end.byte_offset() >= self.last_end.byte_offset() {
            self.last_end = end;
        }
        let after_document_start = std::mem::replace(&mut self.after_document_start, false);
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                if implied {
                    // The parser puts an empty value where the next token
                    // starts; bpvm has always named the place after its
                    // tag or anchor, or after the `---` of its document.
                    if (tag.is_some() || anchor > 0)
                        && let Some((_, end)) = self.property(&from, &span.start, b"!&")
                    {
                        at = self.at_byte(&from, end);
                    } else if after_document_start {
                        at = At::of(&from);
                    }
                }
                self.node_starts(at, 1, false)?;
                let tag = self.tag(tag.as_deref(), &from, &span.start, at)?;
                if let Some((kind, tag)) = tag.as_ref()
                    && matches!(kind, TagKind::Seq | TagKind::Map)
                {
                    return Err(Error::new(at, format!("unsupported tag `{tag}`")));
                }
                let kind = tag.map_or(TagKind::None, |(k, _)| k);
                if style == ScalarStyle::Plain && value.starts_with('\u{feff}') {
                    return Err(Error::new(at, "a BOM must not appear inside a document"));
                }
                if let Some(Open {
                    kind: OpenKind::Map { key: None, .. },
                    ..
                }) = self.stack.last()
                {
                    // A key: its text is all a map keeps.
                    if value == "<<" && (kind == TagKind::Merge || kind == TagKind::None && style == ScalarStyle::Plain)
                    {
                        if anchor > 0 {
                            self.anchor(anchor, Value::Str("<<".into()), at, 1, 0);
                        }
                        return self.set_key(Pending::Merge, at, None);
                    }
                    let key = scalar_key(&value, style, kind, at)?;
                    if anchor > 0 {
                        let v = scalar(&value, style, kind, at)?;
                        self.anchor(anchor, v, at, 1, 0);
                    }
                    return self.set_key(Pending::Key(key), at, Some(&value));
                }
                let v = scalar(&value, style, kind, at)?;
                if anchor > 0 {
                    self.anchor(anchor, v.clone(), at, 1, 0);
                }
                self.push(v, at, 0)
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                let is_map = matches!(event, Event::MappingStart(..));
                self.node_starts(at, 1, false)?;
                if let Some((kind, spelled)) = self.tag(tag.as_deref(), &from, &span.start, at)? {
                    let fits = match kind {
                        TagKind::None | TagKind::NonSpecific | TagKind::Other => true,
                        TagKind::Seq => !is_map,
                        TagKind::Map => is_map,
                        TagKind::Include => {
                            return Err(Error::new(
                                at,
                                "!include currently only supports the scalar form: !include <path>",
                            ));
                        }
                        _ => false,
                    };
                    if !fits {
                        return Err(Error::new(at, format!("unsupported tag `{spelled}`")));
                    }
                }
                if self.stack.len() >= VALUE_DEPTH {
                    return Err(Error::new(at, too_deep_words()));
                }
                let first = span
                    .start
                    .byte_offset()
                    .and_then(|i| self.text.as_bytes().get(i))
                    .copied();
                let merge = !is_map
                    && match self.stack.last() {
                        Some(Open {
                            kind: OpenKind::Map { key, .. },
                            ..
                        }) => matches!(key, Some(Pending::Merge)),
                        Some(Open {
                            kind: OpenKind::List { merge, .. },
                            ..
                        }) => *merge,
                        None => false,
                    };
                if anchor > 0 {
                    self.reserve_anchor(anchor);
                }
                self.stack.push(Open {
                    at,
                    anchor,
                    nodes_before: self.nodes - 1,
                    inner_levels: 0,
                    flow: first == Some(if is_map { b'{' } else { b'[' }),
                    kind: if is_map {
                        OpenKind::Map {
                            entries: Vec::new(),
                            index: None,
                            key: None,
                            merges: Vec::new(),
                        }
                    } else {
                        OpenKind::List {
                            items: Vec::new(),
                            merge,
                        }
                    },
                });
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(open) = self.stack.pop() else {
                    return Ok(());
                };
                let levels = open.inner_levels + 1;
                let value = match open.kind {
                    OpenKind::List { items, .. } => Value::List(items),
                    OpenKind::Map {
                        entries, index, merges, ..
                    } => {
                        let mut map = match index {
                            Some(map) => map,
                            None => Map::from_distinct(entries),
                        };
                        // Keys written win over merged ones, and earlier
                        // merged maps over later ones.
                        for merged in merges {
                            for (k, v) in merged.iter() {
                                if !map.contains_key(k.as_str()) {
                                    map.insert(k.clone(), v.clone());
                                }
                            }
                        }
                        Value::Map(map)
                    }
                };
                if open.anchor > 0 {
                    let nodes = self.nodes - open.nodes_before;
                    self.anchor(open.anchor, value.clone(), open.at, nodes, levels);
                }
                self.push(value, open.at, levels)
            }
            Event::Alias(id) => {
                let Some(Some(a)) = self.anchors.get(id) else {
                    return Err(Error::new(
                        at,
                        "an alias (*name) cannot stand inside the value its anchor (&name) names",
                    ));
                };
                if self.stack.len() + a.levels > VALUE_DEPTH {
                    return Err(Error::new(at, too_deep_words()));
                }
                let (nodes, levels, from) = (a.nodes, a.levels, a.at);
                self.node_starts(at, nodes, true)?;
                let Some(Some(a)) = self.anchors.get(id) else {
                    return Ok(());
                };
                let value = a.value.clone();
                self.push(value, from, levels)
            }
            Event::DocumentStart(explicit) => {
                self.after_document_start = explicit;
                Ok(())
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => Ok(()),
        }
    }

    /// The kind of a node's tag and the tag as written; a tag with nothing
    /// after its handle (`!!`, `!<>`) is refused where it is written.
    fn tag(&self, tag: Option<&Tag>, from: &Marker, to: &Marker, at: At) -> Built<Option<(TagKind, String)>> {
        let Some(tag) = tag else {
            return Ok(None);
        };
        if tag.suffix.is_empty() {
            let at = match self.property(from, to, b"!") {
                Some((start, _)) => self.at_byte(from, start),
                None => at,
            };
            return Err(Error::new(at, "while parsing a tag, did not find expected tag URI"));
        }
        Ok(Some(TagKind::of(tag)))
    }

    /// The last tag or anchor (a word starting with one of `starts`)
    /// written between two places, comments skipped: its start and end.
    fn property(&self, from: &Marker, to: &Marker, starts: &[u8]) -> Option<(usize, usize)> {
        let (from, to) = (from.byte_offset()?, to.byte_offset()?);
        let bytes = self.text.as_bytes().get(from..to)?;
        let mut found = None;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'#' {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            if is_separator(b) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && !is_separator(bytes[i]) {
                i += 1;
            }
            if starts.contains(&b) {
                found = Some((from + start, from + i));
            }
        }
        found
    }

    /// The place of byte `at`, at or after `from`.
    fn at_byte(&self, from: &Marker, at: usize) -> At {
        let start = from.byte_offset().unwrap_or(0);
        let mut place = At::of(from);
        for c in self.text.get(start..at).unwrap_or("").chars() {
            if c == '\n' {
                place.line += 1;
                place.col = 1;
            } else {
                place.col += 1;
            }
        }
        place
    }

    /// Counts `n` values starting at `at` (an alias's when `alias`):
    /// refused past the limit, or as the start of a second document.
    fn node_starts(&mut self, at: At, n: usize, alias: bool) -> Built<()> {
        if self.stack.is_empty() && self.root.is_some() {
            return Err(Error::new(
                at,
                "a second YAML document starts here; the file must hold one document",
            ));
        }
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > self.max_nodes {
            return Err(Error::new(
                at,
                format!(
                    "the document holds more than {} values{}",
                    self.max_nodes,
                    if alias {
                        " (an alias counts the values it repeats)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        Ok(())
    }

    fn reserve_anchor(&mut self, id: usize) {
        if self.anchors.len() <= id {
            self.anchors.resize_with(id + 1, || None);
        }
        self.anchors[id] = None;
    }

    fn anchor(&mut self, id: usize, value: Value, at: At, nodes: usize, levels: usize) {
        self.reserve_anchor(id);
        self.anchors[id] = Some(Anchored {
            value,
            at,
            nodes,
            levels,
        });
    }

    /// A mapping key read: refused when the map has it already. The
    /// message shows `written`, the key as written when it is a scalar.
    fn set_key(&mut self, key: Pending, at: At, written: Option<&str>) -> Built<()> {
        let Some(Open {
            kind:
                OpenKind::Map {
                    entries,
                    index,
                    key: pending,
                    ..
                },
            ..
        }) = self.stack.last_mut()
        else {
            return Ok(());
        };
        if let Pending::Key(k) = &key {
            let seen = match index {
                Some(map) => map.contains_key(k.as_str()),
                None => entries.iter().any(|(e, _)| e == k),
            };
            if seen {
                return Err(Error::new(
                    at,
                    match written {
                        Some(w) => format!("duplicate key {:?}", excerpt::clip(w)),
                        None => "duplicate key".to_string(),
                    },
                ));
            }
        }
        *pending = Some(key);
        Ok(())
    }

    /// A value read, starting at `at` and `levels` deep, put where it goes.
    fn push(&mut self, value: Value, at: At, levels: usize) -> Built<()> {
        let Some(open) = self.stack.last_mut() else {
            self.root = Some(value);
            return Ok(());
        };
        open.inner_levels = open.inner_levels.max(levels);
        if matches!(open.kind, OpenKind::Map { key: None, .. }) {
            let written = match &value {
                Value::List(_) | Value::Map(_) => None,
                _ => Some(key_text(value.clone())),
            };
            return self.set_key(Pending::Key(key_text(value)), at, written.as_ref().map(Key::as_str));
        }
        match &mut open.kind {
            OpenKind::List { items, merge } => {
                if *merge && !matches!(value, Value::Map(_) | Value::Null | Value::List(_)) {
                    return Err(not_mergeable(at));
                }
                items.push(value);
            }
            OpenKind::Map {
                entries,
                index,
                key,
                merges,
            } => match key.take() {
                Some(Pending::Key(k)) => match index {
                    Some(map) => {
                        map.insert(k, value);
                    }
                    None => {
                        entries.push((k, value));
                        if entries.len() > SCAN_UP_TO {
                            *index = Some(Map::from_distinct(std::mem::take(entries)));
                        }
                    }
                },
                Some(Pending::Merge) => mergeable(value, merges, at)?,
                // A key read is set above.
                None => {}
            },
        }
        Ok(())
    }

    /// The first of these in brackets from byte `from` on: a `[` or `{`
    /// more than [`VALUE_DEPTH`] brackets deep before byte `to`, or a
    /// bracket closed by the other kind before the end of the line of
    /// `to`. Brackets open in the values being read count; quoted text
    /// and comments are skipped.
    fn flow_trouble(&self, from: usize, to: usize) -> Option<String> {
        let text = self.text;
        let line_end = text
            .get(to..)
            .map_or(text.len(), |rest| to + rest.find('\n').unwrap_or(rest.len()));
        let bytes = text.as_bytes().get(from..line_end)?;
        let mut open: Vec<(u8, At)> = self
            .stack
            .iter()
            .filter(|o| o.flow)
            .map(|o| {
                (
                    if matches!(o.kind, OpenKind::Map { .. }) {
                        b'{'
                    } else {
                        b'['
                    },
                    o.at,
                )
            })
            .collect();
        let place = |i: usize| {
            let (line, col) = line_col(text, from + i);
            At { line, col }
        };
        let mut i = 0;
        let mut prev = b' ';
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'[' | b'{' => {
                    open.push((b, place(i)));
                    if open.len() > VALUE_DEPTH && from + i < to {
                        let at = place(i);
                        return Some(too_deep(at.line, at.col));
                    }
                }
                b']' | b'}' => {
                    if let Some((opened, at)) = open.pop()
                        && opened != if b == b']' { b'[' } else { b'{' }
                    {
                        return Some(format!(
                            "{}:{}: mismatched bracket '{}' closed by '{}'",
                            at.line, at.col, opened as char, b as char
                        ));
                    }
                }
                b'\'' | b'"' if matches!(prev, b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b',' | b':') => {
                    i += 1;
                    while i < bytes.len() {
                        match bytes[i] {
                            b'\\' if b == b'"' => i += 1,
                            q if q == b => {
                                if b == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                                    i += 1;
                                } else {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                }
                b'#' if matches!(prev, b' ' | b'\t' | b'\n' | b'\r') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => {}
            }
            prev = bytes.get(i).copied().unwrap_or(b' ');
            i += 1;
        }
        None
    }
}

/// The maps a merge key's value names, in order: a map, a list of them
/// (lists inside taken in turn), null for none.
fn mergeable(value: Value, merges: &mut Vec<Map>, at: At) -> Built<()> {
    match value {
        Value::Map(m) => merges.push(m),
        Value::Null => {}
        Value::List(items) => {
            for item in items {
                mergeable(item, merges, at)?;
            }
        }
        _ => return Err(not_mergeable(at)),
    }
    Ok(())
}

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b',' | b'[' | b']' | b'{' | b'}')
}

fn not_mergeable(at: At) -> Error {
    Error::new(at, "YAML merge value must be mapping or sequence of mappings")
}

fn too_deep_words() -> String {
    format!("{TOO_DEEP} (more than {VALUE_DEPTH} levels)")
}

/// The text a map keeps for a key: text as is, `null` for null, other
/// values as text.
fn key_text(value: Value) -> Key {
    match value {
        Value::Str(s) => Key::new(&s),
        Value::Null => Key::new("null"),
        other => Key::new(&crate::text::to_text(&other)),
    }
}

/// The key text of a scalar key, without building a value for text.
fn scalar_key(text: &str, style: ScalarStyle, kind: TagKind, at: At) -> Built<Key> {
    if kind == TagKind::None && style == ScalarStyle::Plain && !maybe_typed(text) {
        return Ok(Key::new(text));
    }
    if style != ScalarStyle::Plain
        && matches!(
            kind,
            TagKind::None | TagKind::Other | TagKind::String | TagKind::NonSpecific
        )
    {
        return Ok(Key::new(text));
    }
    Ok(key_text(scalar(text, style, kind, at)?))
}

/// What a tag asks for, by the YAML core schema and the tags bpvm has
/// always recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagKind {
    None,
    /// `!`: the text as it is.
    NonSpecific,
    Null,
    Bool,
    Int,
    Float,
    String,
    Seq,
    Map,
    Binary,
    TimeStamp,
    /// `!time`, `!degrees`, `!radians`: floats with units bpvm does not read.
    Unit,
    Merge,
    Value,
    Include,
    /// Any other tag: the value is read as if untagged.
    Other,
}

const YAML_TAGS: &str = "tag:yaml.org,2002:";

impl TagKind {
    /// The kind of `tag`, and the tag as written (for messages).
    fn of(tag: &Tag) -> (TagKind, String) {
        let full = format!("{}{}", tag.handle, tag.suffix);
        let spelled = if tag.handle == YAML_TAGS {
            format!("!!{}", tag.suffix)
        } else if tag.handle == "!" {
            format!("!{}", tag.suffix)
        } else if tag.handle.is_empty() && tag.suffix == "!" {
            "!".to_string()
        } else if tag.handle.is_empty() {
            format!("!<{}>", tag.suffix)
        } else {
            full.clone()
        };
        (TagKind::classify(&full), spelled)
    }

    fn classify(full: &str) -> TagKind {
        for include in ["!include", "tag:yaml.org,2002:include", "tag:yaml.org,2002:!include"] {
            if let Some(rest) = full.strip_prefix(include)
                && (rest.is_empty() || rest.starts_with('#'))
            {
                return TagKind::Include;
            }
        }
        if let Some(name) = full.strip_prefix(YAML_TAGS) {
            if let Some(kind) = TagKind::core(name) {
                return kind;
            }
            return match name {
                "merge" => TagKind::Merge,
                "value" => TagKind::Value,
                _ => TagKind::named(name.strip_prefix('!').unwrap_or(name)),
            };
        }
        match full.strip_prefix('!') {
            Some("" | "!") => TagKind::NonSpecific,
            Some("!timestamp") => TagKind::TimeStamp,
            Some("!binary") => TagKind::Binary,
            Some(name) => match name.strip_prefix('!') {
                Some(core) => TagKind::core(core).unwrap_or(TagKind::Other),
                None => TagKind::named(name),
            },
            None => TagKind::Other,
        }
    }

    fn core(name: &str) -> Option<TagKind> {
        Some(match name {
            "null" => TagKind::Null,
            "bool" => TagKind::Bool,
            "int" => TagKind::Int,
            "float" => TagKind::Float,
            "map" => TagKind::Map,
            "seq" => TagKind::Seq,
            "str" => TagKind::String,
            _ => return None,
        })
    }

    fn named(name: &str) -> TagKind {
        match name {
            "timestamp" => TagKind::TimeStamp,
            "time" | "degrees" | "radians" => TagKind::Unit,
            "binary" => TagKind::Binary,
            "include" => TagKind::Include,
            other => TagKind::core(other).unwrap_or(TagKind::Other),
        }
    }
}

/// A scalar's value by its style and tag.
fn scalar(text: &str, style: ScalarStyle, kind: TagKind, at: At) -> Built<Value> {
    let not_finite = |_| {
        Error::new(
            at,
            format!("{} is not a finite number (numbers stay finite)", excerpt::clip(text)),
        )
    };
    Ok(match kind {
        TagKind::None | TagKind::Other | TagKind::Merge | TagKind::Value | TagKind::Include => {
            if style == ScalarStyle::Plain {
                plain(text).map_err(not_finite)?
            } else {
                Value::Str(text.into())
            }
        }
        TagKind::NonSpecific | TagKind::String => Value::Str(text.into()),
        TagKind::Null => Value::Null,
        TagKind::Bool => match core_bool(trim(text)) {
            Some(b) => Value::Bool(b),
            None => return Err(Error::new(at, "invalid boolean (strict mode expects true/false)")),
        },
        TagKind::Int => {
            let t = trim(text);
            if t.starts_with('-') {
                match signed(t) {
                    Some(i) => Value::Int(i),
                    None => return Err(Error::new(at, "invalid i64")),
                }
            } else {
                match unsigned(t) {
                    Some(u) => from_u64(u),
                    None => return Err(Error::new(at, "invalid u64")),
                }
            }
        }
        TagKind::Float => match float(text) {
            Some(Ok(f)) => Value::Float(f),
            Some(Err(e)) => return Err(not_finite(e)),
            None => return Err(Error::new(at, "invalid floating point")),
        },
        TagKind::Unit => return Err(Error::new(at, "invalid floating point")),
        TagKind::Binary => match base64(text) {
            None => return Err(Error::new(at, "invalid !!binary base64")),
            Some(bytes) => match String::from_utf8(bytes) {
                Ok(s) => Value::Str(s.into()),
                Err(_) => return Err(Error::new(at, "!!binary scalar is not valid UTF-8 text")),
            },
        },
        TagKind::TimeStamp | TagKind::Seq | TagKind::Map => {
            return Err(Error::new(at, "cannot deserialize tagged scalar into string"));
        }
    })
}

/// A number spelled as infinity or not-a-number, or too large for a float.
#[derive(Debug)]
struct NotFinite;

/// A plain (unquoted, untagged) scalar by the YAML 1.2 core schema, as
/// bpvm reads it:
///
/// - null: empty, `~`, `null`, `Null`, `NULL`;
/// - booleans: `true`/`false` (also `True`, `TRUE`, …), never `yes` or `on`;
/// - integers: decimal without a leading zero (`010` is read as the float
///   10), `0x`/`0o`/`0b` with an optional sign, single `_` between digits;
///   past 64 bits a float;
/// - floats as Rust spells them (`1.5`, `.5`, `1e3`); `.inf`, `.nan` and
///   overflowing numerals are [`NotFinite`];
/// - anything else is text.
fn plain(text: &str) -> Result<Value, NotFinite> {
    if !maybe_typed(text) {
        return Ok(Value::Str(text.into()));
    }
    if let "" | "~" | "null" | "Null" | "NULL" = text {
        return Ok(Value::Null);
    }
    let t = trim(text);
    if let Some(b) = core_bool(t) {
        return Ok(Value::Bool(b));
    }
    if t.starts_with('-') {
        if !leading_zero(t)
            && let Some(i) = signed(t)
        {
            return Ok(Value::Int(i));
        }
    } else if let Some(u) = unsigned(t) {
        return Ok(from_u64(u));
    }
    match float(text) {
        Some(f) => f.map(Value::Float),
        None => Ok(Value::Str(text.into())),
    }
}

/// False when `text` can only be text: it starts like no null, boolean
/// or number does.
fn maybe_typed(text: &str) -> bool {
    match text.as_bytes().first() {
        None => true,
        Some(b) => matches!(
            b,
            b'0'..=b'9'
                | b'+'
                | b'-'
                | b'.'
                | b'~'
                | b'n'
                | b'N'
                | b't'
                | b'T'
                | b'f'
                | b'F'
                | b' '
                | b'\t'
                | b'\r'
                | b'\n'
        ),
    }
}

fn trim(s: &str) -> &str {
    s.trim_matches([' ', '\t', '\r', '\n'])
}

fn core_bool(t: &str) -> Option<bool> {
    match t {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

fn from_u64(u: u64) -> Value {
    i64::try_from(u).map_or(Value::Float(u as f64), Value::Int)
}

/// `0127`, `+0127`, `-0127`: a decimal with a redundant leading zero.
fn leading_zero(t: &str) -> bool {
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The radix a number's prefix names, and its digits.
fn radix(rest: &str) -> (u32, &str) {
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] {
        if let Some(digits) = rest.strip_prefix(prefix) {
            return (radix, digits);
        }
    }
    (10, rest)
}

/// The digits' value; single `_` may stand between digits.
fn digits(digits: &str, radix: u32) -> Option<u128> {
    let bytes = digits.as_bytes();
    let mut value: u128 = 0;
    let mut any = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            if i == 0 || bytes[i - 1] == b'_' || i + 1 == bytes.len() || bytes[i + 1] == b'_' {
                return None;
            }
            continue;
        }
        let d = (b as char).to_digit(radix)?;
        value = value.checked_mul(u128::from(radix))?.checked_add(u128::from(d))?;
        any = true;
    }
    any.then_some(value)
}

/// An integer without a sign or with `+`.
fn unsigned(t: &str) -> Option<u64> {
    if t.starts_with('-') {
        return None;
    }
    let (radix, ds) = radix(t.strip_prefix('+').unwrap_or(t));
    if radix == 10 && ds.starts_with('0') && ds != "0" {
        return None;
    }
    u64::try_from(digits(ds, radix)?).ok()
}

/// An integer with an optional sign.
fn signed(t: &str) -> Option<i64> {
    let (negative, rest) = match t.strip_prefix('+') {
        Some(rest) => (false, rest),
        None => match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        },
    };
    let (radix, ds) = radix(rest);
    if radix == 10 && ds.starts_with('0') && ds != "0" {
        return None;
    }
    let magnitude = digits(ds, radix)?;
    let value = if negative {
        0i128.checked_sub_unsigned(magnitude)?
    } else {
        i128::try_from(magnitude).ok()?
    };
    i64::try_from(value).ok()
}

/// A float as YAML 1.2 and Rust spell it: `None` when `text` is no
/// float, [`NotFinite`] for `.inf`, `.nan` and numerals past `f64`.
fn float(text: &str) -> Option<Result<f64, NotFinite>> {
    let t = trim(text);
    let unsigned = match t.strip_prefix('-') {
        Some(rest) => rest,
        None => t.strip_prefix('+').unwrap_or(t),
    };
    if let ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" = unsigned {
        return Some(Err(NotFinite));
    }
    match t.parse::<f64>() {
        Ok(f) if f.is_finite() => Some(Ok(f)),
        Ok(f) if f.is_infinite() && unsigned.as_bytes().first().is_some_and(u8::is_ascii_digit) => Some(Err(NotFinite)),
        _ => None,
    }
}

/// The bytes of base64 text (`!!binary`); whitespace inside is skipped,
/// padding is required.
fn base64(text: &str) -> Option<Vec<u8>> {
    fn sextet(b: u8) -> Option<u32> {
        Some(u32::from(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if clean.len() % 4 != 0 {
        return None;
    }
    let chunks = clean.len() / 4;
    let mut out = Vec::with_capacity(chunks * 3);
    for (i, chunk) in clean.chunks_exact(4).enumerate() {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || pad > 0 && i + 1 != chunks {
            return None;
        }
        let a = sextet(chunk[0])?;
        let b = sextet(chunk[1])?;
        let c = if pad == 2 { 0 } else { sextet(chunk[2])? };
        let d = if pad >= 1 { 0 } else { sextet(chunk[3])? };
        if pad == 2 && b & 0x0F != 0 || pad == 1 && c & 0x03 != 0 {
            return None;
        }
        let triple = (a << 18) | (b << 12) | (c << 6) | d;
        out.push((triple >> 16) as u8);
        if pad < 2 {
            out.push((triple >> 8) as u8);
        }
        if pad == 0 {
            out.push(triple as u8);
        }
    }
    Some(out)
}

impl Builder<'_> {
    /// The parser's error in bpvm's words.
    fn scan_words(&self, e: &ScanError) -> String {
        let text = self.text;
        let read_up_to = self.last_end.byte_offset().unwrap_or(0);
        // The parser reads ahead of the events it gives, and words some
        // errors in brackets as other errors: a list or map in brackets
        // nested past the limit before the error is reported as too deep,
        // where it first went past the limit, and a bracket closed by the
        // other kind up to the end of the error's line as such.
        if let Some(end) = e.marker().byte_offset()
            && let Some(trouble) = self.flow_trouble(read_up_to, end)
        {
            return trouble;
        }
        let mut at = At::of(e.marker());
        let message = match e.info() {
            "recursion limit exceeded" => return too_deep(at.line, at.col),
            "while parsing node, found unknown anchor" => "alias references unknown anchor",
            info @ ("simple key expect ':'" | "simple key expected ':'" | "simple key expected") => {
                // The parser finds out on a later line: name the text
                // that wants a ':', the first after the last value read.
                at = self.at_byte(&self.last_end, next_token(text, read_up_to));
                if info == "simple key expect ':'" {
                    "simple key expected ':'"
                } else {
                    info
                }
            }
            "':' must be followed by a valid YAML whitespace" => "':' must be followed by a space here, not a tab",
            // The parser names double quotes for both kinds.
            "invalid trailing content after double-quoted scalar" if quoted_before(text, e.marker()) == Some(b'\'') => {
                "invalid trailing content after single-quoted scalar"
            }
            info => info,
        };
        format!("{}:{}: {message}", at.line, at.col)
    }
}

/// Where the first token at or after byte `from` starts that is not an
/// indicator (`:`, `-`, `?`): spaces, line breaks and comments skipped.
fn next_token(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let blank = |i: usize| bytes.get(i).is_none_or(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b':' | b'-' | b'?' if blank(i + 1) => i += 1,
            b'#' if i == 0 || blank(i - 1) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// The last character before `at` other than a space or tab.
fn quoted_before(text: &str, at: &Marker) -> Option<u8> {
    let before = text.as_bytes().get(..at.byte_offset()?)?;
    before.iter().rev().find(|&&b| b != b' ' && b != b'\t').copied()
}

/// Line and column (both from 1, the column in characters) of byte `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.bytes().filter(|&b| b == b'\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}
