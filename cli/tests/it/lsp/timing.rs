//! The Windsor core template (v0.7.0, from the corpus beside the
//! repository) edited one character at a time: each change checked and
//! published, and hover answered, with the times printed (they are not
//! asserted: the machine running the tests may be loaded).

use super::expected;
use super::session::{Session, place_of};
use std::time::{Duration, Instant};

const FACET: &str = "contexts/_template/facets/option-cni.yaml";

/// How long the server waits for edits to pause before it checks.
const PAUSE: Duration = Duration::from_millis(150);

/// The median of `times`.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[test]
fn one_character_changes_to_the_core_template_are_checked_and_hovered() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    // The template ships no context: hover evaluates in `local`.
    std::fs::create_dir_all(s.path("contexts/local")).unwrap();
    std::fs::write(s.path("contexts/local/values.yaml"), "platform: docker\n").unwrap();
    let text = s.text(FACET);
    s.open(FACET, &text);
    let first = s.diagnostics(&[FACET]);
    expected::matches("core-facet", &first, &s.root);
    let mut checks = Vec::new();
    for i in 0..20 {
        // A comment one character longer each time: the findings stay.
        let edited = format!("{text}#{}\n", "x".repeat(i + 1));
        let start = Instant::now();
        s.change(FACET, &edited);
        let found = s.diagnostics(&[FACET]);
        checks.push(start.elapsed());
        assert_eq!(found, first, "change {i}");
    }
    let (line, character) = place_of(&text, "${");
    s.at("textDocument/hover", FACET, line, character + 2);
    let mut hovers = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let hover = s.at("textDocument/hover", FACET, line, character + 2);
        hovers.push(start.elapsed());
        let shown = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(shown.contains("in context `local`"), "{hover}");
    }
    eprintln!(
        "bpvm lsp on windsor-core-v0.7.0: diagnostics {:?} after a change (median of 20, {:?} of it the pause edits wait for), hover {:?} (median of 20)",
        median(checks),
        PAUSE,
        median(hovers)
    );
}
