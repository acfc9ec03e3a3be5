//! `bpvm render` of the Windsor v0.9 corpus (`../shared/corpus/
//! windsor-core-v0.7.0`): a context made of each test case's values
//! renders, with `--compile-flux`, its flux systems compiled to
//! kustomizations; every tenth is rendered twice and must give the same
//! bytes (D1; `tests/it/corpus.rs` renders every case twice in-process).
//! Skipped without the corpus, unless `BPVM_CORPUS=required`.

use crate::shared;
use crate::support::{self, bpvm};
use bpvm::Value;
use bpvm::windsor::{Project, test};
use std::path::Path;

#[test]
fn every_case_renders_through_the_command() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/windsor-core-v0.7.0");
    if !shared::present(&corpus) {
        return;
    }
    let dir = support::scratch_dir("corpus");
    support::copy_tree(&corpus, &dir);
    let project = Project::load(&dir).unwrap();
    let cases = test::discover(&project, &[]).unwrap();
    let mut rendered = 0;
    for (i, case) in cases.iter().enumerate() {
        let name = format!("case-{i:03}");
        let ctx = dir.join("contexts").join(&name);
        std::fs::create_dir_all(&ctx).unwrap();
        std::fs::write(ctx.join("values.yaml"), bpvm::runtime::text::to_yaml(case.values())).unwrap();
        let mut args = vec!["render", "--compile-flux", "--no-schema-defaults", "--context", &name];
        let outputs = ctx.join("outputs.yaml");
        if let Some(o) = case.outputs() {
            std::fs::write(&outputs, bpvm::runtime::text::to_yaml(o)).unwrap();
            args.extend(["--terraform-outputs", outputs.to_str().unwrap()]);
        }
        let run = || {
            let mut cmd = bpvm();
            cmd.args(&args).arg("--project").arg(&dir).env_clear();
            for (k, v) in case.environment().iter() {
                if let Value::Str(s) = v {
                    cmd.env(k.as_str(), &**s);
                }
            }
            cmd.output().unwrap()
        };
        let a = run();
        if i % 10 == 0 {
            let b = run();
            assert_eq!(a.stdout, b.stdout, "{}: two runs differ", case.name);
            assert_eq!(a.status.success(), b.status.success());
        }
        if a.status.success() {
            let text = String::from_utf8(a.stdout).unwrap();
            assert!(
                text.contains("\nkustomize:\n") && !text.contains("\nflux:\n"),
                "{}:\n{text}",
                case.name
            );
            rendered += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // All but the 14 cases that expect composition to fail.
    assert_eq!(rendered, cases.len() - 14);
}
