//! The documents an editor has open: their text as edited, which every
//! read of the engine sees in place of the file on disk (through the
//! file layer's overlay).

use super::lines::Lines;
use bpvm::runtime::root::overlay;
use lsp_types::Uri;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One open document.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The file it is, absolute and with symlinks resolved when it
    /// exists on disk.
    pub path: PathBuf,
    /// The editor's version of the text.
    pub version: i32,
    /// The text as edited.
    pub text: String,
    /// Its line starts.
    pub lines: Lines,
}

/// The open documents, by URI.
///
/// ```
/// use bpvm_lsp::text::Documents;
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("values.yaml");
/// std::fs::write(&file, "a: 1\n").unwrap();
/// let uri: lsp_types::Uri = format!("file://{}", file.display()).parse().unwrap();
/// let mut open = Documents::default();
/// open.open(&uri, 1, "a: 2\n".into());
/// let real = file.canonicalize().unwrap();
/// assert_eq!(bpvm::runtime::root::overlay::text(&real).as_deref(), Some(&b"a: 2\n"[..]));
/// open.close(&uri);
/// assert!(bpvm::runtime::root::overlay::text(&real).is_none());
/// ```
#[derive(Debug, Default)]
pub struct Documents {
    open: BTreeMap<String, Document>,
}

impl Documents {
    /// Opens (or replaces) the document at `uri`; a URI that is not a
    /// local file is not kept (there is nothing on disk to evaluate).
    pub fn open(&mut self, uri: &Uri, version: i32, text: String) -> Option<&Document> {
        let path = path_of(uri)?;
        overlay::set(&path, &text);
        let lines = Lines::new(&text);
        let doc = Document {
            path,
            version,
            text,
            lines,
        };
        self.open.insert(uri.as_str().to_string(), doc);
        self.open.get(uri.as_str())
    }

    /// The document's whole new text (full synchronisation); an unknown
    /// document is opened.
    pub fn change(&mut self, uri: &Uri, version: i32, text: String) -> Option<&Document> {
        self.open(uri, version, text)
    }

    /// Closes the document: reads see the file on disk again.
    pub fn close(&mut self, uri: &Uri) {
        if let Some(doc) = self.open.remove(uri.as_str()) {
            overlay::remove(&doc.path);
        }
    }

    /// The open document at `uri`.
    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.open.get(uri.as_str())
    }

    /// Every open document.
    pub fn all(&self) -> impl Iterator<Item = &Document> {
        self.open.values()
    }

    /// The open document of the file `path`.
    pub fn by_path(&self, path: &std::path::Path) -> Option<&Document> {
        self.open.values().find(|d| d.path == path)
    }
}

/// The local file a `file:` URI names, symlinks resolved when it exists.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str().strip_prefix("file://")?;
    let path = PathBuf::from(decode(text)?);
    if !path.is_absolute() {
        return None;
    }
    Some(path.canonicalize().unwrap_or(path))
}

/// A URI path's percent-escapes decoded; `None` when they do not make
/// UTF-8 text.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The `file:` URI of `path`, with the characters a URI path cannot hold
/// escaped.
pub fn uri_of(path: &std::path::Path) -> Option<Uri> {
    let mut text = String::from("file://");
    for b in path.to_str()?.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => text.push(b as char),
            _ => text.push_str(&format!("%{b:02X}")),
        }
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_convert_both_ways() {
        let path = std::path::Path::new("/no/such/dir/a b/é.yaml");
        let uri = uri_of(path).unwrap();
        assert_eq!(uri.as_str(), "file:///no/such/dir/a%20b/%C3%A9.yaml");
        assert_eq!(path_of(&uri).unwrap(), path);
    }

    #[test]
    fn uris_that_are_not_local_files_name_no_path() {
        for uri in [
            "untitled:Untitled-1",
            "https://example.com/a.yaml",
            "file:relative.yaml",
        ] {
            let uri: Uri = uri.parse().unwrap();
            assert_eq!(path_of(&uri), None, "{}", uri.as_str());
        }
    }
}
