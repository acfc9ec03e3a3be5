//! Variable and value definitions.

use super::{Loader, VALUE_TYPES, join, namespaced};
use crate::blueprint::{Type, ValueDef, VarType, Variable};
use crate::node::{Entry, Kind, Node};
use crate::sub::Tree;
use bpvm_runtime::Value;

impl Loader {
    pub(super) fn variable(&mut self, e: &Entry) -> Option<Variable> {
        let path = format!("variables.{}", e.key);
        let place = "any part of a variable definition";
        let fields = self.fields(&e.value, &path, super::shape::VARIABLE);
        self.literal(&e.value, &path, place);
        let mut var = Variable {
            name: e.key.to_string(),
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
                    // An empty list enumerates nothing: no restriction.
                    if var.ty == VarType::Boolean && !matches!(&v.kind, Kind::List(items) if items.is_empty()) {
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
            // A float is written with a point (`30.0`): all values of a
            // variable are of its type (seed 002), and 30 is an integer.
            (VarType::Float, Value::Float(_)) => true,
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
        Some(value)
    }

    pub(super) fn value(&mut self, e: &Entry) -> Option<ValueDef> {
        let path = format!("values.{}", e.key);
        let fields = self.fields(&e.value, &path, super::shape::VALUE);
        let mut ty = None;
        let mut value = None;
        let mut description = None;
        let mut secret = false;
        let mut content = None;
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => ty = self.type_at(v, &p, "the value type property", "a value type", VALUE_TYPES),
                "value" => {
                    content = Some(v);
                    value = Some(self.tree(v, &p));
                }
                "description" => description = Some(self.text(v, &p, "a description")),
                "secret" => match v.kind {
                    Kind::Scalar(Value::Bool(b)) => secret = b,
                    _ => self.fail(v.at, &p, format!("expected true or false, found {}", v.describe())),
                },
                _ => {}
            }
        }
        if let (Some(ty), Some(node), Some(tree)) = (ty, content, &value) {
            self.content(ty, node, tree, &join(&path, "value"));
        }
        Some(ValueDef {
            name: e.key.to_string(),
            at: e.key_at,
            ty: ty?,
            value: value?,
            description,
            secret,
        })
    }

    /// A value's `value` against its declared type, as far as it is known
    /// when loaded: what is written without substitutions, and what a
    /// substitution on literals yields.
    fn content(&mut self, ty: Type, node: &Node, tree: &Tree, path: &str) {
        let shape = crate::render::describe_value;
        match (&node.kind, tree) {
            // Version 2025-11-02 writes arrays and objects out, with
            // substitutions anywhere inside.
            (Kind::List(_) | Kind::Map(_), _) => {
                let what = "a value written as a list or a mapping";
                let fits = matches!(
                    (ty, &node.kind),
                    (Type::Array, Kind::List(_)) | (Type::Object, Kind::Map(_))
                );
                if self.since_2025(node.at, path, what) && !fits {
                    let written = if matches!(node.kind, Kind::List(_)) {
                        "an array"
                    } else {
                        "an object"
                    };
                    let message = format!("the value is declared {} but is written as {written}", ty.name());
                    self.fail(node.at, path, message);
                }
            }
            (_, Tree::Lit(v)) if ty.coerce(Value::clone(v)).is_err() => {
                let message = format!("the value is declared {} but is {}", ty.name(), shape(v));
                self.fail(node.at, path, message);
            }
            (_, Tree::Sub(sub)) => {
                let whole = bpvm_compiler::template::split(sub.text())
                    .ok()
                    .and_then(|parts| bpvm_compiler::template::whole(&parts));
                if whole.is_none() && matches!(ty, Type::Array | Type::Object) {
                    let message = format!(
                        "the value is declared {}, and text with substitutions is a string: an {} comes from one ${{..}}",
                        ty.name(),
                        ty.name()
                    );
                    self.fail(sub.at, path, message);
                } else if let Some(v) = super::constant(&sub.prog)
                    && !matches!(v, Value::Null)
                    && ty.coerce(v.clone()).is_err()
                {
                    let message = format!("the value is declared {} but is {}", ty.name(), shape(&v));
                    self.fail(sub.at, path, message);
                }
            }
            _ => {}
        }
    }
}
