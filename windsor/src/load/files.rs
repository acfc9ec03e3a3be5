//! The files of a project folder (facets, test files, Jsonnet), listed
//! through the project's root, none skipped without a word.

use crate::error::Error;
use bpvm_runtime::root::{Kind, Root};

/// The files under folder `rel` of the project whose names end in one of
/// `suffixes`, in name order, nested folders included.
///
/// Folders are listed from the handles the root opens them by. A
/// symlinked folder that stays inside the project is followed; one met
/// again inside itself is a cycle. A name that is not UTF-8, a symlink
/// leading nowhere or out of the project and a folder that cannot be
/// listed are errors naming them: the walk goes on past them and the first
/// is returned, so nothing is left out silently.
///
/// ```
/// use bpvm_runtime::root::Root;
/// let dir = std::env::temp_dir().join(format!("bpvm-files-under-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("facets/more")).unwrap();
/// std::fs::write(dir.join("facets/more/b.yaml"), "").unwrap();
/// std::fs::write(dir.join("facets/a.yaml"), "").unwrap();
/// std::fs::write(dir.join("facets/notes.txt"), "").unwrap();
/// let mut found = Vec::new();
/// bpvm_windsor::files_under(&Root::new(&dir, "project").unwrap(), "facets", &[".yaml"], &mut found).unwrap();
/// assert_eq!(found, ["facets/a.yaml", "facets/more/b.yaml"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn files_under(root: &Root, rel: &str, suffixes: &[&str], out: &mut Vec<String>) -> Result<(), Error> {
    let mut walk = Walk {
        root,
        suffixes,
        out,
        trail: Vec::new(),
        first_error: None,
    };
    walk.folder(rel);
    walk.first_error.map_or(Ok(()), Err)
}

struct Walk<'a> {
    root: &'a Root,
    suffixes: &'a [&'a str],
    out: &'a mut Vec<String>,
    /// The folders being listed, outermost first, by identity.
    trail: Vec<(u64, u64)>,
    first_error: Option<Error>,
}

impl Walk<'_> {
    fn fail(&mut self, file: &str, message: String) {
        self.first_error
            .get_or_insert_with(|| Error::new(Some(file), "", message));
    }

    fn wanted(&self, name: &[u8]) -> bool {
        self.suffixes.iter().any(|s| name.ends_with(s.as_bytes()))
    }

    fn folder(&mut self, rel: &str) {
        let listing = match self.root.list(self.root.dir(), rel) {
            Ok(Some(listing)) => listing,
            Ok(None) => return,
            Err(e) => return self.fail(rel, format!("cannot list: {e}")),
        };
        if self.trail.contains(&listing.id) {
            let message = "a symlink cycle: this folder is inside itself (remove the link that leads back)";
            return self.fail(rel, message.to_string());
        }
        self.trail.push(listing.id);
        for entry in listing.entries {
            let Some(name) = entry.name.to_str() else {
                use std::os::unix::ffi::OsStrExt;
                let bytes = entry.name.as_bytes();
                if self.wanted(bytes) || matches!(entry.kind, Ok(Kind::Folder)) {
                    let shown = format!("{rel}/{}", entry.name.to_string_lossy());
                    let message = "the name is not UTF-8 text, so it cannot be read as a project file (rename it)";
                    self.fail(&shown, message.to_string());
                }
                continue;
            };
            let child = format!("{rel}/{name}");
            match entry.kind {
                Ok(Kind::Folder) => self.folder(&child),
                Ok(_) if self.wanted(name.as_bytes()) => self.out.push(child),
                Ok(_) => {}
                Err(e) if e.is_missing() => self.fail(&child, "a symlink that leads to nothing".to_string()),
                Err(e) => self.fail(&child, format!("cannot read: {e}")),
            }
        }
        self.trail.pop();
    }
}
