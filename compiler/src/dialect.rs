//! Which language an expression is in, and what its logic operators make
//! of operands that are not bools: the two choices a `Compiler`
//! is made with. A leaf: the code generator and the folder read these.

/// The expression language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// expr-lang, as in Windsor facets' `when:` and `${…}`.
    Windsor,
    /// The Bluelink blueprint `${..}` substitution language.
    Bluelink,
}

/// What `&&`, `||`, `!` (`and`, `or`, `not`), a `?:` condition and a
/// predicate's body (`filter(xs, …)`) make of operands that are not bools.
///
/// ```
/// use bpvm_compiler::{Compiler, Dialect, Logic};
/// use bpvm_runtime::{Environment, Val};
/// use bpvm_vm::Vm;
/// let env = Environment::from_yaml("ready: true").unwrap();
/// let seed = Compiler::new(Dialect::Windsor);
/// let v09 = Compiler::new(Dialect::Windsor).logic(Logic::ExprLang);
///
/// // The right operand of `&&` is the result as it is: here nil.
/// let prog = seed.compile("ready && missing").unwrap();
/// assert!(matches!(Vm::new().run(&prog, &env), Ok(Val::Bool(false))));
/// let prog = v09.compile("ready && missing").unwrap();
/// assert!(matches!(Vm::new().run(&prog, &env), Ok(Val::Nil)));
///
/// // A left operand (or a `!` operand, or a condition) must be a bool.
/// let prog = v09.compile("missing || ready").unwrap();
/// let err = Vm::new().run(&prog, &env).map(|_| ()).unwrap_err();
/// assert_eq!(prog.diagnose(&err).message, "'||' needs a bool, got nil (from 'missing')");
///
/// // An operand whose type is known when compiled is checked then.
/// let err = v09.compile("ready ? 1 : 2 && 'x'").unwrap_err();
/// assert_eq!(err.message, "'&&' needs a bool, got int (from '2')");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Logic {
    /// DECISIONS W8, the seed facet format's rule: nil counts as false,
    /// `&&` and `||` always give a bool, and any other non-bool operand is
    /// a run-time error naming the operator.
    #[default]
    Windsor,
    /// expr-lang v1.17.8 as Windsor v0.9 configures it (no environment
    /// type, optimisation on): `&&` and `||` need a bool on the left and
    /// give the right operand as it is (`true && nil` is nil, `false ||
    /// 'x'` is `'x'`); `!`, a `?:` condition and the body of `filter`,
    /// `all`, `any`, `none`, `one`, `count`, `find`, `findIndex`, `findLast`
    /// and `findLastIndex` need a bool; nil is not false anywhere. An
    /// operand whose type is known when compiled (a literal, a list, a
    /// sum of numbers, …) is checked then, as expr's checker does; and a
    /// literal `true`/`false` operand of `&&`/`||` decides as expr's
    /// optimiser rewrites it (`x && true` is `x`, `x || true` is `true`,
    /// whatever `x` is). Every rule, with the expr-lang source that
    /// decides it, is in `logic.rs`.
    ExprLang,
}
