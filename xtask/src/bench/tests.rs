//! Tests of `cargo xtask bench`'s command line and what it passes on to `bench-suite`.

use std::path::PathBuf;

use super::suite_args;
use crate::flags::{BenchFlags, Task, parse};

#[track_caller]
fn check_flags(args: &str, expect: Result<BenchFlags, &str>) {
    let args: Vec<String> = args.split_whitespace().map(str::to_owned).collect();
    match (parse(&args).map_err(|e| e.to_string()), expect) {
        (Ok(got), Ok(want)) => assert_eq!(got, Task::Bench(want), "args: {args:?}"),
        (Err(got), Err(want)) => assert!(got.contains(want), "args: {args:?}: error `{got}`"),
        (got, want) => panic!("args: {args:?}: got {got:?}, want {want:?}"),
    }
}

#[test]
fn bench_command_lines() {
    check_flags("bench", Ok(BenchFlags::default()));
    check_flags(
        "bench --rounds=9 --check --out o",
        Ok(BenchFlags { rounds: 9, check: true, bless: false, out: Some(PathBuf::from("o")) }),
    );
    check_flags("bench --bless", Ok(BenchFlags { bless: true, ..BenchFlags::default() }));
    check_flags("bench --rounds 0", Err("at least 1"));
    check_flags("bench --check=yes", Err("takes no value"));
    check_flags("bench --dataset x", Err("unknown option `--dataset` for `bench`"));
    assert_eq!(parse(&["bench".to_owned(), "-h".to_owned()]).ok(), Some(Task::Help));
}

#[test]
fn the_suite_gets_every_option() {
    assert_eq!(suite_args(&BenchFlags::default()), ["--rounds", "5"]);
    let all = BenchFlags { rounds: 2, check: true, bless: true, out: Some(PathBuf::from("o d")) };
    assert_eq!(suite_args(&all), ["--rounds", "2", "--check", "--bless", "--out", "o d"]);
}
