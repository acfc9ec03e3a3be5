//! Include and export definitions.

use super::{Loader, VALUE_TYPES, is_reference, join};
use crate::blueprint::{Export, Include};
use crate::node::{Entry, Kind};
use crate::sub::Tree;
use bpvm_runtime::Value;

impl Loader {
    pub(super) fn include(&mut self, e: &Entry) -> Option<Include> {
        let path = format!("include.{}", e.key);
        let fields = self.fields(&e.value, &path, super::shape::INCLUDE);
        let mut inc = Include {
            name: e.key.to_string(),
            at: e.key_at,
            path: Tree::Lit(Value::Null),
            variables: None,
            variable_keys: Vec::new(),
            metadata: None,
            description: None,
        };
        let before = self.errors.len();
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "path" => {
                    if v.as_str().is_none_or(|s| s.trim().is_empty()) {
                        self.fail(v.at, &p, "the path of a child blueprint is a non-empty string");
                    }
                    inc.path = self.tree(v, &p);
                    for sub in inc.path.subs() {
                        if let Some(got) = super::constant(&sub.prog)
                            && !matches!(got, Value::Str(_))
                        {
                            let message = format!(
                                "the path of a child blueprint is a string; the substitution yields {}",
                                crate::render::describe_value(&got)
                            );
                            self.fail(sub.at, &sub.path, message);
                        }
                    }
                }
                "variables" => {
                    for x in v.entries().unwrap_or(&[]) {
                        if !matches!(x.value.kind, Kind::Scalar(_)) {
                            let message = format!("a child's variable is a primitive, found {}", x.value.describe());
                            self.fail(x.value.at, &join(&p, &x.key), message);
                        }
                    }
                    if v.entries().is_none() {
                        self.fail(v.at, &p, format!("expected a mapping, found {}", v.describe()));
                    }
                    inc.variables = Some(self.tree(v, &p));
                    inc.variable_keys = v
                        .entries()
                        .unwrap_or(&[])
                        .iter()
                        .map(|x| (x.key.to_string(), x.key_at))
                        .collect();
                }
                "metadata" => inc.metadata = Some(self.tree(v, &p)),
                "description" => inc.description = Some(self.text(v, &p, "a description")),
                _ => {}
            }
        }
        (self.errors.len() == before).then_some(inc)
    }

    pub(super) fn export(&mut self, e: &Entry) -> Option<Export> {
        let path = format!("exports.{}", e.key);
        let fields = self.fields(&e.value, &path, super::shape::EXPORT);
        let (mut ty, mut field, mut description) = (None, None, None);
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => ty = self.type_at(v, &p, "the export type property", "an export type", VALUE_TYPES),
                "field" => {
                    let Some(text) = self.plain_str(v, &p, "the export field property") else {
                        continue;
                    };
                    match self.compiler.compile(&text) {
                        Ok(prog) if prog.loads().next().is_some() && is_reference(&text) => {
                            field = self.checked(prog, v.at, &p);
                        }
                        Ok(_) => self.fail(
                            v.at,
                            &p,
                            "an export field is a reference (resources.fn.spec.arn, values.x, variables.y, datasources.d.f, children.c.e), not a function call or a literal",
                        ),
                        Err(d) => self.fail(v.at, &p, d.to_string().trim_end()),
                    }
                }
                "description" => description = Some(self.text(v, &p, "a description")),
                _ => {}
            }
        }
        Some(Export {
            name: e.key.to_string(),
            at: e.key_at,
            ty: ty?,
            field: field?,
            description,
        })
    }
}
