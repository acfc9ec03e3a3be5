//! A scratch copy of a template and a server started in it, with the
//! steps every session test takes: open a file as edited, change it,
//! ask about a place in it.

use super::client::{Client, uri};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A server over a scratch copy of a template.
pub struct Session {
    /// The scratch folder (symlinks resolved: the paths the server names).
    pub root: PathBuf,
    _dir: tempfile::TempDir,
    /// The server.
    pub client: Client,
    /// The version of each file's text sent last.
    versions: BTreeMap<String, i64>,
    next_version: i64,
}

impl Session {
    /// A session over a copy of the folder `from`, initialized.
    pub fn over(from: &Path) -> Session {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        crate::support::copy_tree(from, &root);
        let (client, _) = Client::initialized(&root);
        Session {
            root,
            _dir: dir,
            client,
            versions: BTreeMap::new(),
            next_version: 0,
        }
    }

    /// A session over a copy of the v0.7.0 core template of the corpus;
    /// `None` when the corpus is not beside the repository.
    pub fn over_core_template() -> Option<Session> {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/windsor-core-v0.7.0");
        crate::shared::present(&corpus).then(|| Session::over(&corpus))
    }

    /// The absolute path of `file` in the copy.
    pub fn path(&self, file: &str) -> PathBuf {
        self.root.join(file)
    }

    /// The text of `file` in the copy, as on disk.
    pub fn text(&self, file: &str) -> String {
        std::fs::read_to_string(self.path(file)).unwrap()
    }

    /// Opens `file` holding `text` (unsaved).
    pub fn open(&mut self, file: &str, text: &str) {
        let version = self.version_of(file);
        let doc = json!({ "uri": uri(&self.path(file)), "languageId": "yaml", "version": version, "text": text });
        self.client
            .notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }

    /// Changes open `file` to hold `text` (unsaved).
    pub fn change(&mut self, file: &str, text: &str) {
        let version = self.version_of(file);
        let doc = json!({ "uri": uri(&self.path(file)), "version": version });
        let changes = json!([{ "text": text }]);
        self.client.notify(
            "textDocument/didChange",
            json!({ "textDocument": doc, "contentChanges": changes }),
        );
    }

    /// A new version for `file`'s text.
    fn version_of(&mut self, file: &str) -> i64 {
        self.next_version += 1;
        self.versions.insert(file.to_string(), self.next_version);
        self.next_version
    }

    /// The diagnostics published for each of `files` (open ones) by the
    /// check of their latest text.
    pub fn diagnostics(&mut self, files: &[&str]) -> Value {
        let paths: Vec<(PathBuf, i64)> = files.iter().map(|f| (self.path(f), self.versions[*f])).collect();
        let refs: Vec<(&Path, i64)> = paths.iter().map(|(p, v)| (p.as_path(), *v)).collect();
        let found = self.client.diagnostics_for(&refs);
        Value::Array(
            found
                .into_iter()
                .map(|(u, d)| json!({ "uri": u, "diagnostics": d }))
                .collect(),
        )
    }

    /// Request `method` about `line`:`character` of `file`: its result.
    pub fn at(&mut self, method: &str, file: &str, line: u32, character: u32) -> Value {
        let params = json!({
            "textDocument": { "uri": uri(&self.path(file)) },
            "position": { "line": line, "character": character },
        });
        self.client.request(method, params)
    }
}

/// The `(line, UTF-16 column)` where `needle` first starts in `text`.
pub fn place_of(text: &str, needle: &str) -> (u32, u32) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the text"));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..at].matches('\n').count() as u32;
    (line, text[line_start..at].encode_utf16().count() as u32)
}
