//! The type of what a blueprint's substitutions read, from its
//! declarations: variables and values by their types, data source fields
//! by theirs, a child's exports when the child can be read, and anything
//! a resource has.

use super::children::Child;
use crate::blueprint::{Blueprint, DataSource, Type, ValueDef, VarType};
use crate::sub::Tree;
use bpvm_checker::{Fields, Keys, Ty};

/// The type of the environment the blueprint's substitutions run in;
/// `children` are the includes, in order, as far as they were read.
pub(super) fn scope(bp: &Blueprint, children: &[Option<Child>]) -> Ty {
    let variables = bp.variables.iter().map(|v| {
        let ty = match v.ty {
            VarType::String => Ty::Str,
            VarType::Integer => Ty::Int,
            VarType::Float => Ty::Float,
            VarType::Boolean => Ty::Bool,
            VarType::Custom(_) => Ty::Any,
        };
        (v.name.as_str(), ty)
    });
    let values = bp.values.iter().map(|v| (v.name.as_str(), value(v)));
    let datasources = bp.datasources.iter().map(|d| (d.name.as_str(), datasource(d)));
    let includes = bp.includes.iter().zip(children).map(|(inc, child)| {
        let ty = match child {
            Some(c) => Ty::map(Fields {
                known: c
                    .exports
                    .iter()
                    .map(|(name, t)| (name.clone(), declared(*t, true)))
                    .collect(),
                rest: None,
            }),
            None => Ty::Any,
        };
        (inc.name.as_str(), ty)
    });
    Ty::map(Fields::closed([
        ("variables", Ty::map(Fields::closed(variables))),
        ("values", Ty::map(Fields::closed(values))),
        ("datasources", Ty::map(Fields::closed(datasources))),
        ("resources", Ty::any_map()),
        ("children", Ty::map(Fields::closed(includes))),
        ("elem", Ty::Any),
        ("i", Ty::Int),
    ]))
}

/// The type a declaration of type `t` gives; `loose` where an integer
/// passes for a float as it is (an export, a data source field), rather
/// than made one (a value).
fn declared(t: Type, loose: bool) -> Ty {
    match t {
        Type::String => Ty::Str,
        Type::Integer => Ty::Int,
        Type::Float if loose => Ty::Float.or(Ty::Int),
        Type::Float => Ty::Float,
        Type::Boolean => Ty::Bool,
        Type::Array => Ty::List(Box::new(Ty::Any)),
        Type::Object => Ty::any_map(),
    }
}

/// A value's type: its declared one, or, written out as a list or a
/// mapping (version 2025-11-02), the shape written.
fn value(v: &ValueDef) -> Ty {
    match &v.value {
        Tree::List(_) | Tree::Map(_) => shape(&v.value),
        _ => declared(v.ty, false),
    }
}

/// The type of a value as written: its mappings' keys are all it has.
fn shape(t: &Tree) -> Ty {
    match t {
        Tree::Lit(v) => Ty::of(v, Keys::Exact),
        Tree::Sub(_) => Ty::Any,
        Tree::List(items) => Ty::List(Box::new(items.iter().map(shape).reduce(Ty::or).unwrap_or(Ty::Any))),
        Tree::Map(entries) => Ty::map(Fields {
            known: entries
                .iter()
                .map(|(k, t)| (k.as_str().to_string(), shape(t)))
                .collect(),
            rest: None,
        }),
    }
}

/// A data source: its exported fields, or any field (`exports: "*"`).
fn datasource(d: &DataSource) -> Ty {
    if d.export_all {
        return Ty::any_map();
    }
    Ty::map(Fields {
        known: d
            .fields
            .iter()
            .map(|f| (f.name.clone(), declared(f.ty, true)))
            .collect(),
        rest: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::parse;
    use std::path::Path;

    fn scope_of(text: &str) -> Ty {
        let bp = parse(text, "bp.yaml", Path::new("/bp.yaml")).unwrap();
        scope(&bp, &[])
    }

    #[test]
    fn declarations_give_the_types() {
        let s = scope_of(
            "version: 2025-11-02\nvariables:\n  n: {type: integer}\n  r: {type: aws/region}\nvalues:\n  \
             cfg: {type: object, value: {region: eu, zones: [a, b]}}\n  ids: {type: array, value: '${list(1)}'}\n\
             datasources:\n  net:\n    type: aws/vpc\n    filter: {field: tags, operator: has key, search: x}\n    \
             exports: {vpc: {type: string}, size: {type: float}}\nresources:\n  fn: {type: aws/lambda/function, spec: {}}\n",
        );
        let get = |path: &str| path.split('.').try_fold(s.clone(), |t, k| t.field(k));
        assert_eq!(get("variables.n"), Some(Ty::Int));
        assert_eq!(get("variables.r"), Some(Ty::Any));
        assert_eq!(get("values.cfg.region"), Some(Ty::Str));
        assert_eq!(get("values.cfg.zones"), Some(Ty::List(Box::new(Ty::Str))));
        assert_eq!(get("values.cfg.other"), None);
        assert_eq!(get("values.ids"), Some(Ty::List(Box::new(Ty::Any))));
        assert_eq!(get("datasources.net.vpc"), Some(Ty::Str));
        assert_eq!(get("datasources.net.size"), Some(Ty::Float.or(Ty::Int)));
        assert_eq!(get("resources.fn.spec"), Some(Ty::Any));
        assert_eq!(get("i"), Some(Ty::Int));
    }
}
