//! Finding an entry already in one of a program's tables (constants,
//! paths). A small table is scanned; a larger one gets a hash index, so a
//! template with many distinct parts compiles in linear time.

use bpvm_runtime::{Value, hash_key};
use bpvm_vm::{Path, Seg};
use std::collections::HashMap;

/// Tables with fewer entries than this are scanned.
const INDEX_FROM: usize = 16;

/// Positions of a table's entries by hash, once it has [`INDEX_FROM`].
#[derive(Debug, Default)]
pub(crate) struct Index(HashMap<u64, Vec<u32>>);

impl Index {
    /// The first entry of `table` that `same` accepts; `hash` hashes
    /// entries so that any two `same` accepts hash alike, and `wanted`
    /// hashes what is looked for (only once the table is indexed).
    pub fn find<T>(
        &mut self,
        table: &[T],
        hash: fn(&T) -> u64,
        wanted: impl FnOnce() -> u64,
        same: impl Fn(&T) -> bool,
    ) -> Option<u32> {
        if table.len() < INDEX_FROM {
            return table.iter().position(same).map(|i| i as u32);
        }
        if self.0.is_empty() {
            for (i, e) in table.iter().enumerate() {
                self.0.entry(hash(e)).or_default().push(i as u32);
            }
        }
        self.0
            .get(&wanted())?
            .iter()
            .copied()
            .find(|&i| same(&table[i as usize]))
    }

    /// Records the entry just appended to `table`.
    pub fn added<T>(&mut self, table: &[T], hash: fn(&T) -> u64) {
        if let (false, Some(last)) = (self.0.is_empty(), table.last()) {
            self.0.entry(hash(last)).or_default().push(table.len() as u32 - 1);
        }
    }
}

/// A constant's hash: equal for any two constants the code generator
/// treats as one (the same scalar, floats by bits; lists and maps equal
/// by `==`, which compares `1` and `1.0` equal and maps in any order, so
/// they are hashed by kind and length only).
pub(crate) fn constant_hash(v: &Value) -> u64 {
    let (kind, n) = match v {
        Value::Null => (0, 0),
        Value::Bool(b) => (1, u64::from(*b)),
        Value::Int(i) => (2, *i as u64),
        Value::Float(f) => (3, f.to_bits()),
        Value::Str(s) => (4, hash_key(s)),
        Value::Bytes(b) => (5, b.len() as u64),
        Value::List(l) => (6, l.len() as u64),
        Value::Map(m) => (7, m.len() as u64),
    };
    n.rotate_left(3) ^ kind
}

/// A path's hash: its steps (paths that read the same hash the same,
/// however they are written).
pub(crate) fn path_hash(p: &Path) -> u64 {
    p.segs.iter().fold(p.access as u64, |h, seg| {
        let step = match seg {
            Seg::Key(k, _) => k.hash(),
            Seg::Index(i) => *i as u64,
        };
        h.rotate_left(5) ^ step
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::identical;
    use crate::{Compiler, Dialect};
    use bpvm_runtime::Map;

    #[test]
    fn an_indexed_table_finds_what_a_scan_finds() {
        let mut m = Map::new();
        m.insert("k", Value::Int(1));
        let values = [
            Value::Int(1),
            Value::Float(1.0),
            Value::Float(-0.0),
            Value::Float(f64::NAN),
            Value::Str("x".into()),
            Value::List(vec![Value::Int(1)]),
            Value::List(vec![Value::Float(1.0)]),
            Value::Map(m),
            Value::Null,
            Value::Bool(true),
        ];
        let (mut scanned, mut indexed, mut index) = (Vec::new(), Vec::new(), Index::default());
        for n in 0..300 {
            let v = match n % 13 {
                k if k < values.len() => values[k].clone(),
                k => Value::Str(format!("s{}", n % (k * 7)).into()),
            };
            let a = scanned.iter().position(|c| identical(c, &v)).map(|i| i as u32);
            let b = index.find(&indexed, constant_hash, || constant_hash(&v), |c| identical(c, &v));
            assert_eq!(a, b, "{v:?}");
            if a.is_none() {
                scanned.push(v.clone());
                indexed.push(v);
                index.added(&indexed, constant_hash);
            }
        }
        assert!(scanned.len() > INDEX_FROM);
    }

    #[test]
    fn a_long_template_holds_each_text_and_path_once() {
        let src: String = (0..200).map(|i| format!("t{}-${{a{}.b}}", i % 40, i % 30)).collect();
        let prog = Compiler::new(Dialect::Windsor).compile_template(&src).unwrap();
        assert_eq!(prog.paths.len(), 30);
        assert_eq!(prog.consts.len(), 40);
    }
}
