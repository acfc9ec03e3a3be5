//! What `bpvm bench` prints: a JSON array, or a table for people.

use super::measure::Measure;

/// Prints the measures as JSON with `json`, else as a table.
pub fn print(results: &[Measure], json: bool) {
    if json {
        print_json(results);
    } else {
        print_table(results);
    }
}

fn print_json(results: &[Measure]) {
    let rows: Vec<String> = results
        .iter()
        .map(|m| {
            format!(
                "{{\"expr\":{},\"ns_per_eval\":{:.2},\"compile_us\":{:.3},\"allocs_per_eval\":{:.3}}}",
                serde_json::to_string(&m.expr).unwrap_or_default(),
                m.ns_per_eval,
                m.compile_us,
                m.allocs_per_eval
            )
        })
        .collect();
    println!("[{}]", rows.join(","));
}

fn print_table(results: &[Measure]) {
    println!(
        "{:>12}  {:>12}  {:>11}  expression",
        "ns/eval", "allocs/eval", "compile µs"
    );
    for m in results {
        println!(
            "{:>12.2}  {:>12.3}  {:>11.3}  {}",
            m.ns_per_eval, m.allocs_per_eval, m.compile_us, m.expr
        );
    }
}
