//! Variables from the command line or a parent (B10) and values, each
//! taking its declared type.

use super::{Failed, Input, MASK, Resolved, Resolver, describe_value};
use crate::blueprint::VarType;
use crate::error::Pos;
use crate::sub::Def;
use bpvm_runtime::Value;

impl Resolver<'_> {
    pub(super) fn variables(&mut self) {
        for (name, _) in self.inputs {
            if !self.bp.index.variables.contains_key(name) {
                let message = format!("the blueprint has no variable {name:?}");
                self.fail(Pos::default(), &format!("variables.{name}"), message);
            }
        }
        for (i, var) in self.bp.variables.iter().enumerate() {
            let path = format!("variables.{}", var.name);
            // A value a parent computed from a secret is one here (D11).
            let secret = var.secret || self.secret_inputs.contains(&var.name);
            let input = self.inputs.iter().rev().find(|(n, _)| *n == var.name).map(|(_, v)| v);
            let shown = |v: &str| {
                if secret && self.mask() {
                    MASK.to_string()
                } else {
                    v.to_string()
                }
            };
            let value = match input {
                Some(Input::Deferred(text)) => {
                    self.deferred.set(Def::Variable(i), true);
                    self.out.variables[i] = Some(Resolved::Deferred(text.as_str().into()));
                    continue;
                }
                Some(Input::Text(t)) => match parse_text(&var.ty, t) {
                    Some(v) => v,
                    None => {
                        let message = format!("{} is not {}", shown(&format!("{t:?}")), var_type_name(&var.ty));
                        self.fail(var.at, &path, message);
                        self.failed.set(Def::Variable(i), true);
                        continue;
                    }
                },
                Some(Input::Value(v)) => match typed(&var.ty, v) {
                    Some(v) => v,
                    None => {
                        let message = format!("{} is not {}", shown(&describe_value(v)), var_type_name(&var.ty));
                        self.fail(var.at, &path, message);
                        self.failed.set(Def::Variable(i), true);
                        continue;
                    }
                },
                None => match &var.default {
                    Some(d) => d.clone(),
                    None => {
                        let message = format!(
                            "no value: give one with --var {}=VALUE or --vars FILE, or a default in the blueprint",
                            var.name
                        );
                        self.fail(var.at, &path, message);
                        self.failed.set(Def::Variable(i), true);
                        continue;
                    }
                },
            };
            if !var.allowed.is_empty() && !var.allowed.contains(&value) {
                let allowed: Vec<String> = var.allowed.iter().map(describe_value).collect();
                let message = format!(
                    "{} is not one of the allowed values: {}",
                    shown(&describe_value(&value)),
                    if secret && self.mask() {
                        MASK.to_string()
                    } else {
                        allowed.join(", ")
                    }
                );
                self.fail(var.at, &path, message);
                self.failed.set(Def::Variable(i), true);
                continue;
            }
            if secret {
                self.secret.set(Def::Variable(i), true);
            }
            self.out.variables[i] = Some(Resolved::Known(value.clone(), secret));
            self.put("variables", var.name.as_str(), value);
        }
    }

    // ---- values ----------------------------------------------------

    pub(super) fn value(&mut self, i: usize) -> Result<(), Failed> {
        let def = &self.bp.values[i];
        let path = format!("values.{}", def.name);
        self.out.value_descriptions[i] = self.opt_tree(&def.description)?;
        self.opt_shaped(
            &def.description,
            &self.out.value_descriptions[i].clone(),
            "a description",
        )?;
        let r = match self.tree(&def.value)? {
            Resolved::Literal(v) => Resolved::Known(v, false),
            r => r,
        };
        let r = match r {
            Resolved::Known(v, secret) => match def.ty.coerce(v) {
                Ok(v) => Resolved::Known(v, secret || def.secret),
                Err(v) => {
                    let shown = if (secret || def.secret) && self.mask() {
                        MASK.to_string()
                    } else {
                        describe_value(&v)
                    };
                    let message = format!("the value is declared {} but is {shown}", def.ty.name());
                    return Err(self.fail(def.at, &path, message));
                }
            },
            other => other,
        };
        if r.is_secret() || def.secret {
            self.secret.set(Def::Value(i), true);
        }
        match r.known() {
            _ if r.is_deferred() => {
                self.deferred.set(Def::Value(i), true);
            }
            Some(v) => self.put("values", def.name.as_str(), v),
            None => self.put("values", def.name.as_str(), Value::Null),
        }
        self.out.values[i] = Some(r);
        Ok(())
    }
}

fn var_type_name(ty: &VarType) -> String {
    match ty {
        VarType::String => "a non-empty string".into(),
        VarType::Custom(t) => format!("a non-empty string (a {t} label)"),
        VarType::Integer => "an integer".into(),
        VarType::Float => "a float".into(),
        VarType::Boolean => "a boolean (true or false)".into(),
    }
}

/// Command-line text as a variable's type (B10).
fn parse_text(ty: &VarType, t: &str) -> Option<Value> {
    match ty {
        VarType::String | VarType::Custom(_) => (!t.trim().is_empty()).then(|| Value::Str(t.into())),
        VarType::Integer => t.trim().parse().ok().map(Value::Int),
        VarType::Float => t.trim().parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::Float),
        VarType::Boolean => match t.trim() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
    }
}

/// A typed value as a variable's type; text is parsed (B10).
fn typed(ty: &VarType, v: &Value) -> Option<Value> {
    match (ty, v) {
        (_, Value::Str(s)) => parse_text(ty, s),
        (VarType::Integer, Value::Int(_)) | (VarType::Boolean, Value::Bool(_)) | (VarType::Float, Value::Float(_)) => {
            Some(v.clone())
        }
        (VarType::Float, Value::Int(i)) => Some(Value::Float(*i as f64)),
        _ => None,
    }
}
