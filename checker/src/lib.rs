//! Static checks of bpvm expressions, the phase after parsing: each
//! expression's syntax tree walked once with the types its scope provides
//! (a schema's, a blueprint's declarations), finding paths that lead
//! nowhere and operations that cannot apply to their operands — before
//! anything renders, for every context at once.
//!
//! What an operation accepts is learnt from the dialect itself: the
//! checker runs the VM's operators and the pure builtins on a sample value
//! of each kind an operand can have, so it judges exactly as a render
//! would fail.
//!
//! ```
//! use bpvm_checker::{Checker, Fields, IssueKind, Ty};
//! use bpvm_compiler::{Compiler, Dialect};
//! let cluster = Ty::map(Fields::closed([("enabled", Ty::Bool), ("workers", Ty::Int)]));
//! let scope = Ty::map(Fields::closed([("cluster", cluster)]));
//! let mut checker = Checker::new(Compiler::new(Dialect::Windsor));
//! let found = checker.expression("cluster.enabled == 'yes' || cluster.wokers > 2", &scope).unwrap();
//! assert_eq!(found.issues[0].kind, IssueKind::Mismatch);
//! assert_eq!(found.issues[0].message, "'==' compares bool with string: always false");
//! assert_eq!(found.issues[1].message, "cluster.wokers: no such property");
//! assert_eq!(found.issues[1].suggestion.as_deref(), Some("cluster.workers"));
//! ```

#![warn(missing_docs)]

mod finding;
mod infer;
mod issue;
mod probe;
pub mod rules;
mod ty;

pub use finding::{Finding, Rule, Severity};
pub use issue::{Issue, IssueKind, LiteralCall};
pub use ty::{Fields, Keys, Kinds, Ty};

use bpvm_compiler::Compiler;
use bpvm_compiler::template::{Part, split, whole};
use bpvm_runtime::Diagnostic;

/// An expression checked: its type and its problems.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// What it gives.
    pub ty: Ty,
    /// Its problems, in the order of the walk.
    pub issues: Vec<Issue>,
    /// Its calls with a literal first argument, in the order of the walk.
    pub calls: Vec<LiteralCall>,
    /// The names of the scope it reads (`cluster` of `cluster.enabled`),
    /// each once, in the order first read.
    pub roots: Vec<String>,
}

/// Checks expressions of one dialect; reuse it: what it learnt of the
/// dialect's operations is kept.
pub struct Checker {
    probe: probe::Probe,
}

impl Checker {
    /// A checker for what `compiler` compiles (its dialect, functions and
    /// logic).
    pub fn new(compiler: Compiler) -> Checker {
        Checker {
            probe: probe::Probe::new(compiler),
        }
    }

    /// Checks a bare expression (a `when:`) against `scope`, the type of
    /// the environment it runs in.
    pub fn expression(&mut self, src: &str, scope: &Ty) -> Result<Checked, Diagnostic> {
        let e = self.probe.compiler().parse(src, 0, src.len())?;
        let mut walk = infer::Walk::new(&mut self.probe, scope, src);
        let ty = walk.expr(&e);
        Ok(Checked {
            ty,
            issues: walk.issues,
            calls: walk.calls,
            roots: walk.roots,
        })
    }

    /// Checks a host string with `${…}` parts: one expression's type when
    /// it is exactly one, text otherwise.
    pub fn template(&mut self, src: &str, scope: &Ty) -> Result<Checked, Diagnostic> {
        let parts = split(src)?;
        let compiler = self.probe.compiler();
        let mut walk = infer::Walk::new(&mut self.probe, scope, src);
        if let Some((start, end)) = whole(&parts) {
            let e = compiler.parse(src, start as usize, end as usize)?;
            let ty = walk.expr(&e);
            return Ok(Checked {
                ty,
                issues: walk.issues,
                calls: walk.calls,
                roots: walk.roots,
            });
        }
        for part in &parts {
            if let Part::Expr((start, end)) = part {
                let e = compiler.parse(src, *start as usize, *end as usize)?;
                walk.expr(&e);
            }
        }
        Ok(Checked {
            ty: Ty::Str,
            issues: walk.issues,
            calls: walk.calls,
            roots: walk.roots,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm_compiler::Dialect;

    fn bluelink_scope() -> Ty {
        let child = Ty::map(Fields::closed([("name", Ty::Str), ("tags", Ty::any_map())]));
        let children = Ty::map(Fields::closed([("net", child)]));
        Ty::map(Fields::closed([("children", children), ("resources", Ty::any_map())]))
    }

    #[test]
    fn a_bluelink_field_of_a_string_is_judged_as_a_render_would() {
        let mut checker = Checker::new(Compiler::new(Dialect::Bluelink));
        let found = checker
            .template("${children.net.name.first}", &bluelink_scope())
            .unwrap();
        assert_eq!(found.issues.len(), 1);
        assert_eq!(found.issues[0].kind, IssueKind::Mismatch);
        assert_eq!(
            found.issues[0].message,
            "cannot read 'first' of a string (in 'children.net.name.first')"
        );
        assert_eq!(found.issues[0].span, (2, 25));
    }

    #[test]
    fn a_call_with_a_wrong_number_of_arguments_is_left_to_the_compiler() {
        let mut checker = Checker::new(Compiler::new(Dialect::Bluelink));
        let found = checker.expression("first()", &bluelink_scope()).unwrap();
        assert_eq!(found.issues, Vec::new());
    }

    #[test]
    fn a_function_value_is_passed_to_a_higher_order_function() {
        let mut checker = Checker::new(Compiler::new(Dialect::Bluelink));
        let scope = Ty::map(Fields::closed([(
            "values",
            Ty::map(Fields::closed([("hosts", Ty::List(Box::new(Ty::Str)))])),
        )]));
        let found = checker
            .expression(r#"map(values.hosts, trimprefix_g("http://"))"#, &scope)
            .unwrap();
        assert_eq!(found.issues, Vec::new());
        let found = checker.expression(r#"map(values.hosts, "http://")"#, &scope).unwrap();
        assert_eq!(
            found.issues[0].message,
            "map() argument 2 must be a function, got string"
        );
    }

    #[test]
    fn a_field_after_a_literal_index_is_suggested_with_its_path() {
        let subnet = Ty::map(Fields::closed([("cidr", Ty::Str)]));
        let scope = Ty::map(Fields::closed([("subnets", Ty::List(Box::new(subnet)))]));
        let mut checker = Checker::new(Compiler::new(Dialect::Windsor));
        let found = checker.expression("subnets[0].cdir", &scope).unwrap();
        assert_eq!(found.issues[0].message, "subnets[0].cdir: no such property");
        assert_eq!(found.issues[0].suggestion.as_deref(), Some("subnets[0].cidr"));
    }

    #[test]
    fn a_bluelink_field_of_a_map_of_unknown_fields_is_allowed() {
        let mut checker = Checker::new(Compiler::new(Dialect::Bluelink));
        let found = checker
            .template("${children.net.tags.owner}", &bluelink_scope())
            .unwrap();
        assert_eq!(found.issues, Vec::new());
    }
}
