use dice::Seed;
use dice::check::{Cause, Outcome, PoolEntry, roll, roll_given_faces};

/// The worked example of the seeds and RULES.md: difficulty 3, three pairs and two reward dice;
/// the pool rolls 3,6,5,1,6, the two sixes add 2,6, that six adds 4; five hits; success.
#[test]
fn the_seeds_worked_example() {
    let pool = [
        PoolEntry::MatchingPair { pair: 10 },
        PoolEntry::MatchingPair { pair: 11 },
        PoolEntry::MatchingPair { pair: 12 },
        PoolEntry::RewardDie { precursor: 2 },
        PoolEntry::RewardDie { precursor: 3 },
    ];
    let roll = roll_given_faces(&pool, &[3, 6, 5, 1, 6, 2, 6, 4]).unwrap();
    assert_eq!(roll.faces(), [3, 6, 5, 1, 6, 2, 6, 4]);
    assert_eq!(roll.hits(), 5);
    assert_eq!(roll.outcome(3), Outcome::Success);
    let hits: Vec<bool> = roll.dice.iter().map(|d| d.is_hit()).collect();
    assert_eq!(hits, [false, true, true, false, true, false, true, true]);
    let causes: Vec<Cause> = roll.dice.iter().map(|d| d.cause).collect();
    assert_eq!(
        causes,
        [
            Cause::Pool(PoolEntry::MatchingPair { pair: 10 }),
            Cause::Pool(PoolEntry::MatchingPair { pair: 11 }),
            Cause::Pool(PoolEntry::MatchingPair { pair: 12 }),
            Cause::Pool(PoolEntry::RewardDie { precursor: 2 }),
            Cause::Pool(PoolEntry::RewardDie { precursor: 3 }),
            Cause::ExplodedFrom(1),
            Cause::ExplodedFrom(4),
            Cause::ExplodedFrom(6),
        ]
    );
    assert_eq!(roll.waves(), [0..5, 5..7, 7..8]);
    assert_eq!(roll.pool(), pool);
}

#[test]
fn seeded_rolls_replay_exactly_and_record_their_seed() {
    let pool = vec![PoolEntry::Die; 9];
    for seed in [0, 1, 42, u64::MAX] {
        let first = roll(&pool, Seed(seed));
        assert_eq!(first.seed, Some(Seed(seed)));
        assert_eq!(first, roll(&pool, Seed(seed)));
        assert!(first.verify());
        // Every six added exactly one die, and every added die points back at a six before it.
        let sixes = first.dice.iter().filter(|d| d.explodes()).count();
        assert_eq!(first.dice.len(), 9 + sixes);
        for (i, die) in first.dice.iter().enumerate() {
            if let Some(from) = die.exploded_from() {
                assert!(from < i && first.dice[from].face == 6);
            }
        }
    }
}

#[test]
fn rolls_survive_a_round_trip_through_json() {
    let r = roll(
        &[
            PoolEntry::MatchingPair { pair: 1 },
            PoolEntry::RewardDie { precursor: 4 },
        ],
        Seed(7),
    );
    let text = serde_json::to_string(&r).unwrap();
    let back: dice::check::CheckRoll = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
}
