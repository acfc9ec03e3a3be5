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

/// The one of `known` fewest edits from `name` (the first of equals),
/// if it is within two.
///
/// ```
/// use bpvm_runtime::suggest::closest;
/// assert_eq!(closest("strategey", &["when", "strategy"]), Some("strategy"));
/// assert_eq!(closest("nam", &["path", "name"]), Some("name"));
/// assert_eq!(closest("zzz", &["when"]), None);
/// ```
pub fn closest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| (edit_distance(name, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}
