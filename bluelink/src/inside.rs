//! Where in its file a problem inside a substitution string is: the
//! string starts at a known place, and the part at fault is an offset in
//! the string as read; the string's quoting (quotes, escapes, folded and
//! block lines) is undone to find that part's own line and column.

use crate::error::{Error, Pos};

/// A problem found inside a string: which error, the string as read, the
/// byte offset of the part at fault, and the message to give once the
/// part is placed (the message as it is when it cannot be).
#[derive(Debug, Clone)]
pub(crate) struct Inside {
    pub error: usize,
    pub written: String,
    pub offset: usize,
    pub placed: Option<String>,
}

/// The place of byte `offset` of the string `written`, whose value starts
/// at `at` in `text`, a YAML or JSON blueprint; `None` when the text
/// there does not read as `written`.
///
/// ```
/// use bpvm_bluelink::{Pos, inside::place};
/// let text = "spec:\n  a: \"x\\ty ${values.b}\"\n";
/// assert_eq!(place(text, Pos { line: 2, col: 6 }, "x\ty ${values.b}", 6), Some(Pos { line: 2, col: 14 }));
/// ```
pub fn place(text: &str, at: Pos, written: &str, offset: usize) -> Option<Pos> {
    let (line, col) = bpvm_runtime::scalar::place(text, (at.line as usize, at.col as usize), written, offset)?;
    Some(Pos {
        line: u32::try_from(line).ok()?,
        col: u32::try_from(col).ok()?,
    })
}

/// Moves each of `errors` found inside a string onto the part at fault,
/// `text` being the file they are in.
pub(crate) fn refine(errors: &mut [Error], found: &[Inside], text: &str) {
    for i in found {
        let Some(e) = errors.get_mut(i.error) else { continue };
        if let Some(at) = place(text, e.at, &i.written, i.offset) {
            e.at = at;
            if let Some(m) = &i.placed {
                e.message = m.clone();
            }
        }
    }
}
