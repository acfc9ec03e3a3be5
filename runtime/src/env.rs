//! The environment expressions read: one document, built once and shared by
//! every evaluation.

use crate::map::Map;
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
}

impl Environment {
    /// An empty environment: every name reads as nil.
    pub fn new() -> Environment {
        Environment::default()
    }

    /// Wraps a mapping. Anything else is an error naming what it got.
    pub fn from_value(v: Value) -> Result<Environment, String> {
        match v {
            Value::Map(root) => Ok(Environment { root }),
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
    pub fn root_mut(&mut self) -> &mut Map {
        &mut self.root
    }
}
