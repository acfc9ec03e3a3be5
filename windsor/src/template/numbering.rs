//! The path table of the project being loaded.
//!
//! Every expression compiled while a project loads numbers the paths it
//! reads in the project's [`PathTable`]; a render binds the scope to it
//! (`Evaluator::set_scope`), so each `when:` and `${…}` reads a path by
//! its slot once the first has walked to it. The table is the loading
//! thread's for the duration of [`while_loading`] rather than a parameter
//! of every reader, because expressions are compiled deep inside them.

use bpvm_runtime::PathTable;
use bpvm_vm::Program;
use std::cell::RefCell;

thread_local! {
    static LOADING: RefCell<Option<PathTable>> = const { RefCell::new(None) };
}

/// Runs `load` with `table` as the table expressions number their paths
/// in; the previous one (if a load nests) is back afterwards, panic or not.
pub(crate) fn while_loading<T>(table: &PathTable, load: impl FnOnce() -> T) -> T {
    struct Restore(Option<PathTable>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            LOADING.with(|t| *t.borrow_mut() = previous);
        }
    }
    let _restore = Restore(LOADING.with(|t| t.borrow_mut().replace(table.clone())));
    load()
}

/// Numbers `prog`'s paths in the table of the project being loaded (none
/// outside a load: the program then reads by name).
pub(crate) fn number(prog: &mut Program) {
    LOADING.with(|t| {
        if let Some(table) = &*t.borrow() {
            prog.bind(table);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::compiler;

    #[test]
    fn programs_are_numbered_only_while_loading() {
        let table = PathTable::new();
        let compile = || {
            let mut prog = compiler().compile("cluster.name == 'a' || provider == 'b'").unwrap();
            number(&mut prog);
            prog
        };
        assert_eq!(compile().table, 0);
        let inner = PathTable::new();
        let prog = while_loading(&table, || {
            while_loading(&inner, compile);
            compile()
        });
        assert_eq!((prog.table, table.len(), inner.len()), (table.id(), 2, 2));
        assert_eq!(compile().table, 0);
    }
}
