//! Navigation in a Windsor project: what a place of a file names — a
//! value path read by an expression, a config block, a component — the
//! places that set or declare it, and the places that use it.

use super::declared::{Mark, Section, marks, system_of};
use super::names::Name;
use super::origin::set_at;
use super::source::Source;
use super::written::names_written;
use bpvm::windsor::origins::Origins;
use bpvm::windsor::{Project, TEMPLATE};
use lsp_types::Location;

/// What a place of a Windsor file names.
///
/// ```
/// use bpvm_lsp::navigate::Target;
/// let read = Target::Block("platform".into(), Some("platform".into()));
/// assert_eq!(read.path_read(), Some("platform"));
/// assert_eq!(Target::Block("platform".into(), None).path_read(), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A path of the context's values an expression reads.
    Value(String),
    /// A config block, by name, and the path read through it (none on
    /// its declaration): a block may share its name with a value of the
    /// context it normalises (`platform`, from `${platform ?? 'none'}`).
    Block(String, Option<String>),
    /// A terraform component (its section [`Section::Terraform`]), or a
    /// kustomization or flux system ([`Section::Kustomize`]), by its
    /// identity.
    Component(Section, String),
}

/// A file of a project and what it declares and names, read once for
/// every question of a request.
pub struct Scanned {
    /// The file.
    pub source: Source,
    /// Its declarations and `dependsOn` entries.
    pub marks: Vec<Mark>,
}

/// The files of `project` that declare and use blocks and components:
/// its facets, then its base blueprint, each read through the file layer.
pub fn files(project: &Project) -> Vec<Scanned> {
    let base = format!("{TEMPLATE}/blueprint.yaml");
    let mut files: Vec<&str> = project.facets.iter().map(|f| f.file.as_str()).collect();
    files.sort_unstable();
    files.push(&base);
    files
        .into_iter()
        .filter_map(|f| Source::read(&project.root, f))
        .map(|source| Scanned {
            marks: marks(&source.text),
            source,
        })
        .collect()
}

/// What byte `at` of `source` names, in `project` (whose files are
/// `files`): a name an expression reads (a config block when its first
/// segments name one), else a declaration's name or a `dependsOn` entry
/// (`cni-install` names the flux system `cni`).
pub fn target_at(project: &Project, files: &[Scanned], source: &Source, at: usize) -> Option<Target> {
    let inside = |span: (usize, usize)| span.0 <= at && at <= span.1 && span.0 < span.1;
    if let Some(name) = names_written(&source.text).into_iter().find(|n| inside(n.span())) {
        return Some(match block_read(project, &name) {
            Some(block) => Target::Block(block.to_string(), Some(name.path)),
            None => Target::Value(name.path),
        });
    }
    let mark = marks(&source.text).into_iter().find(|m| inside(m.span))?;
    let family = mark.section.family();
    Some(match mark.section {
        Section::Config => Target::Block(mark.name, None),
        _ if family == Section::Kustomize && !mark.declares && !declared(files, family, &mark.name) => {
            let system = system_of(&mark.name).filter(|s| declared(files, Section::Flux, s));
            Target::Component(family, system.unwrap_or(&mark.name).to_string())
        }
        _ => Target::Component(family, mark.name),
    })
}

/// Whether some file of `files` declares `name` in `section` (or, for
/// [`Section::Kustomize`], its family).
fn declared(files: &[Scanned], section: Section, name: &str) -> bool {
    files.iter().any(|f| {
        f.marks
            .iter()
            .any(|m| m.declares && m.name == name && (m.section == section || m.section.family() == section))
    })
}

/// The config block of `project` whose name the name read starts with
/// (a block's name may hold dots: the longest that matches).
fn block_read<'p>(project: &'p Project, name: &Name) -> Option<&'p str> {
    project
        .facets
        .iter()
        .flat_map(|f| f.config.iter())
        .map(|b| b.name.as_str())
        .filter(|b| name.path == *b || name.path.strip_prefix(*b).is_some_and(|r| r.starts_with('.')))
        .max_by_key(|b| b.len())
}

/// Where `target` is defined: its declarations in `files`, then the
/// places the context sets the path it reads (from `origins`, the
/// context's provenance).
pub fn definitions(target: &Target, files: &[Scanned], origins: Option<&Origins>, project: &Project) -> Vec<Location> {
    let mut out = match target {
        Target::Value(_) => Vec::new(),
        _ => declarations(target, files),
    };
    if let (Some(path), Some(origins)) = (target.path_read(), origins) {
        out.extend(set_at(&project.root, origins, path));
    }
    out
}

/// The declarations in `files` of the block or component `target` names.
fn declarations(target: &Target, files: &[Scanned]) -> Vec<Location> {
    found(files, |file| {
        file.marks
            .iter()
            .filter(|m| m.declares && declares(target, m))
            .map(|m| m.span)
            .collect()
    })
}

impl Target {
    /// The path of the context's values read, for a value or a block read.
    pub fn path_read(&self) -> Option<&str> {
        match self {
            Target::Value(path) | Target::Block(_, Some(path)) => Some(path),
            _ => None,
        }
    }
}

/// The places in `files` that use `target` (a config block's reads, a
/// component's `dependsOn` entries), its declarations first when
/// `declarations` is set. A value path has none.
pub fn references(target: &Target, files: &[Scanned], project: &Project, declarations: bool) -> Vec<Location> {
    if let Target::Value(_) = target {
        return Vec::new();
    }
    // A system's kustomizations are named after it.
    let system = match target {
        Target::Component(Section::Kustomize, name) if declared(files, Section::Flux, name) => Some(name.as_str()),
        _ => None,
    };
    found(files, |file| {
        let mut spans: Vec<(usize, usize)> = file
            .marks
            .iter()
            .filter(|m| {
                let made = !m.declares && system.is_some() && system_of(&m.name) == system;
                (declares(target, m) || (made && m.section.family() == Section::Kustomize))
                    && (declarations || !m.declares)
            })
            .map(|m| m.span)
            .collect();
        if let Target::Block(block, _) = target {
            for name in names_written(&file.source.text) {
                if block_read(project, &name) == Some(block.as_str()) {
                    let first = name.segments[0].0;
                    spans.push((first, first + block.len()));
                }
            }
        }
        spans.sort_unstable();
        spans
    })
}

/// Whether `mark` is of what `target` names.
fn declares(target: &Target, mark: &Mark) -> bool {
    match target {
        Target::Block(name, _) => mark.section == Section::Config && mark.name == *name,
        Target::Component(family, name) => mark.section.family() == *family && mark.name == *name,
        Target::Value(_) => false,
    }
}

/// The locations of the spans `spans` finds in each of `files`.
fn found(files: &[Scanned], spans: impl Fn(&Scanned) -> Vec<(usize, usize)>) -> Vec<Location> {
    files
        .iter()
        .flat_map(|file| spans(file).into_iter().filter_map(|s| file.source.location(s)))
        .collect()
}
