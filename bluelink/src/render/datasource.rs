//! Data sources: fields given by name, or the first candidate record of
//! the data source's type that matches its filter.

use super::{Failed, Resolved, Resolver, describe_value};
use crate::blueprint::Type;
use crate::filter;
use crate::sub::Def;
use bpvm_runtime::{Map, Value};

/// A data source as rendered.
pub(crate) struct DataOut {
    pub fields: Vec<(String, Value)>,
    pub search: Resolved,
    pub metadata: Option<Resolved>,
    pub description: Option<Resolved>,
}

impl Resolver<'_> {
    pub(super) fn datasource(&mut self, i: usize) -> Result<(), Failed> {
        let d = &self.bp.datasources[i];
        let path = format!("datasources.{}", d.name);
        self.ensure_refs(d.subs())?;
        let search = self.tree(&d.filter.search)?;
        let metadata = self.opt_tree(&d.metadata)?;
        let description = self.opt_tree(&d.description)?;
        let data = self.opts.datasources.as_ref().and_then(Value::as_map);
        let by_name = data.and_then(|m| m.get(&d.name)).filter(|v| v.as_map().is_some());
        let by_type = data.and_then(|m| m.get(&d.ty));
        let record: Option<(Value, bool)> = match (by_name, by_type) {
            (Some(fields), _) => Some((fields.clone(), false)),
            (None, Some(Value::List(candidates))) => match search.known() {
                None => None,
                Some(s) => {
                    let mut found = None;
                    for c in candidates {
                        let Some(field) = filter::field_at(c, &d.filter.field) else {
                            continue;
                        };
                        match filter::test(field, d.filter.operator, &s) {
                            Ok(true) => {
                                found = Some(c.clone());
                                break;
                            }
                            Ok(false) => {}
                            Err(message) => {
                                let p = format!("{path}.filter");
                                return Err(self.fail(d.filter.at, &p, message));
                            }
                        }
                    }
                    match found {
                        Some(c) => Some((c, true)),
                        None => {
                            let message = format!(
                                "no {} record matches the filter ({} {} {})",
                                d.ty,
                                d.filter.field,
                                d.filter.operator.text(),
                                describe_value(&s)
                            );
                            return Err(self.fail(d.filter.at, &format!("{path}.filter"), message));
                        }
                    }
                }
            },
            (None, Some(other)) => {
                let message = format!(
                    "the data for type {} must be a list of candidate records, found {}",
                    d.ty,
                    other.type_name()
                );
                return Err(self.fail(d.at, &path, message));
            }
            (None, None) => None,
        };
        let Some((record, by_record)) = record else {
            self.deferred.set(Def::DataSource(i), true);
            self.out.datasources[i] = Some(DataOut {
                fields: Vec::new(),
                search,
                metadata,
                description,
            });
            return Ok(());
        };
        let mut fields = Vec::new();
        let mut ok = true;
        for f in &d.fields {
            let source = if by_record {
                f.alias_for.as_deref().unwrap_or(&f.name)
            } else {
                &f.name
            };
            let p = format!("{path}.exports.{}", f.name);
            match filter::field_at(&record, source) {
                None => {
                    self.fail(f.at, &p, format!("the data has no field {source:?}"));
                    ok = false;
                }
                Some(v) if !field_fits(f.ty, v) => {
                    let message = format!("declared {} but the data gives {}", f.ty.name(), describe_value(v));
                    self.fail(f.at, &p, message);
                    ok = false;
                }
                Some(v) => fields.push((f.name.clone(), v.clone())),
            }
        }
        if !ok {
            return Err(Failed);
        }
        let mut m = Map::new();
        for (k, v) in &fields {
            m.insert(k.as_str(), v.clone());
        }
        self.put("datasources", d.name.as_str(), Value::Map(m));
        self.out.datasources[i] = Some(DataOut {
            fields,
            search,
            metadata,
            description,
        });
        Ok(())
    }
}

/// A data source field of `ty` (arrays hold primitives only).
fn field_fits(ty: Type, v: &Value) -> bool {
    match (ty, v) {
        (Type::Array, Value::List(items)) => items
            .iter()
            .all(|x| matches!(x, Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_))),
        _ => ty.holds(v),
    }
}
