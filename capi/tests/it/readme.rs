//! The C programs of the docs (`docs/library.md`'s "From C" and this
//! crate's README's "Use"), compiled with `cc -Werror` against the header and the
//! static library, and run: each must exit 0 and print what it says.

use crate::built::{NATIVE_LIBS, profile_dir};
use std::path::Path;
use std::process::Command;

/// The ```c blocks of the Markdown file at `path`.
fn c_blocks(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the README");
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines() {
        match (&mut open, line.trim_end()) {
            (None, "```c") => open = Some(String::new()),
            (Some(_), "```") => blocks.extend(open.take()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

fn compile_and_run(name: &str, source: &str) -> String {
    let dir = profile_dir().join("capi-readme");
    std::fs::create_dir_all(&dir).expect("the work folder");
    let (c, exe) = (dir.join(format!("{name}.c")), dir.join(name));
    std::fs::write(&c, source).expect("the C file");
    let capi = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-I")
        .arg(capi.join("include"))
        .arg(profile_dir().join("libbpvm_capi.a"))
        .args(NATIVE_LIBS)
        .status()
        .expect("cc runs");
    assert!(status.success(), "{name} does not compile");
    let out = Command::new(&exe).output().expect("it runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name} failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn the_readmes_c_programs_compile_and_run() {
    let capi = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, readme) in [
        ("library", capi.join("../docs/library.md")),
        ("capi", capi.join("README.md")),
    ] {
        let blocks = c_blocks(&readme);
        assert_eq!(blocks.len(), 1, "{} has one C program", readme.display());
        assert_eq!(compile_and_run(name, &blocks[0]), "included: 1\n", "{name}");
    }
}
