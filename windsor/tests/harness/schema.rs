//! Schema cases (`tests/schema/*.yaml`): a JSON Schema, a value, and
//! whether the schema accepts it (`valid`), with what it says when it
//! does not (`errors`, each `path: message`, when given) or why the
//! schema is none (`error`, a part of the message).

use bpvm_harness::{Case, Failure, Fix};
use bpvm_runtime::Value;

pub fn run(case: &Case) -> Result<(), Failure> {
    let (Some(schema), Some(data)) = (case.get("schema"), case.get("data")) else {
        return Err(Failure::problem("a schema case needs `schema` and `data`"));
    };
    let mut failure = Failure::default();
    match (bpvm_windsor::validate::against(schema, data), case.get("error")) {
        (Err(e), Some(Value::Str(want))) if e.contains(&**want) => {}
        (Err(e), want) => {
            let fix = Fix::Field("error".into(), Value::from(e.as_str()));
            let want = want.map(Value::to_json).unwrap_or_else(|| "a JSON Schema".into());
            failure.differs("error", want, e, Some(fix));
        }
        (Ok(_), Some(want)) => failure.differs("error", want.to_json(), "a JSON Schema".into(), None),
        (Ok(found), None) => {
            let valid = Value::Bool(found.is_empty());
            if case.get("valid") != Some(&valid) {
                let want = case.get("valid").map(Value::to_json).unwrap_or_default();
                failure.differs(
                    "valid",
                    want,
                    format!("{} ({})", valid.to_json(), found.join("; ")),
                    None,
                );
            }
            if let Some(want) = case.get("errors") {
                let got = Value::List(found.iter().map(|e| Value::from(e.as_str())).collect());
                if &got != want {
                    let fix = Fix::Field("errors".into(), got.clone());
                    failure.differs("errors", want.to_json(), got.to_json(), Some(fix));
                }
            }
        }
    }
    failure.result()
}
