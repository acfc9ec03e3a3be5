//! A Windsor project on disk: `windsor.yaml`, the template in
//! `contexts/_template/` and one folder per context. Loading reads and
//! compiles everything once; renders reuse it.

use crate::error::{Error, Errors};
use crate::format::Format;
use crate::load::facet::{self, Facet};
pub use crate::load::files::files_under;
use crate::load::reuse::Reuse;
use bpvm_runtime::root::{Kind, Root};
use bpvm_runtime::{PathTable, Value};
use foldhash::HashMap;
use std::path::Path;
use std::sync::Arc;

/// A loaded project.
#[derive(Debug, Clone)]
pub struct Project {
    /// The project folder: every file the project makes bpvm read is
    /// read through it, and must be inside it (D8).
    pub root: Root,
    /// `windsor.yaml` (empty when absent).
    pub windsor: Value,
    /// `contexts/_template/blueprint.yaml`, the base the facets fold into.
    pub blueprint: Value,
    /// The base blueprint's components, compiled.
    pub base: Vec<facet::Part>,
    /// `contexts/_template/schema.yaml`, when there is one.
    pub schema: Option<Value>,
    /// The facets (and legacy features), by ordinal, then name.
    pub facets: Vec<Facet>,
    /// The rules the template is rendered by (W10).
    pub format: Format,
    /// Why those rules: the facet form that chose them
    /// (`file:line:column: path, what`), that no facet uses a form only
    /// one format has, or `given` when the caller chose them.
    pub format_reason: String,
    /// The schema's sensitive properties (v0.9: never substitutions).
    pub sensitive: crate::load::sensitive::Sensitive,
    /// The paths the project's expressions read, numbered: a render binds
    /// its scope to them.
    pub paths: PathTable,
    /// The environment variables `env(name)` may read: any when `None`
    /// (as Windsor). Loading sets it from `BPVM_ALLOW_ENV`
    /// ([`crate::host::allow::VARIABLE`]); a host may set its own.
    pub allow_env: Option<crate::host::allow::EnvAllow>,
    /// What loading found that does not stop a render (each located at
    /// its file:line:column): Windsor loads such a template anyway.
    pub warnings: Vec<Error>,
    /// The schema as a validator of context values, compiled the first
    /// time one is checked and shared by every render after it.
    pub(crate) checker: crate::load::schema::Compiled,
}

/// The folder of the template, relative to the project.
pub const TEMPLATE: &str = "contexts/_template";

/// Reads a YAML file of the project; a missing file is `None`.
pub fn read_yaml(root: &Root, rel: &str) -> Result<Option<Value>, Error> {
    let text = match root.read_string(root.dir(), rel) {
        Ok(t) => t,
        Err(e) if e.is_missing() => return Ok(None),
        Err(e) => return Err(Error::new(Some(rel), "", format!("cannot read: {e}"))),
    };
    // Read as Windsor's YAML library types scalars (`0644` is 420).
    Value::from_yaml_as(&text, bpvm_runtime::Typing::GoYaml)
        .map(Some)
        .map_err(|e| Error::in_text(rel, &text, &format!("invalid YAML: {e}")))
}

/// [`read_yaml`], the document taken from `reuse` when the file's text
/// is the one it read last.
fn yaml_reusing(root: &Root, rel: &str, reuse: &mut Reuse) -> Result<Option<Arc<Value>>, Error> {
    let text = match root.read_string(root.dir(), rel) {
        Ok(t) => t,
        Err(e) if e.is_missing() => return Ok(None),
        Err(e) => return Err(Error::new(Some(rel), "", format!("cannot read: {e}"))),
    };
    reuse
        .document(rel, text)
        .map(Some)
        .map_err(|(text, e)| Error::in_text(rel, &text, &format!("invalid YAML: {e}")))
}

impl Project {
    /// Loads and compiles the project in `root`, by the rules its facets'
    /// forms select (W10). Every problem found is reported,
    /// each with its file and YAML path.
    pub fn load(root: &Path) -> Result<Project, Errors> {
        Project::load_as(root, None)
    }

    /// [`Project::load`], by the rules of `format` when given instead of
    /// the ones the facets select.
    pub fn load_as(root: &Path, format: Option<Format>) -> Result<Project, Errors> {
        Project::load_keeping(root, format, &mut Reuse::default())
    }

    /// [`Project::load`], taking from `reuse` each file whose bytes did
    /// not change since the load that filled it (its document, and the
    /// facet it is, parsed and compiled), and keeping this load's files
    /// in it for the next. The project is the one [`Project::load`]
    /// gives; a project edited in one facet parses and compiles that
    /// facet only.
    pub fn load_reusing(root: &Path, reuse: &mut Reuse) -> Result<Project, Errors> {
        Project::load_keeping(root, None, reuse)
    }

    /// [`Project::load_as`] through `reuse`.
    fn load_keeping(root: &Path, format: Option<Format>, reuse: &mut Reuse) -> Result<Project, Errors> {
        let paths = reuse.paths.clone();
        reuse.start();
        // Governed like a render (D10): its documents add up to one limit.
        bpvm_runtime::govern::govern(|| {
            crate::template::numbering::while_loading(&paths, || Project::read(root, format, paths.clone(), reuse))
        })
    }

    /// [`Project::load_as`], with every expression's paths numbered in
    /// `paths`, the files unchanged since the last load through `reuse`
    /// taken from it.
    fn read(root: &Path, format: Option<Format>, paths: PathTable, reuse: &mut Reuse) -> Result<Project, Errors> {
        let root = &Root::new(root, "project")
            .map_err(|e| Error::new(None, "", format!("cannot open project {}: {e}", root.display())))?;
        let config = project_file(root)?;
        let mut errors = Vec::new();
        let mut names = Vec::new();
        let mut read = |rel: &str| {
            names.push(rel.to_string());
            match yaml_reusing(root, rel, reuse) {
                Ok(v) => v.map(|d| Value::clone(&d)),
                Err(e) => {
                    errors.push(e);
                    None
                }
            }
        };
        let windsor = read(config).unwrap_or(Value::Null);
        let blueprint = read(&format!("{TEMPLATE}/blueprint.yaml")).unwrap_or(Value::Null);
        let schema = read(&format!("{TEMPLATE}/schema.yaml"));
        let documents = facet_documents(root, reuse, &mut errors);
        names.extend(documents.iter().map(|(f, _)| f.clone()));
        reuse.keep_only(&names);
        // Facets of both formats would only add errors of the rules not
        // meant: the mix is the one thing to report.
        let (format, format_reason) = match crate::load::rules::select(root, format, &documents) {
            Ok(chosen) => chosen,
            Err(mixed) => {
                errors.push(mixed);
                return Err(located(root, errors));
            }
        };
        let mut warnings = Vec::new();
        let base = match facet::base_parts(
            &blueprint,
            &format!("{TEMPLATE}/blueprint.yaml"),
            matches!(format, Format::V09),
            &mut warnings,
        ) {
            Ok(parts) => parts,
            Err(mut es) => {
                errors.append(&mut es);
                Vec::new()
            }
        };
        let mut facets = facets(
            root,
            reuse,
            &documents,
            matches!(format, Format::V09),
            &mut errors,
            &mut warnings,
        );
        if !errors.is_empty() {
            return Err(located(root, errors));
        }
        // Ordinal, then name (names are unique, so the order is total).
        facets.sort_by(|a, b| (a.ordinal, &a.name).cmp(&(b.ordinal, &b.name)));
        let sensitive = crate::load::sensitive::Sensitive::of(schema.as_ref());
        Ok(Project {
            allow_env: crate::host::allow::EnvAllow::from_environment(),
            sensitive,
            root: root.clone(),
            windsor,
            blueprint,
            base,
            schema,
            facets,
            format,
            format_reason,
            paths,
            warnings: sorted(root, warnings),
            checker: crate::load::schema::Compiled::default(),
        })
    }

    /// The defaults `schema.yaml` gives (`null` without one), worked out
    /// once and shared by every render of the project.
    pub fn schema_defaults(&self) -> &Value {
        match &self.schema {
            Some(schema) => self.checker.defaults(schema),
            None => &Value::Null,
        }
    }

    /// The folder of `file` (relative to the project), where the paths a
    /// facet's functions read start from.
    pub fn folder_of(&self, file: &str) -> std::path::PathBuf {
        self.root
            .dir()
            .join(file)
            .parent()
            .map(|d| d.to_path_buf())
            .unwrap_or_default()
    }

    /// The contexts the project defines: its folders under `contexts/`
    /// (not `_template`) and the names under `contexts:` in
    /// `windsor.yaml`, sorted.
    pub fn contexts(&self) -> Vec<String> {
        // Listed through the root. A link that leads out is listed too, so
        // that rendering it says why it is refused.
        let listing = self.root.list(self.root.dir(), "contexts").ok().flatten();
        let mut names: Vec<String> = listing
            .into_iter()
            .flat_map(|l| l.entries)
            .filter(|e| match &e.kind {
                Ok(kind) => *kind == Kind::Folder,
                Err(e) => !e.is_missing(),
            })
            .map(|e| e.name.to_string_lossy().into_owned())
            .filter(|n| n != "_template")
            .collect();
        let declared = self
            .windsor
            .as_map()
            .and_then(|m| m.get("contexts"))
            .and_then(Value::as_map);
        names.extend(
            declared
                .into_iter()
                .flat_map(|m| m.keys())
                .map(|k| k.as_str().to_string()),
        );
        names.sort();
        names.dedup();
        names
    }

    /// An error naming the contexts that exist, unless `name` is one.
    ///
    /// A context `windsor.yaml` declares, or whose folder is there, is
    /// one without listing `contexts/`: a render of it then depends on its
    /// own folder only, not on which other contexts come and go.
    pub fn check_context(&self, name: &str) -> Result<(), Error> {
        let declared = self
            .windsor
            .as_map()
            .and_then(|m| m.get("contexts"))
            .and_then(Value::as_map)
            .is_some_and(|m| m.keys().any(|k| k.as_str() == name));
        let plain =
            !name.is_empty() && name != "_template" && !name.contains(['/', '\\', '\0']) && name != "." && name != "..";
        if declared {
            return Ok(());
        }
        if plain {
            // As `contexts()` counts it: a folder, or a link that leads
            // somewhere it cannot follow (rendering it says why).
            match self.root.kind(self.root.dir(), &format!("contexts/{name}")) {
                Ok(Kind::Folder) => return Ok(()),
                Err(e) if !e.is_missing() => return Ok(()),
                _ => {}
            }
        }
        let known = self.contexts();
        if known.iter().any(|n| n == name) {
            return Ok(());
        }
        let listed = if known.is_empty() {
            "the project has none (add a folder contexts/<name>/)".to_string()
        } else {
            format!("the project has: {}", known.join(", "))
        };
        Err(Error::new(None, "", format!("no context {name:?}: {listed}")))
    }

    /// The indices in `facets` of the facets in `some` (each one of them).
    pub fn indices(&self, some: &[&Facet]) -> Vec<usize> {
        some.iter()
            .filter_map(|f| self.facets.iter().position(|g| std::ptr::eq(g, *f)))
            .collect()
    }
}

/// The project's `windsor.yaml` (Windsor reads windsor.yaml, else
/// windsor.yml); an error when `root` is not a Windsor project.
fn project_file(root: &Root) -> Result<&'static str, Errors> {
    let is = |rel: &str, kind: Option<Kind>| match root.kind(root.dir(), rel) {
        Ok(k) => kind.is_none_or(|want| k == want),
        // Anything there but missing (a link out, say) is found, and its
        // read says why it is refused.
        Err(e) => !e.is_missing(),
    };
    let config = ["windsor.yaml", "windsor.yml"].into_iter().find(|f| is(f, None));
    let mut missing = Vec::new();
    if config.is_none() {
        missing.push("windsor.yaml");
    }
    if !is(TEMPLATE, Some(Kind::Folder)) {
        missing.push(TEMPLATE);
    }
    if !missing.is_empty() {
        let message = format!(
            "{} is not a Windsor project: it has no {}",
            root.dir().display(),
            missing.join(" and no ")
        );
        return Err(Error::new(None, "", message).into());
    }
    Ok(config.unwrap_or("windsor.yaml"))
}

/// Every facet file of the template's `facets/` (and `features/`)
/// folder with its document, in name order; problems go to `errors`.
fn facet_documents(root: &Root, reuse: &mut Reuse, errors: &mut Vec<Error>) -> Vec<(String, Arc<Value>)> {
    let mut files = Vec::new();
    for dir in ["facets", "features"] {
        if let Err(e) = files_under(root, &format!("{TEMPLATE}/{dir}"), &[".yaml", ".yml"], &mut files) {
            errors.push(e);
        }
    }
    let mut documents = Vec::new();
    for file in files {
        match yaml_reusing(root, &file, reuse) {
            Ok(Some(doc)) => documents.push((file, doc)),
            Ok(None) => errors.push(Error::new(
                Some(&file),
                "",
                "cannot read: it was removed after the facets were listed",
            )),
            Err(e) => errors.push(e),
        }
    }
    documents
}

/// The facets of `documents`, parsed by the v0.9 rules when `v09`;
/// problems go to `errors`, and a facet name used twice is one. Fields of
/// a newer Windsor go to `warnings`.
fn facets(
    root: &Root,
    reuse: &mut Reuse,
    documents: &[(String, Arc<Value>)],
    v09: bool,
    errors: &mut Vec<Error>,
    warnings: &mut Vec<Error>,
) -> Vec<Facet> {
    let mut facets: Vec<Facet> = Vec::new();
    let mut named: HashMap<String, usize> = HashMap::default();
    for (file, doc) in documents {
        match reuse.facet(file, doc, v09, warnings) {
            Ok(f) => {
                match named.get(&f.name) {
                    Some(&first) => errors.push(Error::new(
                        Some(file),
                        "metadata.name",
                        format!(
                            "facet name {:?} is already used by {}",
                            f.name,
                            root.shown(&facets[first].file)
                        ),
                    )),
                    None => {
                        named.insert(f.name.clone(), facets.len());
                    }
                }
                facets.push(f);
            }
            Err(mut es) => errors.append(&mut es),
        }
    }
    facets
}

/// `problems`, each with its file:line:column looked up.
fn located(root: &Root, problems: Vec<Error>) -> Errors {
    let mut problems = Errors::new(problems);
    crate::error::locate(root, &mut problems);
    problems
}

/// `warnings`, each with its file:line:column looked up, in the order
/// of the files and of the places in them.
fn sorted(root: &Root, warnings: Vec<Error>) -> Vec<Error> {
    let mut warnings = located(root, warnings).0;
    warnings.sort_by(|a, b| (&a.file, a.pos).cmp(&(&b.file, b.pos)));
    warnings
}
