//! Which context is rendered when none is named, decided as the Windsor
//! CLI decides its current context (`GetContext` in its config handler):
//! the project's remembered context (`.windsor/context`, which `windsor
//! set context` writes) before `WINDSOR_CONTEXT`, then `local`. bpvm also
//! reads `context:` in `windsor.yaml` (the seed format's project file has
//! one; Windsor v0.9's has none) before falling back to `local`.

use crate::error::Error;
use crate::load::project::Project;
use bpvm_runtime::Value;
use std::fmt;

/// The file that remembers a project's current context, relative to it.
pub const REMEMBERED: &str = ".windsor/context";

/// What chose the context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Named by the caller (`--context`).
    Given,
    /// The project's `.windsor/context`.
    Remembered,
    /// The `WINDSOR_CONTEXT` environment variable.
    Environment,
    /// `context:` in `windsor.yaml`.
    ProjectFile,
    /// None of them: `local`.
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Given => "--context",
            Source::Remembered => REMEMBERED,
            Source::Environment => "WINDSOR_CONTEXT",
            Source::ProjectFile => "windsor.yaml context:",
            Source::Default => "the default",
        })
    }
}

/// A context's name and what chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Current {
    /// The context's name.
    pub name: String,
    /// What chose it.
    pub source: Source,
}

impl Project {
    /// The context to render: `given` when there is one, else the
    /// project's `.windsor/context` (read through its root; an empty file
    /// counts as none), else `environment` (the caller passes
    /// `WINDSOR_CONTEXT`; empty counts as none), else `context:` in
    /// `windsor.yaml`, else `local`.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # std::fs::write(dir.path().join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    /// # std::fs::create_dir_all(dir.path().join("contexts/_template")).unwrap();
    /// use bpvm_windsor::{Project, current::Source};
    /// let project = Project::load(dir.path()).unwrap();
    /// let current = project.current_context(None, Some("staging")).unwrap();
    /// assert_eq!((current.name.as_str(), current.source), ("staging", Source::Environment));
    /// ```
    pub fn current_context(&self, given: Option<&str>, environment: Option<&str>) -> Result<Current, Error> {
        let chosen = |name: &str, source| Current {
            name: name.to_string(),
            source,
        };
        if let Some(name) = given {
            return Ok(chosen(name, Source::Given));
        }
        match self.root.read_string(self.root.dir(), REMEMBERED) {
            Ok(text) if !text.trim().is_empty() => return Ok(chosen(text.trim(), Source::Remembered)),
            Ok(_) => {}
            Err(e) if e.is_missing() => {}
            Err(e) => {
                return Err(crate::error::placed(
                    &self.root,
                    Error::new(Some(REMEMBERED), "", e.to_string()),
                ));
            }
        }
        if let Some(name) = environment.map(str::trim).filter(|n| !n.is_empty()) {
            return Ok(chosen(name, Source::Environment));
        }
        let named = self
            .windsor
            .as_map()
            .and_then(|m| m.get("context"))
            .and_then(Value::as_str);
        Ok(match named {
            Some(name) => chosen(name, Source::ProjectFile),
            None => chosen("local", Source::Default),
        })
    }
}
