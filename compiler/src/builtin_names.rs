//! Names that are builtins to expr-lang's checker. Windsor v0.9
//! compiles with no environment type, so the checker types every
//! identifier that names a function (a builtin, or one Windsor adds) as
//! that function, even where the context has a key of that name: the
//! value is read at run time (`values == nil` compares the context's
//! `values`), but a field or an index of it (`values.x`, `count['y']`) is
//! a field of a function and does not compile; a `let` bound to the bare
//! name (`let v = values`) is typed as the function too. `$env.values.x`
//! reads the context's key. (Code generation refuses a `let` of such a
//! name.) Checked before the other types expr-lang's checker knows, so
//! that the message can say how to read the key.

use crate::ast::{Expr, Kind};
use bpvm_runtime::{Diagnostic, Library};

/// The first use of a builtin's name that expr-lang's checker refuses.
pub fn check(e: &Expr, library: &Library, src: &str) -> Result<(), Diagnostic> {
    let mut names = Names {
        library,
        src,
        aliases: Vec::new(),
        found: None,
    };
    names.visit(e);
    names.found.map_or(Ok(()), Err)
}

struct Names<'a> {
    library: &'a Library,
    src: &'a str,
    /// `let` names bound to a builtin's bare name, innermost last.
    aliases: Vec<&'a str>,
    found: Option<Diagnostic>,
}

impl<'a> Names<'a> {
    fn visit(&mut self, e: &'a Expr) {
        if self.found.is_some() {
            return;
        }
        match &e.kind {
            Kind::Access(base, steps) => match (&base.kind, steps.first()) {
                (Kind::Ident(name), Some(step)) if self.is_function(name) => {
                    let written = &self.src[e.span.0 as usize..step.end as usize];
                    let message = format!(
                        "'{name}' names a builtin function, so `{written}` does not compile; \
                         read the context's key as `$env.{name}`"
                    );
                    self.refuse(message, base.span.0 as usize, base.span.1 as usize);
                    return;
                }
                _ => {}
            },
            Kind::Let(name, value, body) => {
                self.visit(value);
                let alias = matches!(&value.kind, Kind::Ident(v) if self.is_function(v));
                if alias {
                    self.aliases.push(name);
                }
                self.visit(body);
                if alias {
                    self.aliases.pop();
                }
                return;
            }
            _ => {}
        }
        e.for_each_part(|part| self.visit(part));
    }

    /// Whether expr-lang knows `name` as a function: one of the
    /// library's, or a builtin that takes a predicate (`map`, `count`, …).
    fn is_builtin(&self, name: &str) -> bool {
        self.library.find(name).is_some() || crate::windsor::parse::predicate(name).is_some()
    }

    /// Whether `name` is typed as a function where it is read.
    fn is_function(&self, name: &str) -> bool {
        self.aliases.contains(&name) || self.is_builtin(name)
    }

    fn refuse(&mut self, message: String, start: usize, end: usize) {
        self.found = Some(Diagnostic::new(message, self.src, start, end));
    }
}
