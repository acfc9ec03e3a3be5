//! How deep nesting may go. Every walk over an expression, a document or a
//! value recurses once per level of nesting, so these bounds are what keep
//! any input from exhausting the stack: going past one is an error that
//! names it, never a crash.

/// Levels an expression may nest: parentheses, the operand of a prefix
/// operator, the right operand of `**`, the branches of `?:`, call
/// arguments, list and map items, predicate bodies, `let` values and
/// bodies. A run of left-associative operators (`a + b - c`, `a && b`) or
/// of accessors (`a.b[0].c`) is flat and counts once however long it is.
///
/// Parsing, folding and code generation recurse a few small frames per
/// level: the deepest expression allowed compiles and runs within a
/// 256 KiB stack even in a debug build, where each level costs up to
/// 2 KiB of stack (far less in a release build). Real expressions nest a
/// handful of levels.
pub const EXPRESSION_DEPTH: u32 = 100;

/// Levels of lists and maps in a YAML or JSON document (Windsor files,
/// command-line inputs, Bluelink blueprints, `fromJSON()` text, a Jsonnet
/// result), and in a value that `reduce`, `compose` or `pipe` builds up
/// step by step.
///
/// Reading YAML recurses deeply per level (about 30 KiB of stack per
/// level in a debug build, 4 KiB in a release build): 64 levels, the YAML
/// reader's own default, just fit a 2 MiB thread stack in a debug build.
/// Real configuration rarely nests more than 15 levels.
pub const VALUE_DEPTH: usize = 64;

/// Blueprints including blueprints, the first one counted: each level
/// renders a whole blueprint inside the one that includes it (about
/// 20 KiB of stack per level in a debug build).
pub const INCLUDE_DEPTH: usize = 16;

/// Bluelink definitions waiting on each other: a value whose substitution
/// reads a value whose substitution reads another, and so on (also through
/// resources, data sources and children). Each level resolves a
/// definition inside the one that reads it (several KiB of stack per
/// level in a debug build).
pub const REFERENCE_DEPTH: usize = 100;

/// Function values calling function values (Bluelink `compose`, `pipe`,
/// partials handed to `map`): as deep as an expression may nest, which is
/// as deep as such calls can be written.
pub const CALL_DEPTH: u32 = EXPRESSION_DEPTH;
