//! Where a value of a rendered blueprint came from: every contribution to
//! it (the base blueprint's and each facet's, in fold order), whether its
//! conditions held, what it gave, which one decided the value, the
//! expression that computed it and what that expression read. Windsor's
//! `explain` shows the deciding contribution and its scope references;
//! bpvm shows every contribution, and knows from each compiled program
//! exactly which paths it reads.
//!
//! A path is read into what it names (`target`), the contributions to it
//! are found in the project (`sources`), then each is evaluated again in
//! the render's scope (`contribution`) and the fold decides among them.
//!
//! Built on a render: imports `render::outcome`, `load`, `template`,
//! `host` and the leaves.

mod blocks;
mod contribution;
mod explanation;
mod lookup;
mod sources;
mod target;
mod traced;
mod unknown;

pub use crate::context::origins::{Origin, Origins};
use crate::host::Host;
use crate::load::project::{Project, TEMPLATE};
pub use crate::render::Unmet;
use crate::render::outcome::Rendered;
use crate::template::tmpl::Evaluator;
use crate::texts::Texts;
use bpvm_runtime::Value;
pub use bpvm_vm::reads::{Found, Read};
use contribution::contribution;
pub use explanation::{Contribution, Explanation, Role};
use sources::Search;
pub use target::FORMS;
use target::{Target, target};
pub use traced::{Failure, Fired, Traced, explain_context, explain_context_with};

/// Explains `path` of `rendered`, a render of `project` (its scope is
/// where the expressions are evaluated again).
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// # let p = dir.path();
/// # std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
/// # std::fs::create_dir_all(p.join("contexts/dev")).unwrap();
/// # std::fs::write(p.join("windsor.yaml"), "").unwrap();
/// # std::fs::write(p.join("contexts/dev/values.yaml"), "size: 3\n").unwrap();
/// # std::fs::write(p.join("contexts/_template/facets/base.yaml"),
/// #     "kind: Facet\nmetadata: {name: base}\nterraform:\n- {name: eks, path: eks, inputs: {nodes: '${size * 2}'}}\n").unwrap();
/// use bpvm_windsor::explain::{Found, Role, explain};
/// use bpvm_windsor::{Project, render::render_files};
/// let project = Project::load(p).unwrap();
/// let rendered = render_files(&project, "dev", true, None).unwrap();
/// let why = explain(&project, &rendered, "terraform.eks.inputs.nodes").unwrap();
/// assert_eq!(why.value, Some(bpvm_runtime::Value::Int(6)));
/// let c = &why.contributions[0];
/// assert_eq!((c.role, c.expression.as_deref(), c.at), (Role::Effective, Some("${size * 2}"), Some((4, 35))));
/// assert_eq!(c.reads[0].found, Found::Set(bpvm_runtime::Value::Int(3)));
/// ```
pub fn explain(project: &Project, rendered: &Rendered, path: &str) -> Result<Explanation, String> {
    explain_in(project, rendered, path, false)
}

/// [`explain`]; `failed` when the render failed and `rendered` holds
/// only what it decided before (no blueprint).
fn explain_in(project: &Project, rendered: &Rendered, path: &str, failed: bool) -> Result<Explanation, String> {
    let target = target(project, path)?;
    let mut host = Host::new(project.root.clone(), project.root.dir().join(TEMPLATE), None);
    host.allow_env = project.allow_env.clone();
    let mut ev = Evaluator::new(Value::Map(rendered.scope.clone()), host);
    // What the render computed from a secret, explained as masked.
    ev.secrecy = rendered.secrecy.clone();
    let base_file = format!("{TEMPLATE}/blueprint.yaml");
    let mut search = Search {
        project,
        rendered,
        ev: &mut ev,
        base_file: &base_file,
        out: Vec::new(),
        failed,
    };
    let value = search.find(&target).map_err(|e| format!("{path}: {e}"))?;
    let found = search.out;
    let mut contributions: Vec<Contribution> = Vec::new();
    let mut texts = Texts::new(&project.root);
    for (origin, body, steps) in found {
        ev.host.dir = project.folder_of(origin.file);
        contributions.extend(contribution(&mut ev, &mut texts, origin, body, &steps));
    }
    unknown::check(project, rendered, &target, value.as_ref(), &contributions).map_err(|e| format!("{path}: {e}"))?;
    // Fold order: the base first, then by ordinal, facets in their order
    // (the sort is stable).
    contributions.sort_by_key(|c| c.ordinal.map_or(i128::MIN, i128::from));
    decide(&mut contributions);
    // A failed render composed nothing: the value is the one the
    // deciding contribution gives.
    let value = match value {
        None if failed => contributions
            .iter()
            .rev()
            .find(|c| c.role == Role::Effective)
            .and_then(|c| c.value.clone()),
        v => v,
    };
    let added = added(&contributions, value.as_ref());
    Ok(Explanation {
        path: path.to_string(),
        value,
        contributions,
        added,
        origin: Vec::new(),
        origins: Origins::default(),
        scoped: matches!(target, Target::Scope(_) | Target::Block(..)),
    })
}

/// The items of a list `value` that no deciding contribution gave.
fn added(contributions: &[Contribution], value: Option<&Value>) -> Vec<Value> {
    let given: Vec<&Value> = contributions
        .iter()
        .filter(|c| c.role == Role::Effective)
        .filter_map(|c| match &c.value {
            Some(Value::List(items)) => Some(items.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    match value {
        Some(Value::List(items)) if !contributions.is_empty() => {
            items.iter().filter(|i| !given.contains(i)).cloned().collect()
        }
        _ => Vec::new(),
    }
}

/// Marks the contributions that decided the value, walking them in fold
/// order as the fold does: a scalar is the last one's that sets it, a list
/// or map every one's since the last `replace`, and a `remove` clears it.
fn decide(contributions: &mut [Contribution]) {
    let mut effective: Vec<usize> = Vec::new();
    for (i, c) in contributions.iter().enumerate() {
        if c.role == Role::Excluded {
            continue;
        }
        let merges = matches!(c.value, Some(Value::List(_) | Value::Map(_))) && c.strategy == "merge";
        if !merges {
            effective.clear();
        }
        effective.push(i);
    }
    for i in effective {
        contributions[i].role = Role::Effective;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(strategy: &'static str, value: Option<Value>, role: Role) -> Contribution {
        Contribution {
            facet: None,
            file: String::new(),
            at: None,
            ordinal: None,
            strategy,
            conditions: Vec::new(),
            value,
            error: None,
            expression: None,
            reads: Vec::new(),
            role,
        }
    }

    fn roles(list: Vec<Contribution>) -> Vec<Role> {
        let mut list = list;
        decide(&mut list);
        list.iter().map(|c| c.role).collect()
    }

    #[test]
    fn the_last_scalar_decides_and_excluded_ones_take_no_part() {
        let (o, x) = (Role::Overridden, Role::Excluded);
        let one = || Some(Value::Int(1));
        assert_eq!(
            roles(vec![c("merge", one(), o), c("merge", one(), o), c("merge", one(), x)]),
            [o, Role::Effective, x]
        );
    }

    #[test]
    fn lists_merge_until_a_replace_and_a_remove_clears() {
        let (o, e) = (Role::Overridden, Role::Effective);
        let list = || Some(Value::List(vec![Value::Int(1)]));
        assert_eq!(roles(vec![c("merge", list(), o), c("merge", list(), o)]), [e, e]);
        assert_eq!(
            roles(vec![
                c("merge", list(), o),
                c("replace", list(), o),
                c("merge", list(), o)
            ]),
            [o, e, e]
        );
        assert_eq!(roles(vec![c("merge", list(), o), c("remove", None, o)]), [o, e]);
    }
}
