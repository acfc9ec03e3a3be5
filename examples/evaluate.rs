//! Evaluating expressions: compile once, bind the environment to the
//! programs' paths, evaluate as often as needed.
//!
//! Run: `cargo run --example evaluate`.

use bpvm::{Compiler, Dialect, Environment, Error, PathTable, Vm};

fn main() -> Result<(), Error> {
    let table = PathTable::new();
    let compiler = Compiler::new(Dialect::Windsor);
    let mut programs = Vec::new();
    for src in [
        "provider == 'aws' && cluster.enabled",
        "'nodes: ' + string(cluster.nodes ?? 1)",
    ] {
        let mut prog = compiler.compile(src).map_err(Error::Compile)?;
        prog.bind(&table);
        programs.push((src, prog));
    }
    let mut env =
        Environment::from_yaml("provider: aws\ncluster: {enabled: true, nodes: 3}").map_err(Error::Document)?;
    env.bind(&table);
    let mut vm = Vm::new();
    for (src, prog) in &programs {
        let value = bpvm::eval(&mut vm, prog, &env).map_err(Error::Eval)?;
        println!("{src} => {}", value.to_json());
    }
    Ok(())
}
