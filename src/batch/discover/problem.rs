//! A problem met by discovery, with where it is. A leaf: the discovery
//! modules report through it.

use std::fmt;

/// One problem met by discovery, printed `file:line:col: yaml.path: message`
/// (line, column and path when known).
///
/// ```
/// use bpvm::batch::Problem;
/// let p = Problem { file: "bpvm-batch.yaml".into(), line: 3, col: 5, path: "targets[0].contexts".into(), message: "expected a list".into() };
/// assert_eq!(p.to_string(), "bpvm-batch.yaml:3:5: targets[0].contexts: expected a list");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file or folder concerned, as reached from the folder searched.
    pub file: String,
    /// The line in `file`, from 1; 0 when not about one place.
    pub line: u32,
    /// The column in `file`, from 1; 0 when not about one place.
    pub col: u32,
    /// The path of the value at fault (`targets[1].windsor`), or "".
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// What kind of thing is at `path`, for a message about something that
/// is not what was asked for: "a FIFO (named pipe)", "a regular file",
/// "a symlink to nothing", "not there"….
///
/// ```
/// assert_eq!(bpvm::batch::what_is(std::path::Path::new("Cargo.toml")), "a regular file");
/// assert_eq!(bpvm::batch::what_is(std::path::Path::new("no/such/file")), "not there");
/// ```
pub fn what_is(path: &std::path::Path) -> &'static str {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return "not there";
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return match std::fs::metadata(path) {
            Ok(target) => what_is_type(target.file_type()),
            Err(_) => "a symlink to nothing",
        };
    }
    what_is_type(kind)
}

fn what_is_type(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file or folder"
    }
}

impl Problem {
    /// A problem with the whole of `file`.
    pub(crate) fn file(file: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            file: file.into(),
            line: 0,
            col: 0,
            path: String::new(),
            message: message.into(),
        }
    }
}

impl Problem {
    /// The problem as every command prints an error:
    /// `file:line:column: error: path: message` (without `:line:column`
    /// when it is about the whole file).
    ///
    /// ```
    /// use bpvm::batch::Problem;
    /// let p = Problem { file: "bpvm-batch.yaml".into(), line: 1, col: 1, path: "exclud".into(), message: "unknown key".into() };
    /// assert_eq!(p.printed(), "bpvm-batch.yaml:1:1: error: exclud: unknown key");
    /// ```
    pub fn printed(&self) -> String {
        let at = (self.line > 0).then_some((self.line as usize, self.col as usize));
        let message = match self.path.is_empty() {
            true => self.message.clone(),
            false => format!("{}: {}", self.path, self.message),
        };
        bpvm_runtime::excerpt::headline(Some(&self.file), at, "error", &message)
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.col)?;
        }
        write!(f, ": ")?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}
