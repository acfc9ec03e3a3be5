//! Exclusion globs (`--exclude`, `exclude:` in `bpvm-batch.yaml`): paths
//! relative to the folder searched that discovery does not enter or read.
//!
//! `globset` rather than the `ignore` crate's `OverrideBuilder`: an
//! override glob has `.gitignore` meaning (a name without `/` matches at
//! every depth, and a glob without `!` keeps a file rather than leaving
//! it out), while an exclusion is a path from the folder searched, matched
//! whole, `*` not crossing `/`. `globset` is what `ignore` builds its own
//! globs with, so it adds no code to the build.

use super::problem::Problem;
use globset::{GlobBuilder, GlobMatcher};
use std::sync::atomic::{AtomicBool, Ordering};

/// One glob, and whether it has matched anything yet.
struct Pattern {
    text: String,
    /// Where it was given: `None` on the command line, or a place in a
    /// `bpvm-batch.yaml` (a problem with no message yet).
    from: Option<Problem>,
    file: GlobMatcher,
    /// `dir/**` also matches `dir` itself, so that the folder is not entered.
    folder: Option<GlobMatcher>,
    used: AtomicBool,
}

/// Exclusion globs, each remembering whether it matched.
#[derive(Default)]
pub(super) struct Exclude {
    patterns: Vec<Pattern>,
}

/// `glob` checked as an exclusion: `Ok` with it tidied (no leading `./`
/// nor trailing `/`), or why it is not one.
///
/// ```
/// use bpvm::batch::parse_exclude;
/// assert_eq!(parse_exclude("./rendered/").unwrap(), "rendered");
/// assert!(parse_exclude("/abs/**").unwrap_err().contains("relative"));
/// assert!(parse_exclude("a/[b").is_err());
/// ```
pub fn parse_exclude(glob: &str) -> Result<String, String> {
    let mut text = glob.trim();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    let text = text.trim_end_matches('/');
    if text.is_empty() {
        return Err("an empty glob would exclude nothing: give a path relative to the folder searched".to_string());
    }
    if glob.starts_with('/') || text.contains('\\') || text.split('/').any(|p| p == "..") {
        return Err(format!(
            "{glob:?}: a glob is a path relative to the folder searched, with / separators, inside it"
        ));
    }
    matcher(text)?;
    Ok(text.to_string())
}

/// The matcher of `glob` as bpvm reads a path glob (exclusions, and the
/// check configuration's `paths`): whole paths, `*` and `?` not crossing
/// `/`, `\` escaping the next character.
pub(crate) fn path_glob(glob: &str) -> Result<GlobMatcher, globset::Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
}

/// [`path_glob`], or why `glob` is not one.
fn matcher(glob: &str) -> Result<GlobMatcher, String> {
    path_glob(glob).map_err(|e| format!("{glob:?} is not a glob: {}", e.kind()))
}

impl Exclude {
    /// Adds `glob`, given at `from` (`None`: the command line). An
    /// invalid glob is refused with why.
    pub(super) fn add(&mut self, glob: &str, from: Option<Problem>) -> Result<(), String> {
        let text = parse_exclude(glob)?;
        let folder = match text.strip_suffix("/**") {
            Some(dir) if !dir.is_empty() => Some(matcher(dir)?),
            _ => None,
        };
        self.patterns.push(Pattern {
            file: matcher(&text)?,
            folder,
            text,
            from,
            used: AtomicBool::new(false),
        });
        Ok(())
    }

    /// `true` when there is no glob.
    pub(super) fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// `true` when a glob matches `rel` (relative to the folder searched,
    /// `/`-separated), a folder when `is_dir`; each glob that matches is
    /// marked used.
    pub(super) fn matches(&self, rel: &str, is_dir: bool) -> bool {
        let mut hit = false;
        for p in &self.patterns {
            let folder = is_dir && p.folder.as_ref().is_some_and(|f| f.is_match(rel));
            if folder || p.file.is_match(rel) {
                p.used.store(true, Ordering::Relaxed);
                hit = true;
            }
        }
        hit
    }

    /// `true` when a glob matches `rel` (a folder when `is_dir`) or a
    /// folder above it; "" is the folder searched, never excluded.
    pub(super) fn matches_within(&self, rel: &str, is_dir: bool) -> bool {
        if rel.is_empty() {
            return false;
        }
        let mut hit = self.matches(rel, is_dir);
        let mut folder = rel;
        while let Some((up, _)) = folder.rsplit_once('/') {
            hit |= self.matches(up, true);
            folder = up;
        }
        hit
    }

    /// The globs that matched nothing: given on the command line (their
    /// text), and given in a file (a problem at their place).
    pub(super) fn unused(&self) -> (Vec<String>, Vec<Problem>) {
        let (mut given, mut placed) = (Vec::new(), Vec::new());
        for p in self.patterns.iter().filter(|p| !p.used.load(Ordering::Relaxed)) {
            match &p.from {
                None => given.push(p.text.clone()),
                Some(at) => placed.push(Problem {
                    message: format!(
                        "{:?} matches nothing here (a mistyped exclusion would exclude nothing)",
                        p.text
                    ),
                    ..at.clone()
                }),
            }
        }
        (given, placed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exclude(globs: &[&str]) -> Exclude {
        let mut e = Exclude::default();
        for g in globs {
            e.add(g, None).unwrap();
        }
        e
    }

    #[test]
    fn globs_are_paths_from_the_folder_searched() {
        let e = exclude(&["rendered/**", "teams/legacy", "**/fixtures/**", "*.json"]);
        assert!(e.matches("rendered", true));
        assert!(e.matches("rendered/a/b.yaml", false));
        assert!(!e.matches("apps/rendered", true));
        assert!(e.matches("teams/legacy", true));
        assert!(!e.matches("teams/legacy-2", true));
        assert!(e.matches("fixtures", true));
        assert!(e.matches("a/b/fixtures", true));
        assert!(e.matches("a.json", false));
        assert!(!e.matches("a/b.json", false), "* does not cross /");
        assert!(e.matches_within("teams/legacy/app.yaml", false));
        assert!(!e.matches_within("teams/new/app.yaml", false));
        assert!(!e.matches_within("", true));
    }

    #[test]
    fn a_glob_that_matched_nothing_is_told() {
        let e = exclude(&["rendered/**", "rendred/**"]);
        e.matches("rendered", true);
        assert_eq!(e.unused().0, ["rendred/**"]);
    }
}
