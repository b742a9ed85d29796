//! What the table layer needs from a game. The table (seats, rooms, sockets, storage) is
//! written against this trait only; each game type adapts its pure rules crate to it (see
//! `games/`). Later game types join the same server by implementing it.

use serde_json::Value;

/// What the server puts into every command, because players must not choose it.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    /// Now, in milliseconds since the epoch (the server's clock).
    pub now: i64,
    /// A fresh seed from the operating system, for any dice the command rolls.
    pub seed: u64,
}

/// Why an action was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// The message itself was wrong (unknown action, missing field, bad JSON): a client bug
    /// or a hand-made request.
    Malformed(String),
    /// The rules refused it.
    Refused {
        /// A stable name of the refusal, for pages that react to one in particular.
        code: String,
        /// The rule that refused (its section name).
        rule: String,
        /// Why, for the player.
        message: String,
    },
}

pub use store::Link;

/// How a player's request to open or close one of the table's read-only pages is taken: to
/// publish or withdraw its story (`/t/{token}/share`), to open or close its watch link
/// (`/t/{token}/watch`) ([`Extras::share`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Sharing {
    /// The table layer changes the story's link at once.
    Now,
    /// Not this player: why, in a sentence naming who may.
    Forbidden(String),
    /// The game's own rules decide it: this action of the player's is taken like any (a
    /// proposal, say), and the link follows the event that publishes or withdraws
    /// ([`Extras::publishes`]), whoever's action brings it.
    Act(Value),
}

/// A game the web table can host: what every game gives. What only some games need is in
/// [`Extras`].
pub trait Game: Send + Sync + 'static {
    /// The name stored with each table (`tables.game`).
    const KIND: &'static str;
    /// Its name for players ("Prophecy, the board game"): the join page and the home page's
    /// list of tables show it.
    const NAME: &'static str;
    /// The page (an embedded asset) that plays it.
    const PAGE: &'static str;
    /// The state every event folds into.
    type State: Default + Send + Sync + 'static;
    /// What happened; stored one per log row.
    type Event: Clone + Send + Sync + 'static;
    /// What every page is shown: a [`Value`], or a typed view that is cheaper to build and
    /// compare at every change (see [`crate::patch`]).
    type View: crate::patch::View;
    /// What the game adds to the common table, such as secret authorship or publishing by
    /// vote ([`Extras`]); [`Plain`] for nothing.
    type Extras: Extras<Self::State, Self::Event>;

    /// The first events of a new table from the creation form's settings (e.g. the ruleset).
    fn open(settings: &Value) -> Result<Vec<Self::Event>, Rejection>;
    /// A newcomer takes a seat.
    fn join(state: &Self::State, player: u32, name: &str) -> Result<Vec<Self::Event>, Rejection>;
    /// The table's creator removes a player.
    fn remove(state: &Self::State, player: u32) -> Result<Vec<Self::Event>, Rejection>;
    /// A player's action, as sent by the page.
    fn act(
        state: &Self::State,
        player: u32,
        action: &Value,
        context: &Context,
    ) -> Result<Vec<Self::Event>, Rejection>;
    /// Applies one event.
    fn evolve(state: Self::State, event: &Self::Event) -> Self::State;

    /// The stored text of an event.
    fn encode(event: &Self::Event) -> String;
    /// Reads a stored event.
    fn decode(body: &str) -> Result<Self::Event, String>;
    /// One line for the table's log, from the state before the event.
    fn describe(before: &Self::State, event: &Self::Event) -> String;
    /// What the players see (flagged text left out). The same for everyone, so it is built and
    /// serialized once per change; each page knows which player it is.
    fn view(state: &Self::State, creator: u32) -> Self::View;
    /// The view once `events` are applied, `previous` being the view before them: a game may
    /// take over the parts of `previous` that the events left as they were, and must give what
    /// [`Game::view`] gives. By default the view is built afresh.
    fn view_after(
        state: &Self::State,
        creator: u32,
        previous: &Self::View,
        events: &[Self::Event],
    ) -> Self::View {
        let _ = (previous, events);
        Self::view(state, creator)
    }
    /// What watchers see of `view`, when it is less than every player sees (the story game
    /// leaves out the table's lines); `None`: the same view. A game whose log has lines kept
    /// from watchers ([`Extras::kept_from_watchers`]) gives one.
    fn watched(view: &Self::View) -> Option<Self::View> {
        let _ = view;
        None
    }
    /// What the game's page needs once and never changes (a board, the cards by id), served
    /// at `/games/{KIND}/content.json` with caching; `None` if it needs nothing.
    fn content() -> Option<Value> {
        None
    }
    /// The seat a bot plays that must act now, if any: the room then calls [`Game::bot_act`]
    /// for it after a short pause, so people can follow its moves.
    fn bot(_state: &Self::State) -> Option<u32> {
        None
    }
    /// The bot playing `player` acts: the events of its next action, chosen by the game's
    /// rules crate and decided like anyone's.
    fn bot_act(
        _state: &Self::State,
        _player: u32,
        _context: &Context,
    ) -> Result<Vec<Self::Event>, Rejection> {
        Err(Rejection::Malformed("this game has no bots".into()))
    }
    /// The table's record so far as Markdown, and its title: the story game's story, the board
    /// game's chronicle, a Challenge session's characters and checks.
    fn markdown(state: &Self::State) -> (String, String);
    /// The table's name when its creator gave it none (`creator` made the table, at
    /// `created_at`, milliseconds since the Unix epoch): the home page's list, the table page
    /// and the exports show it. A name the creator gave wins over it everywhere.
    fn title(state: &Self::State, creator: u32, created_at: i64) -> String;
    /// Where the game stands, in a few words, for the list of a player's tables on the home
    /// page ("Tell the Story: 2 of 5 scenes played", "Turn 12: Ana's turn"). Nothing any
    /// player at the table may not know.
    fn progress(state: &Self::State) -> String;
    /// The log as a seated player may download it (the game file that `prophecy export` reads):
    /// every text a player may not see (flagged) left out.
    fn for_players(log: Vec<Self::Event>) -> Vec<Self::Event>;
    /// The log as a replay steps through it: as players may take it home ([`Game::for_players`])
    /// unless that would change what the steps show (the board game's file leaves out the
    /// decks' order while the game runs, which its views never show anyway).
    fn replayed(log: Vec<Self::Event>) -> Vec<Self::Event> {
        Self::for_players(log)
    }
    /// Where the game stands, for a replay's jumps: the phase, the turn ("Tell the Story",
    /// "Turn 12"); a step where it changes is one to jump to. `None`: nowhere to jump.
    fn stage(state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }
    /// Whether the game is over: a watch link may replay it then (before, a replay would show
    /// watchers what players still play).
    fn over(state: &Self::State) -> bool {
        let _ = state;
        false
    }
    /// Whether a whole log is one the rules could have played, or why not in one line (for
    /// `prophecy db copy`, which leaves such a table out). `evolve` being total, replaying it
    /// is enough unless a game checks more.
    fn check_log(log: &[Self::Event]) -> Result<(), String> {
        log.iter().fold(Self::State::default(), Self::evolve);
        Ok(())
    }
}

/// What a game may add to the common table, each with a default that does nothing (the
/// story game uses them all): secret authorship, log lines naming what players wrote,
/// per-player knowledge, publishing by the rules, a picture of the outline.
pub trait Extras<State, Event> {
    /// Whether an unnamed table's exports keep the title of the game's own Markdown
    /// ([`Game::markdown`]: the story game's, its prophecy's) rather than [`Game::title`].
    const EXPORT_KEEPS_ITS_TITLE: bool = false;
    /// Events that must not record who caused them (the story game's anonymous lines).
    fn anonymous(_event: &Event) -> bool {
        false
    }
    /// Events whose log lines watchers are not shown (the story game's lines, which only the
    /// table may know). Such a game gives watchers a view of their own ([`Game::watched`]).
    fn kept_from_watchers(_event: &Event) -> bool {
        false
    }
    /// An event's log line in parts, where it names something by what players wrote (a scene by
    /// its objective): text, and objects such as `{"scene": 12, "text": "the primary scene
    /// (3)"}` that the page shows by their current text (a flagged one by `text`). `None`: the
    /// line ([`Game::describe`]) alone.
    fn describe_parts(_before: &State, _event: &Event) -> Option<Vec<Value>> {
        None
    }
    /// What only `player` may know (the lines they drew, whether the pause is theirs). Sent to
    /// that player's pages alone, beside the shared view.
    fn own(_state: &State, _player: u32) -> Value {
        Value::Null
    }
    /// Whether `events` may change what [`Extras::own`] gives some player; after events that
    /// cannot, an update carries no `own` message (pages keep theirs). By default they may.
    fn own_may_change(_events: &[Event]) -> bool {
        true
    }
    /// The record as its published page shows it to anyone with the link, when it differs
    /// from [`Game::markdown`]: nothing only the table should know (the story game's lines).
    fn published_markdown(_state: &State) -> Option<(String, String)> {
        None
    }
    /// How `player` opens the read-only page `link` (`open`: publishes the story, opens the
    /// watch link) or closes it (`creator` made the table). By default only the table's
    /// creator opens one, and anyone seated closes it at once: anyone may want their words
    /// taken down, or the watchers gone.
    fn share(_state: &State, link: Link, player: u32, creator: u32, open: bool) -> Sharing {
        if open && player != creator {
            Sharing::Forbidden(
                match link {
                    Link::Story => "Only the table's creator can publish its story.",
                    Link::Watch => "Only the table's creator can open a watch link.",
                }
                .into(),
            )
        } else {
            Sharing::Now
        }
    }
    /// Whether `event`, once committed, opens a read-only page (`Some((link, true))`: the room
    /// gives the table a new link) or closes it (`Some((link, false))`). Only for games whose
    /// rules decide it ([`Sharing::Act`]).
    fn publishes(_event: &Event) -> Option<(Link, bool)> {
        None
    }
    /// The outline (or whatever the Markdown draws as a Mermaid diagram) as an SVG picture, for
    /// the printable and published pages, which show it in the diagram's place; `None` to show
    /// the diagram's source.
    fn outline_svg(_state: &State) -> Option<String> {
        None
    }
}

/// A game that adds nothing to the common table.
pub struct Plain;

impl<State, Event> Extras<State, Event> for Plain {}

/// Reads a page's action as the game's own type. When it cannot be read the answer names the
/// action and what is wrong with it in the protocol's words ("the action 'add_line' needs
/// 'text'"), never a Rust type or serde's wording: players and page authors read it.
pub fn read_action<T: serde::de::DeserializeOwned>(action: Value) -> Result<T, Rejection> {
    let name = match action.get("action") {
        Some(Value::String(name)) => name.clone(),
        Some(_) => return Err(Rejection::Malformed("an action's name is text".into())),
        None if action.is_object() => {
            return Err(Rejection::Malformed(
                "an action needs its name in \"action\"".into(),
            ));
        }
        None => return Err(Rejection::Malformed("an action is a JSON object".into())),
    };
    serde_path_to_error::deserialize(action).map_err(|e| {
        let field = e.path().to_string();
        let reason = unreadable(&name, &field, &e.into_inner().to_string());
        Rejection::Malformed(reason)
    })
}

/// Why the action `name` cannot be read, from serde's reason about `field` ("." when it does
/// not know which field).
fn unreadable(name: &str, field: &str, serde_reason: &str) -> String {
    let field = (field != "." && !field.is_empty()).then(|| quoted_path(field));
    let what = |field: &Option<String>| {
        field
            .as_ref()
            .map_or_else(|| "one of its fields".to_owned(), |f| f.clone())
    };
    let reason = if let Some(missing) = between(serde_reason, "missing field `", "`") {
        match &field {
            Some(f) => format!("{f} needs '{missing}'"),
            None => format!("it needs '{missing}'"),
        }
    } else if let Some(unknown) = between(serde_reason, "unknown field `", "`") {
        format!("'{unknown}' is not one of its fields")
    } else if let Some(unknown) = between(serde_reason, "unknown variant `", "`") {
        if unknown == name && field.as_deref().is_none_or(|f| f == "'action'") {
            return format!("there is no action '{name}' in this game");
        }
        format!("'{unknown}' is not a choice for {}", what(&field))
    } else if let Some(rest) = serde_reason
        .strip_prefix("invalid type: ")
        .or_else(|| serde_reason.strip_prefix("invalid value: "))
    {
        let (got, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        format!(
            "{} should be {}, not {}",
            what(&field),
            expected_words(expected),
            got_words(got)
        )
    } else if serde_reason.starts_with("invalid length") {
        format!("{} has the wrong number of items", what(&field))
    } else {
        format!("{} has the wrong form", what(&field))
    };
    format!("the action '{name}' cannot be read: {reason}")
}

/// `objects[2].name` as `'objects[2].name'`.
fn quoted_path(path: &str) -> String {
    format!("'{path}'")
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &text[text.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

/// What serde expected, in the protocol's words.
fn expected_words(expected: &str) -> &'static str {
    let e = expected.trim();
    let number = |e: &str| {
        e.len() > 1
            && (e.starts_with('u') || e.starts_with('i'))
            && e[1..].chars().all(|c| c.is_ascii_digit())
    };
    if number(e) {
        if e.starts_with('u') {
            "a whole number, 0 or more"
        } else {
            "a whole number"
        }
    } else if e.starts_with('f') && e[1..].chars().all(|c| c.is_ascii_digit()) && e.len() > 1 {
        "a number"
    } else if e.contains("string") || e == "char" {
        "text"
    } else if e.contains("boolean") {
        "true or false"
    } else if e.starts_with("struct") || e.contains("map") {
        "an object"
    } else if e.contains("sequence") || e.contains("tuple") || e.contains("array") {
        "a list"
    } else if e.contains("enum") || e.contains("variant") {
        "one of its choices"
    } else {
        "something else"
    }
}

/// What the page sent instead, in the protocol's words.
fn got_words(got: &str) -> String {
    let g = got.trim();
    if let Some(text) = g.strip_prefix("string ") {
        format!("the text {text}")
    } else if let Some(n) = g
        .strip_prefix("integer `")
        .or_else(|| g.strip_prefix("floating point `"))
    {
        format!("the number {}", n.trim_end_matches('`'))
    } else if let Some(b) = g.strip_prefix("boolean `") {
        b.trim_end_matches('`').to_owned()
    } else if g == "map" {
        "an object".to_owned()
    } else if g == "sequence" {
        "a list".to_owned()
    } else if g.starts_with("unit") || g == "null" {
        "null".to_owned()
    } else {
        "what was sent".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
    #[allow(dead_code)] // Read, never used: these tests are about the reasons.
    enum Action {
        AddLine { text: String },
        Agree { proposal: u64 },
        Pick { choice: Choice, items: Vec<u32> },
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Choice {
        Strength,
        Wills,
    }

    fn reason(action: Value) -> String {
        match read_action::<Action>(action) {
            Err(Rejection::Malformed(reason)) => reason,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reasons_are_in_the_protocols_words() {
        assert_eq!(
            reason(json!({"action": "summon_dragon"})),
            "there is no action 'summon_dragon' in this game"
        );
        assert_eq!(
            reason(json!({"action": "add_line"})),
            "the action 'add_line' cannot be read: it needs 'text'"
        );
        assert_eq!(
            reason(json!({"action": "add_line", "text": "x", "colour": "red"})),
            "the action 'add_line' cannot be read: 'colour' is not one of its fields"
        );
        assert_eq!(
            reason(json!({"action": "agree", "proposal": "seven"})),
            "the action 'agree' cannot be read: one of its fields should be a whole number, 0 or more, not the text \"seven\""
        );
        assert_eq!(
            reason(json!({"action": "agree", "proposal": -1})),
            "the action 'agree' cannot be read: one of its fields should be a whole number, 0 or more, not the number -1"
        );
        assert_eq!(
            reason(json!({"text": "x"})),
            "an action needs its name in \"action\""
        );
        assert_eq!(reason(json!([1])), "an action is a JSON object");
        assert_eq!(reason(json!({"action": 3})), "an action's name is text");
    }

    #[test]
    fn no_reason_names_a_rust_type_or_serde() {
        for action in [
            json!({"action": "pick", "choice": "magic", "items": []}),
            json!({"action": "pick", "choice": "wills", "items": "all"}),
            json!({"action": "pick", "choice": 3, "items": [1]}),
            json!({"action": "pick", "choice": "wills", "items": [-1]}),
            json!({"action": "pick", "choice": "wills", "items": [true]}),
            json!({"action": "add_line", "text": null}),
            json!({"action": "add_line", "text": {"a": 1}}),
            json!({"action": "add_line", "text": [1]}),
        ] {
            let reason = reason(action.clone());
            assert!(reason.starts_with("the action '"), "{action} → {reason}");
            for word in [
                "enum", "struct", "variant", "u32", "u64", "i64", "`", "untagged", "serde",
                "sequence", "map",
            ] {
                assert!(!reason.contains(word), "{action} → {reason}");
            }
        }
    }
}

/// `what` and the day of `at` (milliseconds since the Unix epoch) in UTC, in words:
/// "Board game, 28 November 2026". An unnamed table's title, for games whose tables have no
/// title of their own.
pub fn dated(what: &str, at: i64) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`).
    let days = at.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let month = MONTHS[usize::try_from(month - 1).unwrap_or(0)];
    format!("{what}, {day} {month} {year}")
}

#[cfg(test)]
mod dates {
    use super::dated;

    #[test]
    fn days_are_named_in_utc() {
        let check = |ms: i64, expected: &str| assert_eq!(dated("Board game", ms), expected);
        check(0, "Board game, 1 January 1970");
        check(-1, "Board game, 31 December 1969");
        // 2026-11-28T23:59:59.999Z, and the next millisecond.
        check(1_795_910_399_999, "Board game, 28 November 2026");
        check(1_795_910_400_000, "Board game, 29 November 2026");
        check(951_782_400_000, "Board game, 29 February 2000");
        check(4_107_542_400_000, "Board game, 1 March 2100");
    }
}
