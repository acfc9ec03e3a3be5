//! A YAML document built into a value straight from the parser's events:
//! lists and maps opened and closed, anchors kept for their aliases,
//! merge keys applied, keys checked, values counted.

use super::Typing;
use super::place::{At, Built, Error, at_byte, too_deep_words};
use super::scalar::{key_text, scalar, scalar_key};
use super::tag::TagKind;
use super::words;
use crate::bounds::limits::VALUE_DEPTH;
use crate::key::Key;
use crate::map::Map;
use crate::report::excerpt;
use crate::value::Value;
use saphyr_parser_bw::{Event, Marker, ScalarStyle, ScanError, Span, Tag};

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

pub(super) struct Builder<'t> {
    text: &'t str,
    stack: Vec<Open>,
    root: Option<Value>,
    /// By anchor id (the parser numbers anchors from 1); `None` while the
    /// anchored value is still being read.
    anchors: Vec<Option<Anchored>>,
    nodes: usize,
    max_nodes: usize,
    /// `max_nodes` is what the render has left, not the document's own
    /// limit: say so when it is reached.
    render_bound: bool,
    /// Where the last event ends.
    last_end: Marker,
    /// The last event started a document.
    after_document_start: bool,
    /// How plain scalars are typed.
    typing: Typing,
}

impl<'t> Builder<'t> {
    /// A builder for one document of `text` holding at most `max_nodes`
    /// values, and no more than the governed render it is read in has left
    /// (see [`crate::bounds::govern`]).
    pub(super) fn new(text: &'t str, max_nodes: usize, typing: Typing) -> Builder<'t> {
        let left = crate::bounds::govern::values_left();
        Builder {
            text,
            stack: Vec::new(),
            root: None,
            anchors: Vec::new(),
            nodes: 0,
            max_nodes: max_nodes.min(left),
            render_bound: left < max_nodes,
            last_end: Marker::new(0, 1, 0).with_byte_offset(Some(0)),
            after_document_start: false,
            typing,
        }
    }

    /// The document read (null when it is empty), its values counted
    /// into the render it is read in.
    pub(super) fn finish(self) -> Value {
        // Within what the render had left: cannot fail.
        let _ = crate::bounds::govern::add_values(self.nodes);
        self.root.unwrap_or(Value::Null)
    }

    pub(super) fn event(&mut self, event: Event<'_>, span: &Span) -> Built<()> {
        let at = At::of(&span.start);
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
                let at = match implied {
                    true => self.implied_at(
                        at,
                        &from,
                        &span.start,
                        tag.is_some() || anchor > 0,
                        after_document_start,
                    ),
                    false => at,
                };
                self.node_starts(at, 1, false)?;
                let tag = self.tag(tag.as_deref(), &from, &span.start, at)?;
                self.on_scalar(&value, style, anchor, tag, at)
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                let is_map = matches!(event, Event::MappingStart(..));
                self.node_starts(at, 1, false)?;
                let tag = self.tag(tag.as_deref(), &from, &span.start, at)?;
                self.on_open(is_map, anchor, tag, at, &span.start)
            }
            Event::SequenceEnd | Event::MappingEnd => self.on_close(),
            Event::Alias(id) => self.on_alias(id, at),
            Event::DocumentStart(explicit) => {
                self.after_document_start = explicit;
                Ok(())
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => Ok(()),
        }
    }

    /// Where an empty value (`a:`, `- `) is: the parser puts it where the
    /// next token starts; bpvm has always named the place after its tag
    /// or anchor, or after the `---` of its document.
    #[inline]
    fn implied_at(&self, at: At, from: &Marker, to: &Marker, has_property: bool, after_document_start: bool) -> At {
        if has_property && let Some((_, end)) = self.property(from, to, b"!&") {
            return at_byte(self.text, from, end);
        }
        if after_document_start {
            return At::of(from);
        }
        at
    }

    /// A scalar read: a key of the map being read, or a value.
    #[inline]
    fn on_scalar(
        &mut self,
        value: &str,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<(TagKind, String)>,
        at: At,
    ) -> Built<()> {
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
            return self.on_scalar_key(value, style, kind, anchor, at);
        }
        let v = scalar(value, style, kind, self.typing, at)?;
        if anchor > 0 {
            self.anchor(anchor, v.clone(), at, 1, 0);
        }
        self.push(v, at, 0)
    }

    /// A scalar key: its text is all a map keeps.
    #[inline]
    fn on_scalar_key(&mut self, value: &str, style: ScalarStyle, kind: TagKind, anchor: usize, at: At) -> Built<()> {
        if value == "<<" && (kind == TagKind::Merge || kind == TagKind::None && style == ScalarStyle::Plain) {
            if anchor > 0 {
                self.anchor(anchor, Value::Str("<<".into()), at, 1, 0);
            }
            return self.set_key(Pending::Merge, at, None);
        }
        let key = scalar_key(value, style, kind, self.typing, at)?;
        if anchor > 0 {
            let v = scalar(value, style, kind, self.typing, at)?;
            self.anchor(anchor, v, at, 1, 0);
        }
        self.set_key(Pending::Key(key), at, Some(value))
    }

    /// A list or map opens at `at` (`start`, in the text).
    #[inline]
    fn on_open(
        &mut self,
        is_map: bool,
        anchor: usize,
        tag: Option<(TagKind, String)>,
        at: At,
        start: &Marker,
    ) -> Built<()> {
        if let Some((kind, spelled)) = tag {
            collection_tag(kind, &spelled, is_map, at)?;
        }
        if self.stack.len() >= VALUE_DEPTH {
            return Err(Error::new(at, too_deep_words()));
        }
        let first = start.byte_offset().and_then(|i| self.text.as_bytes().get(i)).copied();
        let merge = !is_map && self.in_merge();
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

    /// True when a list opening now is a merge key's value, or inside one.
    fn in_merge(&self) -> bool {
        match self.stack.last() {
            Some(Open {
                kind: OpenKind::Map { key, .. },
                ..
            }) => matches!(key, Some(Pending::Merge)),
            Some(Open {
                kind: OpenKind::List { merge, .. },
                ..
            }) => *merge,
            None => false,
        }
    }

    /// The innermost list or map closes: its value, merged maps applied,
    /// goes where it belongs.
    #[inline]
    fn on_close(&mut self) -> Built<()> {
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

    /// An alias (`*name`): its anchor's value again, counted again.
    #[inline]
    fn on_alias(&mut self, id: usize, at: At) -> Built<()> {
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

    fn tag(&self, tag: Option<&Tag>, from: &Marker, to: &Marker, at: At) -> Built<Option<(TagKind, String)>> {
        let Some(tag) = tag else {
            return Ok(None);
        };
        if tag.suffix.is_empty() {
            let at = match self.property(from, to, b"!") {
                Some((start, _)) => at_byte(self.text, from, start),
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
                    "{}{}",
                    match self.render_bound {
                        true => crate::bounds::govern::too_many_values(),
                        false => format!("the document holds more than {} values", self.max_nodes),
                    },
                    if alias && !self.render_bound {
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

    /// The parser's error in bpvm's words.
    pub(super) fn scan_words(&self, e: &ScanError) -> String {
        words::scan_words(self.text, &self.last_end, self.flow_opens(), e)
    }

    /// The lists and maps in brackets being read, outermost first: the
    /// bracket each opens with, and where.
    fn flow_opens(&self) -> impl Iterator<Item = (u8, At)> + '_ {
        self.stack.iter().filter(|o| o.flow).map(|o| {
            (
                if matches!(o.kind, OpenKind::Map { .. }) {
                    b'{'
                } else {
                    b'['
                },
                o.at,
            )
        })
    }
}

/// Refuses a tag a list (or, `is_map`, a map) cannot have.
fn collection_tag(kind: TagKind, spelled: &str, is_map: bool, at: At) -> Built<()> {
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
    Ok(())
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
