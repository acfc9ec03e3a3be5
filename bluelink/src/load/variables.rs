//! Variable and value definitions.

use super::{Loader, VALUE_TYPES, join, namespaced};
use crate::blueprint::{ValueDef, VarType, Variable};
use crate::node::{Entry, Kind, Node};
use bpvm_runtime::Value;

impl Loader {
    pub(super) fn variable(&mut self, e: &Entry) -> Option<Variable> {
        let path = format!("variables.{}", e.key);
        let place = "any part of a variable definition";
        let fields = self.fields(
            &e.value,
            &path,
            &["type", "description", "secret", "default", "allowedValues"],
            &["type"],
        );
        self.literal(&e.value, &path, place);
        let mut var = Variable {
            name: e.key.clone(),
            at: e.key_at,
            ty: VarType::String,
            allowed: Vec::new(),
            default: None,
            secret: false,
        };
        let mut ok = true;
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => match v.as_str() {
                    Some("string") => var.ty = VarType::String,
                    Some("integer") => var.ty = VarType::Integer,
                    Some("float") => var.ty = VarType::Float,
                    Some("boolean") => var.ty = VarType::Boolean,
                    Some(custom) if namespaced(custom, 2, 8) => var.ty = VarType::Custom(custom.to_string()),
                    _ => {
                        ok = false;
                        self.fail(
                            v.at,
                            &p,
                            "a variable type is string, integer, float, boolean or a provider type {provider}/{type}",
                        );
                    }
                },
                "description" if v.as_str().is_none() => {
                    self.fail(v.at, &p, format!("expected a string, found {}", v.describe()));
                }
                "secret" => match v.kind {
                    Kind::Scalar(Value::Bool(b)) => var.secret = b,
                    _ => self.fail(v.at, &p, format!("expected true or false, found {}", v.describe())),
                },
                _ => {}
            }
        }
        if !ok {
            return None;
        }
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "default" => match self.typed(&var.ty, v, &p) {
                    Some(d) => var.default = Some(d),
                    None => ok = false,
                },
                "allowedValues" => {
                    if var.ty == VarType::Boolean {
                        self.fail(v.at, &p, "boolean variables cannot have allowedValues");
                        ok = false;
                        continue;
                    }
                    let Kind::List(items) = &v.kind else {
                        self.fail(v.at, &p, format!("expected an array, found {}", v.describe()));
                        ok = false;
                        continue;
                    };
                    for (i, item) in items.iter().enumerate() {
                        match self.typed(&var.ty, item, &format!("{p}[{i}]")) {
                            Some(x) => var.allowed.push(x),
                            None => ok = false,
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(d) = &var.default
            && !var.allowed.is_empty()
            && !var.allowed.contains(d)
        {
            let at = e.value.get("default").map_or(e.key_at, |n| n.at);
            self.fail(at, &join(&path, "default"), "the default is not one of allowedValues");
            ok = false;
        }
        ok.then_some(var)
    }

    /// A literal of a variable's type.
    fn typed(&mut self, ty: &VarType, v: &Node, path: &str) -> Option<Value> {
        let value = v.to_value();
        let fits = match (ty, &value) {
            (VarType::String | VarType::Custom(_), Value::Str(s)) => !s.trim().is_empty(),
            (VarType::Integer, Value::Int(_)) | (VarType::Boolean, Value::Bool(_)) => true,
            (VarType::Float, Value::Float(_) | Value::Int(_)) => true,
            _ => false,
        };
        if !fits {
            let name = match ty {
                VarType::String | VarType::Custom(_) => "a non-empty string",
                VarType::Integer => "an integer",
                VarType::Float => "a float",
                VarType::Boolean => "a boolean",
            };
            self.fail(
                v.at,
                path,
                format!("expected {name} (the variable's type), found {}", v.describe()),
            );
            return None;
        }
        Some(match (ty, value) {
            (VarType::Float, Value::Int(i)) => Value::Float(i as f64),
            (_, v) => v,
        })
    }

    pub(super) fn value(&mut self, e: &Entry) -> Option<ValueDef> {
        let path = format!("values.{}", e.key);
        let fields = self.fields(
            &e.value,
            &path,
            &["type", "value", "description", "secret"],
            &["type", "value"],
        );
        let mut ty = None;
        let mut value = None;
        let mut description = None;
        let mut secret = false;
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => ty = self.type_at(v, &p, "the value type property", "a value type", VALUE_TYPES),
                "value" => {
                    if !matches!(v.kind, Kind::Scalar(_)) {
                        let message =
                            "a value is written as a string; arrays and objects come from a ${..} substitution";
                        self.fail(v.at, &p, message);
                    }
                    value = Some(self.tree(v, &p));
                }
                "description" => description = Some(self.tree(v, &p)),
                "secret" => match v.kind {
                    Kind::Scalar(Value::Bool(b)) => secret = b,
                    _ => self.fail(v.at, &p, format!("expected true or false, found {}", v.describe())),
                },
                _ => {}
            }
        }
        Some(ValueDef {
            name: e.key.clone(),
            at: e.key_at,
            ty: ty?,
            value: value?,
            description,
            secret,
        })
    }
}
