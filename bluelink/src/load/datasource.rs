//! Data source definitions and their filters.

use super::{FIELD_TYPES, Loader, join, namespaced};
use crate::blueprint::{DataField, DataSource, Filter, Operator, Type};
use crate::node::{Entry, Kind, Node};
use bpvm_runtime::Value;

impl Loader {
    pub(super) fn datasource(&mut self, e: &Entry) -> Option<DataSource> {
        let path = format!("datasources.{}", e.key);
        let known = ["type", "metadata", "filter", "exports", "description"];
        let fields = self.fields(&e.value, &path, &known, &["type", "filter", "exports"]);
        let (mut ty, mut filter, mut exports, mut description, mut metadata) = (None, None, Vec::new(), None, None);
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => {
                    let Some(t) = self.plain_str(v, &p, "the data source type property") else {
                        continue;
                    };
                    if !namespaced(&t, 2, 3) {
                        self.fail(
                            v.at,
                            &p,
                            format!("{t:?} is not a data source type of the form {{provider}}/{{type}}"),
                        );
                    }
                    ty = Some(t);
                }
                "metadata" => {
                    self.fields(v, &p, &["displayName", "annotations", "custom"], &[]);
                    metadata = Some(self.tree(v, &p));
                }
                "filter" => filter = self.filter(v, &p),
                "exports" => {
                    for x in self.named(v, &p) {
                        let xp = join(&p, &x.key);
                        self.literal(&x.value, &xp, "the data source exports");
                        let xf = self.fields(&x.value, &xp, &["type", "aliasFor", "description"], &["type"]);
                        let mut field = DataField {
                            name: x.key.clone(),
                            ty: Type::String,
                            alias_for: None,
                            at: x.key_at,
                        };
                        for f in xf {
                            match (f.key.as_str(), f.value.as_str()) {
                                ("type", _) => {
                                    let p = join(&xp, "type");
                                    let what = "a data source field type";
                                    match self.type_at(&f.value, &p, "the data source exports", what, FIELD_TYPES) {
                                        Some(ty) => field.ty = ty,
                                        None => continue,
                                    }
                                }
                                ("aliasFor", Some(a)) => field.alias_for = Some(a.to_string()),
                                ("aliasFor" | "description", None) => self.fail(
                                    f.value.at,
                                    &join(&xp, &f.key),
                                    format!("expected a string, found {}", f.value.describe()),
                                ),
                                _ => {}
                            }
                        }
                        exports.push(field);
                    }
                }
                "description" => description = Some(self.tree(v, &p)),
                _ => {}
            }
        }
        Some(DataSource {
            name: e.key.clone(),
            at: e.key_at,
            ty: ty?,
            filter: filter?,
            fields: exports,
            description,
            metadata,
        })
    }

    fn filter(&mut self, v: &Node, path: &str) -> Option<Filter> {
        let fields = self.fields(
            v,
            path,
            &["field", "operator", "search"],
            &["field", "operator", "search"],
        );
        let (mut field, mut operator, mut search) = (None, None, None);
        for f in fields {
            let p = join(path, &f.key);
            match f.key.as_str() {
                "field" => field = self.plain_str(&f.value, &p, "the data source filter.field property"),
                "operator" => {
                    let Some(text) = self.plain_str(&f.value, &p, "the data source filter.operator property") else {
                        continue;
                    };
                    operator = Operator::parse(&text);
                    if operator.is_none() {
                        let all: Vec<&str> = Operator::ALL.iter().map(|(t, _)| *t).collect();
                        self.fail(
                            f.value.at,
                            &p,
                            format!("unknown filter operator {text:?}; expected one of: {}", all.join(", ")),
                        );
                    }
                }
                "search" => {
                    let ok = match &f.value.kind {
                        Kind::Scalar(Value::Null) => false,
                        Kind::Scalar(_) => true,
                        Kind::List(items) => items
                            .iter()
                            .all(|i| matches!(&i.kind, Kind::Scalar(x) if !matches!(x, Value::Null))),
                        Kind::Map(_) => false,
                    };
                    if !ok {
                        self.fail(
                            f.value.at,
                            &p,
                            "a filter search is a primitive or an array of primitives",
                        );
                    }
                    search = Some(self.tree(&f.value, &p));
                }
                _ => {}
            }
        }
        Some(Filter {
            field: field?,
            operator: operator?,
            search: search?,
            at: v.at,
        })
    }
}
