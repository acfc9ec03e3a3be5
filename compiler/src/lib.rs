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
mod dialect;
mod fold;
mod host_line;
mod literal_calls;
mod logic;
mod natures;
mod peephole;
mod table;
pub mod template;
pub mod token;
pub mod windsor;

pub use dialect::{Dialect, Logic};

use ast::Expr;
use bpvm_runtime::builtins::{BLUELINK, WINDSOR};
use bpvm_runtime::{Diagnostic, Library, Value};
use bpvm_vm::{Op, Program};
use codegen::Gen;
use host_line::HostLine;
use template::Part;

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
        too_long(src, end.saturating_sub(start))?;
        let mut e = match self.dialect {
            Dialect::Windsor => windsor::parse::parse(src, start, end)?,
            Dialect::Bluelink => bluelink::parse::parse(src, start, end, self.library)?,
        };
        if self.logic == Logic::ExprLang {
            logic::check(&e, src, self.library)?;
        }
        if fold::can_fold(&e) {
            if self.logic == Logic::ExprLang {
                logic::rewrite(&mut e, src)?;
            }
            if self.optimize {
                fold::fold(&mut e, self.logic);
            }
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
        too_long(src, src.len())?;
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

/// An error at the start of `src` when `len` bytes of it are more than
/// one source may have: checked before anything proportional to the
/// source is allocated (the diagnostic quotes only the start of it).
fn too_long(src: &str, len: usize) -> Result<(), Diagnostic> {
    bpvm_runtime::source::check(len).map_err(|why| {
        let mut cut = src.len().min(bpvm_runtime::excerpt::WIDTH);
        while !src.is_char_boundary(cut) {
            cut -= 1;
        }
        let first = src[..cut].lines().next().unwrap_or("");
        Diagnostic::new(why, first, 0, 0)
    })
}
