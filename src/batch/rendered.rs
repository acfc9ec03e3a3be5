//! How output bpvm writes says so, for a reader and for discovery: the
//! first line of a YAML file, and a file in a batch's output folder (JSON
//! has no comment, and a key of its own would change the document). A
//! leaf.

/// How the first line of a YAML file bpvm writes with `--out` begins:
/// discovery never reads a file that begins so as a template.
///
/// ```
/// use bpvm::batch::{RENDERED, rendered_header};
/// assert!(rendered_header("api.yaml").starts_with(RENDERED));
/// ```
pub const RENDERED: &str = "# Rendered by bpvm from ";

/// The file a batch writes in its output folder when it writes JSON
/// (which has no comment to carry [`RENDERED`]): discovery does not enter
/// a folder that holds it, so committed output is never taken for
/// templates.
///
/// ```
/// assert_eq!(bpvm::batch::RENDERED_FOLDER, ".bpvm-rendered");
/// ```
pub const RENDERED_FOLDER: &str = ".bpvm-rendered";

/// What [`RENDERED_FOLDER`] says to whoever opens it.
///
/// ```
/// assert!(bpvm::batch::RENDERED_FOLDER_TEXT.contains("bpvm batch --out"));
/// ```
pub const RENDERED_FOLDER_TEXT: &str = "Written by bpvm batch --out: every file here is rendered from a template; \
edit the templates, not these files. bpvm does not search this folder for templates.\n";

/// The first line of a YAML file rendered from `source` (a template's
/// path, and what picks the render out), with its line end.
///
/// ```
/// assert_eq!(
///     bpvm::batch::rendered_header("apps/api.yaml"),
///     "# Rendered by bpvm from apps/api.yaml; edit the source, not this file.\n"
/// );
/// ```
pub fn rendered_header(source: &str) -> String {
    // One line whatever the path holds: a line break would end the comment.
    let source = source.replace(['\n', '\r'], " ");
    format!("{RENDERED}{source}; edit the source, not this file.\n")
}

/// `true` when `text` begins with the line [`rendered_header`] writes:
/// output, never a template.
///
/// ```
/// use bpvm::batch::{is_rendered, rendered_header};
/// assert!(is_rendered(&(rendered_header("api.yaml") + "version: 2023-04-20\n")));
/// assert!(!is_rendered("version: 2023-04-20\n# Rendered by bpvm from api.yaml\n"));
/// ```
pub fn is_rendered(text: &str) -> bool {
    text.starts_with(RENDERED)
}
