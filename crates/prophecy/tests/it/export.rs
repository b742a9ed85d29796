//! `prophecy export` reads every game's file, as the web table writes it for download: each
//! game's events, written by its own adapter (`Game::for_players`, `Game::encode`), from a
//! table played through the same adapter the server uses.

use crate::{ok, prophecy};
use serde_json::{Value, json};
use server::game::{Context, Game};
use server::games::board::BoardGame;
use server::games::challenge::ChallengeGame;

/// A table of `G` played by `moves` (`None`: a seat for the name; `Some`: an action), its game
/// file written in a fresh folder. The path.
fn game_file<G: Game>(name: &str, settings: Value, moves: &[(u32, &str, Option<Value>)]) -> String {
    let mut events = G::open(&settings).unwrap();
    for (seed, (player, who, action)) in moves.iter().enumerate() {
        let state = events.iter().fold(G::State::default(), G::evolve);
        let context = Context {
            now: 0,
            seed: seed as u64 + 1,
        };
        let more = match action {
            None => G::join(&state, *player, who),
            Some(action) => G::act(&state, *player, action, &context),
        };
        events.extend(more.unwrap_or_else(|e| panic!("{who}: {e:?}")));
    }
    let dir = std::env::temp_dir().join(format!("prophecy-export-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.jsonl"));
    let file: String = G::for_players(events)
        .iter()
        .map(|e| G::encode(e) + "\n")
        .collect();
    std::fs::write(&path, file).unwrap();
    path.display().to_string()
}

#[test]
fn a_board_games_file_exports_as_markdown() {
    let file = game_file::<BoardGame>(
        "board",
        json!({"bots": 1, "creator": "Ada"}),
        &[
            (1, "Ada", None),
            (1, "Ada", Some(json!({"action": "start"}))),
        ],
    );
    let markdown = ok(&format!("export {file}"));
    assert!(
        markdown.starts_with("# Prophecy, the board game\n"),
        "{markdown}"
    );
    assert!(markdown.contains("In play: turn"), "{markdown}");
    assert!(markdown.contains("Ada"), "{markdown}");
    // It has no outline to draw.
    let run = prophecy(&format!("export {file} --format tree"));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert_eq!(
        run.stderr.trim_end(),
        format!("error: {file}: only the story game has an outline; this game exports as Markdown")
    );
}

#[test]
fn a_challenge_sessions_file_exports_as_markdown() {
    let sheet = json!({
        "name": "Mira",
        "concept": "a river pilot",
        "aptitudes": {"knowledge": 1, "awareness": 2, "charisma": 0, "physicality": 1},
        "skills": ["surroundings"],
        "specialties": [{"skill": "might", "name": "rowing"}],
        "abilities": ""
    });
    let file = game_file::<ChallengeGame>(
        "challenge",
        json!({"creator": "Gwen"}),
        &[
            (1, "Gwen", None),
            (2, "Bo", None),
            (
                2,
                "Bo",
                Some(json!({"action": "create_sheet", "sheet": sheet})),
            ),
            (
                1,
                "Gwen",
                Some(json!({
                    "action": "call_challenge", "character": 0, "description": "Row across the flood",
                    "situation": "difficult", "aptitude": "physicality", "skills": ["might"]
                })),
            ),
            (
                2,
                "Bo",
                Some(json!({"action": "roll", "challenge": 0, "choice": {}})),
            ),
        ],
    );
    let markdown = ok(&format!("export {file}"));
    for words in ["Mira", "Row across the flood", "Gwen"] {
        assert!(markdown.contains(words), "{words}: {markdown}");
    }
}

#[test]
fn a_file_of_no_game_names_its_line() {
    let dir = std::env::temp_dir().join(format!("prophecy-export-none-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("none.jsonl");
    std::fs::write(&path, "{\"type\":\"joined\",\"player\":1,\"name\":\"Gwen\",\"gm\":true}\n{\"type\":\"nothing\"}\n").unwrap();
    let run = prophecy(&format!("export {}", path.display()));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(&format!(
            "error: {}:2: not an event of the challenge game",
            path.display()
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn a_story_with_no_outline_yet_says_so_rather_than_draw_nothing() {
    let file = game_file::<server::games::story::StoryGame>(
        "story-unplanned",
        json!({"ruleset": "1.1"}),
        &[(1, "Ada", None)],
    );
    assert!(ok(&format!("export {file}")).starts_with("# "));
    for format in ["mermaid", "tree"] {
        let run = prophecy(&format!("export {file} --format {format}"));
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{format}");
        assert_eq!(
            run.stderr.trim_end(),
            format!(
                "error: {file}: this story has no outline yet (no scene is set out), so there is nothing to draw; --format markdown exports the story so far"
            )
        );
    }
}
