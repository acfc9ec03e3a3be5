//! What the validator reports: one value the schema refuses.

/// One value the schema refuses.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// Where in the values: keys, and list indices as digits.
    pub steps: Vec<String>,
    /// What is wrong (without the place).
    pub message: String,
    /// The closest name the schema allows there, quoted (`"platform"`).
    pub suggestion: Option<String>,
    /// A key the schema does not allow (rather than a value it refuses).
    pub unknown_key: bool,
}
