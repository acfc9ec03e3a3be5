//! Every problem a run found, so that one run reports them all (both
//! renderers' error lists).

use std::fmt;

/// Problems of type `E`, printed one per line.
///
/// ```
/// use bpvm_runtime::Problems;
/// let p = Problems::new(vec!["a.yaml: bad", "b.yaml: worse"]);
/// assert_eq!(p.to_string(), "a.yaml: bad\nb.yaml: worse");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Problems<E>(pub Vec<E>);

impl<E> Problems<E> {
    /// The problems `list` holds.
    pub fn new(list: Vec<E>) -> Problems<E> {
        Problems(list)
    }
}

impl<E: fmt::Display> fmt::Display for Problems<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl<E: fmt::Display + fmt::Debug> std::error::Error for Problems<E> {}

impl<E> From<E> for Problems<E> {
    fn from(e: E) -> Problems<E> {
        Problems(vec![e])
    }
}
