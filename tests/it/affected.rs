//! Affected targets (`bpvm::batch::affected`) in a git repository made
//! here: a batch folder below the repository's top holding a Windsor
//! project that reads files by `jsonnet()` (`platform`), one in the v0.9
//! format that reads none (`legacy`) and a Bluelink blueprint with an
//! include (`apps/orders`). Each change is judged against the last
//! commit, with manifests from a render cache and with templates loaded
//! alone, and must name exactly the targets listed.

use super::batch::{copy_tree, examples};
use super::vcs::repo::Repo;
use bpvm::batch::{Cache, Changes, How, Options, Target, affected, discover, run};
use std::collections::BTreeSet;

const LOCAL: &str = "legacy/contexts/_template/facets/option-observability.yaml";

/// The repository, named for the test that makes it.
fn repository(name: &str) -> Repo {
    let repo = Repo::new(&format!("affected-{name}"));
    let infra = repo.dir().join("infra");
    copy_tree(&examples().join("windsor"), &infra.join("platform"));
    repo.write(
        "infra/platform/contexts/prod/values.yaml",
        "provider: aws\ncluster: {name: prod, workers: {count: 6}}\n",
    );
    copy_tree(&examples().join("windsor-v0.9"), &infra.join("legacy"));
    copy_tree(&examples().join("bluelink"), &infra.join("apps/orders"));
    repo.write("README.md", "# infrastructure\n");
    repo.write("infra/notes.txt", "nothing reads this\n");
    repo.commit("start");
    repo
}

/// The ids the change in the work tree affects, against `HEAD`, with
/// manifests from `cache` when given.
fn ids(repo: &Repo, cache: Option<&Cache>) -> BTreeSet<String> {
    let targets = discover(&[repo.dir().join("infra")]).into_result().unwrap();
    let changes = Changes::since(repo.dir(), "HEAD").unwrap();
    let options = Options {
        cache: cache.cloned(),
        ..Options::default()
    };
    chosen(&targets, &changes, &options)
}

fn chosen(targets: &[Target], changes: &Changes, options: &Options) -> BTreeSet<String> {
    let verdicts = affected(targets, changes, options);
    targets
        .iter()
        .zip(verdicts)
        .filter(|(_, v)| v.is_some())
        .map(|(t, _)| t.id.clone())
        .collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

fn edit(repo: &Repo, rel: &str, from: &str, to: &str) {
    let path = repo.dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel}: {from}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// A render cache filled from the committed tree.
fn filled_cache(repo: &Repo) -> Cache {
    let cache = Cache::open(&repo.0.0.with_extension("cache")).unwrap();
    let targets = discover(&[repo.dir().join("infra")]).into_result().unwrap();
    let options = Options {
        cache: Some(cache.clone()),
        ..Options::default()
    };
    let records = run(&targets, &options, &());
    assert!(
        records.iter().all(|r| r.status == bpvm::batch::Status::Ok),
        "{records:?}"
    );
    cache
}

fn edit_in(repo: &Repo, rel: &str, from: &str, to: &str) {
    edit(repo, &format!("infra/{rel}"), from, to);
}

#[test]
fn each_change_affects_exactly_its_targets_with_manifests_from_the_cache() {
    let repo = repository("cached");
    let cache = filled_cache(&repo);
    each_change_with(&repo, Some(&cache), &|name| match name {
        "facet one context uses" => set(&["legacy/local"]),
        other => common(other),
    });
    let _ = std::fs::remove_dir_all(cache.dir());
}

#[test]
fn each_change_affects_exactly_its_targets_with_templates_loaded_alone() {
    let repo = repository("loaded");
    each_change_with(&repo, None, &|name| match name {
        "facet one context uses" => set(&["legacy/local"]),
        other => common(other),
    });
}

/// What both ways of knowing a target's inputs give.
fn common(name: &str) -> BTreeSet<String> {
    match name {
        "nothing" | "nothing reads it" => set(&[]),
        "its condition" | "shared facet" => set(&["legacy/local", "legacy/staging"]),
        "jsonnet" => set(&["platform/local", "platform/prod"]),
        "include" => set(&["apps/orders/blueprint"]),
        "new context" => set(&["legacy/dev"]),
        other => panic!("no expectation for {other}"),
    }
}

/// A change made to the work tree.
type Change = dyn Fn(&Repo);

/// Each change, judged, then the work tree back as committed.
fn each_change_with(repo: &Repo, cache: Option<&Cache>, expect: &dyn Fn(&str) -> BTreeSet<String>) {
    let cases: [(&str, &Change); 8] = [
        ("nothing", &|_| {}),
        ("facet one context uses", &|r| {
            edit_in(r, LOCAL, "grafana/dev", "grafana/dev2")
        }),
        ("its condition", &|r| {
            edit_in(r, LOCAL, "|| dev == true", "|| dev == false")
        }),
        ("shared facet", &|r| {
            edit_in(
                r,
                "legacy/contexts/_template/facets/platform-base.yaml",
                "What every",
                "All that every",
            )
        }),
        ("jsonnet", &|r| {
            edit_in(
                r,
                "platform/contexts/_template/configs/cluster.jsonnet",
                "https://",
                "http://",
            )
        }),
        ("include", &|r| {
            let path = r.dir().join("infra/apps/orders/storage.yaml");
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(path, text + "\n").unwrap();
        }),
        ("new context", &|r| {
            r.write("infra/legacy/contexts/dev/values.yaml", "platform: docker\n");
        }),
        ("nothing reads it", &|r| {
            r.write("README.md", "# infrastructure, changed\n");
            r.write("infra/notes.txt", "still nothing\n");
        }),
    ];
    for (name, change) in cases {
        change(repo);
        assert_eq!(ids(repo, cache), expect(name), "{name}");
        repo.git(&["checkout", "-q", "--", "."]);
        repo.git(&["clean", "-q", "-f", "-d"]);
    }
}

#[test]
fn a_facet_one_context_leaves_out_is_judged_by_the_rules_of_its_project() {
    // The platform project reads files by jsonnet(): loaded alone, any
    // change in it may matter to each context; its manifests say which.
    let repo = repository("rules");
    let facet = "infra/platform/contexts/_template/facets/option-dev.yaml";
    edit(&repo, facet, "replicas: \"1\"", "replicas: \"2\"");
    assert_eq!(ids(&repo, None), set(&["platform/local", "platform/prod"]));
    repo.git(&["stash", "-q"]);
    let cache = filled_cache(&repo);
    repo.git(&["stash", "pop", "-q"]);
    assert_eq!(ids(&repo, Some(&cache)), set(&["platform/local"]));
    let _ = std::fs::remove_dir_all(cache.dir());
}

#[test]
fn a_list_of_changed_files_counts_each_as_the_change_that_affects_more() {
    let repo = repository("list");
    let list = repo.write("changed.txt", &format!("# from the CI\ninfra/{LOCAL}\nREADME.md\n"));
    let targets = discover(&[repo.dir().join("infra")]).into_result().unwrap();
    let changes = Changes::listed(repo.dir(), &list).unwrap();
    // No revision to tell an edit from a new file in the facets folder,
    // or to read the old condition from: both contexts.
    assert_eq!(
        chosen(&targets, &changes, &Options::default()),
        set(&["legacy/local", "legacy/staging"])
    );
    let why = affected(&targets, &changes, &Options::default());
    let staging = targets.iter().position(|t| t.id == "legacy/staging").unwrap();
    let why = why[staging].as_ref().unwrap();
    assert_eq!((why.path.as_str(), why.how), (&*format!("infra/{LOCAL}"), How::Listed));
}

#[test]
fn a_batch_folder_outside_the_changes_is_not_affected() {
    let repo = repository("outside");
    repo.write("elsewhere/a.txt", "x\n");
    let targets = discover(&[repo.dir().join("infra/apps")]).into_result().unwrap();
    let changes = Changes::since(repo.dir(), "HEAD").unwrap();
    assert!(chosen(&targets, &changes, &Options::default()).is_empty());
    assert_eq!(targets[0].id, "orders/blueprint");
}
