//! Evaluation failures, and how they are described against the source.

use crate::program::Program;
use bpvm_runtime::ops::OpError;
use bpvm_runtime::{Diagnostic, FnError, Kind, excerpt};

/// An evaluation failure at instruction `ip`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunError {
    /// The failing instruction.
    pub ip: usize,
    /// What went wrong.
    pub fault: Fault,
}

/// What went wrong, before it is put in words against the source.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// A boolean position got something else.
    NeedBool(&'static str),
    /// An operator's operands did not fit.
    Op(OpError),
    /// A strict path or index named a key that is not there.
    Missing(String),
    /// A member was read from something that has no members.
    NoMembers {
        /// The key asked for.
        key: String,
        /// What the value was instead.
        got: Kind,
    },
    /// A list or string index is out of range.
    OutOfRange {
        /// The index asked for.
        index: i64,
        /// The list's length.
        len: usize,
    },
    /// An index of the wrong type (`None`: a slice), or into the wrong type.
    BadIndex {
        /// What the index was (`None`: a slice).
        index: Option<Kind>,
        /// What was indexed.
        base: Kind,
    },
    /// A function failed.
    Call(FnError),
    /// A predicate builtin was given something it cannot iterate.
    NotIterable(&'static str),
    /// A regular expression does not compile.
    Regex(String),
    /// A list or map was interpolated into text.
    ComplexText(Kind),
    /// The program pushed more values than its stack has slots (only a
    /// hand-built program whose `stack` is too small can).
    StackOverflow(usize),
    /// A loop built a value nested deeper than this many levels.
    TooDeep(usize),
    /// The evaluation used up its step budget, or its render ran past its
    /// deadline: the message says which and how to raise it.
    Governed(String),
}

impl Program {
    /// Puts a failure into words, pointing at the source it came from.
    pub fn diagnose(&self, err: &RunError) -> Diagnostic {
        let site = self.sites.get(err.ip).copied().unwrap_or_default();
        // Quoted source and keys are shortened: an operand can be a
        // chain of a million steps.
        let from = excerpt::clip(self.fault_text(err));
        let what = site.what;
        let name = |k: Kind| k.name(self.vocabulary);
        let message = match &err.fault {
            Fault::NeedBool(got) => format!("'{what}' needs a bool, got {got} (from '{from}')"),
            Fault::Op(OpError::Types(a, "")) => format!("'{what}' cannot be applied to {a}"),
            Fault::Op(OpError::Types(a, b)) => format!("'{what}' cannot be applied to {a} and {b}"),
            Fault::Op(OpError::Overflow) => format!("'{what}' overflows a 64-bit integer"),
            Fault::Op(OpError::DivideByZero) => format!("'{what}' divides by zero"),
            Fault::Op(OpError::NotFinite(x, y)) => {
                let (x, y) = (number(*x), number(*y));
                format!("'{what}' of {x} and {y} is not a finite number")
            }
            Fault::Op(OpError::Other(m)) => format!("'{what}' {m}"),
            Fault::Missing(path) => format!("'{}' does not exist", excerpt::clip(path)),
            Fault::NoMembers { key, got } => format!(
                "cannot read '{}' of {} (in '{from}')",
                excerpt::clip(key),
                a(name(*got))
            ),
            Fault::OutOfRange { index, len } => {
                format!("index {index} is out of range for length {len} (in '{from}')")
            }
            Fault::BadIndex {
                index: None,
                base: Kind::Nil,
            } => format!("cannot slice nil (in '{from}')"),
            Fault::BadIndex { index: None, base } => format!("cannot slice {} (in '{from}')", a(name(*base))),
            Fault::BadIndex {
                index: Some(index),
                base,
            } => format!("cannot index {} with {} (in '{from}')", a(name(*base)), a(name(*index))),
            Fault::Call(e) => e.text(self.vocabulary),
            Fault::NotIterable(got) => format!("'{what}' needs a list, got {got}"),
            Fault::Regex(e) => format!("'matches' has an invalid regular expression: {e}"),
            Fault::StackOverflow(n) => format!("the program needs more than {n} stack slots"),
            Fault::TooDeep(n) => format!("'{what}' builds a value nested too deeply (more than {n} levels)"),
            Fault::Governed(m) => format!("'{what}': {m}"),
            Fault::ComplexText(got) => {
                format!("{} cannot be interpolated into a string (from '{from}')", a(name(*got)))
            }
        };
        Diagnostic::new(message, &self.source, site.start as usize, site.end as usize)
    }
}

/// A number as text, like Go's `%v` (D4).
fn number(f: f64) -> String {
    let mut s = String::new();
    bpvm_runtime::text::push_float(&mut s, f);
    s
}

/// A type name with its article: "a map", "an int".
fn a(type_name: &str) -> String {
    let article = if type_name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {type_name}")
}

impl Program {
    /// The source a failure quotes: its instruction's, or for a path that
    /// a fused test could not read (`xs.mode == 'a'` with `xs` a list),
    /// the path's, as the unfused `Load` quotes it.
    fn fault_text(&self, err: &RunError) -> &str {
        let path_fault = matches!(
            err.fault,
            Fault::NoMembers { .. } | Fault::OutOfRange { .. } | Fault::BadIndex { .. } | Fault::Missing(_)
        );
        let path = match self.code.get(err.ip) {
            Some(
                crate::Op::JumpIf { path, .. } | crate::Op::JumpUnless { path, .. } | crate::Op::LoadOr { path, .. },
            ) => self.paths.get(usize::from(*path)),
            _ => None,
        };
        match path.filter(|_| path_fault) {
            Some(p) => self.source.get(p.span.0 as usize..p.span.1 as usize).unwrap_or(""),
            None => self.site_text(err.ip),
        }
    }
}
