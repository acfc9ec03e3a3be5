//! The functions a renderer adds to the Windsor dialect (`jsonnet`,
//! `file`, `yamlString`, `terraform_output`), answered from a case file's
//! `host:` table: the expressions that call them are the engine's to
//! compile and run, the files and outputs behind them the renderer's.

use bpvm::Value;
use bpvm::runtime::builtins::{cidr, windsor};
use bpvm::runtime::{Builtin, Ctx, FnError, Library, Val};

/// Host functions answered from the case file's `host:` table.
static HOSTED: &[Builtin] = &[
    Builtin {
        name: "jsonnet",
        min: 1,
        max: 1,
        f: |c, a| hosted(c, "jsonnet", a),
        pure: false,
    },
    Builtin {
        name: "file",
        min: 1,
        max: 1,
        f: |c, a| hosted(c, "file", a),
        pure: false,
    },
    Builtin {
        name: "yamlString",
        min: 1,
        max: 2,
        f: |c, a| hosted(c, "yamlString", a),
        pure: false,
    },
    Builtin {
        name: "terraform_output",
        min: 2,
        max: 2,
        f: |c, a| hosted(c, "terraform_output", a),
        pure: false,
    },
];

/// Windsor's functions with the hosted ones.
pub static WINDSOR_HOSTED: Library = Library::new(&[
    windsor::FUNCTIONS,
    cidr::FUNCTIONS,
    bpvm::runtime::time::functions::FUNCTIONS,
    HOSTED,
]);

/// `host.<function>.<arg 1>[.<arg 2>]`; a missing terraform output is nil,
/// any other missing entry is an error naming it.
fn hosted<'a>(c: &mut Ctx<'a>, name: &str, args: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let host = c.host.downcast_ref::<Value>().and_then(|h| h.as_map());
    let mut at = host.and_then(|h| h.get(name));
    let keys = if name == "terraform_output" {
        &args[..2]
    } else {
        &args[..1]
    };
    for k in keys {
        let Val::Str(k) = k else {
            return Err(FnError::new(format!("{name}() needs string arguments")));
        };
        at = at.and_then(Value::as_map).and_then(|m| m.get(k));
    }
    match at {
        Some(v) => Ok(c.import(v)),
        None if name == "terraform_output" => Ok(Val::Nil),
        None => Err(FnError::new(format!(
            "{name}() has no host entry for {}",
            args[0].to_value().to_json()
        ))),
    }
}
