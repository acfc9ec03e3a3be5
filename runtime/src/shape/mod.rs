//! The shapes of the files bpvm reads, as data: each loader's field table
//! is a list of [`Field`]s, whose names its unknown-field check reads
//! ([`field_names!`](crate::field_names)) and whose types, nesting and
//! descriptions `emit` prints as a JSON Schema for editors. One table
//! serves both, so the schema cannot drift from what the loader accepts.
//!
//! A leaf: imports nothing of the crate but `Value` and `Map` (what the
//! schema is built as, printed in document order).

mod emit;

pub use emit::{DRAFT, json_schema};

/// One field of a mapping: its name, what its value may be, what it is
/// for, and whether a mapping of its kind must have it.
///
/// ```
/// use bpvm_runtime::shape::{Field, Ty};
/// const NAME: Field = Field::new("name", Ty::Str, "The component's name.").required();
/// assert!(NAME.required && NAME.name == "name");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The key as written.
    pub name: &'static str,
    /// What its value may be.
    pub ty: Ty,
    /// One or two sentences for an editor's hover.
    pub doc: &'static str,
    /// A mapping of its kind must have it.
    pub required: bool,
}

impl Field {
    /// An optional field.
    pub const fn new(name: &'static str, ty: Ty, doc: &'static str) -> Field {
        Field {
            name,
            ty,
            doc,
            required: false,
        }
    }

    /// The same field, required.
    pub const fn required(self) -> Field {
        Field { required: true, ..self }
    }
}

/// What a value may be.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// Anything.
    Any,
    /// A string.
    Str,
    /// An integer.
    Int,
    /// A number.
    Num,
    /// `true` or `false`.
    Bool,
    /// One of these strings.
    OneOf(&'static [&'static str]),
    /// A list of these.
    List(&'static Ty),
    /// A mapping of names (any key) to these.
    Names(&'static Ty),
    /// A mapping with known fields.
    Obj(&'static Obj),
    /// Any one of these.
    Either(&'static [Ty]),
    /// A mapping whose keys are the names the function gives (a list a
    /// loader builds at run time, such as the rule ids), each to one of
    /// these.
    Keys(fn() -> Vec<&'static str>, &'static Ty),
}

/// A mapping with known fields.
#[derive(Debug, Clone, Copy)]
pub struct Obj {
    /// What the mapping is, for an editor's hover.
    pub doc: &'static str,
    /// Its fields: tables joined in order (a component's own fields,
    /// then those only a facet gives it).
    pub fields: &'static [&'static [Field]],
    /// What becomes of a key none of them names.
    pub rest: Rest,
}

/// What a loader does with a key no field of its mapping names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rest {
    /// An error (with the field meant, when one is near).
    Refused,
    /// A key starting with this prefix is allowed (it only holds YAML
    /// anchors, say); any other is an error.
    Prefixed(&'static str),
    /// A near miss of a field is an error; any other key is a field of a
    /// newer release, read with a warning. The schema flags every such
    /// key, as the strict mode does, and says so in its description.
    Newer,
    /// Anything else is allowed and not read.
    Open,
    /// Any other key is not read (the file has settings of another
    /// program's); the schema flags it, naming the fields that program
    /// defines.
    Unread,
}

/// The names of `fields`, in order, as a constant array: what a loader's
/// unknown-field check compares keys with. Use it through
/// [`field_names!`](crate::field_names).
///
/// ```
/// use bpvm_runtime::shape::{Field, Ty, names};
/// let fields = [Field::new("a", Ty::Any, "A."), Field::new("b", Ty::Any, "B.")];
/// assert_eq!(names::<2>(&fields), ["a", "b"]);
/// ```
pub const fn names<const N: usize>(fields: &[Field]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = fields[i].name;
        i += 1;
    }
    out
}

/// The names of a field table as a `&'static [&'static str]` constant.
///
/// ```
/// use bpvm_runtime::field_names;
/// use bpvm_runtime::shape::{Field, Ty};
/// const FIELDS: &[Field] = &[Field::new("paths", Ty::Any, "."), Field::new("when", Ty::Str, ".")];
/// const NAMES: &[&str] = field_names!(FIELDS);
/// assert_eq!(NAMES, ["paths", "when"]);
/// ```
#[macro_export]
macro_rules! field_names {
    ($fields:expr) => {
        &$crate::shape::names::<{ $fields.len() }>($fields)
    };
}

/// One file kind's schema: its name on the command line, its title, the
/// file names it applies to, and the shape of its top level.
#[derive(Debug, Clone, Copy)]
pub struct Document {
    /// The name `bpvm schema NAME` takes (`windsor-facet`).
    pub name: &'static str,
    /// A title for editors.
    pub title: &'static str,
    /// The file-name globs it applies to (as an editor's schema mapping
    /// and SchemaStore's `fileMatch` take them).
    pub globs: &'static [&'static str],
    /// The top level's shape.
    pub ty: Ty,
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &[Field] = &[
        Field::new("a", Ty::Str, "A."),
        Field::new("b", Ty::Int, "B.").required(),
    ];

    #[test]
    fn names_keep_the_table_order() {
        const NAMES: &[&str] = crate::field_names!(TABLE);
        assert_eq!(NAMES, ["a", "b"]);
        assert!(TABLE[1].required && !TABLE[0].required);
    }
}
