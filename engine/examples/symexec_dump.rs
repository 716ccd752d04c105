//! Debug aid: `symexec_dump FILE.c [c|wrap|math]` prints the ITS built from the symbolic execution graph and the analysis result.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a debug aid that prints the ITS")]
use std::time::{Duration, Instant};
use termcheck_engine::verdict::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::Path::new(&args[1]);
    let sem = match args.get(2).map(|s| s.as_str()) { Some("c") => IntSemantics::C, Some("wrap") => IntSemantics::Wrap, _ => IntSemantics::Math };
    let m = termcheck_engine::frontend::load_module(path, termcheck_engine::driver::InputKind::C).expect("load");
    let config = termcheck_engine::config::Config::new(sem, Duration::from_secs(20));
    let entry = m.function_by_name("main").expect("a function `main`");
    let facts = termcheck_engine::facts::ModuleFacts::new(&m);
    let a = termcheck_engine::symexec::analyze(&m, &facts, entry, &config, Instant::now() + config.timeout());
    let termination = termcheck_engine::pipeline::graph_termination(&a.graph, config.termination(), Instant::now() + config.timeout());
    if let Some(its) = a.its() {
        println!("locations {:?} vars {:?}", its.locations, its.vars.len());
        for t in &its.transitions {
            println!("{} -> {}: {}\n   update {:?}", its.locations[t.from.0 as usize], its.locations[t.to.0 as usize], t.guard, t.update.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        }
    }
    println!("{:#?}\n{:?}\n{:?}\n{:?}", termination, a.memory_safety, a.error_inputs, a.stats);
}
