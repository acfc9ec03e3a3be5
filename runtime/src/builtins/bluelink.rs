use crate::func::Builtin;
/// Every core function of the Bluelink dialect, by name.
pub static FUNCTIONS: &[Builtin] = &[];
