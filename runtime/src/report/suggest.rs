//! "Did you mean …?": the known name closest to a misspelled one.

/// The number of single-character insertions, deletions and
/// substitutions that turn `a` into `b`.
///
/// ```
/// use bpvm_runtime::suggest::edit_distance;
/// assert_eq!(edit_distance("dependOn", "dependsOn"), 1);
/// assert_eq!(edit_distance("flux", "flux"), 0);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = here;
        }
    }
    row[b.len()]
}

/// The most edits a name may be from the one meant: a quarter of its
/// length, at least 2 (so that two swapped letters are caught) and at most
/// 3 (so that a long name does not suggest an unrelated one). Bluelink's
/// rule (libs/blueprint 0.52, `validation/suggestions.go`).
fn within(name: &str) -> usize {
    (name.chars().count() / 4).clamp(2, 3)
}

/// The one of `known` fewest edits from `name`, ignoring case, if it is
/// within two edits (three for a name of 12 characters or more); of
/// equals, the first of `known` (callers list names as they are written).
///
/// ```
/// use bpvm_runtime::suggest::closest;
/// assert_eq!(closest("strategey", &["when", "strategy"]), Some("strategy"));
/// assert_eq!(closest("nam", &["path", "name"]), Some("name"));
/// assert_eq!(closest("zzz", &["when"]), None);
/// // Case is ignored; of equals, the first.
/// assert_eq!(closest("Region", &["regions", "region"]), Some("region"));
/// assert_eq!(closest("ab", &["bb", "aa"]), Some("bb"));
/// // A long name may be three edits away.
/// assert_eq!(closest("networkCfgId", &["networkConfigId"]), Some("networkConfigId"));
/// assert_eq!(closest("netCfg", &["netConfig"]), None);
/// ```
pub fn closest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    let lower = name.to_lowercase();
    known
        .iter()
        .map(|k| (edit_distance(&lower, &k.to_lowercase()), *k))
        .filter(|(d, _)| *d <= within(name))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}
