//! The path table of every program compiled through the C ABI.
//!
//! Programs compiled by `bpvm_compile` number their paths in one table of
//! the process, and every environment made by `bpvm_env_from_*` is bound
//! to it, so a program reads a path by its slot once any program has read
//! it in that environment — as a render binds each context. Paths first
//! seen after an environment was made are read by name in it, with the
//! same result. The table stops growing at [`MOST_PATHS`]: a host that
//! compiles endless new expressions must not grow it without bound
//! (later programs read by name).

use bpvm::{Environment, PathTable, Program};
use std::sync::LazyLock;

static PATHS: LazyLock<PathTable> = LazyLock::new(PathTable::new);

/// The most paths the table numbers.
pub(crate) const MOST_PATHS: usize = 1 << 16;

/// Numbers `program`'s paths in the table, while it has room.
pub(crate) fn number(program: &mut Program) {
    if PATHS.len() < MOST_PATHS {
        program.bind(&PATHS);
    }
}

/// Binds `env` to the table as it is now.
pub(crate) fn bind(env: &mut Environment) {
    env.bind(&PATHS);
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm::{Compiler, Dialect, Vm};

    #[test]
    fn programs_and_environments_share_the_table() {
        let mut prog = Compiler::new(Dialect::Windsor).compile("region == 'eu'").unwrap();
        number(&mut prog);
        let mut env = Environment::from_yaml("region: eu").unwrap();
        bind(&mut env);
        assert_eq!((prog.table, env.table()), (PATHS.id(), PATHS.id()));
        assert!(env.bound_paths() >= 1);
        assert!(matches!(Vm::new().run(&prog, &env), Ok(bpvm::Val::Bool(true))));
    }
}
