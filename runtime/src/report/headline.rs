//! The first line of every problem a command prints, in the form gcc and
//! `rustc --error-format=short` give and that editors' error formats and
//! CI problem matchers read: `file:line:column: severity: message`.

/// `file:line:column: severity: message`; without a place in the file
/// `file: severity: message`; without a file `severity: message`.
///
/// ```
/// use bpvm_runtime::excerpt::headline;
/// assert_eq!(headline(Some("a.yaml"), Some((3, 7)), "error", "x: bad"), "a.yaml:3:7: error: x: bad");
/// assert_eq!(headline(Some("a.yaml"), None, "warning", "odd"), "a.yaml: warning: odd");
/// assert_eq!(headline(None, Some((3, 7)), "error", "bad"), "error: bad");
/// ```
pub fn headline(file: Option<&str>, at: Option<(usize, usize)>, severity: &str, message: &str) -> String {
    format!("{}{severity}: {message}", place(file, at))
}

/// Where a problem is, as the start of its first line: `file:line:column: `,
/// `file: ` without a place in the file, nothing without a file. (A
/// problem quoted inside another message starts with this alone.)
///
/// ```
/// use bpvm_runtime::excerpt::place;
/// assert_eq!(place(Some("a.yaml"), Some((3, 7))), "a.yaml:3:7: ");
/// assert_eq!(place(Some("a.yaml"), None), "a.yaml: ");
/// assert_eq!(place(None, Some((3, 7))), "");
/// ```
pub fn place(file: Option<&str>, at: Option<(usize, usize)>) -> String {
    match (file, at) {
        (Some(file), Some((line, column))) => format!("{file}:{line}:{column}: "),
        (Some(file), None) => format!("{file}: "),
        (None, _) => String::new(),
    }
}
