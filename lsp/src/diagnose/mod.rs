//! Diagnostics: what `bpvm check` reports for the template a document
//! belongs to, placed at each finding's range in its file, and the quick
//! fixes a finding's did-you-mean offers. Imports `text`.

mod findings;
mod fixes;
mod published;
mod template;

pub use findings::{Diagnosed, Kept, diagnose};
pub use fixes::fixes;
pub use published::Published;
pub use template::{Template, template_of};
