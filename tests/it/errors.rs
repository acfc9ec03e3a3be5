//! The library's one error type: each phase's failure converted into
//! [`bpvm::Error`], matched on, and each problem's file, YAML path and
//! line:column read from fields, not parsed from a message.

use bpvm::windsor::{Project, render::render_files};
use bpvm::{Compiler, Dialect, Environment, Error, Problem, Vm};
use std::fs;

#[test]
fn a_compile_error_is_at_its_column_in_the_expression() {
    let err = Compiler::new(Dialect::Windsor)
        .compile("provider == 'aws' &&")
        .map_err(Error::Compile)
        .unwrap_err();
    assert!(matches!(err, Error::Compile(_)), "{err:?}");
    let p = err.problems();
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].file, p[0].path, p[0].line, p[0].column),
        (None, None, Some(1), Some(21))
    );
    assert!(p[0].message.contains("end"), "{}", p[0].message);
}

#[test]
fn an_evaluation_error_points_at_the_failing_operation() {
    let prog = Compiler::new(Dialect::Windsor)
        .compile("name == 'x' &&\n  count + name > 0")
        .unwrap();
    let env = Environment::from_yaml("count: 1\nname: x").unwrap();
    let err = bpvm::eval(&mut Vm::new(), &prog, &env)
        .map_err(Error::Eval)
        .unwrap_err();
    let Error::Eval(d) = &err else {
        panic!("not an evaluation error: {err:?}")
    };
    assert_eq!(d.line_col(), (2, 3));
    assert_eq!((err.problems()[0].line, err.problems()[0].column), (Some(2), Some(3)));
}

#[test]
fn a_document_error_gives_its_line_and_column() {
    let err = Environment::from_yaml("a: 1\nb: [1, 2\n")
        .map_err(Error::Document)
        .unwrap_err();
    let p = err.problems();
    assert!(matches!(err, Error::Document(_)));
    assert_eq!(
        (p[0].line, p[0].column, p[0].message),
        (Some(2), Some(4), "unclosed bracket '['")
    );
}

#[test]
fn a_windsor_project_names_the_file_the_yaml_path_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let facets = dir.path().join("contexts/_template/facets");
    fs::create_dir_all(&facets).unwrap();
    fs::create_dir_all(dir.path().join("contexts/local")).unwrap();
    fs::write(dir.path().join("windsor.yaml"), "version: v1alpha1\ncontext: local\n").unwrap();
    fs::write(dir.path().join("contexts/local/values.yaml"), "provider: aws\n").unwrap();
    fs::write(
        facets.join("cluster.yaml"),
        "kind: Facet\napiVersion: blueprints.windsorcli.dev/v1alpha1\nmetadata:\n  name: cluster\n\
         terraform:\n  - name: cluster\n    path: cluster\n    inputs:\n      region: ${provider ==}\n",
    )
    .unwrap();
    let err: Error = Project::load(dir.path())
        .and_then(|p| render_files(&p, "local", true, None).map(|_| ()))
        .map_err(Error::from)
        .unwrap_err();
    let Error::Windsor(errors) = &err else {
        panic!("not a Windsor error: {err:?}")
    };
    assert_eq!(errors.0.len(), 1, "{err}");
    let p: Problem = err.problems()[0];
    assert_eq!(p.file, Some("contexts/_template/facets/cluster.yaml"), "{p:?}");
    assert_eq!(p.path, Some("terraform[cluster].inputs.region"), "{p:?}");
    // The place in the file of the part of the expression at fault (the
    // end of `${provider ==}`), and the message alone.
    assert_eq!((p.line, p.column), (Some(9), Some(28)), "{p:?}");
    assert!(p.message.starts_with("expected an expression"), "{p:?}");
}

#[test]
fn a_bluelink_blueprint_names_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("blueprint.yaml");
    fs::write(
        &file,
        "version: 2025-11-02\nresources:\n  a:\n    type: aws/s3/bucket\n    spec:\n      name: ${variables.missing}\n\
         \x20 b:\n    type: aws/s3/bucket\n    spec:\n      name: ${values.nope}\n",
    )
    .unwrap();
    let err: Error = bpvm::bluelink::load::load(&file, "blueprint.yaml")
        .map(|_| ())
        .map_err(Error::from)
        .unwrap_err();
    assert!(matches!(err, Error::Bluelink(_)), "{err:?}");
    let p = err.problems();
    assert_eq!(p.len(), 2, "{err}");
    assert_eq!(p[0].file, Some("blueprint.yaml"));
    assert_eq!(p[0].path, Some("resources.a.spec.name"), "{p:?}");
    assert_eq!(p[0].line, Some(6), "{p:?}");
    assert_eq!(p[1].path, Some("resources.b.spec.name"), "{p:?}");
    assert_eq!(p[1].line, Some(10), "{p:?}");
}
