//! Paths bound to slots: an `Environment` remembers
//! where each path its programs read leads, so a repeated read is one
//! indexed load instead of a walk through maps.
//!
//! A project numbers the paths its programs read in a [`PathTable`]; an
//! environment bound to that table keeps one slot per number, filled the
//! first time a program reads the path and cleared whenever the
//! environment changes. Programs of another table, or of none, read the
//! environment the ordinary way.

use crate::map::Map;
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The paths a project's programs read, numbered: programs compiled for
/// one project share one table (`bpvm_vm::Program::bind`), and an
/// environment bound to it ([`Environment::bind`](crate::Environment::bind))
/// reads each path by walking once and by its slot after that.
///
/// Cloning shares the table. Paths are told apart by a key their owner
/// makes (the same path must always make the same key).
///
/// ```
/// use bpvm_runtime::PathTable;
/// let table = PathTable::new();
/// assert_eq!(table.intern("cluster.name"), 0);
/// assert_eq!(table.intern("provider"), 1);
/// assert_eq!(table.intern("cluster.name"), 0);
/// assert_eq!(table.len(), 2);
/// assert_ne!(table.id(), PathTable::new().id());
/// ```
#[derive(Clone, Debug)]
pub struct PathTable {
    inner: Arc<Interned>,
}

#[derive(Debug)]
struct Interned {
    id: u64,
    /// A tree rather than a hash table: a table that lives as long as the
    /// process (the C ABI's) is then plainly reachable to leak checkers,
    /// which read a hash table's inner pointers as possible leaks.
    numbers: Mutex<BTreeMap<Box<str>, u32>>,
}

/// Table ids, never reused in a process, so that a program can tell the
/// table it was numbered by from any other.
static NEXT_TABLE: AtomicU64 = AtomicU64::new(1);

impl PathTable {
    /// An empty table with an id of its own.
    pub fn new() -> PathTable {
        PathTable {
            inner: Arc::new(Interned {
                id: NEXT_TABLE.fetch_add(1, Ordering::Relaxed),
                numbers: Mutex::default(),
            }),
        }
    }

    /// The table's id (never 0).
    pub fn id(&self) -> u64 {
        self.inner.id
    }

    /// The number of the path with key `key`, numbering it if it is new.
    pub fn intern(&self, key: &str) -> u32 {
        let mut numbers = self.inner.numbers.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&n) = numbers.get(key) {
            return n;
        }
        let next = numbers.len() as u32;
        numbers.insert(key.into(), next);
        next
    }

    /// How many paths are numbered.
    pub fn len(&self) -> usize {
        self.inner.numbers.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// True when no path is numbered yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for PathTable {
    fn default() -> PathTable {
        PathTable::new()
    }
}

/// The slots of one environment: which table they are for, and where each
/// path led in the environment's current generation.
///
/// Each slot holds a pointer into the environment's own document (or to a
/// `'static` value) and the generation it was found in. That is sound
/// because the document cannot change while anything borrows the
/// environment, every way to change it
/// ([`Environment::root_mut`](crate::Environment::root_mut), rebinding)
/// takes `&mut` and starts a new generation, which makes every older slot
/// stale at once (a host that changes its scope after each config block
/// would otherwise pay for every slot each time), and a clone starts
/// with empty slots.
#[derive(Default)]
pub(crate) struct Slots {
    table: u64,
    /// The current generation (never 0, which no slot is found in).
    generation: u32,
    cells: Box<[Cell]>,
}

/// One path's place: written only while the document is unchanged, so
/// every write in a generation stores the same pointer.
#[derive(Default)]
pub(crate) struct Cell {
    generation: AtomicU32,
    value: AtomicPtr<Value>,
}

impl Slots {
    /// Empty slots for `len` paths of table `table`.
    pub(crate) fn new(table: u64, len: usize) -> Slots {
        Slots {
            table,
            generation: 1,
            cells: (0..len).map(|_| Cell::default()).collect(),
        }
    }

    /// Forgets every path's place (the document is about to change).
    pub(crate) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Once in 2³² changes: slots of the generation about to come
            // around again must not pass for current.
            for cell in self.cells.iter_mut() {
                *cell.generation.get_mut() = 0;
            }
            self.generation = 1;
        }
    }

    /// The table the slots are for (0: none).
    pub(crate) fn table(&self) -> u64 {
        self.table
    }

    /// How many slots there are.
    pub(crate) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The slots for programs of `table`: all of them when the table is
    /// this one's, none otherwise.
    pub(crate) fn for_table(&self, table: u64) -> (&[Cell], u32) {
        if table != 0 && table == self.table {
            (&self.cells, self.generation)
        } else {
            (&[], 0)
        }
    }
}

impl Clone for Slots {
    /// The same table with empty slots: the clone's document is another
    /// one, and the pointers would lead into the original's.
    fn clone(&self) -> Slots {
        Slots::new(self.table, self.cells.len())
    }
}

impl std::fmt::Debug for Slots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Slots {{ table: {}, len: {} }}", self.table, self.cells.len())
    }
}

/// What one run reads: an environment's root and, when the program's
/// table is the one the environment is bound to, its slots.
///
/// ```
/// use bpvm_runtime::{Environment, PathTable, Value};
/// let table = PathTable::new();
/// let slot = table.intern("cluster.name");
/// let mut env = Environment::from_yaml("cluster: {name: prod}").unwrap();
/// env.bind(&table);
/// fn name(root: &bpvm_runtime::Map) -> Option<&Value> {
///     match root.get("cluster") {
///         Some(Value::Map(m)) => m.get("name"),
///         _ => None,
///     }
/// }
/// // The first read walks and remembers; the second is the slot.
/// assert_eq!(env.scope(table.id()).read(slot, name), Some(&Value::from("prod")));
/// assert_eq!(env.scope(table.id()).read(slot, |_| None), Some(&Value::from("prod")));
/// // A program of another table reads the ordinary way.
/// assert_eq!(env.scope(PathTable::new().id()).read(slot, |_| None), None);
/// ```
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    root: &'a Map,
    cells: &'a [Cell],
    generation: u32,
}

impl<'a> Scope<'a> {
    /// A scope over `root` with no slots (every read walks).
    pub fn unbound(root: &'a Map) -> Scope<'a> {
        Scope {
            root,
            cells: &[],
            generation: 0,
        }
    }

    pub(crate) fn new(root: &'a Map, (cells, generation): (&'a [Cell], u32)) -> Scope<'a> {
        Scope {
            root,
            cells,
            generation,
        }
    }

    /// The top-level mapping.
    #[inline(always)]
    pub fn root(self) -> &'a Map {
        self.root
    }

    /// The value path `slot` leads to: the slot's, when it was read
    /// before; otherwise `walk`'s answer, remembered when it is a value.
    /// `walk` must give the same answer every time for the same
    /// document (a walk by the path's keys does); `None` means "not
    /// here, ask the slow way", and is not remembered.
    #[inline(always)]
    pub fn read(self, slot: u32, walk: impl for<'x> FnOnce(&'x Map) -> Option<&'x Value>) -> Option<&'a Value> {
        let Some(cell) = self.cells.get(slot as usize) else {
            return walk(self.root);
        };
        // Acquire pairs with the Release below: a current generation
        // means the pointer stored before it is visible.
        if cell.generation.load(Ordering::Acquire) == self.generation {
            let p = cell.value.load(Ordering::Relaxed);
            // SAFETY: a slot of the current generation was stored below
            // from a reference into this environment's document (or a
            // `'static` value) since the document last changed: changing
            // it takes `&mut` of the environment, which starts a new
            // generation, and `'a` borrows the environment.
            return Some(unsafe { &*p });
        }
        self.fill(cell, walk)
    }

    /// A slot's first read in a generation: kept out of line, so that the
    /// walk (inlined by every reader) does not crowd the hot path's
    /// registers.
    #[cold]
    #[inline(never)]
    fn fill(self, cell: &Cell, walk: impl for<'x> FnOnce(&'x Map) -> Option<&'x Value>) -> Option<&'a Value> {
        let v = walk(self.root);
        if let Some(v) = v {
            cell.value.store(std::ptr::from_ref(v).cast_mut(), Ordering::Relaxed);
            cell.generation.store(self.generation, Ordering::Release);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generation_that_comes_around_again_finds_no_old_slot() {
        let root = Map::new();
        static ONE: Value = Value::Int(1);
        let mut slots = Slots::new(7, 1);
        fn read(root: &Map, slots: &Slots) -> Option<bool> {
            Scope::new(root, slots.for_table(7))
                .read(0, |_| None)
                .map(|v| matches!(v, Value::Int(1)))
        }
        assert_eq!(
            Scope::new(&root, slots.for_table(7)).read(0, |_| Some(&ONE)),
            Some(&ONE)
        );
        assert_eq!(read(&root, &slots), Some(true));
        // 2³² changes later the generation is 1 again.
        slots.generation = u32::MAX;
        slots.clear();
        assert_eq!(slots.generation, 1);
        assert_eq!(read(&root, &slots), None);
    }
}
