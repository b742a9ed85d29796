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
            "error: invalid value '99999999999999999999' for '<DICE>': not a whole number; the number of dice goes from 0 to 10000"
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
fn unknown_words() {
    check(
        "roll 5 --bogus",
        expect!["error: unexpected argument '--bogus' found"],
    );
    check("rool 5", expect!["error: unrecognized subcommand 'rool'"]);
    check(
        "d66 --seed -1",
        expect!["error: unexpected argument '-1' found"],
    );
}

#[test]
fn help_is_not_an_error() {
    let run = prophecy("--help");
    assert_eq!(run.code, 0);
    for command in ["roll", "odds", "simulate", "challenge", "battle", "d66"] {
        assert!(run.stdout.contains(command), "--help lists {command}");
    }
    let run = prophecy("roll --help");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("--difficulty") && run.stdout.contains("--seed"));
}
