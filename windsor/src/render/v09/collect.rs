//! What the included facets contribute, collected in facet order: each
//! component and flux system that its condition lets through, evaluated
//! and folded by ordinal and strategy into its entry, plus CRD layers,
//! the backend, substitutions and messages.

use crate::blueprint::component::string_list;
use crate::blueprint::merge::merge_component;
use crate::error::{Error, Errors};
use crate::kind::Kind;
use crate::load::facet::{Facet, Message, Part};
use crate::load::project::Project;
use crate::render::outcome::Excluded;
use crate::render::part::{decided, evaluate_part};
use crate::render::v09::contributions::{Entries, Entry, fold};
use crate::template::condition::{Cond, holds};
use crate::template::tmpl::{Evaluator, Tmpl};
use bpvm_runtime::{Map, Value, text};

/// The source name of the project's own template.
const TEMPLATE_SOURCE: &str = "template";

/// The included facets' contributions.
#[derive(Default)]
pub(crate) struct Collected<'p> {
    pub terraform: Entries,
    pub kustomize: Entries,
    pub flux: Entries,
    /// CRD layer references, in the order first given.
    pub crds: Vec<String>,
    /// The last facet's `backend`.
    pub backend: Option<String>,
    /// Substitutions as text, later facets winning per key.
    pub substitutions: Map,
    pub messages: Vec<&'p Message>,
}

/// One facet's contributions are collected with these.
struct Collecting<'e, 'p> {
    ev: &'e mut Evaluator,
    project: &'p Project,
    out: Collected<'p>,
    excluded: &'e mut Vec<Excluded>,
    explain: &'e mut Vec<String>,
    errors: Vec<Error>,
}

/// Collects the contributions of `facets`, in order; what a condition
/// keeps out goes to `excluded`, each decision to `explain`. Every error
/// is reported at once.
pub(crate) fn collect<'p>(
    ev: &mut Evaluator,
    project: &'p Project,
    facets: &[&'p Facet],
    excluded: &mut Vec<Excluded>,
    explain: &mut Vec<String>,
) -> Result<Collected<'p>, Errors> {
    let mut c = Collecting {
        ev,
        project,
        out: Collected::default(),
        excluded,
        explain,
        errors: Vec::new(),
    };
    for f in facets {
        c.ev.host.dir = project.folder_of(&f.file);
        c.crds(f);
        for p in &f.parts {
            c.part(f, p);
        }
        for s in &f.flux {
            c.system(f, s);
        }
        if let Some(b) = &f.backend {
            c.out.backend = Some(b.clone());
        }
        if let Some(t) = &f.substitutions
            && !c.substitutions(f, t)
        {
            continue;
        }
        c.out.messages.extend(&f.messages);
    }
    if !c.errors.is_empty() {
        return Err(Errors::new(c.errors));
    }
    Ok(c.out)
}

impl<'p> Collecting<'_, 'p> {
    fn fail(&mut self, f: &Facet, at: String, m: impl Into<crate::Why>) {
        self.errors.push(Error::new(Some(&f.file), at, m));
    }

    /// The facet's CRD layer references, each a single path segment.
    fn crds(&mut self, f: &Facet) {
        let Some(t) = &f.crds else { return };
        let v = match t.eval(self.ev) {
            Ok(v) => v,
            Err(e) => return self.fail(f, format!("crds{}", e.at), e.diag),
        };
        for r in string_list(&v) {
            let r = r.as_str().unwrap_or("").to_string();
            if r.contains(['/', '\\']) || r.contains("..") {
                self.fail(
                    f,
                    "crds".into(),
                    format!("invalid crd reference {r:?}: must be a single path segment without '/', '\\', or '..'"),
                );
            } else if !self.out.crds.contains(&r) {
                self.out.crds.push(r);
            }
        }
    }

    /// A terraform component or kustomization, gated, checked for
    /// sensitive substitutions, evaluated and folded.
    fn part(&mut self, f: &Facet, p: &Part) {
        let at = format!("{}[{}]", p.kind.key(), p.id);
        if !self.emitted(f, p.when.as_ref(), p.kind.key(), &p.id, &at) {
            return;
        }
        if let Tmpl::Map(fields) = &p.body
            && let Some((_, subs)) = fields.iter().find(|(k, _)| &**k == "substitutions")
            && let Err(m) = self.project.sensitive.check(subs)
        {
            return self.fail(f, at, m);
        }
        match part(self.ev, p) {
            Ok(body) => {
                let entry = Entry {
                    body,
                    ordinal: p.ordinal.unwrap_or(f.ordinal),
                    strategy: p.strategy,
                };
                match p.kind {
                    Kind::Terraform => fold(&mut self.out.terraform, &p.id, entry, &|a: &mut Map, b: &Map| {
                        merge_component(Kind::Terraform, a, b)
                    }),
                    Kind::Kustomize => fold(&mut self.out.kustomize, &p.id, entry, &|a: &mut Map, b: &Map| {
                        merge_component(Kind::Kustomize, a, b)
                    }),
                }
            }
            Err((inner, m)) => self.fail(f, format!("{at}{inner}"), m),
        }
    }

    /// A flux system, gated, checked for sensitive substitutions,
    /// evaluated and folded.
    fn system(&mut self, f: &Facet, s: &crate::flux::System) {
        let at = format!("flux[{}]", s.name);
        if !self.emitted(f, s.when.as_ref(), "flux", &s.name, &at) {
            return;
        }
        let tiers = s.install.iter().chain(&s.resources);
        if let Some(m) = tiers
            .filter_map(|t| t.substitutions.as_ref())
            .find_map(|t| self.project.sensitive.check(t).err())
        {
            return self.fail(f, at, m);
        }
        match crate::flux::evaluate(self.ev, s, TEMPLATE_SOURCE) {
            Ok(body) => {
                let entry = Entry {
                    body,
                    ordinal: s.ordinal.unwrap_or(f.ordinal),
                    strategy: s.strategy,
                };
                fold(&mut self.out.flux, &s.name, entry, &crate::flux::merge);
            }
            Err((at, m)) => self.fail(f, at, m),
        }
    }

    /// The facet's substitutions, as text; false when they may not be
    /// substitutions at all (a sensitive value).
    fn substitutions(&mut self, f: &Facet, t: &Tmpl) -> bool {
        if let Err(m) = self.project.sensitive.check(t) {
            self.fail(f, "substitutions".into(), m);
            return false;
        }
        match t.eval(self.ev) {
            Ok(Value::Map(m)) => {
                for (k, v) in m.iter() {
                    self.out
                        .substitutions
                        .insert(k.clone(), Value::Str(text::to_text(v).into()));
                }
            }
            Ok(_) => {}
            Err(e) => self.fail(f, format!("substitutions{}", e.at), e.diag),
        }
        true
    }

    /// Whether `id` of `list`, defined by facet `f` with condition `own`,
    /// is emitted; when it is not, it is recorded as excluded.
    fn emitted(&mut self, f: &Facet, own: Option<&Cond>, list: &'static str, id: &str, at: &str) -> bool {
        match gate(self.ev, own, f, at, self.explain) {
            Ok(true) => true,
            Ok(false) => {
                self.excluded
                    .push(Excluded::of(f, list, id.to_string(), &condition(own, f)));
                false
            }
            Err(e) => {
                self.errors.push(e);
                false
            }
        }
    }
}

/// The condition [`gate`] decided by: the component's own, else its facet's.
fn condition(own: Option<&Cond>, f: &Facet) -> String {
    own.or(f.when.as_ref()).map_or_else(String::new, |c| c.src.clone())
}

/// Whether a component or system `at` of facet `f` is emitted: by its own
/// condition (said in `explain`), else by the facet's again, against the
/// final scope, as Windsor checks it.
fn gate(ev: &mut Evaluator, own: Option<&Cond>, f: &Facet, at: &str, explain: &mut Vec<String>) -> Result<bool, Error> {
    let Some(c) = own.or(f.when.as_ref()) else {
        return Ok(true);
    };
    let yes = holds(ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}.when"), m))?;
    if own.is_some() {
        explain.push(decided(at, &f.name, yes, c));
    }
    Ok(yes)
}

/// Evaluates a terraform component or kustomization: a kustomization's
/// `substitute` goes into its `substitutions`, winning per key.
pub(crate) fn part(ev: &mut Evaluator, p: &Part) -> Result<Map, (String, crate::Why)> {
    let mut body = evaluate_part(ev, &p.body, p.kind)?;
    if p.kind == Kind::Kustomize
        && let Some(Value::Map(over)) = body.remove("substitute")
    {
        let mut subs = body
            .get("substitutions")
            .and_then(Value::as_map)
            .cloned()
            .unwrap_or_default();
        for (k, v) in over.iter() {
            subs.insert(k.clone(), Value::Str(text::to_text(v).into()));
        }
        body.insert("substitutions", Value::Map(subs));
    }
    Ok(body)
}
