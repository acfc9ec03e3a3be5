//! One render of a context: by the seed rules (`seed`) or Windsor v0.9's
//! (`v09`), as the project's format says, then the blueprint's document
//! (`output`). What a render is asked and gives (`outcome`) and how a
//! component is evaluated (`part`) are shared by both rules; `seed` and
//! `v09` import them (and `origin`), never this module.
//!
//! May import every room before it (leaves, `host`, `blueprint`,
//! `template`, `flux`, `load`, `context`); nothing below `test`,
//! `explain` and `check` imports it but through `outcome`.

mod display;
mod duration;
pub(crate) mod origin;
pub(crate) mod outcome;
pub mod output;
pub(crate) mod part;
pub(crate) mod seed;
pub(crate) mod v09;

pub use outcome::{Excluded, Options, Rendered};
pub use v09::rounds::Unmet;

use crate::error::Errors;
use crate::format::Format;
use crate::load::project::Project;
use crate::template::secrecy::Secrets;
use bpvm_runtime::Value;

/// Renders context `name`, whose values are `ctx` (see [`crate::context::scope`]).
pub fn render(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    // Governed (D10): within its deadline, its documents within one limit.
    let run = || {
        bpvm_runtime::govern::govern(|| match project.format {
            Format::V09 => v09::render(project, name, ctx, opts),
            Format::Seed => seed::render(project, name, ctx, opts),
        })
    };
    // Unset, a clock pinned around the call stays in force.
    let result = match opts.now {
        Some(now) => bpvm_runtime::time::clock::pinned(Some(now), run),
        None => run(),
    };
    crate::host::jsonnet::collect_garbage();
    result.map_err(|mut errors| {
        crate::error::locate(&project.root, &mut errors);
        errors
    })
}

/// What a render of `ctx` decides before composing (the facets included,
/// the scope, the requirements unmet), without failing on an unmet
/// requirement: what `explain` traces when the render fails.
pub(crate) fn settled(project: &Project, ctx: Value, opts: &Options) -> Result<outcome::Settled, Errors> {
    let result = bpvm_runtime::govern::govern(|| match project.format {
        Format::V09 => v09::settled(project, ctx, opts),
        Format::Seed => seed::settled(project, ctx, opts),
    });
    crate::host::jsonnet::collect_garbage();
    result
}

/// Renders context `name` from its files (`contexts/<name>/values.yaml`
/// and the rest, see [`crate::context::scope::context`]), as `bpvm render
/// --project` does: with the schema's defaults when `defaults`, and the
/// values the operator set (without defaults) winning over facet config
/// by the v0.9 rules. `outputs` are terraform outputs by component (W9).
///
/// ```
/// use bpvm_windsor::{Project, render::render_files};
/// let dir = std::env::temp_dir().join(format!("bpvm-render-files-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("contexts/_template")).unwrap();
/// std::fs::create_dir_all(dir.join("contexts/dev")).unwrap();
/// std::fs::write(dir.join("windsor.yaml"), "").unwrap();
/// std::fs::write(dir.join("contexts/_template/blueprint.yaml"), "kind: Blueprint\nmetadata:\n  name: demo\n").unwrap();
/// let project = Project::load(&dir).unwrap();
/// let rendered = render_files(&project, "dev", true, None).unwrap();
/// assert_eq!(rendered.blueprint.as_map().unwrap().get("kind").unwrap().as_str(), Some("Blueprint"));
/// assert!(render_files(&project, "prod", true, None).unwrap_err().to_string().contains("prod"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn render_files(project: &Project, name: &str, defaults: bool, outputs: Option<Value>) -> Result<Rendered, Errors> {
    render_files_with(project, name, defaults, outputs, Secrets::Masked)
}

/// [`render_files`], values computed from a sensitive value shown as
/// `secrets` says (`render_files` masks them as `********`).
///
/// ```
/// use bpvm_windsor::{Project, Secrets, render::render_files_with};
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::create_dir_all(dir.path().join("contexts/_template/facets")).unwrap();
/// std::fs::create_dir_all(dir.path().join("contexts/dev")).unwrap();
/// std::fs::write(dir.path().join("windsor.yaml"), "").unwrap();
/// std::fs::write(dir.path().join("contexts/_template/schema.yaml"), "properties: {token: {sensitive: true}}\n").unwrap();
/// std::fs::write(dir.path().join("contexts/dev/values.yaml"), "token: abc\n").unwrap();
/// std::fs::write(
///     dir.path().join("contexts/_template/facets/base.yaml"),
///     "kind: Facet\nmetadata: {name: base}\nterraform:\n  - name: c\n    inputs: {label: 'x-${token}'}\n",
/// ).unwrap();
/// let project = Project::load(dir.path()).unwrap();
/// let label = |s| {
///     let r = render_files_with(&project, "dev", true, None, s).unwrap();
///     r.blueprint.to_json().contains(r#""label":"x-abc""#)
/// };
/// assert!(!label(Secrets::Masked));
/// assert!(label(Secrets::Shown));
/// ```
pub fn render_files_with(
    project: &Project,
    name: &str,
    defaults: bool,
    outputs: Option<Value>,
    secrets: Secrets,
) -> Result<Rendered, Errors> {
    use crate::context::scope::{Values, context};
    let ctx = context(project, name, Values::Files, defaults)?;
    let operator = context(project, name, Values::Files, false)?;
    let opts = Options {
        outputs,
        environment: None,
        operator: Some(operator),
        secrets,
        ..Default::default()
    };
    render(project, name, ctx, &opts)
}

/// The facets whose condition holds in some inclusion round of context
/// `name` rendered from its files (see [`Rendered::took_part`]), decided
/// as [`render_files`] decides it but without composing the blueprint:
/// the other facets give the render nothing but what
/// [`crate::facet_left_out`] hashes. Config blocks are evaluated (a v0.9
/// condition may read them), so what they read is read here too.
///
/// ```
/// use bpvm_windsor::{Project, render::took_part};
/// let dir = std::env::temp_dir().join(format!("bpvm-took-part-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("contexts/_template/facets")).unwrap();
/// std::fs::create_dir_all(dir.join("contexts/dev")).unwrap();
/// std::fs::write(dir.join("windsor.yaml"), "").unwrap();
/// std::fs::write(dir.join("contexts/dev/values.yaml"), "dev: true\n").unwrap();
/// let facet = |name: &str, when: &str| format!("kind: Facet\nmetadata:\n  name: {name}\nwhen: {when}\n");
/// std::fs::write(dir.join("contexts/_template/facets/a.yaml"), facet("a", "dev == true")).unwrap();
/// std::fs::write(dir.join("contexts/_template/facets/b.yaml"), facet("b", "dev == false")).unwrap();
/// let project = Project::load(&dir).unwrap();
/// let names: Vec<&str> = took_part(&project, "dev").unwrap().into_iter().map(|i| project.facets[i].name.as_str()).collect();
/// assert_eq!(names, ["a"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn took_part(project: &Project, name: &str) -> Result<Vec<usize>, Errors> {
    use crate::context::scope::{Values, context};
    let ctx = context(project, name, Values::Files, true)?;
    let operator = context(project, name, Values::Files, false)?;
    let opts = Options {
        operator: Some(operator),
        ..Default::default()
    };
    settled(project, ctx, &opts).map(|s| s.took_part)
}
