//! The bpvm compiler: source → tokens → syntax tree → bytecode.
//!
//! Two front ends ([`Dialect::Windsor`], the expr-lang language of Windsor
//! facets, and [`Dialect::Bluelink`], the `${..}` substitution language of
//! Bluelink blueprints) produce one syntax tree ([`ast`]); one code
//! generator turns it into a [`bpvm_vm::Program`].
//!
//! ```
//! use bpvm_compiler::{Compiler, Dialect};
//! use bpvm_runtime::{Environment, Val};
//! use bpvm_vm::Vm;
//! let prog = Compiler::new(Dialect::Windsor).compile("cluster.cni.driver == 'cilium'").unwrap();
//! let env = Environment::from_yaml("cluster: {cni: {driver: cilium}}").unwrap();
//! assert!(matches!(Vm::new().run(&prog, &env), Ok(Val::Bool(true))));
//! ```

#![warn(missing_docs)]

pub mod ast;
pub mod bluelink;
mod codegen;
mod cursor;
mod fold;
mod host_line;
mod logic;
mod peephole;
mod table;
pub mod template;
pub mod token;
pub mod windsor;

use ast::Expr;
use bpvm_runtime::builtins::{BLUELINK, WINDSOR};
use bpvm_runtime::{Diagnostic, Library, Value};
use bpvm_vm::{Op, Program};
use codegen::Gen;
use host_line::HostLine;
use template::Part;

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

/// Compiles expressions and templates of one dialect.
#[derive(Clone, Copy)]
pub struct Compiler {
    dialect: Dialect,
    library: &'static Library,
    optimize: bool,
    logic: Logic,
}

impl Compiler {
    /// A compiler for `dialect` with its standard library and folding on.
    pub fn new(dialect: Dialect) -> Compiler {
        let library = match dialect {
            Dialect::Windsor => &WINDSOR,
            Dialect::Bluelink => &BLUELINK,
        };
        Compiler {
            dialect,
            library,
            optimize: true,
            logic: Logic::Windsor,
        }
    }

    /// Chooses the rules of `&&`, `||`, `!`, `?:` and predicate bodies
    /// ([`Logic::Windsor`] by default); see [`Logic`].
    pub fn logic(mut self, logic: Logic) -> Compiler {
        self.logic = logic;
        self
    }

    /// Resolves calls against `library` instead of the dialect's standard one.
    pub fn library(mut self, library: &'static Library) -> Compiler {
        self.library = library;
        self
    }

    /// Turns optimisation on or off (it is on by default): constant
    /// folding of the syntax tree and the peephole rewrites of the
    /// bytecode. Results never depend on it; the tests check that.
    pub fn optimize(mut self, on: bool) -> Compiler {
        self.optimize = on;
        self
    }

    /// The functions calls resolve against.
    pub fn functions(&self) -> &'static Library {
        self.library
    }

    /// How messages of programs it compiles name kinds of value.
    pub fn vocabulary(&self) -> bpvm_runtime::Vocabulary {
        match self.dialect {
            Dialect::Windsor => bpvm_runtime::Vocabulary::Expr,
            Dialect::Bluelink => bpvm_runtime::Vocabulary::Bluelink,
        }
    }

    /// The dialect compiled.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Parses `src[start..end]` into a syntax tree (spans are in `src`).
    pub fn parse(&self, src: &str, start: usize, end: usize) -> Result<Expr, Diagnostic> {
        let mut e = match self.dialect {
            Dialect::Windsor => windsor::parse::parse(src, start, end)?,
            Dialect::Bluelink => bluelink::parse::parse(src, start, end, self.library)?,
        };
        if self.logic == Logic::ExprLang {
            logic::check(&e, src)?;
            logic::rewrite(&mut e);
        }
        if self.optimize {
            fold::fold(&mut e, self.logic);
        }
        Ok(e)
    }

    /// Compiles a bare expression (a `when:` value, or `bpvm eval EXPR`).
    pub fn compile(&self, src: &str) -> Result<Program, Diagnostic> {
        let e = self.parse(src, 0, src.len())?;
        let mut g = Gen::new(src, self.dialect, self.library, self.optimize, self.logic);
        g.expression(&e)?;
        Ok(g.finish())
    }

    /// Compiles a host string with `${…}` parts into one program.
    ///
    /// ```
    /// use bpvm_compiler::{Compiler, Dialect};
    /// use bpvm_runtime::{Environment, Val};
    /// use bpvm_vm::Vm;
    /// let prog = Compiler::new(Dialect::Windsor).compile_template("v${1 + 1}.${2.5}").unwrap();
    /// let env = Environment::new();
    /// assert!(matches!(Vm::new().run(&prog, &env), Ok(Val::Str("v2.2.5"))));
    /// ```
    pub fn compile_template(&self, src: &str) -> Result<Program, Diagnostic> {
        let parts = template::split(src)?;
        let mut g = Gen::new(src, self.dialect, self.library, self.optimize, self.logic);
        if let Some((start, end)) = template::whole(&parts) {
            let e = self.parse(src, start as usize, end as usize)?;
            g.expression(&e)?;
            return Ok(g.finish());
        }
        let mut before = HostLine::default();
        for part in &parts {
            match part {
                Part::Text(t) => {
                    let c = g.constant(Value::Str(t.as_str().into()));
                    g.emit(Op::Const(c), (0, 0), "text");
                    before.push_text(t);
                }
                Part::Expr((start, end)) => {
                    let e = self.parse(src, *start as usize, *end as usize)?;
                    g.expression(&e)?;
                    g.emit(Op::Text(g.text_rule(&before)), e.span, "${}");
                    before.push_value();
                }
            }
        }
        if parts.len() > 1 {
            g.emit(Op::Concat(parts.len() as u32), (0, src.len() as u32), "template");
        }
        Ok(g.finish())
    }
}
