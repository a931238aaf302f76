//! Tests of the hand-written argument parser.

use std::path::PathBuf;

use super::{EvalFlags, Task, parse};

#[track_caller]
fn check(args: &str, expect: Result<Task, &str>) {
    let args: Vec<String> = args.split_whitespace().map(str::to_owned).collect();
    let got = parse(&args).map_err(|e| e.to_string());
    match (got, expect) {
        (Ok(got), Ok(want)) => assert_eq!(got, want, "args: {args:?}"),
        (Err(got), Err(want)) => assert!(got.contains(want), "args: {args:?}: error `{got}`"),
        (got, want) => panic!("args: {args:?}: got {got:?}, want {want:?}"),
    }
}

fn eval(f: impl FnOnce(&mut EvalFlags)) -> Task {
    let mut flags = EvalFlags::default();
    f(&mut flags);
    Task::Eval(flags)
}

#[test]
fn no_arguments_and_help_print_help() {
    check("", Ok(Task::Help));
    check("help", Ok(Task::Help));
    check("--help", Ok(Task::Help));
    check("eval -h", Ok(Task::Help));
}

#[test]
fn eval_options() {
    check("eval", Ok(eval(|_| {})));
    check(
        "eval --dataset a --dataset=b --by-tag --out o --failures 3 --check --rounds=2",
        Ok(eval(|f| {
            f.datasets = vec![PathBuf::from("a"), PathBuf::from("b")];
            f.by_tag = true;
            f.out = Some(PathBuf::from("o"));
            f.failures = 3;
            f.check = true;
            f.rounds = 2;
        })),
    );
    check("eval --bless", Ok(eval(|f| f.bless = true)));
    check(
        "eval --typos 7 --by-tag",
        Ok(eval(|f| {
            f.typos = Some(7);
            f.by_tag = true;
        })),
    );
}

#[test]
fn bad_command_lines_are_errors() {
    check("frobnicate", Err("unknown task `frobnicate`"));
    check("eval --nope", Err("unknown option `--nope`"));
    check("eval --dataset", Err("`--dataset` needs a folder"));
    check("eval --failures x", Err("needs a whole number, not `x`"));
    check("eval --rounds 0", Err("at least 1"));
    check("eval --check --bless", Err("exclude each other"));
    check("eval --check=yes", Err("takes no value"));
    check("eval --typos x", Err("`--typos` takes a whole number, not `x`"));
    check("eval --typos 1 --check", Err("have no baseline"));
    check("eval --typos 1 --bless", Err("have no baseline"));
}

#[test]
fn settings_are_repeatable_and_bless_refuses_them() {
    check(
        "eval --set k1=1.5 --set=field.name.weight=4",
        Ok(eval(|f| {
            f.settings = vec![
                ("k1".to_owned(), "1.5".to_owned()),
                ("field.name.weight".to_owned(), "4".to_owned()),
            ];
        })),
    );
    check("eval --set k1", Err("`--set` needs KEY=VALUE"));
    check("eval --set", Err("`--set` needs KEY=VALUE"));
    check("eval --set k1=1 --bless", Err("records the defaults"));
}

#[test]
fn gateway_e2e_takes_no_options() {
    check("gateway-e2e", Ok(Task::GatewayE2e));
    check("gateway-e2e --help", Ok(Task::Help));
    check("gateway-e2e --fast", Err("takes no options"));
}
