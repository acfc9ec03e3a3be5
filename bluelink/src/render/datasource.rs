//! Data sources: fields given by name, or the first candidate record of
//! the data source's type that matches all its filters.

use super::results::DataOut;
use super::{Failed, MASK, Resolved, Resolver, describe_value, primitive};
use crate::blueprint::{DataSource, Type};
use crate::filter;
use crate::filter::search_value;
use crate::sub::{Def, Tree};
use bpvm_runtime::{Map, Value};

/// The path of filter `k` in messages (`datasources.d.filter[1]` when
/// the filters are a list).
fn filter_path(d: &DataSource, path: &str, k: usize) -> String {
    if d.filters.len() > 1 || d.filter_list {
        format!("{path}.filter[{k}]")
    } else {
        format!("{path}.filter")
    }
}

impl Resolver<'_> {
    pub(super) fn datasource(&mut self, i: usize) -> Result<(), Failed> {
        let d = &self.bp.datasources[i];
        let path = format!("datasources.{}", d.name);
        self.ensure_refs(d.subs())?;
        let searches = self.every(&d.filters, |me, f| {
            let r = me.tree(&f.search)?;
            me.shaped(&f.search, &r, "a filter search", search_value)?;
            Ok(r)
        })?;
        let metadata = self.opt_tree(&d.metadata)?;
        if let (Some(Tree::Map(trees)), Some(Resolved::Map(parts))) = (&d.metadata, &metadata) {
            for ((key, t), (_, r)) in trees.iter().zip(parts) {
                match key.as_str() {
                    "displayName" => self.shaped(t, r, "a display name", primitive)?,
                    "annotations" => self.shaped(t, r, "an annotation", primitive)?,
                    _ => {}
                }
            }
        }
        let description = self.opt_tree(&d.description)?;
        if let (Some(t), Some(r)) = (&d.description, &description) {
            self.shaped(t, r, "a description", primitive)?;
        }
        let data = self.opts.datasources.as_ref().and_then(Value::as_map);
        let by_name = data.and_then(|m| m.get(&d.name)).filter(|v| v.as_map().is_some());
        let by_type = data.and_then(|m| m.get(&d.ty));
        let record: Option<(Value, bool)> = match (by_name, by_type) {
            (Some(fields), _) => Some((fields.clone(), false)),
            (None, Some(Value::List(candidates))) => {
                match searches.iter().map(Resolved::known).collect::<Option<Vec<Value>>>() {
                    None => None,
                    Some(s) => {
                        let secret: Vec<bool> = searches.iter().map(Resolved::is_secret).collect();
                        Some((self.select(d, &path, candidates, &s, &secret)?, true))
                    }
                }
            }
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
                fields: None,
                searches,
                metadata,
                description,
            });
            return Ok(());
        };
        let fields = if d.export_all {
            // Every field of the data (version 2025-11-02).
            match record.as_map() {
                Some(m) => m.iter().map(|(k, v)| (k.as_str().to_string(), v.clone())).collect(),
                None => {
                    let message = format!("the data is {}, not a mapping of fields", describe_value(&record));
                    return Err(self.fail(d.at, &path, message));
                }
            }
        } else {
            self.declared_fields(d, &path, &record, by_record)?
        };
        let mut m = Map::new();
        for (k, v) in &fields {
            m.insert(k.as_str(), v.clone());
        }
        self.put("datasources", d.name.as_str(), Value::Map(m));
        self.out.datasources[i] = Some(DataOut {
            fields: Some(fields),
            searches,
            metadata,
            description,
        });
        Ok(())
    }

    /// The first candidate record every filter selects.
    fn select(
        &mut self,
        d: &DataSource,
        path: &str,
        candidates: &[Value],
        searches: &[Value],
        secret: &[bool],
    ) -> Result<Value, Failed> {
        'candidates: for c in candidates {
            for (k, (f, s)) in d.filters.iter().zip(searches).enumerate() {
                let Some(field) = filter::field_at(c, &f.field) else {
                    continue 'candidates;
                };
                match filter::test(field, f.operator, s) {
                    Ok(true) => {}
                    Ok(false) => continue 'candidates,
                    Err(message) => return Err(self.fail(f.at, &filter_path(d, path, k), message)),
                }
            }
            return Ok(c.clone());
        }
        let tests: Vec<String> = d
            .filters
            .iter()
            .zip(searches)
            .zip(secret)
            .map(|((f, s), &secret)| {
                let shown = if secret && self.mask() {
                    MASK.to_string()
                } else {
                    describe_value(s)
                };
                format!("{} {} {shown}", f.field, f.operator.text())
            })
            .collect();
        let message = format!("no {} record matches the filter ({})", d.ty, tests.join(" and "));
        let at = d.filters.first().map_or(d.at, |f| f.at);
        Err(self.fail(at, &format!("{path}.filter"), message))
    }

    /// The fields `exports` declares, read from the data and checked
    /// against their declared types.
    fn declared_fields(
        &mut self,
        d: &DataSource,
        path: &str,
        record: &Value,
        by_record: bool,
    ) -> Result<Vec<(String, Value)>, Failed> {
        let mut fields = Vec::new();
        let mut ok = true;
        for f in &d.fields {
            let source = if by_record {
                f.alias_for.as_deref().unwrap_or(&f.name)
            } else {
                &f.name
            };
            let p = format!("{path}.exports.{}", f.name);
            match filter::field_at(record, source) {
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
        if ok { Ok(fields) } else { Err(Failed) }
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
