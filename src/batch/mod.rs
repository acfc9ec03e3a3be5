//! Batch rendering: every Windsor context and Bluelink blueprint of a
//! repository as one list of targets, found once, split across machines.
//!
//! Here: `discover` (finding targets), `target`, `shard`, `timed` (shards
//! balanced by a report's durations), `queue` (the worker pool), `run`,
//! `template` (a loaded template), `manifest` (what a target's output
//! depends on), `cache` (the render cache), `affected` (the targets a
//! change can alter), `why` (why one runs) and `report`. They import
//! the language crates and each other downwards (`run` uses `template`,
//! `shard`, `queue`); nothing here imports `check`.
//!
//! A **batch** is a list of [`Target`]s. A target is one render: a
//! Windsor project for one context, or a Bluelink blueprint with one set
//! of variables. Targets name their template (the project folder or the
//! blueprint file), so that a batch loads and compiles each template once
//! and renders all of its targets from that copy. Each target has an
//! **id**, unique in the batch and the same on every machine:
//!
//! | kind | id | example |
//! |---|---|---|
//! | Windsor | `<project>/<context>` | `platform/aws/staging` |
//! | Bluelink | `<folder>/<stem>[@<set>]` | `apps/orders/blueprint@prod` |
//!
//! Paths in ids are relative to the folder the target was found under
//! (a PATH given to [`discover`]), with `/` separators on every system;
//! a Windsor project that is the PATH itself gives plain `<context>`.
//!
//! # Discovery
//!
//! [`discover`] searches each PATH, in a fixed order, and sorts each
//! PATH's targets by id:
//!
//! - Folders named `.git`, `target` or `node_modules` are never searched,
//!   nor hidden ones, nor what `.gitignore` and `.ignore` files ignore,
//!   nor what an exclusion glob ([`Search::exclude`], `exclude:` below)
//!   matches, nor output bpvm rendered ([`RENDERED`], [`RENDERED_FOLDER`]);
//!   links to folders are not followed. `docs/discovery.md` says how each
//!   of these applies.
//! - A **Windsor project** is a folder with `windsor.yaml` (or
//!   `windsor.yml`) and a folder `contexts/_template/`. It gives one
//!   target per folder `contexts/<name>/` other than `_template`. A
//!   project is not searched further: its folders are its template's.
//! - A **Bluelink blueprint** is a `.yaml`, `.yml` or `.json` file whose
//!   top-level `version` is a Bluelink version (`2023-04-20`,
//!   `2025-11-02`), or a `.bp` or `.blueprint` file (Bluelink's own
//!   language) whose `version` directive names one (`app.blueprint.yaml`
//!   is YAML). Files named `*.vars.*`, `*.datasources.*` and
//!   `*.resource-state.*` are never read as blueprints. A file that
//!   declares a Bluelink version but does not parse is a target still, so
//!   that its render reports the mistake. A blueprint gives one target
//!   per variable file beside it: `<stem>.vars.yaml` (or `.yml`, `.json`)
//!   gives the target `<stem>`, each `<stem>.<set>.vars.yaml` the target
//!   `<stem>@<set>`; with none, one target `<stem>` renders with the
//!   variables' defaults; variable files are YAML or JSON beside a `.bp`
//!   blueprint too. (A variable file belongs to the blueprint file beside
//!   it with the longest stem it starts with: beside `app.yaml` and `app.v2.yaml`, `app.v2.vars.yaml` is
//!   `app.v2`'s.)
//!   `<stem>.datasources.yaml` and `<stem>.resource-state.yaml` beside it
//!   are given to each of its targets.
//! - A blueprint that another blueprint under the PATH includes
//!   (`include.<name>.path`, or `include <name> "<path>"` in `.bp`, relative to the including file) is rendered
//!   as part of it, and is not a target of its own. Include paths made
//!   with `${..}` cannot be known before rendering and are not followed.
//!
//! Files that cannot be read (permissions, a link out of the PATH, a FIFO)
//! are reported as [`Problem`]s and discovery goes on; files over 64 MiB
//! or not UTF-8 cannot be blueprints and are passed over.
//!
//! # `bpvm-batch.yaml`
//!
//! A `bpvm-batch.yaml` in a PATH lists that PATH's targets, and nothing
//! there is discovered. Paths are relative to its folder, with `/`
//! separators, and must stay inside it:
//!
//! ```yaml
//! targets:
//!   - windsor: platform/aws            # a Windsor project folder
//!     contexts: [staging, production]  # optional; default: every context folder
//!   - bluelink: apps/orders/blueprint.yaml
//!     set: prod                        # optional: the target blueprint@prod
//!     vars: config/orders-prod.yaml    # optional; default: blueprint.prod.vars.yaml beside it
//!     datasources: fixtures/ds.yaml    # optional; default: blueprint.datasources.yaml beside it
//!     resource-state: fixtures/rs.yaml # optional; default: blueprint.resource-state.yaml beside it
//!   - bluelink: apps/billing.yaml      # alone: one target per variable file beside it, as discovered
//! ```
//!
//! `exclude:` (a list of globs, paths relative to its folder, as
//! `--exclude` takes them) leaves out the listed targets whose template
//! lies under a path it matches; a `bpvm-batch.yaml` with `exclude:` and
//! no `targets:` has its folder searched, leaving those paths out:
//!
//! ```yaml
//! exclude:
//!   - legacy/**
//!   - "**/fixtures/**"
//! ```
//!
//! A Bluelink entry with `vars` is one target (`<stem>`, or `<stem>@<set>`
//! with `set`); with `set` alone, the set's variable file beside the
//! blueprint; with neither, every variable set beside it. Every mistake
//! is reported with the file, line:column and YAML path
//! (`bpvm-batch.yaml:4:7: targets[0].contexts[1]: no context "prod" in
//! platform/aws (did you mean "prd"?); it has: dev, prd`).
//!
//! A `check:` section beside `targets` is `bpvm check`'s configuration
//! (see `check::tune`); the batch passes over it.
//!
//! # Sharding
//!
//! [`shard`] gives shard `K/N` (1-based) of a target list: a target's
//! shard is fixed by a stable hash of its id, so the N shards are
//! disjoint, cover the batch, and a target stays in its shard when
//! others are added or removed (see [`shard_of`]). [`TimedShards`]
//! splits by time instead: from the durations a previous [`Report`]
//! recorded, each template's targets together (a large template in
//! pieces), the longest first onto the least-loaded shard, so that the
//! shards take about as long as each other.
//!
//! ```
//! use bpvm::batch::{discover, shard};
//! let dir = std::env::temp_dir().join(format!("bpvm-batch-doc-{}", std::process::id()));
//! for context in ["dev", "prod"] {
//!     std::fs::create_dir_all(dir.join("infra/contexts").join(context)).unwrap();
//! }
//! std::fs::create_dir_all(dir.join("infra/contexts/_template")).unwrap();
//! std::fs::write(dir.join("infra/windsor.yaml"), "").unwrap();
//! std::fs::write(dir.join("queue.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
//! let targets = discover(&[&dir]).into_result().unwrap();
//! let ids: Vec<&str> = targets.iter().map(|t| t.id.as_str()).collect();
//! assert_eq!(ids, ["infra/dev", "infra/prod", "queue"]);
//! let first = shard(&targets, 1, 2);
//! let second = shard(&targets, 2, 2);
//! assert_eq!(first.len() + second.len(), 3);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod affected;
mod cache;
mod cache_entry;
mod cache_key;
pub(crate) mod discover;
mod manifest;
pub(crate) mod queue;
mod rendered;
mod report;
mod run;
mod shard;
mod target;
mod template;
mod timed;
mod why;

pub use affected::{Changes, Depends, affected};
pub use cache::Cache;
pub use discover::{
    Discovery, MANIFEST, Problem, SKIPPED, Search, discover, discover_except, discover_with, files_beside,
    parse_exclude, unmatched_exclude, what_is,
};
pub use manifest::{LeftOut, Manifest, Read};
pub use rendered::{RENDERED, RENDERED_FOLDER, RENDERED_FOLDER_TEXT, is_rendered, rendered_header};
pub use report::{Counts, Record, RecordKind, Report, Status};
pub use run::{Options, Sink, Suite, Verdict, run, suites, take_cached};
pub use shard::{parse_shard, parse_shard_index, shard, shard_of};
pub use target::{Files, Kind, Target};
pub use template::{Format, Output};
pub use timed::TimedShards;
pub use why::{How, Why};
