//! The unified diff's colours, as git's: headers bold, hunk ranges
//! cyan, removed lines red, added lines green. `anstream` drops them
//! where stdout is not a terminal. A leaf.

use anstyle::{AnsiColor, Style};

const HEADER: Style = Style::new().bold();
const RANGE: Style = AnsiColor::Cyan.on_default();
const REMOVED: Style = AnsiColor::Red.on_default();
const ADDED: Style = AnsiColor::Green.on_default();
const NOTE: Style = AnsiColor::Yellow.on_default();

/// `text` (a unified diff) with each line styled by its kind.
pub fn unified(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut in_hunk = false;
    for line in text.split_inclusive('\n') {
        let (body, end) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
        if body.starts_with("diff --bpvm ") {
            in_hunk = false;
        } else if body.starts_with("@@ ") {
            in_hunk = true;
        }
        let style = match body.as_bytes().first() {
            _ if body.starts_with("diff --bpvm ") => Some(HEADER),
            _ if !in_hunk && (body.starts_with("--- ") || body.starts_with("+++ ")) => Some(HEADER),
            Some(b'@') if in_hunk => Some(RANGE),
            Some(b'-') if in_hunk => Some(REMOVED),
            Some(b'+') if in_hunk => Some(ADDED),
            _ if !in_hunk => Some(NOTE),
            _ => None,
        };
        match style {
            Some(s) if !body.is_empty() => out.push_str(&format!("{s}{body}{s:#}")),
            _ => out.push_str(body),
        }
        out.push_str(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_line_has_its_colour() {
        let text = "diff --bpvm a/x b/x\nnew target\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+a: 1\n-b\n c\n";
        let painted = unified(text);
        for (line, style) in [
            ("diff --bpvm a/x b/x", HEADER),
            ("new target", NOTE),
            ("+++ b/x", HEADER),
            ("@@ -0,0 +1 @@", RANGE),
            ("+a: 1", ADDED),
            ("-b", REMOVED),
        ] {
            assert!(
                painted.contains(&format!("{style}{line}{style:#}\n")),
                "{line}: {painted:?}"
            );
        }
        assert!(painted.ends_with("\n c\n"));
    }
}
