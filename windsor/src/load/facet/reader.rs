//! The reader of one facet file: conditions, strategies, ordinals,
//! requirements and templates read where they stand, every problem
//! collected with its place rather than the first one returned.

use crate::error::Error;
use crate::fields::{Sink, Unknown, check_fields};
use crate::host::compiler_for;
use crate::kind::Strategy;
use crate::load::requires::Requirement;
use crate::template::condition::{Cond, condition};
use crate::template::tmpl::{Tmpl, TmplError};
use bpvm_runtime::{Map, Value};

/// Reads one file's facet, collecting every problem with its place.
pub(super) struct Reader<'f> {
    pub file: &'f str,
    pub v09: bool,
    pub errors: Vec<Error>,
    /// Fields of a newer Windsor (W13), each at its place.
    pub warnings: Vec<Error>,
}

impl Reader<'_> {
    pub(super) fn fail(&mut self, at: &str, message: impl Into<crate::Why>) {
        self.errors.push(Error::new(Some(self.file), at, message));
    }

    pub(super) fn when(&mut self, v: Option<&Value>, at: &str) -> Option<Cond> {
        let at = if at.is_empty() { String::new() } else { format!("{at}.") };
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Str(s)) if s.trim().is_empty() => None,
            Some(Value::Str(s)) => match condition(s, self.v09) {
                Ok(c) => Some(c),
                Err(d) => {
                    self.fail(&format!("{at}when"), d);
                    None
                }
            },
            Some(Value::Bool(b)) => condition(if *b { "true" } else { "false" }, self.v09).ok(),
            Some(other) => {
                self.fail(
                    &format!("{at}when"),
                    format!("a condition must be a string, got {}", other.type_name()),
                );
                None
            }
        }
    }

    pub(super) fn strategy(&mut self, v: Option<&Value>, at: &str) -> Strategy {
        match v {
            None | Some(Value::Null) => Strategy::Merge,
            Some(Value::Str(s)) => Strategy::parse(s).unwrap_or_else(|| {
                self.fail(
                    &format!("{at}.strategy"),
                    format!("unknown strategy {s:?} (merge, replace or remove)"),
                );
                Strategy::Merge
            }),
            Some(other) => {
                self.fail(
                    &format!("{at}.strategy"),
                    format!("a strategy must be a string, got {}", other.type_name()),
                );
                Strategy::Merge
            }
        }
    }

    pub(super) fn ordinal(&mut self, v: Option<&Value>, at: &str) -> Option<i64> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Int(n)) => Some(*n),
            Some(other) => {
                self.fail(
                    &format!("{at}.ordinal"),
                    format!("an ordinal must be an integer, got {}", other.type_name()),
                );
                None
            }
        }
    }

    pub(super) fn requires(&mut self, v: Option<&Value>, at: &str) -> Vec<Requirement> {
        let file = self.file;
        let (errors, warnings) = (&mut self.errors, &mut self.warnings);
        let mut sink = Sink {
            fail: &mut |a, m| errors.push(Error::new(Some(file), a, m)),
            warn: &mut |a, m| warnings.push(Error::new(Some(file), a, m)),
        };
        crate::load::requires::parse(v, at, &mut sink)
    }

    pub(super) fn tmpl(&mut self, v: &Value, at: &str) -> Tmpl {
        let rewrite: Option<crate::template::tmpl::Rewrite> = if self.v09 {
            Some(crate::template::shorthand::expand)
        } else {
            None
        };
        match Tmpl::compile_rewritten(v, &compiler_for(self.v09), rewrite) {
            Ok(t) => t,
            Err(TmplError { at: inner, diag }) => {
                self.fail(&format!("{at}{inner}"), diag);
                Tmpl::Lit(Value::Null)
            }
        }
    }

    /// Reports each key of `m` not in `known`, at `at`: a typo is an
    /// error, any other a warning; gives the names of the others.
    pub(super) fn fields(&mut self, m: &Map, known: &[&str], at: &str, unknown: Unknown) -> Vec<String> {
        let file = self.file;
        let (errors, warnings) = (&mut self.errors, &mut self.warnings);
        let mut sink = Sink {
            fail: &mut |a, msg| errors.push(Error::new(Some(file), a, msg)),
            warn: &mut |a, msg| warnings.push(Error::new(Some(file), a, msg)),
        };
        check_fields(m, known, at, unknown, &mut sink)
    }

    /// The list at `key` of `root`, if it is one.
    pub(super) fn list_at<'v>(&mut self, root: &'v Map, key: &str) -> Option<&'v [Value]> {
        match root.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::List(items)) => Some(items),
            Some(other) => {
                self.fail(key, format!("must be a list, got {}", other.type_name()));
                None
            }
        }
    }
}
