//! YAML parser events, read quickly where the text allows.
//!
//! Templates and blueprints are nearly always plain block YAML: mappings
//! and sequences laid out by indentation, one-line scalars, comments and
//! the odd one-line flow collection. [`events`] reads such text with a
//! small line scanner that yields exactly the events and spans
//! `saphyr_parser_bw` yields for it, far faster; for any other text (or
//! anything the scanner is not sure of) it hands over to the parser from
//! the start, so errors and unusual documents behave as the parser has them.
//!
//! The scanner reads: block mappings and sequences (with `- key: value`
//! items, empty values and sequences indented like their key), plain,
//! single- and double-quoted scalars on one line, literal and folded block
//! scalars (`|`, `|-`, `>`, `>-`) whose first line is not empty,
//! comments, a `---` opening the document, and flow collections of
//! one-line scalars opened and closed on one line. It declines tabs,
//! carriage returns, anchors, aliases, tags, multi-line plain and quoted
//! scalars, other block scalar headers, directives, several documents,
//! explicit keys and the rarer escapes.
//!
//! `scanned` (what the scanner yields, how far it reads) and `lines` are
//! leaves; `scalars` and `block_scalar` read scalars off lines; `flow`
//! and `block` read collections with them. Nothing here imports the rest
//! of the runtime.

mod block;
mod block_scalar;
mod flow;
mod lines;
mod scalars;
mod scanned;

use saphyr_parser_bw::{Event, Parser, ScanError, Span, StrInput};

/// The events of one YAML text, read by the scanner or by the parser.
pub struct Events<'t>(Source<'t>);

enum Source<'t> {
    Scanned(std::vec::IntoIter<(Event<'t>, Span)>),
    Parser(Box<Parser<'t, StrInput<'t>>>),
}

/// The parser's events for `text`, as `Parser::new_from_str(text)` yields
/// them (events, spans, errors), read by the fast scanner when it can.
///
/// ```
/// use bpvm_runtime::yaml_events::events;
/// use saphyr_parser_bw::Parser;
/// let text = "a: 1\nb:\n  - x\n";
/// let fast: Vec<_> = events(text).map(Result::unwrap).collect();
/// let parsed: Vec<_> = Parser::new_from_str(text).map(Result::unwrap).collect();
/// assert_eq!(fast, parsed);
/// ```
pub fn events(text: &str) -> Events<'_> {
    match block::scan(text) {
        Some(scanned) => Events(Source::Scanned(scanned.into_iter())),
        None => Events(Source::Parser(Box::new(Parser::new_from_str(text)))),
    }
}

/// The scanner alone: the events of `text`, or `None` when the scanner
/// leaves it to the parser. For tests that compare the two.
pub fn scanned(text: &str) -> Option<Vec<(Event<'_>, Span)>> {
    block::scan(text)
}

impl<'t> Iterator for Events<'t> {
    type Item = Result<(Event<'t>, Span), ScanError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            Source::Scanned(events) => events.next().map(Ok),
            Source::Parser(parser) => parser.next(),
        }
    }
}
