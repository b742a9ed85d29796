use crate::prophecy;
use expect_test::{Expect, expect};

/// Bad input: exit status 2, nothing on stdout, exactly one line on stderr naming the problem.
fn check(args: &str, expected: Expect) {
    let run = prophecy(args);
    assert_eq!(run.code, 2, "prophecy {args}");
    assert_eq!(run.stdout, "", "prophecy {args}");
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "prophecy {args}: {}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "prophecy {args}");
    expected.assert_eq(run.stderr.trim_end());
}

#[test]
fn negative_and_absurd_pools() {
    check(
        "roll -3",
        expect![
            "error: invalid value '-3' for '<DICE>': the number of dice cannot be negative (0 to 10000)"
        ],
    );
    check(
        "roll 99999999999999999999",
        expect![
            "error: invalid value '99999999999999999999' for '<DICE>': the number of dice must be from 0 to 10000"
        ],
    );
    check(
        "roll 5.5",
        expect![
            "error: invalid value '5.5' for '<DICE>': not a whole number; the number of dice goes from 0 to 10000"
        ],
    );
    check(
        "roll 10001",
        expect![
            "error: invalid value '10001' for '<DICE>': the number of dice must be from 0 to 10000"
        ],
    );
    check(
        "odds --dice 5001 --difficulty 3",
        expect![
            "error: invalid value '5001' for '--dice <DICE>': the number of dice must be from 0 to 5000"
        ],
    );
    check(
        "simulate --dice 5 --trials 1000000001",
        expect![
            "error: invalid value '1000000001' for '--trials <TRIALS>': the number of trials must be from 1 to 1000000000"
        ],
    );
}

#[test]
fn difficulties_start_at_one() {
    check(
        "roll 5 --difficulty 0",
        expect![
            "error: invalid value '0' for '--difficulty <DIFFICULTY>': the difficulty must be from 1 to 100; ratings start at 1"
        ],
    );
    check(
        "roll 5 --difficulty x",
        expect![
            "error: invalid value 'x' for '--difficulty <DIFFICULTY>': not a whole number; the difficulty goes from 1 to 100; ratings start at 1"
        ],
    );
    check(
        "odds --dice 5 --difficulty 101",
        expect![
            "error: invalid value '101' for '--difficulty <DIFFICULTY>': the difficulty must be from 1 to 100; ratings start at 1"
        ],
    );
}

#[test]
fn challenge_dice_and_steps() {
    check(
        "challenge odds --die d7 --steps 1",
        expect![
            "error: invalid value 'd7' for '--die <DIE>': 'd7' is not a challenge die: use d4, d6 or d8"
        ],
    );
    check(
        "challenge roll --die d6 --steps 21",
        expect![
            "error: invalid value '21' for '--steps <STEPS>': the steps of improvement must be from 0 to 20"
        ],
    );
    check(
        "challenge roll --die d6",
        expect!["error: the following required arguments were not provided: --steps <STEPS>"],
    );
}

#[test]
fn supplied_faces_that_cannot_be_the_roll() {
    check(
        "roll 3 --faces 3,9,1",
        expect![
            "error: invalid value '9' for '--faces <FACES>': a face of a d6 must be from 1 to 6"
        ],
    );
    check(
        "roll 2 --faces 6,1",
        expect![
            "error: --faces: 2 faces are not enough: the pool and its explosions need more dice"
        ],
    );
    check(
        "roll 2 --faces 1,2,3",
        expect!["error: --faces: 3 faces given but the pool and its explosions use only 2"],
    );
    check(
        "roll 2 --faces 1,2 --seed 4",
        expect!["error: the argument '--faces <FACES>' cannot be used with '--seed <SEED>'"],
    );
}

#[test]
fn unknown_words_keep_clap_s_suggestion() {
    check(
        "roll 5 --bogus",
        expect!["error: unexpected argument '--bogus' found"],
    );
    check(
        "rool 5",
        expect!["error: unrecognized subcommand 'rool' (did you mean 'roll'?)"],
    );
    check(
        "rol",
        expect!["error: unrecognized subcommand 'rol' (did you mean 'roll'?)"],
    );
    check(
        "roll 5 --sed 3",
        expect!["error: unexpected argument '--sed' found (did you mean '--seed'?)"],
    );
    check(
        "export game.jsonl --format tre",
        expect![
            "error: invalid value 'tre' for '--format <FORMAT>' [possible values: markdown, tree, mermaid] (did you mean 'tree'?)"
        ],
    );
    check(
        "battle rol --yours 1 --theirs 1",
        expect!["error: unrecognized subcommand 'rol' (did you mean 'roll'?)"],
    );
}

#[test]
fn missing_commands_and_values() {
    check(
        "",
        expect![
            "error: prophecy needs a command: serve, backup, db, roll, odds, simulate, challenge, battle, d66, outline, worlds, modules, catastrophe, board, export (prophecy --help says what each does)"
        ],
    );
    check(
        "challenge",
        expect![
            "error: prophecy challenge needs a command: odds, roll (prophecy challenge --help says what each does)"
        ],
    );
    check(
        "outline",
        expect![
            "error: prophecy outline needs a command: odds, show (prophecy outline --help says what each does)"
        ],
    );
    check(
        "roll 5 --seed",
        expect!["error: a value is required for '--seed <SEED>' but none was supplied"],
    );
    check(
        "roll",
        expect!["error: the following required arguments were not provided: <DICE>"],
    );
    check(
        "simulate --dice 5",
        expect!["error: the following required arguments were not provided: --trials <TRIALS>"],
    );
}

/// Every command that takes a seed parses it the same way, negative numbers included.
#[test]
fn one_message_for_every_seed() {
    let commands = [
        "roll 5",
        "simulate --dice 5 --trials 10",
        "challenge roll --die d6 --steps 1",
        "battle roll --yours 1 --theirs 1",
        "d66",
        "catastrophe vael",
    ];
    for command in commands {
        for seed in ["-1", "x", "18446744073709551616", "1.5"] {
            for flag in ["--seed", "-s"] {
                let args = format!("{command} {flag} {seed}");
                let run = prophecy(&args);
                assert_eq!(run.code, 2, "prophecy {args}");
                assert_eq!(run.stdout, "", "prophecy {args}");
                assert_eq!(
                    run.stderr,
                    format!(
                        "error: invalid value '{seed}' for '--seed <SEED>': not a seed; a seed is a whole number from 0 to 18446744073709551615\n"
                    ),
                    "prophecy {args}"
                );
            }
        }
    }
    check(
        "d66 --seed -1",
        expect![
            "error: invalid value '-1' for '--seed <SEED>': not a seed; a seed is a whole number from 0 to 18446744073709551615"
        ],
    );
}

/// Negative numbers reach the parsers (clap does not take them for flags) and get one shape.
#[test]
fn negative_numbers_everywhere() {
    check(
        "roll -5",
        expect![
            "error: invalid value '-5' for '<DICE>': the number of dice cannot be negative (0 to 10000)"
        ],
    );
    check(
        "odds --dice -3",
        expect![
            "error: invalid value '-3' for '--dice <DICE>': the number of dice cannot be negative (0 to 5000)"
        ],
    );
    check(
        "odds -n -3 -d 2",
        expect![
            "error: invalid value '-3' for '--dice <DICE>': the number of dice cannot be negative (0 to 5000)"
        ],
    );
    check(
        "odds --difficulty -2",
        expect![
            "error: invalid value '-2' for '--difficulty <DIFFICULTY>': the difficulty cannot be negative (1 to 100; ratings start at 1)"
        ],
    );
    check(
        "odds --max-dice -2",
        expect![
            "error: invalid value '-2' for '--max-dice <MAX_DICE>': the table's largest pool cannot be negative (1 to 5000)"
        ],
    );
    check(
        "odds --max-difficulty -2",
        expect![
            "error: invalid value '-2' for '--max-difficulty <MAX_DIFFICULTY>': the difficulty cannot be negative (1 to 100; ratings start at 1)"
        ],
    );
    check(
        "roll 5 --difficulty -1",
        expect![
            "error: invalid value '-1' for '--difficulty <DIFFICULTY>': the difficulty cannot be negative (1 to 100; ratings start at 1)"
        ],
    );
    check(
        "roll 3 --faces -1,2,3",
        expect![
            "error: invalid value '-1' for '--faces <FACES>': a face of a d6 cannot be negative (1 to 6)"
        ],
    );
    check(
        "simulate --dice -1 --trials 5",
        expect![
            "error: invalid value '-1' for '--dice <DICE>': the number of dice cannot be negative (0 to 1000)"
        ],
    );
    check(
        "simulate --dice 1 --trials -5",
        expect![
            "error: invalid value '-5' for '--trials <TRIALS>': the number of trials cannot be negative (1 to 1000000000)"
        ],
    );
    check(
        "challenge odds --die d6 --steps -1",
        expect![
            "error: invalid value '-1' for '--steps <STEPS>': the steps of improvement cannot be negative (0 to 20)"
        ],
    );
    check(
        "battle odds --yours -1001 --theirs 0",
        expect![
            "error: invalid value '-1001' for '--yours <YOURS>': a battle value must be from -1000 to 1000"
        ],
    );
}

/// `serve` checks its address, database and public URL before it starts. None of these
/// starts a server: each has a value the parser refuses.
#[test]
fn serve_options() {
    check(
        "serve --url notaurl",
        expect![
            "error: invalid value 'notaurl' for '--url <URL>': not a web address (give one such as http://192.168.1.20:8080/)"
        ],
    );
    check(
        "serve --url ftp://example.org/",
        expect![
            "error: invalid value 'ftp://example.org/' for '--url <URL>': 'ftp://' is not a web address: use http:// or https:// (give one such as http://192.168.1.20:8080/)"
        ],
    );
    check(
        "serve --url http://:8080/",
        expect![
            "error: invalid value 'http://:8080/' for '--url <URL>': no host in the address (give one such as http://192.168.1.20:8080/)"
        ],
    );
    check(
        "serve --db /tmp",
        expect![
            "error: invalid value '/tmp' for '--db <DB>': a folder; give a file such as /tmp/prophecy.db"
        ],
    );
    check(
        "serve --db /no/such/folder/tables.db",
        expect![
            "error: invalid value '/no/such/folder/tables.db' for '--db <DB>': /no/such/folder does not exist; give a file in a folder that exists"
        ],
    );
    check(
        "serve --addr nowhere.invalid:80",
        expect![
            "error: invalid value 'nowhere.invalid:80' for '--addr <ADDR>': cannot find the host 'nowhere.invalid' (give an address like 127.0.0.1:8080 or localhost:8080)"
        ],
    );
    check(
        "serve --addr localhost",
        expect![
            "error: invalid value 'localhost' for '--addr <ADDR>': no port in 'localhost' (give an address like 127.0.0.1:8080 or localhost:8080)"
        ],
    );
    // A host name is accepted: the error is the folder given as --db, which comes after it.
    check(
        "serve --addr localhost:0 --url http://192.168.1.20:8080 --db /tmp",
        expect![
            "error: invalid value '/tmp' for '--db <DB>': a folder; give a file such as /tmp/prophecy.db"
        ],
    );
}

#[test]
fn counts_of_one_are_singular() {
    check(
        "roll 1 --faces 6",
        expect!["error: --faces: 1 face is not enough: the pool and its explosions need more dice"],
    );
    check(
        "roll 0 --faces 3",
        expect!["error: --faces: 1 face given but an empty pool uses none"],
    );
}

#[test]
fn help_is_not_an_error() {
    let run = prophecy("--help");
    assert_eq!(run.code, 0);
    for command in [
        "serve",
        "roll",
        "odds",
        "simulate",
        "challenge",
        "battle",
        "d66",
    ] {
        assert!(run.stdout.contains(command), "--help lists {command}");
    }
    assert!(
        run.stdout.contains("serve the web table") && !run.stdout.contains("(later)"),
        "{}",
        run.stdout
    );
    let run = prophecy("roll --help");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("--difficulty") && run.stdout.contains("--seed"));
}
