//! `prophecy serve` as a process: it serves whatever happens to its output, logs one plain line
//! per request, stops cleanly on SIGTERM leaving the whole database in its file, holds its
//! database against a second server, and refuses a damaged one.

use crate::pg::{PgDb, pg_url};
use crate::{ok, prophecy};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A folder of its own, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("prophecy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running `prophecy serve` whose stdout was closed before it printed anything; its log
/// (stderr) is read line by line.
struct Served {
    child: Child,
    log: mpsc::Receiver<String>,
    seen: Vec<String>,
    addr: String,
}

impl Served {
    fn start(db: &Path) -> Served {
        let mut command = Command::new(env!("CARGO_BIN_EXE_prophecy"));
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db);
        Served::spawn(command)
    }

    /// Starts `command` (a `prophecy serve`) and waits until it listens.
    fn spawn(mut command: Command) -> Served {
        let mut child = command
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The person who started it went away: every line the server prints from now on meets
        // a closed pipe.
        drop(child.stdout.take());
        let (lines, log) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let mut served = Served {
            child,
            log,
            seen: Vec::new(),
            addr: String::new(),
        };
        let listening = served.wait_for("listening on http://");
        served.addr = listening
            .split("listening on http://")
            .nth(1)
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        served
    }

    /// The first log line (from now on, or already seen) containing `text`, within 10 s.
    fn wait_for(&mut self, text: &str) -> String {
        if let Some(line) = self.seen.iter().find(|l| l.contains(text)) {
            return line.clone();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.log.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no log line with {text:?} in 10 s; the log: {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// One HTTP/1.1 exchange: (status, body).
    fn http(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, body.to_owned())
    }

    /// SIGTERM, then the exit status (within 10 s).
    fn stop(mut self) -> std::process::ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let started = Instant::now();
        loop {
            if let Some(exit) = self.child.try_wait().unwrap() {
                return exit;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "still running 10 s after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_goes_on_after_its_output_closes_and_a_clean_stop_leaves_the_data_in_the_file() {
    let dir = TempDir::new("serve");
    let db = dir.0.join("tables.db");
    let mut server = Served::start(&db);
    let (status, _) = server.http("GET", "/", "");
    assert_eq!(status, 200);
    let (status, body) = server.http("POST", "/tables", r#"{"name": "Ada", "ruleset": "1.0"}"#);
    assert_eq!(status, 200, "{body}");
    let token = body.split("\"token\":\"").nth(1).unwrap()[..32].to_owned();
    // One plain line per request (no terminal: no colours), tokens shortened.
    let line = server.wait_for("POST /tables 200");
    assert!(
        !line.contains('\u{1b}'),
        "no ANSI colours in a log file: {line:?}"
    );
    let (status, _) = server.http("GET", &format!("/t/{token}"), "");
    assert_eq!(status, 200);
    let line = server.wait_for(&format!("GET /t/{}… 200", &token[..6]));
    assert!(
        !line.contains(&token),
        "the whole token is not logged: {line}"
    );
    let exit = server.stop();
    assert!(exit.success(), "{exit:?}");

    // The obvious backup: the database file alone, copied after a clean stop.
    let wal = dir.0.join("tables.db-wal");
    assert!(
        std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
        "a clean stop checkpoints the write-ahead log into the file"
    );
    let copy = dir.0.join("backup");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(&db, copy.join("tables.db")).unwrap();
    let server = Served::start(&copy.join("tables.db"));
    let (status, body) = server.http("GET", &format!("/t/{token}/me"), "");
    assert_eq!(
        (status, body.contains("\"player\":null")),
        (200, true),
        "{body}"
    );
    assert!(server.stop().success());
}

#[test]
fn a_second_server_on_a_database_in_use_stops_at_once_with_one_line() {
    let dir = TempDir::new("serve-twice");
    let db = dir.0.join("tables.db");
    let first = Served::start(&db);
    let started = Instant::now();
    let run = prophecy(&format!("serve --addr 127.0.0.1:0 --db {}", db.display()));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(run.code, 2, "{}", run.stderr);
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    assert!(
        errors[0].contains("is in use by another prophecy serve"),
        "{}",
        run.stderr
    );
    // The first is unharmed.
    let (status, _) = first.http("GET", "/", "");
    assert_eq!(status, 200);
    assert!(first.stop().success());
}

#[cfg(unix)]
#[test]
fn a_new_database_is_private_and_one_others_can_read_is_served_with_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("serve-private");
    let db = dir.0.join("tables.db");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let server = Served::start(&db);
    let (status, body) = server.http("POST", "/tables", r#"{"name": "Ada", "ruleset": "1.0"}"#);
    assert_eq!(status, 200, "{body}");
    for suffix in ["", "-wal", "-shm"] {
        let file = dir.0.join(format!("tables.db{suffix}"));
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    assert!(server.stop().success());
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut server = Served::start(&db);
    let warning = server.wait_for("other users of this machine may read the database");
    assert!(
        warning.contains(&format!("chmod 600 {}", db.display())),
        "{warning}"
    );
    assert_eq!(mode(&db), 0o644, "the owner's choice is kept");
    // Serving (its stop signal is awaited by then, as in the tests above).
    assert_eq!(server.http("GET", "/healthz", "").0, 200);
    assert!(server.stop().success());
}

#[test]
fn a_damaged_database_is_refused_with_one_line_and_what_to_do() {
    let dir = TempDir::new("serve-damaged");
    let db = dir.0.join("notes.db");
    std::fs::write(&db, "These are my notes, not a database.\n".repeat(300)).unwrap();
    let before = std::fs::read(&db).unwrap();
    let run = prophecy(&format!("serve --addr 127.0.0.1:0 --db {}", db.display()));
    assert_eq!(run.code, 2, "{}", run.stderr);
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    assert!(
        errors[0].contains("is damaged or is not a Prophecy database"),
        "{}",
        run.stderr
    );
    assert!(
        errors[0].contains("restore it from a backup"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the file is left as it was"
    );
}

#[test]
fn serve_reports_bad_addresses_and_databases_in_one_line() {
    let run = prophecy("serve --addr nowhere:80");
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("error: invalid value 'nowhere:80' for '--addr <ADDR>'"),
        "{}",
        run.stderr
    );
    let run = prophecy("serve --addr 127.0.0.1:0 --db /proc/no/such/dir/tables.db");
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "error: invalid value '/proc/no/such/dir/tables.db' for '--db <DB>': /proc/no/such/dir does not exist"
        ),
        "{}",
        run.stderr
    );
    // A listening address already taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dir = TempDir::new("serve-taken");
    let run = prophecy(&format!(
        "serve --addr {} --db {}",
        taken.local_addr().unwrap(),
        dir.0.join("t.db").display()
    ));
    assert_eq!(run.code, 2, "{}", run.stderr);
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    assert!(
        errors[0].starts_with("error: cannot listen on"),
        "{}",
        run.stderr
    );
    assert!(
        !dir.0.join("t.db").exists(),
        "a server that could not listen left a new database file behind"
    );
}

/// Every flag of `serve` can be set by its variable (for service managers and containers),
/// and a flag wins over its variable.
#[test]
fn serve_takes_its_settings_from_the_environment_and_a_flag_wins() {
    let dir = TempDir::new("serve-env");
    let db = dir.0.join("from-env.db");
    let mut command = Command::new(env!("CARGO_BIN_EXE_prophecy"));
    command
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("PROPHECY_ADDR", "nowhere:80")
        .env("PROPHECY_DB", &db)
        .env("PROPHECY_BOT_PAUSE_MS", "0")
        // An on/off flag's variable is `true` or `false`.
        .env("PROPHECY_TRUST_PROXY", "true");
    let mut served = Served::spawn(command);
    let line = served.wait_for("with the database");
    assert!(line.contains(&db.display().to_string()), "{line}");
    assert!(served.stop().success());
    assert!(db.exists(), "the database named by PROPHECY_DB");
    // A bad value in a variable is named like a bad flag.
    let run = Command::new(env!("CARGO_BIN_EXE_prophecy"))
        .args(["serve", "--db"])
        .arg(dir.0.join("unused.db"))
        .env("PROPHECY_ADDR", "nowhere:80")
        .output()
        .unwrap();
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: invalid value 'nowhere:80' for '--addr <ADDR>'"),
        "{stderr}"
    );
}

#[test]
fn backup_copies_the_database_while_it_serves_and_the_copy_serves_every_table() {
    let dir = TempDir::new("backup");
    let db = dir.0.join("tables.db");
    let server = Served::start(&db);
    let (status, body) = server.http("POST", "/tables", r#"{"name": "Ada", "ruleset": "1.0"}"#);
    assert_eq!(status, 200, "{body}");
    let token = body.split("\"token\":\"").nth(1).unwrap()[..32].to_owned();
    let copy = dir.0.join("copy.db");
    let run = prophecy(&format!("backup --db {} {}", db.display(), copy.display()));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{}", run.stdout);
    assert_eq!(
        run.stdout,
        format!(
            "Copied {} to {}; to serve the copy: prophecy serve --db {}\n",
            db.display(),
            copy.display(),
            copy.display()
        )
    );
    // The server is unharmed, and the copy is a database of its own.
    let (status, _) = server.http("GET", &format!("/t/{token}"), "");
    assert_eq!(status, 200);
    let restored = Served::start(&copy);
    let (status, body) = restored.http("GET", &format!("/t/{token}/me"), "");
    assert_eq!(status, 200, "{body}");
    assert!(restored.stop().success());
    assert!(server.stop().success());
}

#[test]
fn backup_refuses_in_one_line_with_status_2() {
    let dir = TempDir::new("backup-refused");
    let db = dir.0.join("tables.db");
    let server = Served::start(&db);
    let taken = dir.0.join("taken.db");
    std::fs::write(&taken, "mine").unwrap();
    let d = dir.0.display();
    for (args, error) in [
        (
            format!("backup --db {d}/missing.db {d}/copy.db"),
            format!(
                "error: there is no database {d}/missing.db; give the --db file the server uses"
            ),
        ),
        (
            format!("backup --db {d}/tables.db {d}/taken.db"),
            format!("error: {d}/taken.db already exists; give a new file name for the copy"),
        ),
        (
            format!("backup --db {d}/taken.db {d}/copy.db"),
            format!(
                "error: {d}/taken.db is not a Prophecy database (it is not an SQLite database, or it is damaged); give the --db file the server uses"
            ),
        ),
        (
            format!("backup --db {d}/tables.db {d}/no/such/copy.db"),
            format!(
                "error: invalid value '{d}/no/such/copy.db' for '[OUT]': {d}/no/such does not exist; give a file in a folder that exists"
            ),
        ),
    ] {
        let run = prophecy(&args);
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args}");
        assert_eq!(run.stderr, format!("{error}\n"), "{args}");
    }
    assert_eq!(std::fs::read(&taken).unwrap(), b"mine");
    assert!(!dir.0.join("copy.db").exists());
    assert!(server.stop().success());
}

/// A database of one table whose log is about `megabytes` MB (its events are not a game's: a
/// copy does not read them), written by the store itself.
fn database_of(path: &Path, megabytes: usize) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use store::Store;
        let store = store::SqliteStore::open(path).await.unwrap();
        let table = store
            .create_table(&"t".repeat(32), "story", 1, "invite", None)
            .await
            .unwrap();
        let pad = "x".repeat(1000);
        let events = (0..megabytes * 1000)
            .map(|n| store::NewEvent {
                at: n as i64,
                player: Some(1),
                body: format!("{{\"n\":{n},\"pad\":\"{pad}\"}}"),
            })
            .collect();
        let append = store::Append {
            events,
            ..store::Append::default()
        };
        store.append(table, 0, append).await.unwrap();
        store.close().await;
    });
}

#[test]
fn of_four_backups_to_the_same_new_file_at_once_one_is_made_and_three_are_refused() {
    let dir = TempDir::new("backup-race");
    let db = dir.0.join("tables.db");
    // Large enough that every run is still copying when the first one finishes.
    database_of(&db, 20);
    let out = dir.0.join("copy.db");
    let runs: Vec<Child> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_prophecy"))
                .arg("backup")
                .arg("--db")
                .arg(&db)
                .arg(&out)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<std::process::Output> = runs
        .into_iter()
        .map(|run| run.wait_with_output().unwrap())
        .collect();
    let made = outputs.iter().filter(|o| o.status.success()).count();
    assert_eq!(made, 1, "{outputs:#?}");
    for refused in outputs.iter().filter(|o| !o.status.success()) {
        assert_eq!(refused.status.code(), Some(2), "{refused:?}");
        assert_eq!(
            String::from_utf8_lossy(&refused.stderr),
            format!(
                "error: {} already exists; give a new file name for the copy\n",
                out.display()
            )
        );
    }
    // The copy is whole, and nothing else was left in the folder.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use store::Store;
        let copy = store::SqliteStore::open(&out).await.unwrap();
        let table = copy.table_by_token(&"t".repeat(32)).await.unwrap().unwrap();
        assert_eq!(copy.events_after(table.id, 0).await.unwrap().len(), 20_000);
        copy.close().await;
    });
    // No run left its partial copy behind.
    let names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n == "copy.db" || n.starts_with("tables.db")),
        "{names:?}"
    );
}

#[test]
fn backup_flags_of_serve_go_together_and_are_checked() {
    for (args, error) in [
        (
            "serve --backup-dir backups",
            "error: the following required arguments were not provided: --backup-every <DURATION>",
        ),
        (
            "serve --backup-every 10s",
            "error: invalid value '10s' for '--backup-every <DURATION>': copies are at least 1m apart (give one such as 1h, 30m or 1day)",
        ),
        (
            "serve --backup-every 1h --backup-keep 0",
            "error: invalid value '0' for '--backup-keep <N>': the number of copies kept must be from 1 to 10000",
        ),
        (
            "serve --tables-per-minute -1",
            "error: invalid value '-1' for '--tables-per-minute <N>': the number per minute cannot be negative (1 to 10000)",
        ),
    ] {
        let run = prophecy(args);
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert_eq!(run.stderr, format!("{error}\n"), "{args}");
    }
}

#[test]
fn the_cap_per_address_is_checked_and_not_for_a_proxy() {
    for (args, error) in [
        (
            "serve --connections-per-address 0",
            "error: invalid value '0' for '--connections-per-address <N>': the number of connections must be from 1 to 1000000",
        ),
        (
            "serve --trust-proxy --connections-per-address 64",
            "error: the argument '--trust-proxy' cannot be used with '--connections-per-address <N>'",
        ),
    ] {
        let run = prophecy(args);
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert_eq!(run.stderr, format!("{error}\n"), "{args}");
    }
}

/// A PostgreSQL database that was never created is named, with the command that creates it.
#[test]
fn a_missing_postgresql_database_is_named_with_how_to_create_it() {
    let name = format!("prophecy_never_made_{}", std::process::id());
    let run = prophecy(&format!("serve --addr 127.0.0.1:0 --db {}", pg_url(&name)));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(&format!(
            "error: the database '{name}' does not exist on the PostgreSQL server at "
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("; create it first, e.g. with: createdb -h "),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.ends_with(&format!(" {name}\n")),
        "{}",
        run.stderr
    );
}

#[test]
fn serve_keeps_its_tables_in_postgresql_which_several_servers_share() {
    let db = PgDb::create("serve");
    let mut server = Served::start(Path::new(&db.url));
    let (status, body) = server.http("POST", "/tables", r#"{"name": "Ada", "ruleset": "1.1"}"#);
    assert_eq!(status, 200, "{body}");
    let token = body.split("\"token\":\"").nth(1).unwrap()[..32].to_owned();
    let invite = body.split("\"join\":\"").nth(1).unwrap()[..32].to_owned();
    let (status, body) = server.http(
        "POST",
        &format!("/t/{token}/join"),
        &format!(r#"{{"name": "Bo", "join": "{invite}"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.http("GET", "/healthz", "").0, 200);
    // The log line names the database, never a password.
    assert!(
        server
            .wait_for("with the database postgres://")
            .contains(&db.name)
    );
    // A second server on the same database serves the same table (and its seats).
    let second = Served::start(Path::new(&db.url));
    let (status, body) = second.http("GET", &format!("/t/{token}/me?join={invite}"), "");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"joining\":\"open\""), "{body}");
    assert!(second.stop().success());
    assert!(server.stop().success());
    // Started again, it serves the same table: its seats are in PostgreSQL.
    let again = Served::start(Path::new(&db.url));
    let (status, body) = again.http("GET", &format!("/t/{token}/me?join={invite}"), "");
    assert_eq!(status, 200, "{body}");
    assert_eq!(psql_count(&db.name, "SELECT COUNT(*) FROM seats"), 2);
    assert!(again.stop().success());
    // Copies of a PostgreSQL database are pg_dump's: the SQLite-only flags say so.
    let run = prophecy(&format!("serve --db {} --backup-every 1h", db.url));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("pg_dump"), "{}", run.stderr);
    let run = prophecy(&format!("backup --db {} copy.db", db.url));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("pg_dump"), "{}", run.stderr);
}

fn psql_count(database: &str, sql: &str) -> i64 {
    let run = Command::new("psql")
        .arg(pg_url(database))
        .args(["-tAc", sql])
        .output()
        .unwrap();
    String::from_utf8_lossy(&run.stdout).trim().parse().unwrap()
}

#[test]
fn db_copy_moves_a_files_tables_into_postgresql_and_is_safe_to_run_again() {
    let dir = TempDir::new("db-copy");
    let file = dir.0.join("tables.db");
    let server = Served::start(&file);
    let (status, body) = server.http("POST", "/tables", r#"{"name": "Ada", "ruleset": "1.0"}"#);
    assert_eq!(status, 200, "{body}");
    let token = body.split("\"token\":\"").nth(1).unwrap()[..32].to_owned();
    let invite = body.split("\"join\":\"").nth(1).unwrap()[..32].to_owned();
    let db = PgDb::create("copy");
    // While the file is being served.
    let run = prophecy(&format!(
        "db copy --from {} --to {}",
        file.display(),
        db.url
    ));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{}", run.stdout);
    assert_eq!(
        run.stdout,
        format!(
            "Copied 1 new table (1 seat and 2 events) from {} to {}.\n",
            file.display(),
            store::postgres::describe(&db.url)
        )
    );
    let run = prophecy(&format!(
        "db copy --from {} --to {}",
        file.display(),
        db.url
    ));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Copied 0 new tables (0 seats and 0 events)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("; 1 table was already there."),
        "{}",
        run.stdout
    );
    assert!(server.stop().success());
    // Served from PostgreSQL, the table and its invitation are there.
    let moved = Served::start(Path::new(&db.url));
    let (status, body) = moved.http("GET", &format!("/t/{token}/me?join={invite}"), "");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"joining\":\"open\""), "{body}");
    assert!(moved.stop().success());
    // Bad input: one line, status 2.
    for (args, says) in [
        (
            format!(
                "db copy --from {} --to {}",
                dir.0.join("none.db").display(),
                db.url
            ),
            "there is no database file",
        ),
        (
            format!("db copy --from {} --to mysql://x", file.display()),
            "not a PostgreSQL address",
        ),
    ] {
        let run = prophecy(&args);
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(says), "{}", run.stderr);
    }
}

/// Adds tables whose logs no game could have played to the SQLite file `path` (no server
/// would write them): (token, game, events).
fn add_broken_tables(path: &Path, tables: &[(&str, &str, &[&str])]) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use store::Store;
        let store = store::SqliteStore::open(path).await.unwrap();
        for (token, game, events) in tables {
            let table = store
                .create_table(token, game, 1, "invite", None)
                .await
                .unwrap();
            let events = events
                .iter()
                .map(|body| store::NewEvent {
                    at: 1,
                    player: Some(1),
                    body: (*body).to_owned(),
                })
                .collect();
            let append = store::Append {
                events,
                ..store::Append::default()
            };
            store.append(table, 0, append).await.unwrap();
        }
        store.close().await;
    });
}

#[test]
fn db_copy_replays_every_table_through_its_rules_and_says_which_it_left_out_and_why() {
    let dir = TempDir::new("db-copy-checked");
    let file = dir.0.join("tables.db");
    let server = Served::start(&file);
    for body in [
        r#"{"name": "Ada", "ruleset": "1.1"}"#,
        r#"{"name": "Ann", "game": "board", "bots": 1}"#,
        r#"{"name": "Gwen", "game": "challenge"}"#,
    ] {
        let (status, body) = server.http("POST", "/tables", body);
        assert_eq!(status, 200, "{body}");
    }
    assert!(server.stop().success());
    add_broken_tables(
        &file,
        &[
            ("chess", "chess", &["{}"]),
            (
                "unopened",
                "story",
                &[r#"{"v":"1","type":"player_joined","player":1,"name":"Ada"}"#],
            ),
            ("garbled", "story", &["not json"]),
            ("nameless", "board", &[r#"{"type":"seated","player":1}"#]),
        ],
    );
    let db = PgDb::create("copy_checked");
    let run = prophecy(&format!(
        "db copy --from {} --to {}",
        file.display(),
        db.url
    ));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{}", run.stdout);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("Copied 3 new tables ("),
        "{}",
        run.stdout
    );
    assert_eq!(
        lines[1..],
        [
            "Skipped table 4 of the file (chess): there is no game 'chess' here (the games are story, board, challenge).",
            "Skipped table 5 of the file (story): event 1 could not have happened: an event before the game is opened.",
            "Skipped table 6 of the file (story): event 1 is not an event of this game: expected ident at line 1 column 2.",
            "Skipped table 7 of the file (board): event 1 is not an event of this game: missing field `name`.",
        ],
        "{}",
        run.stdout
    );
    assert_eq!(psql_count(&db.name, "SELECT COUNT(*) FROM tables"), 3);
}

/// `prophecy backup --check` reads a copy without changing it, says what it holds, and names
/// each table whose log its rules refuse (status 2), as `db copy` would.
#[test]
fn backup_check_says_what_a_copy_holds_and_which_tables_are_damaged() {
    let dir = TempDir::new("backup-check");
    let file = dir.0.join("tables.db");
    let server = Served::start(&file);
    for body in [
        r#"{"name": "Ada", "ruleset": "1.1"}"#,
        r#"{"name": "Ann", "game": "board", "bots": 1}"#,
    ] {
        let (status, body) = server.http("POST", "/tables", body);
        assert_eq!(status, 200, "{body}");
    }
    assert!(server.stop().success());
    let copy = dir.0.join("copy.db");
    ok(&format!(
        "backup --db {} {}",
        file.display(),
        copy.display()
    ));
    let before = std::fs::read(&copy).unwrap();
    let checked = ok(&format!("backup --check {}", copy.display()));
    assert!(
        checked.starts_with(&format!("{} holds 2 tables (2 seats and ", copy.display())),
        "{checked}"
    );
    assert!(
        checked.ends_with(&format!(
            "events); the file is sound and every table's log replays through its rules. To serve it: prophecy serve --db {}\n",
            copy.display()
        )),
        "{checked}"
    );
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the check changed the file"
    );
    add_broken_tables(&copy, &[("garbled", "story", &["not json"])]);
    let run = prophecy(&format!("backup --check {}", copy.display()));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.ends_with(
            "and 1 table does not replay through its rules: table 3 (story): event 1 is not an event of this game: expected ident at line 1 column 2\n"
        ),
        "{}",
        run.stderr
    );
    // Not a database at all, and no file.
    let junk = dir.0.join("junk.db");
    std::fs::write(&junk, vec![7u8; 8192]).unwrap();
    for (path, says) in [
        (junk, "junk.db"),
        (dir.0.join("none.db"), "there is no database file"),
    ] {
        let run = prophecy(&format!("backup --check {}", path.display()));
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(says), "{}", run.stderr);
    }
}
