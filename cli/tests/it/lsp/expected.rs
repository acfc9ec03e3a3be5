//! What a session gave compared with its expected file: JSON, pretty
//! printed, the scratch folder's path written `$ROOT` so the file is the
//! same on every machine. `BPVM_BLESS=1` writes what was given instead.

use serde_json::Value;
use std::path::Path;

/// Asserts that `given` is what `expected/NAME.json` holds, with `root`
/// (as a path and as a URI) written `$ROOT`.
pub fn matches(name: &str, given: &Value, root: &Path) {
    let mut text = serde_json::to_string_pretty(given).unwrap();
    text = text.replace(&super::client::uri(root), "file://$ROOT");
    text = text.replace(root.to_str().unwrap(), "$ROOT");
    text.push('\n');
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/it/lsp/expected/{name}.json"));
    if std::env::var("BPVM_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&file, &text).unwrap();
        return;
    }
    let want =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e} (BPVM_BLESS=1 writes it)", file.display()));
    assert!(
        want == text,
        "{name}: the server gave (BPVM_BLESS=1 takes it)\n{text}\nexpected\n{want}"
    );
}
