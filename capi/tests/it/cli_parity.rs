//! Errors through the C ABI read exactly as the `bpvm` CLI prints them on
//! stderr.

use crate::built;
use crate::c_strings::{c, take};
use bpvm_capi::*;
use std::ffi::c_char;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::ptr;

/// What the CLI printed on stderr for `args`, failing.
fn cli_error(cli: &Path, args: &[&str]) -> String {
    let out = Command::new(cli).args(args).output().expect("the CLI runs");
    assert!(!out.status.success(), "bpvm {args:?} succeeded");
    String::from_utf8(out.stderr).expect("UTF-8")
}

/// An error message handed out, freed, with the newline the CLI adds
/// when the message has none.
fn message(err: *mut c_char) -> String {
    let mut text = take(err);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .canonicalize()
        .unwrap()
}

#[test]
fn compile_and_evaluation_errors() {
    let cli = built::cli();
    let env_file = std::env::temp_dir().join(format!("bpvm-capi-parity-{}.yaml", std::process::id()));
    std::fs::write(&env_file, "provider: aws\n").unwrap();
    let env_yaml = c("provider: aws\n");
    for (dialect, source, template) in [
        ("windsor", "a == (1 +", false),
        ("windsor", "int(provider)", false),
        ("windsor", "x-${provider + 1", true),
        ("bluelink", "${variables.}", true),
    ] {
        let mut args = vec!["eval", "--dialect", dialect, "--env", env_file.to_str().unwrap()];
        if template {
            args.push("--template");
        }
        args.push(source);
        let expected = cli_error(&cli, &args);
        let mut err = ptr::null_mut();
        // SAFETY: NUL-terminated strings and a writable `err`.
        let p = unsafe { bpvm_compile(c(dialect).as_ptr(), c(source).as_ptr(), i32::from(template), &mut err) };
        let got = if p.is_null() {
            message(err)
        } else {
            // SAFETY: as above.
            let e = unsafe { bpvm_env_from_yaml(env_yaml.as_ptr(), &mut err) };
            let mut out = ptr::null_mut();
            // SAFETY: live objects and writable outputs.
            assert_ne!(unsafe { bpvm_eval_json(p, e, &mut out, &mut err) }, 0, "{source}");
            // SAFETY: each made by the library, freed once.
            unsafe {
                bpvm_program_free(p);
                bpvm_env_free(e);
            }
            message(err)
        };
        assert_eq!(got, expected, "{dialect} {source:?}");
    }
    let _ = std::fs::remove_file(env_file);
}

#[test]
fn render_errors() {
    let cli = built::cli();
    let examples = examples();
    let project = examples.join("windsor").to_string_lossy().into_owned();
    let blueprint = examples.join("bluelink/blueprint.yaml").to_string_lossy().into_owned();
    let vars = examples
        .join("bluelink/blueprint.vars.yaml")
        .to_string_lossy()
        .into_owned();

    for (dir, context) in [("/nonexistent/bpvm", None), (project.as_str(), Some("nope"))] {
        let mut args = vec!["render", "--project", dir];
        if let Some(name) = context {
            args.extend(["--context", name]);
        }
        let expected = cli_error(&cli, &args);
        let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
        let name = context.map(c);
        // SAFETY: NUL-terminated strings (or NULL) and writable outputs.
        let rc = unsafe {
            bpvm_render_windsor(
                c(dir).as_ptr(),
                name.as_ref().map_or(ptr::null(), |n| n.as_ptr()),
                ptr::null(),
                &mut out,
                &mut err,
            )
        };
        assert_ne!(rc, 0);
        assert_eq!(message(err), expected, "{args:?}");
    }

    // `now` is not compared: the CLI reads it with chrono's RFC 3339
    // parser, which this crate cannot name (see the header), so a bad
    // instant's reason may be worded differently.
    let cases: [(Vec<&str>, String); 3] = [
        (vec!["/nonexistent/blueprint.yaml"], "{}".into()),
        (
            vec![&blueprint, "--var", "environment"],
            r#"{"var": "environment"}"#.into(),
        ),
        (
            vec![&blueprint, "--vars", &vars, "--var", "nope=1"],
            format!(r#"{{"vars": "{vars}", "var": ["nope=1"]}}"#),
        ),
    ];
    for (flags, options) in cases {
        let mut args = vec!["render"];
        args.extend(&flags);
        let expected = cli_error(&cli, &args);
        let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: NUL-terminated strings and writable outputs.
        let rc = unsafe { bpvm_render_bluelink(c(flags[0]).as_ptr(), c(&options).as_ptr(), &mut out, &mut err) };
        assert_ne!(rc, 0);
        assert_eq!(message(err), expected, "{args:?}");
    }
}

/// What the CLI gave for `args`: its stdout on success, else its stderr.
fn cli_result(cli: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(cli).args(args).output().expect("the CLI runs");
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).expect("UTF-8"))
    } else {
        Err(String::from_utf8(out.stderr).expect("UTF-8"))
    }
}

/// What a render through the C ABI gave: its output, else its message.
fn capi_result(rc: i32, out: *mut c_char, err: *mut c_char) -> Result<String, String> {
    if rc != 0 {
        return Err(message(err));
    }
    Ok(take(out))
}

#[test]
fn renders_with_options() {
    let cli = built::cli();
    let examples = examples();
    let project = examples.join("windsor").to_string_lossy().into_owned();
    for (flags, options) in [
        (
            vec!["--rules", "seed", "--no-schema-defaults"],
            r#"{"rules": "seed", "no_schema_defaults": true}"#,
        ),
        (
            vec!["--rules", "v0.9", "--compile-flux", "-o", "json"],
            r#"{"rules": "v0.9", "compile_flux": true, "output": "json"}"#,
        ),
    ] {
        let mut args = vec!["render", "--project", &project];
        args.extend(&flags);
        let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: NUL-terminated strings (or NULL) and writable outputs.
        let rc = unsafe {
            bpvm_render_windsor(
                c(&project).as_ptr(),
                ptr::null(),
                c(options).as_ptr(),
                &mut out,
                &mut err,
            )
        };
        assert_eq!(capi_result(rc, out, err), cli_result(&cli, &args), "{args:?}");
    }

    let bluelink = examples.join("bluelink");
    let at = |p: &str| bluelink.join(p).to_string_lossy().into_owned();
    let (blueprint, root) = (at("blueprint.yaml"), at(""));
    let options = format!(
        r#"{{"var": ["environment=production", "databasePassword=hunter2"], "show_secrets": true, "seed": 3,
            "now": "2024-05-06T07:08:09Z", "root": "{root}", "output": "json", "resource_state": null}}"#
    );
    let args = [
        "render",
        &blueprint,
        "--var",
        "environment=production",
        "--var",
        "databasePassword=hunter2",
        "--show-secrets",
        "--seed",
        "3",
        "--now",
        "2024-05-06T07:08:09Z",
        "--root",
        &root,
        "-o",
        "json",
    ];
    let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: NUL-terminated strings and writable outputs.
    let rc = unsafe { bpvm_render_bluelink(c(&blueprint).as_ptr(), c(&options).as_ptr(), &mut out, &mut err) };
    let ours = capi_result(rc, out, err);
    assert!(ours.as_ref().is_ok_and(|t| t.contains("hunter2")), "{ours:?}");
    assert_eq!(ours, cli_result(&cli, &args));
}

/// A Windsor value the schema marks sensitive is masked through the C ABI
/// as by the CLI, and shown with `show_secrets` as with `--show-secrets`.
#[test]
fn sensitive_values_are_masked_unless_shown() {
    let cli = built::cli();
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("windsor.yaml", "version: v1alpha1\n"),
        (
            "contexts/_template/schema.yaml",
            "properties: {token: {type: string, sensitive: true}}\n",
        ),
        (
            "contexts/_template/facets/base.yaml",
            "kind: Facet\nmetadata: {name: base}\nterraform:\n  - name: c\n    inputs: {label: 'x-${token}'}\n",
        ),
        ("contexts/dev/values.yaml", "token: hunter2secret\n"),
    ];
    for (path, body) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let project = dir.path().to_string_lossy().into_owned();
    for (flags, options, label) in [
        (vec![], "{}", "label: x-********"),
        (
            vec!["--show-secrets"],
            r#"{"show_secrets": true}"#,
            "label: x-hunter2secret",
        ),
    ] {
        let mut args = vec!["render", "--project", &project, "--context", "dev"];
        args.extend(&flags);
        let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: NUL-terminated strings and writable outputs.
        let rc = unsafe {
            bpvm_render_windsor(
                c(&project).as_ptr(),
                c("dev").as_ptr(),
                c(options).as_ptr(),
                &mut out,
                &mut err,
            )
        };
        let got = capi_result(rc, out, err);
        assert_eq!(got, cli_result(&cli, &args), "{args:?}");
        assert!(got.unwrap().contains(label), "{args:?}");
    }
}
