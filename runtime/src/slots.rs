//! Paths bound to slots: an [`Environment`](crate::Environment) remembers
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
use std::collections::HashMap;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
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
    numbers: Mutex<HashMap<Box<str>, u32>>,
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
        let next = numbers.len() as u32;
        *numbers.entry(key.into()).or_insert(next)
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
/// path led (null: not read since the environment last changed).
///
/// Each slot holds a pointer into the environment's own document (or to a
/// `'static` value). That is sound because the document cannot change
/// while anything borrows the environment, and every way to change it
/// ([`Environment::root_mut`](crate::Environment::root_mut), rebinding)
/// takes `&mut` and clears the slots first; a clone starts empty.
#[derive(Default)]
pub(crate) struct Slots {
    table: u64,
    cells: Box<[AtomicPtr<Value>]>,
}

impl Slots {
    /// Empty slots for `len` paths of table `table`.
    pub(crate) fn new(table: u64, len: usize) -> Slots {
        Slots {
            table,
            cells: (0..len).map(|_| AtomicPtr::new(std::ptr::null_mut())).collect(),
        }
    }

    /// Forgets every path's place (the document is about to change).
    pub(crate) fn clear(&mut self) {
        for cell in self.cells.iter_mut() {
            *cell.get_mut() = std::ptr::null_mut();
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
    pub(crate) fn for_table(&self, table: u64) -> &[AtomicPtr<Value>] {
        if table != 0 && table == self.table {
            &self.cells
        } else {
            &[]
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
    cells: &'a [AtomicPtr<Value>],
}

impl<'a> Scope<'a> {
    /// A scope over `root` with no slots (every read walks).
    pub fn unbound(root: &'a Map) -> Scope<'a> {
        Scope { root, cells: &[] }
    }

    pub(crate) fn new(root: &'a Map, cells: &'a [AtomicPtr<Value>]) -> Scope<'a> {
        Scope { root, cells }
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
        let p = cell.load(Ordering::Relaxed);
        if !p.is_null() {
            // SAFETY: a non-null slot was stored below from a reference
            // into this environment's document (or a `'static` value),
            // and the document has not changed since: changing it takes
            // `&mut` of the environment, which clears the slots, and
            // `'a` borrows the environment.
            return Some(unsafe { &*p });
        }
        let v = walk(self.root);
        if let Some(v) = v {
            cell.store(std::ptr::from_ref(v).cast_mut(), Ordering::Relaxed);
        }
        v
    }
}
