//! The environment expressions read: one document, built once and shared by
//! every evaluation.

use crate::map::Map;
use crate::slots::{PathTable, Scope, Slots};
use crate::value::Value;

/// A read-only mapping that compiled programs evaluate against.
///
/// ```
/// use bpvm_runtime::Environment;
/// let env = Environment::from_yaml("cluster: {name: prod}").unwrap();
/// assert_eq!(env.root().len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Environment {
    root: Map,
    /// Where the paths of the table it is bound to lead (see [`Environment::bind`]).
    slots: Slots,
}

impl Environment {
    /// An empty environment: every name reads as nil.
    pub fn new() -> Environment {
        Environment::default()
    }

    /// Wraps a mapping. Anything else is an error naming what it got.
    pub fn from_value(v: Value) -> Result<Environment, String> {
        match v {
            Value::Map(root) => Ok(Environment {
                root,
                slots: Slots::default(),
            }),
            Value::Null => Ok(Environment::new()),
            other => Err(format!("an environment must be a mapping, got {}", other.type_name())),
        }
    }

    /// Parses a YAML (or JSON, which is YAML) mapping.
    pub fn from_yaml(text: &str) -> Result<Environment, String> {
        Environment::from_value(Value::from_yaml(text)?)
    }

    /// Parses a JSON mapping.
    pub fn from_json(text: &str) -> Result<Environment, String> {
        Environment::from_value(Value::from_json(text)?)
    }

    /// The top-level mapping.
    #[inline]
    pub fn root(&self) -> &Map {
        &self.root
    }

    /// Mutable access to the top-level mapping, for hosts that add names.
    /// Forgets where bound paths lead (they are found again when read).
    pub fn root_mut(&mut self) -> &mut Map {
        self.slots.clear();
        &mut self.root
    }

    /// Binds the environment to `table`, as it is now: programs numbered
    /// by it then read each of its paths by walking the document once, and
    /// by the path's slot after that. Binding never changes what a program
    /// reads; paths numbered after binding are read the ordinary way.
    ///
    /// ```
    /// use bpvm_runtime::{Environment, PathTable};
    /// let table = PathTable::new();
    /// table.intern("a");
    /// let mut env = Environment::from_yaml("a: 1").unwrap();
    /// env.bind(&table);
    /// assert_eq!((env.table(), env.bound_paths()), (table.id(), 1));
    /// ```
    pub fn bind(&mut self, table: &PathTable) {
        self.slots = Slots::new(table.id(), table.len());
    }

    /// The path table the environment is bound to (0: none).
    pub fn table(&self) -> u64 {
        self.slots.table()
    }

    /// How many paths of its table the environment has slots for.
    pub fn bound_paths(&self) -> usize {
        self.slots.len()
    }

    /// What a program of path table `table` reads: the root, and the
    /// slots when the environment is bound to that table.
    #[inline]
    pub fn scope(&self, table: u64) -> Scope<'_> {
        Scope::new(&self.root, self.slots.for_table(table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(root: &Map) -> Option<&Value> {
        root.get("name")
    }

    /// A bound environment whose slot for `name` has been filled.
    fn read_once() -> (Environment, PathTable, u32) {
        let table = PathTable::new();
        let slot = table.intern("name");
        let mut env = Environment::from_yaml("name: before").unwrap();
        env.bind(&table);
        assert_eq!(env.scope(table.id()).read(slot, name), Some(&Value::from("before")));
        (env, table, slot)
    }

    #[test]
    fn a_changed_environment_reads_its_new_values() {
        let (mut env, table, slot) = read_once();
        env.root_mut().insert("name", Value::from("after"));
        assert_eq!(env.scope(table.id()).read(slot, name), Some(&Value::from("after")));
        env.root_mut().remove("name");
        assert_eq!(env.scope(table.id()).read(slot, name), None);
    }

    #[test]
    fn a_clone_reads_its_own_document() {
        let (env, table, slot) = read_once();
        let mut copy = env.clone();
        drop(env);
        assert_eq!(copy.table(), table.id());
        assert_eq!(copy.scope(table.id()).read(slot, |_| None), None);
        copy.root_mut().insert("name", Value::from("copy"));
        assert_eq!(copy.scope(table.id()).read(slot, name), Some(&Value::from("copy")));
    }

    #[test]
    fn slots_numbered_after_binding_walk_every_time() {
        let (env, table, _) = read_once();
        let later = table.intern("later");
        assert_eq!(env.scope(table.id()).read(later, |_| None), None);
        assert_eq!(env.scope(table.id()).read(later, name), Some(&Value::from("before")));
        assert_eq!(env.scope(table.id()).read(later, |_| None), None);
    }
}
