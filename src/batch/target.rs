//! A target: one render of a batch, named by a stable id.

use std::fmt;
use std::path::{Path, PathBuf};

/// One render of a batch: a Windsor project's context, or a Bluelink
/// blueprint with one set of variables.
///
/// Its [`id`](Target::id) names it in reports, in `--shard` and (later)
/// in the output folder: the template's path relative to the folder it
/// was found under ([`base`](Target::base)), with `/` separators on
/// every system, then `/<context>` for Windsor or the blueprint's stem
/// and `@<set>` for Bluelink.
///
/// ```
/// use bpvm::batch::{Files, Kind, Target};
/// let t = Target::windsor("repo", "platform/aws", "staging");
/// assert_eq!(t.id, "platform/aws/staging");
/// assert_eq!(t.template, std::path::Path::new("repo/platform/aws"));
/// assert_eq!(t.kind, Kind::Windsor { context: "staging".into() });
///
/// let files = Files { vars: Some("repo/apps/orders.prod.vars.yaml".into()), ..Files::default() };
/// let t = Target::bluelink("repo", "apps/orders.yaml", Some("prod"), files);
/// assert_eq!(t.id, "apps/orders@prod");
/// assert_eq!(t.language(), "bluelink");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `<project>/<context>` (Windsor) or `<folder>/<stem>[@<set>]`
    /// (Bluelink), relative to [`base`](Target::base), `/`-separated.
    pub id: String,
    /// The folder the target was found under: a PATH given to
    /// discovery, which is also the folder of the
    /// `bpvm-batch.yaml` that lists it.
    pub base: PathBuf,
    /// The Windsor project folder or the Bluelink blueprint file it
    /// renders (`base` joined with its relative path). Targets with the
    /// same template share one loaded and compiled copy of it.
    pub template: PathBuf,
    /// What is rendered: a context, or a variable set and its files.
    pub kind: Kind,
}

/// What a [`Target`] renders from its template.
///
/// ```
/// use bpvm::batch::{Files, Kind};
/// let k = Kind::Bluelink { set: None, files: Files::default() };
/// assert_eq!(k.language(), "bluelink");
/// assert_eq!(k.to_string(), "bluelink");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A Windsor project rendered for one context (`contexts/<context>/`).
    Windsor {
        /// The context's name.
        context: String,
    },
    /// A Bluelink blueprint rendered with one set of variables.
    Bluelink {
        /// The variable set's name (`<stem>.<set>.vars.yaml`); `None` for
        /// `<stem>.vars.yaml`, or for the variables' defaults.
        set: Option<String>,
        /// The files the render reads besides the blueprint.
        files: Files,
    },
}

/// The files a Bluelink target reads besides its blueprint, each as
/// `bpvm render` takes them (`--vars`, `--datasources`,
/// `--resource-state`); paths are the target's `base` joined with their
/// relative path.
///
/// ```
/// use bpvm::batch::Files;
/// let f = Files { datasources: Some("bp.datasources.yaml".into()), ..Files::default() };
/// assert!(f.vars.is_none() && f.resource_state.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Files {
    /// Variable values (`--vars`); `None`: the variables' defaults.
    pub vars: Option<PathBuf>,
    /// Data source data (`--datasources`).
    pub datasources: Option<PathBuf>,
    /// Resources' deploy-time fields (`--resource-state`).
    pub resource_state: Option<PathBuf>,
}

impl Kind {
    /// `"windsor"` or `"bluelink"`, as reports name the kind.
    ///
    /// ```
    /// use bpvm::batch::Kind;
    /// assert_eq!(Kind::Windsor { context: "local".into() }.language(), "windsor");
    /// ```
    pub fn language(&self) -> &'static str {
        match self {
            Kind::Windsor { .. } => "windsor",
            Kind::Bluelink { .. } => "bluelink",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.language())
    }
}

impl Target {
    /// The target rendering the Windsor project at `project` (relative to
    /// `base`, `/`-separated; `""` or `"."` for `base` itself) for
    /// `context`.
    ///
    /// ```
    /// use bpvm::batch::Target;
    /// assert_eq!(Target::windsor("repo", "./infra/", "prod").id, "infra/prod");
    /// let t = Target::windsor("repo/infra", ".", "prod");
    /// assert_eq!((t.id.as_str(), t.template.to_str()), ("prod", Some("repo/infra")));
    /// ```
    pub fn windsor(base: impl Into<PathBuf>, project: &str, context: &str) -> Target {
        let base = base.into();
        let project = tidy(project);
        Target {
            id: join(&project, context),
            template: if project.is_empty() {
                base.clone()
            } else {
                base.join(&project)
            },
            base,
            kind: Kind::Windsor {
                context: context.to_string(),
            },
        }
    }

    /// The target rendering the Bluelink blueprint at `blueprint`
    /// (relative to `base`, `/`-separated) with the variable set `set`
    /// and `files`.
    ///
    /// ```
    /// use bpvm::batch::{Files, Target};
    /// assert_eq!(Target::bluelink("repo", "apps/api.yaml", None, Files::default()).id, "apps/api");
    /// assert_eq!(Target::bluelink("repo", "api.v2.json", Some("eu"), Files::default()).id, "api.v2@eu");
    /// ```
    pub fn bluelink(base: impl Into<PathBuf>, blueprint: &str, set: Option<&str>, files: Files) -> Target {
        let base = base.into();
        let blueprint = tidy(blueprint);
        let (folder, name) = blueprint.rsplit_once('/').unwrap_or(("", &blueprint));
        let mut id = join(folder, stem(name));
        if let Some(set) = set {
            id.push('@');
            id.push_str(set);
        }
        Target {
            id,
            template: base.join(&blueprint),
            base,
            kind: Kind::Bluelink {
                set: set.map(str::to_string),
                files,
            },
        }
    }

    /// `"windsor"` or `"bluelink"` (see [`Kind::language`]).
    ///
    /// ```
    /// use bpvm::batch::Target;
    /// assert_eq!(Target::windsor(".", "", "local").language(), "windsor");
    /// ```
    pub fn language(&self) -> &'static str {
        self.kind.language()
    }

    /// The template's path relative to [`base`](Target::base), with `/`
    /// separators (`""` when the template is `base` itself).
    ///
    /// ```
    /// use bpvm::batch::{Files, Target};
    /// let t = Target::bluelink("repo", "apps/api.yaml", Some("eu"), Files::default());
    /// assert_eq!(t.template_path(), "apps/api.yaml");
    /// ```
    pub fn template_path(&self) -> String {
        let rel = self.template.strip_prefix(&self.base).unwrap_or(&self.template);
        slashed(rel)
    }

    /// What the target renders, for the first line of its output file:
    /// the template's path relative to [`base`](Target::base) and the
    /// context or variable file that picks the render out.
    ///
    /// ```
    /// use bpvm::batch::{Files, Target};
    /// let files = Files { vars: Some("repo/apps/api.eu.vars.yaml".into()), ..Files::default() };
    /// let t = Target::bluelink("repo", "apps/api.yaml", Some("eu"), files);
    /// assert_eq!(t.source(), "apps/api.yaml (variables apps/api.eu.vars.yaml)");
    /// assert_eq!(Target::windsor("repo", "", "prod").source(), ". (context prod)");
    /// ```
    pub fn source(&self) -> String {
        let path = match self.template_path() {
            p if p.is_empty() => ".".to_string(),
            p => p,
        };
        match &self.kind {
            Kind::Windsor { context } => format!("{path} (context {context})"),
            Kind::Bluelink { files, .. } => match &files.vars {
                Some(vars) => {
                    let vars = slashed(vars.strip_prefix(&self.base).unwrap_or(vars));
                    format!("{path} (variables {vars})")
                }
                None => path,
            },
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)
    }
}

/// A file name without its last extension: `orders.yaml` → `orders`.
pub(crate) fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

/// `a` and `b` joined with `/`; `b` alone when `a` is empty.
pub(crate) fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}/{b}")
    }
}

/// A relative path as written, with `.` steps, repeated and trailing
/// separators removed.
fn tidy(rel: &str) -> String {
    rel.split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect::<Vec<_>>()
        .join("/")
}

/// A relative path's components joined with `/`, whatever the system's
/// separator.
pub(crate) fn slashed(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
