//! The mapping `eval` and `bench` evaluate against.

use bpvm::Environment;
use std::path::Path;

/// Reads `--env`: JSON by extension or content, otherwise YAML.
pub fn environment(path: Option<&Path>) -> Result<Environment, String> {
    let Some(path) = path else {
        return Ok(Environment::new());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))?;
    let is_json = path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    let env = if is_json {
        Environment::from_json(&text)
    } else {
        Environment::from_yaml(&text)
    };
    env.map_err(|e| format!("error: {}: {e}", path.display()))
}
