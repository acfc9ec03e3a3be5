//! What a host may share between threads: programs, environments, path
//! tables, loaded Windsor projects and Bluelink blueprints are `Send +
//! Sync`; a `Vm` is one thread's (it may move, not be shared).

use bpvm::bluelink::Blueprint;
use bpvm::windsor::Project;
use bpvm::{Compiler, Dialect, Environment, PathTable, Program, Vm};

fn shared<T: Send + Sync>() {}
fn moved<T: Send>() {}

#[test]
fn what_hosts_hold_may_cross_threads() {
    shared::<Program>();
    shared::<Environment>();
    shared::<PathTable>();
    shared::<Project>();
    shared::<Blueprint>();
    moved::<Vm>();
}

#[test]
fn threads_share_one_bound_program_and_environment() {
    let table = PathTable::new();
    let mut prog = Compiler::new(Dialect::Windsor)
        .compile("(platform ?? provider) + '-' + cluster.name")
        .unwrap();
    prog.bind(&table);
    let mut env = Environment::from_yaml("provider: aws\ncluster: {name: prod}").unwrap();
    env.bind(&table);
    let alone = bpvm::eval(&mut Vm::new(), &prog, &env).unwrap();
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    let mut vm = Vm::new();
                    (0..1000)
                        .map(|_| bpvm::eval(&mut vm, &prog, &env).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for run in runs {
            assert!(run.join().unwrap().iter().all(|v| *v == alone));
        }
    });
    assert_eq!(alone, bpvm::Value::from("aws-prod"));
}
