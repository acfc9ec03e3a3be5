//! Data source definitions and their filters.

use super::{FIELD_TYPES, Loader, join, namespaced};
use crate::blueprint::{DataField, DataSource, Filter, Operator, Type};
use crate::filter::search_value;
use crate::node::{Entry, Kind, Node};
use crate::sub::Tree;
use bpvm_runtime::Value;

impl Loader {
    pub(super) fn datasource(&mut self, e: &Entry) -> Option<DataSource> {
        let path = format!("datasources.{}", e.key);
        let fields = self.fields(&e.value, &path, super::shape::DATASOURCE);
        let (mut ty, mut filters, mut exports, mut description, mut metadata) = (None, None, Vec::new(), None, None);
        let mut export_all = false;
        let before = self.errors.len();
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => ty = self.datasource_type(v, &p),
                "metadata" => metadata = Some(self.datasource_meta(v, &p)),
                "filter" => filters = self.filters(v, &p),
                "exports" if v.as_str() == Some("*") => {
                    // Every field of the data (version 2025-11-02).
                    export_all = self.since_2025(v.at, &p, "exports: \"*\" (every field of the data source)");
                }
                "exports" => exports = self.exported_fields(v, &p),
                "description" => description = Some(self.text(v, &p, "a description")),
                _ => {}
            }
        }
        if self.errors.len() > before {
            return None;
        }
        Some(DataSource {
            name: e.key.to_string(),
            at: e.key_at,
            ty: ty?,
            filter_list: e.value.get("filter").is_some_and(|f| matches!(f.kind, Kind::List(_))),
            filters: filters?,
            fields: exports,
            export_all,
            description,
            metadata,
        })
    }

    /// `type`: `{provider}/{type}`.
    fn datasource_type(&mut self, v: &Node, p: &str) -> Option<String> {
        let t = self.plain_str(v, p, "the data source type property")?;
        if !namespaced(&t, 2, 3) {
            self.fail(
                v.at,
                p,
                format!("{t:?} is not a data source type of the form {{provider}}/{{type}}"),
            );
        }
        Some(t)
    }

    /// `metadata`: a display name, annotations and custom fields.
    fn datasource_meta(&mut self, v: &Node, p: &str) -> Tree {
        for m in self.fields(v, p, super::shape::DATASOURCE_META) {
            let mp = join(p, &m.key);
            match m.key.as_str() {
                "displayName" if m.value.as_str().is_none() => {
                    let message = format!("a display name is a string, found {}", m.value.describe());
                    self.fail(m.value.at, &mp, message);
                }
                "annotations" => self.annotations(&m.value, &mp),
                _ => {}
            }
        }
        let t = self.tree(v, p);
        if let Tree::Map(parts) = &t {
            for (key, part) in parts {
                match key.as_str() {
                    "displayName" => self.primitive(part, "a display name"),
                    "annotations" => self.primitive(part, "an annotation"),
                    _ => {}
                }
            }
        }
        t
    }

    /// `exports`: the fields of the data, by name.
    fn exported_fields(&mut self, v: &Node, p: &str) -> Vec<DataField> {
        let entries = self.named(v, p);
        if v.entries().is_some() && entries.is_empty() {
            self.fail(v.at, p, "a data source exports at least one field");
        }
        entries
            .iter()
            .map(|x| self.exported_field(x, &join(p, &x.key)))
            .collect()
    }

    /// One exported field, at `xp`: its type, and the field it reads.
    fn exported_field(&mut self, x: &Entry, xp: &str) -> DataField {
        self.literal(&x.value, xp, "the data source exports");
        let xf = self.fields(&x.value, xp, super::shape::DATASOURCE_EXPORT);
        let mut field = DataField {
            name: x.key.to_string(),
            ty: Type::String,
            alias_for: None,
            at: x.key_at,
        };
        for f in xf {
            match (f.key.as_str(), f.value.as_str()) {
                ("type", _) => {
                    let p = join(xp, "type");
                    let what = "a data source field type";
                    if let Some(ty) = self.type_at(&f.value, &p, "the data source exports", what, FIELD_TYPES) {
                        field.ty = ty;
                    }
                }
                ("aliasFor", Some(a)) => field.alias_for = Some(a.to_string()),
                ("aliasFor" | "description", None) => self.fail(
                    f.value.at,
                    &join(xp, &f.key),
                    format!("expected a string, found {}", f.value.describe()),
                ),
                _ => {}
            }
        }
        field
    }

    /// Annotation values are primitives (seed 002); what substitutions
    /// yield is checked on the compiled tree.
    pub(super) fn annotations(&mut self, v: &Node, path: &str) {
        let Some(entries) = v.entries() else {
            self.fail(v.at, path, format!("expected a mapping, found {}", v.describe()));
            return;
        };
        for a in entries {
            if !matches!(a.value.kind, Kind::Scalar(_)) {
                let message = format!(
                    "an annotation is a string, integer, float or boolean, found {}",
                    a.value.describe()
                );
                self.fail(a.value.at, &join(path, &a.key), message);
            }
        }
    }

    /// `filter`: one filter, or (version 2025-11-02) a list of them.
    fn filters(&mut self, v: &Node, path: &str) -> Option<Vec<Filter>> {
        let Kind::List(items) = &v.kind else {
            return Some(vec![self.filter(v, path)?]);
        };
        if !self.since_2025(v.at, path, "a list of filters") {
            return None;
        }
        if items.is_empty() {
            self.fail(v.at, path, "a list of filters has at least one filter");
            return None;
        }
        let all: Vec<Option<Filter>> = items
            .iter()
            .enumerate()
            .map(|(i, item)| self.filter(item, &format!("{path}[{i}]")))
            .collect();
        all.into_iter().collect()
    }

    fn filter(&mut self, v: &Node, path: &str) -> Option<Filter> {
        let fields = self.fields(v, path, super::shape::FILTER);
        let (mut field, mut operator, mut search) = (None, None, None);
        for f in fields {
            let p = join(path, &f.key);
            match f.key.as_str() {
                "field" => {
                    field = self.plain_str(&f.value, &p, "the data source filter.field property");
                    if field.as_deref() == Some("") {
                        self.fail(
                            f.value.at,
                            &p,
                            "a filter field cannot be empty: it names the field to search",
                        );
                        field = None;
                    }
                }
                "operator" => {
                    let Some(text) = self.plain_str(&f.value, &p, "the data source filter.operator property") else {
                        continue;
                    };
                    operator = Operator::parse(&text);
                    match operator {
                        Some(o) if o.since_2025() => {
                            let what = format!("the filter operator {text:?}");
                            if !self.since_2025(f.value.at, &p, &what) {
                                operator = None;
                            }
                        }
                        Some(_) => {}
                        None => {
                            let n = if self.version == Some(super::Version::V2023) {
                                Operator::SEED
                            } else {
                                Operator::ALL.len()
                            };
                            let all: Vec<&str> = Operator::ALL[..n].iter().map(|(t, _)| *t).collect();
                            self.fail(
                                f.value.at,
                                &p,
                                format!("unknown filter operator {text:?}; expected one of: {}", all.join(", ")),
                            );
                        }
                    }
                }
                "search" => search = self.search(&f.value, &p),
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

    /// `search`: a primitive or a list of at least one (each may be a
    /// substitution that yields a primitive).
    fn search(&mut self, v: &Node, p: &str) -> Option<Tree> {
        if matches!(&v.kind, Kind::List(items) if items.is_empty()) {
            self.fail(v.at, p, "a filter search has at least one value");
            return None;
        }
        let ok = match &v.kind {
            Kind::Scalar(Value::Null) => false,
            Kind::Scalar(_) => true,
            Kind::List(items) => items
                .iter()
                .all(|i| matches!(&i.kind, Kind::Scalar(x) if !matches!(x, Value::Null))),
            Kind::Map(_) => false,
        };
        if !ok {
            self.fail(v.at, p, "a filter search is a primitive or an array of primitives");
        }
        let t = self.tree(v, p);
        for sub in t.subs() {
            if let Some(v) = super::constant(&sub.prog)
                && !search_value(&v)
            {
                let message = super::not_primitive("a filter search", &v);
                self.fail(sub.at, &sub.path, message);
            }
        }
        Some(t)
    }
}
