//! Writes a monorepo of Windsor projects and Bluelink blueprints, for
//! measuring `bpvm batch` against one `bpvm render` per target.
//!
//! ```text
//! cargo run --release --example monorepo -- [--projects N] [--contexts N]
//!     [--blueprints N] [--resources N] [--corpus DIR] OUT_DIR
//! ```
//!
//! - `OUT/windsor/p<NN>/`: the corpus template (`windsor.yaml` and
//!   `contexts/_template/`), and `--contexts` contexts whose values are the
//!   template's own test cases (files by name, cases in file order), less
//!   those that expect an error and those that do not render as a context.
//! - `OUT/bluelink/b<NNN>/service.yaml` with `service.vars.yaml`: one target
//!   each, `--resources` resources of five kinds (`each`, `condition`,
//!   references between resources, core functions).
//!
//! Every context and blueprint is rendered once here, as `bpvm render`
//! renders it, so that the tree holds known-good targets only. The same
//! arguments write byte-identical trees.

use bpvm::Value;
use bpvm::bluelink::{load as bl_load, render as bl_render};
use bpvm::windsor::{Project, render, scope, test};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str =
    "usage: monorepo [--projects N] [--contexts N] [--blueprints N] [--resources N] [--corpus DIR] OUT_DIR";

struct Args {
    projects: usize,
    contexts: usize,
    blueprints: usize,
    resources: usize,
    corpus: PathBuf,
    out: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        projects: 40,
        contexts: 25,
        blueprints: 200,
        resources: 50,
        corpus: PathBuf::from("../shared/corpus/windsor-core-v0.7.0"),
        out: PathBuf::new(),
    };
    let mut out = None;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        if arg == "-h" || arg == "--help" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        let Some(flag) = arg.strip_prefix("--") else {
            if out.replace(PathBuf::from(&arg)).is_some() {
                return Err(format!("one OUT_DIR only (also given {arg:?})"));
            }
            continue;
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        let value = match inline {
            Some(v) => v,
            None => it.next().ok_or_else(|| format!("--{name} needs a value"))?,
        };
        let count = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("--{name} {value:?}: expected a whole number"))
        };
        match name {
            "projects" => args.projects = count()?,
            "contexts" => args.contexts = count()?,
            "blueprints" => args.blueprints = count()?,
            "resources" => args.resources = count()?,
            "corpus" => args.corpus = PathBuf::from(&value),
            _ => return Err(format!("unknown option --{name}")),
        }
    }
    args.out = out.ok_or("OUT_DIR is missing")?;
    if args.resources == 0 {
        return Err("--resources must be at least 1 (a blueprint needs a resource)".into());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let corpus = &args.corpus;
    if args.projects > 0 && !(corpus.join("windsor.yaml").is_file() && corpus.join("contexts/_template").is_dir()) {
        return Err(format!(
            "--corpus {}: not a Windsor project (needs windsor.yaml and contexts/_template/)",
            corpus.display()
        ));
    }
    check_out(&args.out)?;
    let windsor_targets = if args.projects > 0 { windsor(args)? } else { 0 };
    for b in 0..args.blueprints {
        blueprint(args, b)?;
    }
    let total = windsor_targets + args.blueprints;
    println!(
        "wrote {} projects × {} contexts + {} blueprints = {total} targets to {}",
        args.projects,
        args.contexts,
        args.blueprints,
        args.out.display()
    );
    Ok(())
}

/// OUT must be new or empty: the tree is the whole of it, so that the
/// target count printed is the count a batch over OUT finds.
fn check_out(out: &Path) -> Result<(), String> {
    match std::fs::read_dir(out) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(format!("{} is not empty; give a new or empty folder", out.display()));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))
        }
        Err(e) => Err(format!("{}: {e}", out.display())),
    }
}

/// Zero-padded, wide enough for `count` and at least `min` digits, so that
/// name order is number order.
fn numbered(prefix: &str, i: usize, count: usize, min: usize) -> String {
    let width = (count.saturating_sub(1)).to_string().len().max(min);
    format!("{prefix}{i:0width$}")
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The regular files under `dir`, relative to `base`, in name order
/// (links are not followed: the copy must not depend on what they lead to).
fn files_under(base: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| format!("{}: {e}", path.display()))?;
        if kind.is_dir() {
            files_under(base, &path, out)?;
        } else if kind.is_file() {
            let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let rel = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
            out.push((rel, bytes));
        }
    }
    Ok(())
}

/// `name` as a context folder name: lowercase `[a-z0-9-]`, dashes
/// collapsed, at most `max` characters.
fn slug(name: &str, max: usize) -> String {
    let mut s = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            s.push(c);
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    s.truncate(max);
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() { "case".into() } else { s }
}

/// A slug of `name` not in `taken`, with `-2`, `-3`… when it is.
fn unique(name: &str, taken: &mut BTreeSet<String>) -> String {
    const MAX: usize = 40;
    let mut candidate = slug(name, MAX);
    let mut n = 2;
    while taken.contains(&candidate) {
        let suffix = format!("-{n}");
        candidate = format!("{}{suffix}", slug(name, MAX - suffix.len()));
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// One corpus test case that may become a context.
struct Candidate {
    name: String,
    source: String,
    values: Value,
}

/// The corpus cases that do not expect an error, files by name and cases
/// in file order, each with a context name.
fn candidates(corpus: &Path) -> Result<Vec<Candidate>, String> {
    let project = Project::load(corpus).map_err(|e| format!("corpus {}: {e}", corpus.display()))?;
    let mut cases = test::discover(&project, &[]).map_err(|e| format!("corpus {}: {e}", corpus.display()))?;
    // The order the cases are taken in is the order of the files' names.
    cases.sort_by(|a, b| a.file.cmp(&b.file));
    let mut taken = BTreeSet::new();
    let mut out = Vec::new();
    for case in &cases {
        if case.expects_error() {
            continue;
        }
        out.push(Candidate {
            name: unique(&case.name, &mut taken),
            source: format!("{}: {}", case.file, case.name),
            values: case.values().clone(),
        });
    }
    Ok(out)
}

/// A context's `values.yaml`: the case's values, under where they came from.
fn values_file(c: &Candidate) -> String {
    let yaml = bpvm::runtime::text::to_yaml(&c.values);
    let source = c.source.replace('\n', " ");
    format!("# {source}\n{yaml}")
}

/// Renders context `name` of `project` as `bpvm render --project P --context
/// NAME` does, but with no environment variables: which cases are kept must
/// not depend on the shell the tree is written from (a case that needs
/// `HCLOUD_TOKEN` is skipped everywhere, not kept where it is set).
fn render_context(project: &Project, name: &str) -> Result<(), String> {
    let ctx = scope::context(project, name, scope::Values::Files, true).map_err(|e| e.to_string())?;
    let operator = scope::context(project, name, scope::Values::Files, false).map_err(|e| e.to_string())?;
    let opts = render::Options {
        outputs: None,
        environment: Some(bpvm::runtime::Map::new()),
        operator: Some(operator),
        ..Default::default()
    };
    render::render(project, name, ctx, &opts).map_err(|e| e.to_string())?;
    Ok(())
}

/// Writes the projects; the number of targets they hold.
fn windsor(args: &Args) -> Result<usize, String> {
    let corpus = &args.corpus;
    let mut template = vec![(
        PathBuf::from("windsor.yaml"),
        std::fs::read(corpus.join("windsor.yaml")).map_err(|e| format!("cannot read windsor.yaml: {e}"))?,
    )];
    files_under(corpus, &corpus.join("contexts/_template"), &mut template)?;

    // The first project is the proving ground: each case is rendered there
    // as a context, and kept if it renders.
    let first = args.out.join("windsor").join(numbered("p", 0, args.projects, 2));
    for (rel, bytes) in &template {
        write(&first.join(rel), bytes)?;
    }
    let project = Project::load(&first).map_err(|e| format!("{}: {e}", first.display()))?;
    let mut kept: Vec<(String, String)> = Vec::new();
    let mut skipped = 0;
    for c in candidates(corpus)? {
        if kept.len() == args.contexts {
            break;
        }
        let dir = first.join("contexts").join(&c.name);
        let text = values_file(&c);
        write(&dir.join("values.yaml"), text.as_bytes())?;
        match render_context(&project, &c.name) {
            Ok(()) => kept.push((c.name, text)),
            Err(e) => {
                skipped += 1;
                let first_line = e.lines().next().unwrap_or("");
                eprintln!("skipped {}: does not render as a context: {first_line}", c.source);
                std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
            }
        }
    }
    if kept.len() < args.contexts {
        return Err(format!(
            "only {} of the corpus's cases render as contexts ({skipped} do not); ask for --contexts {} or fewer",
            kept.len(),
            kept.len()
        ));
    }
    for p in 1..args.projects {
        let dir = args.out.join("windsor").join(numbered("p", p, args.projects, 2));
        for (rel, bytes) in &template {
            write(&dir.join(rel), bytes)?;
        }
        for (name, text) in &kept {
            write(&dir.join("contexts").join(name).join("values.yaml"), text.as_bytes())?;
        }
    }
    Ok(args.projects * args.contexts)
}

const ENVS: [&str; 3] = ["dev", "staging", "prod"];
const REGIONS: [&str; 4] = ["eu-west-1", "us-east-1", "ap-southeast-2", "eu-central-1"];

/// Blueprint `b`: five kinds of resources in turn (a queue, a table, a
/// function reading both, a bucket only in prod, a topic per zone), so
/// that every render exercises references, `condition` and `each`.
fn blueprint_text(b: usize, resources: usize, id: &str) -> String {
    let mut s = String::new();
    let owner = format!("team-{:02}", b % 17);
    let _ = write!(
        s,
        "# Service {id}: {resources} resources, rendered once per variable set.
version: 2025-11-02

variables:
  env:
    type: string
    allowedValues: [dev, staging, prod]
  replicas:
    type: integer
    default: 2
  region:
    type: string
    default: eu-west-1
  owner:
    type: string
    default: \"  {owner}  \"

values:
  prefix:
    type: string
    value: ${{join(list(\"{id}\", variables.env), \"-\")}}
  owner:
    type: string
    value: ${{trim(variables.owner)}}
  zones:
    type: array
    value: ${{split(join(list(variables.region, \"a,\", variables.region, \"b\"), \"\"), \",\")}}

resources:
"
    );
    for i in 0..resources {
        let _ = match i % 5 {
            0 => write!(
                s,
                "  queue{i}:
    type: aws/sqs/queue
    metadata:
      labels: {{service: {id}}}
    spec:
      queueName: ${{values.prefix}}-queue-{i}
      region: ${{variables.region}}
      delaySeconds: ${{variables.replicas}}
"
            ),
            1 => write!(
                s,
                "  table{i}:
    type: aws/dynamodb/table
    spec:
      tableName: ${{to_lower(values.prefix)}}-table-{i}
      billingMode: ${{if(eq(variables.env, \"prod\"), \"PROVISIONED\", \"PAY_PER_REQUEST\")}}
      tags: {{owner: \"${{values.owner}}\"}}
"
            ),
            2 => write!(
                s,
                "  function{i}:
    type: aws/lambda/function
    linkSelector:
      byLabel: {{service: {id}}}
    spec:
      functionName: ${{values.prefix}}-fn-{i}
      memorySize: ${{max(128, variables.replicas)}}
      queueArn: ${{resources.queue{q}.spec.arn}}
      environment:
        variables:
          QUEUE: ${{resources.queue{q}.spec.queueName}}
          TABLE: ${{table{t}.spec.tableName}}
          REGION: ${{to_upper(variables.region)}}
",
                q = i - 2,
                t = i - 1
            ),
            3 => write!(
                s,
                "  bucket{i}:
    type: aws/s3/bucket
    condition: ${{eq(variables.env, \"prod\")}}
    spec:
      bucketName: ${{values.prefix}}-bucket-{i}
      notify: ${{resources.function{f}.spec.functionName}}
",
                f = i - 1
            ),
            _ => write!(
                s,
                "  topic{i}:
    type: aws/sns/topic
    each: ${{values.zones}}
    spec:
      topicName: ${{values.prefix}}-${{elem}}-{i}-${{i}}
"
            ),
        };
    }
    let _ = write!(
        s,
        "
exports:
  prefix:
    type: string
    field: values.prefix
  firstQueue:
    type: string
    field: resources.queue0.spec.queueName
"
    );
    s
}

/// The variables of blueprint `b`'s one target.
fn vars_text(b: usize) -> String {
    let mut s = format!("env: {}\nreplicas: {}\n", ENVS[b % ENVS.len()], 1 + b % 5);
    // Some services keep the default region.
    if b % 4 != 0 {
        let _ = writeln!(s, "region: {}", REGIONS[b % REGIONS.len()]);
    }
    s
}

/// Writes blueprint `b` and its variables, and renders them as
/// `bpvm render service.yaml --vars service.vars.yaml` does.
fn blueprint(args: &Args, b: usize) -> Result<(), String> {
    let id = numbered("b", b, args.blueprints, 3);
    let dir = args.out.join("bluelink").join(&id);
    let path = dir.join("service.yaml");
    let vars = vars_text(b);
    write(&path, blueprint_text(b, args.resources, &id).as_bytes())?;
    write(&dir.join("service.vars.yaml"), vars.as_bytes())?;

    let shown = path.display().to_string();
    let abs = path.canonicalize().map_err(|e| format!("{shown}: {e}"))?;
    let bp = bl_load::load(&abs, &shown).map_err(|e| e.to_string())?;
    let Ok(Value::Map(given)) = Value::from_yaml(&vars) else {
        return Err(format!("{id}: the variables are not a mapping"));
    };
    let opts = bl_render::Options {
        variables: given
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), bl_render::Input::Value(v.clone())))
            .collect(),
        root: Some(dir.clone()),
        ..Default::default()
    };
    bl_render::render(&bp, &opts).map_err(|e| format!("{shown} does not render: {e}"))?;
    Ok(())
}
