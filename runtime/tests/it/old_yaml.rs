//! The YAML reader bpvm had before its own event builder: serde_saphyr's
//! Deserialize path, with the options and the error wording it used. Kept
//! only here, as the reference the new reader is compared with.

use bpvm_runtime::Value;
use bpvm_runtime::excerpt;
use bpvm_runtime::limits::VALUE_DEPTH;

/// `Value::from_yaml` as it was, with at most `max_nodes` values.
pub fn read_yaml(text: &str, max_nodes: usize) -> Result<Value, String> {
    let mut options = serde_saphyr::Options::default();
    options.strict_booleans = true;
    options.legacy_octal_numbers = false;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = VALUE_DEPTH + 1;
    budget.flow_nesting_limit = VALUE_DEPTH;
    budget.max_nodes = max_nodes;
    budget.max_events = 4 * max_nodes;
    options.budget = Some(budget);
    serde_saphyr::from_str_with_options::<Value>(text, options).map_err(|e| yaml_words(&e, max_nodes))
}

fn yaml_words(e: &serde_saphyr::Error, max_nodes: usize) -> String {
    use serde_saphyr::Error;
    use serde_saphyr::budget::BudgetBreach;
    let (line, column) = e.location().map_or((0, 0), |at| (at.line(), at.column()));
    let mut e = e;
    while let Error::WithSnippet { error, .. } | Error::AliasError { error, .. } = e {
        e = error;
    }
    let message = match e {
        Error::DuplicateMappingKey { key: Some(k), .. } => format!("duplicate key {:?}", excerpt::clip(k)),
        Error::DuplicateMappingKey { key: None, .. } => "duplicate key".to_string(),
        Error::NonFiniteFloat { value, .. } => {
            format!("{} is not a finite number (numbers stay finite)", excerpt::clip(value))
        }
        Error::Budget { breach, .. } => match breach {
            BudgetBreach::Depth { .. } => return too_deep(line, column),
            BudgetBreach::Nodes { .. } | BudgetBreach::Events { .. } => {
                format!("the document holds more than {max_nodes} values")
            }
            BudgetBreach::Aliases { .. } | BudgetBreach::AliasAnchorRatio { .. } => {
                "the document uses too many aliases (*name)".to_string()
            }
            other => format!("the document is too large ({})", breach_name(other)),
        },
        other => {
            let text = other.to_string();
            if text.contains(TOO_DEEP) || text.contains("recursion limit exceeded") {
                return too_deep(line, column);
            }
            let first = text.lines().next().unwrap_or("").trim();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            let first = match first.split_once(": ") {
                Some((place, rest)) if place.starts_with("line ") => rest,
                _ => first,
            };
            first.rsplit_once(" at line ").map_or(first, |(m, _)| m).to_string()
        }
    };
    format!("{line}:{column}: {message}")
}

fn breach_name(b: &serde_saphyr::budget::BudgetBreach) -> &'static str {
    use serde_saphyr::budget::BudgetBreach;
    match b {
        BudgetBreach::Anchors { .. } => "too many anchors",
        BudgetBreach::Documents { .. } => "too many documents",
        BudgetBreach::ScalarBytes { .. } => "too much text",
        BudgetBreach::CommentBytes { .. } => "too many comments",
        BudgetBreach::MergeKeys { .. } => "too many merge keys",
        _ => "a reader limit",
    }
}

const TOO_DEEP: &str = "document nested too deeply";

fn too_deep(line: u64, column: u64) -> String {
    format!("{line}:{column}: {TOO_DEEP} (more than {VALUE_DEPTH} levels)")
}
