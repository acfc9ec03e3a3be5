//! Included children: the path resolved and checked, the child loaded and
//! rendered with the variables passed to it, its exports read back.

use super::results::ChildOut;
use super::{Failed, Input, Resolved, Resolver};
use crate::blueprint::{Blueprint, Include};
use crate::error::Pos;
use crate::load;
use crate::sub::Def;
use bpvm_runtime::limits::INCLUDE_DEPTH;
use bpvm_runtime::root::Refusal;
use bpvm_runtime::{Map, Value};
use std::collections::HashSet;
use std::path::PathBuf;
use std::rc::Rc;

impl Resolver<'_> {
    pub(super) fn child(&mut self, i: usize) -> Result<(), Failed> {
        let inc = &self.bp.includes[i];
        let path = format!("include.{}", inc.name);
        self.ensure_refs(inc.subs())?;
        let file_r = self.tree(&inc.path)?;
        let variables = self.opt_tree(&inc.variables)?;
        let metadata = self.opt_tree(&inc.metadata)?;
        let description = self.opt_tree(&inc.description)?;
        self.opt_shaped(&inc.description, &description, "a description")?;
        let at = inc.at;
        let file = match file_r.known() {
            Some(Value::Str(s)) => s.to_string(),
            _ => {
                return Err(self.fail(
                    at,
                    &format!("{path}.path"),
                    "the path of a child blueprint must be a string known when rendering",
                ));
            }
        };
        let (target, shown, child) = self.child_blueprint(at, &path, &file)?;
        let inputs = inputs(&variables);
        self.check_inputs(inc, &path, &child, &inputs, &shown)?;
        let mut chain = self.chain.clone();
        chain.push(target);
        let counted = self.shared.borrow_mut().count_render();
        if let Err(message) = counted {
            return Err(self.fail(at, &path, message));
        }
        let shared = Rc::clone(&self.shared);
        let mut resolver = Resolver::new(&child, self.opts, self.root.clone(), &inputs, chain, shared);
        resolver.secret_inputs = secret_inputs(&variables);
        let rendered = match resolver.run() {
            Ok(r) => r,
            Err(errors) => {
                self.errors.extend(errors.0);
                return Err(Failed);
            }
        };
        self.deferrals.extend(rendered.deferred);
        let m = self.child_exports(i, &rendered.exports);
        self.put("children", inc.name.as_str(), Value::Map(m));
        // An absolute path (`${cwd()}/…`) prints relative to the root, so
        // that the output does not depend on where the project is (D1).
        let path_out = if std::path::Path::new(&file).is_absolute() {
            Resolved::Known(Value::Str(shown.replace('\\', "/").into()), false)
        } else {
            file_r
        };
        self.out.children[i] = Some(ChildOut {
            path: path_out,
            variables,
            metadata,
            description,
            exports: rendered.exports,
        });
        Ok(())
    }

    /// The child blueprint at `file` (from the folder of this one), loaded:
    /// where it is, its name for messages, and the blueprint. Refused
    /// outside the root, in an include cycle or nested too deeply.
    fn child_blueprint(&mut self, at: Pos, path: &str, file: &str) -> Result<(PathBuf, String, Rc<Blueprint>), Failed> {
        let dir = self.bp.path.parent().map(PathBuf::from).unwrap_or_default();
        let Some(root) = &self.root else {
            let message = "cannot read the child blueprint: the blueprint has no folder to read from";
            return Err(self.fail(at, &format!("{path}.path"), message));
        };
        // Read now, through the root: what is checked below is what loads.
        let fetched = match root.fetch(&dir, file) {
            Ok(f) => f,
            Err(e) => {
                let message = match e.refusal {
                    Refusal::Outside(_) => format!("the child blueprint {e}"),
                    _ => format!("cannot read the child blueprint: {e}"),
                };
                return Err(self.fail(at, &format!("{path}.path"), message));
            }
        };
        let target = fetched.path.clone();
        // Files are named relative to the root in messages and output.
        let name = |p: &std::path::Path| p.strip_prefix(root.dir()).unwrap_or(p).display().to_string();
        if self.chain.contains(&target) {
            let mut names: Vec<String> = self.chain.iter().map(|p| name(p)).collect();
            names.push(name(&target));
            let message = format!("an include cycle: {}", names.join(" → "));
            return Err(self.fail(at, path, message));
        }
        if self.chain.len() >= INCLUDE_DEPTH {
            let message = format!("child blueprints nested too deeply (more than {INCLUDE_DEPTH} levels)");
            return Err(self.fail(at, path, message));
        }
        let shown = name(&target);
        // Each file is loaded once however often it is included; a file
        // that failed to load was reported the first time.
        let known = self.shared.borrow().loaded.get(&target).cloned();
        let loaded = match known {
            Some(loaded) => loaded,
            None => {
                let loaded = match load::load_fetched(fetched, file, &shown) {
                    Ok(bp) => Some(Rc::new(bp)),
                    Err(errors) => {
                        self.errors.extend(errors.0);
                        None
                    }
                };
                self.shared.borrow_mut().loaded.insert(target.clone(), loaded.clone());
                loaded
            }
        };
        match loaded {
            Some(bp) => Ok((target, shown, bp)),
            None => Err(Failed),
        }
    }

    /// Seed 002: the names of the variables passed must match the child's
    /// variables.
    fn check_inputs(
        &mut self,
        inc: &Include,
        path: &str,
        child: &Blueprint,
        inputs: &[(String, Input)],
        shown: &str,
    ) -> Result<(), Failed> {
        let mut unknown = false;
        for (k, _) in inputs {
            if !child.index.variables.contains_key(k) {
                let key_at = inc
                    .variable_keys
                    .iter()
                    .find(|(key, _)| key == k)
                    .map_or(inc.at, |&(_, at)| at);
                let message = format!("{shown} has no variable {k:?}");
                self.fail(key_at, &format!("{path}.variables.{k}"), message);
                unknown = true;
            }
        }
        if unknown { Err(Failed) } else { Ok(()) }
    }

    /// The known exports of child `i`, for `include.<name>` to read; the
    /// deferred and secret ones noted.
    fn child_exports(&mut self, i: usize, exports: &[(String, Resolved)]) -> Map {
        let mut m = Map::new();
        for (name, r) in exports {
            if r.is_deferred() {
                self.deferred_exports.insert((i, name.clone()));
            } else if let Some(v) = r.known() {
                m.insert(name.as_str(), v);
            }
            if r.is_secret() {
                self.secret_exports.insert((i, name.clone()));
                self.secret.set(Def::Child(i), true);
            }
        }
        m
    }
}

/// The variables passed to a child, as its inputs: known values and
/// deferred substitutions.
fn inputs(variables: &Option<Resolved>) -> Vec<(String, Input)> {
    let mut inputs = Vec::new();
    if let Some(Resolved::Map(entries)) = variables {
        for (k, r) in entries {
            match r {
                Resolved::Known(v, _) => inputs.push((k.to_string(), Input::Value(v.clone()))),
                Resolved::Literal(v) => inputs.push((k.to_string(), Input::Value(Value::clone(v)))),
                Resolved::Deferred(text) => inputs.push((k.to_string(), Input::Deferred(text.to_string()))),
                _ => {}
            }
        }
    }
    inputs
}

/// The names of the variables passed to a child whose values were
/// computed from a secret: the child masks them as its own secrets.
fn secret_inputs(variables: &Option<Resolved>) -> HashSet<String> {
    match variables {
        Some(Resolved::Map(entries)) => entries
            .iter()
            .filter(|(_, r)| r.is_secret())
            .map(|(k, _)| k.to_string())
            .collect(),
        _ => HashSet::new(),
    }
}
