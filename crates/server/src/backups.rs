//! Backups while serving: `prophecy backup` once, and `--backup-every` on a schedule, each a
//! consistent copy written beside the live database by [`store::backup`] (the server's lock is
//! not needed, and play goes on while it is taken).
//!
//! Scheduled copies are named `prophecy-<UTC time>.db` (e.g. `prophecy-20261125T200000Z.db`),
//! so their names sort by age; only files named so are ever removed.

use crate::{Backups, ServeError};
use std::path::{Path, PathBuf};
use tokio::sync::watch;

/// Copies the database `db` to the new file `out` now, on a runtime of its own (for the
/// `prophecy backup` command). Every refusal is one line for the user.
pub fn backup(db: &Path, out: &Path) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError::Runtime(format!("cannot start: {e}")))?;
    runtime
        .block_on(store::backup(db, out))
        .map_err(|e| match e {
            store::StoreError::Database(_) => ServeError::Runtime(e.to_string()),
            _ => ServeError::Usage(e.to_string()),
        })
}

/// Copies the tables of the SQLite file `from` into the PostgreSQL database `to` (for the
/// `prophecy db copy` command), on a runtime of its own. Each table's log is first replayed
/// through its game's rules ([`crate::games::replays`]); one that fails is left out and listed
/// in [`store::Copied::skipped`].
pub fn copy_to_postgres(from: &Path, to: &str) -> Result<store::Copied, ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError::Runtime(format!("cannot start: {e}")))?;
    runtime.block_on(async {
        let usage = |e: store::StoreError| match e {
            store::StoreError::Database(_) => ServeError::Runtime(e.to_string()),
            _ => ServeError::Usage(e.to_string()),
        };
        let pg = store::PgStore::open(to).await.map_err(usage)?;
        let copied = store::copy(from, &pg, crate::games::replays)
            .await
            .map_err(usage);
        pg.close().await;
        copied
    })
}

/// Checks the SQLite file `file` (a backup, say) without changing it, on a runtime of its own:
/// SQLite's check of the file, then each table's log replayed through its game's rules
/// ([`crate::games::replays`]), as `prophecy db copy` would.
pub fn verify(file: &Path) -> Result<store::Verified, ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError::Runtime(format!("cannot start: {e}")))?;
    runtime
        .block_on(store::verify(file, crate::games::replays))
        .map_err(|e| ServeError::Usage(e.to_string()))
}

/// Every `backups.every`, writes a copy of `db` into `backups.dir` (created if missing) and
/// removes the oldest so that `backups.keep` remain, until `shutdown` turns true. A copy in
/// progress is finished before it returns. A failed copy is logged and never stops the server.
pub(crate) async fn keep_backing_up(
    db: PathBuf,
    backups: Backups,
    mut shutdown: watch::Receiver<bool>,
) {
    let start = tokio::time::Instant::now() + backups.every;
    let mut ticks = tokio::time::interval_at(start, backups.every);
    // A machine that slept does not take a burst of copies when it wakes.
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        // Only the wait races the shutdown: a copy once begun is finished, not cut short; and
        // once stopping, no new copy begins even if one is due.
        tokio::select! {
            biased;
            () = crate::stopped(&mut shutdown) => return,
            _ = ticks.tick() => {}
        }
        back_up_once(&db, &backups).await;
    }
}

/// One scheduled copy and the rotation after it, each logged.
async fn back_up_once(db: &Path, backups: &Backups) {
    if let Err(e) = private_dir(&backups.dir) {
        tracing::error!(
            "backup failed: cannot create the folder {}: {e}",
            backups.dir.display()
        );
        return;
    }
    let out = backups.dir.join(file_name(std::time::SystemTime::now()));
    match store::backup(db, &out).await {
        Ok(()) => tracing::info!("backed up the database to {}", out.display()),
        Err(e) => {
            tracing::error!("backup to {} failed: {e}", out.display());
            return;
        }
    }
    match rotate(&backups.dir, backups.keep) {
        Ok(removed) => {
            for old in removed {
                tracing::info!("removed the old backup {}", old.display());
            }
        }
        Err(e) => tracing::error!(
            "cannot remove old backups in {}: {e}",
            backups.dir.display()
        ),
    }
}

/// Creates the folder for copies if missing (with any folders above it), open to its owner
/// only: the copies are private, and so are their names and number.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        builder.mode(0o700);
        builder.create(dir)?;
        // The mode given passes through the umask.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
    }
    #[cfg(not(unix))]
    builder.create(dir)
}

/// `prophecy-20261125T200000Z.db` for that time (UTC, to the second).
pub(crate) fn file_name(at: std::time::SystemTime) -> String {
    let stamp: String = humantime::format_rfc3339_seconds(at)
        .to_string()
        .chars()
        .filter(|c| *c != '-' && *c != ':')
        .collect();
    format!("prophecy-{stamp}.db")
}

/// Whether `name` is a scheduled copy's: `prophecy-`, 8 digits, `T`, 6 digits, `Z.db`.
fn is_backup_name(name: &str) -> bool {
    let Some(stamp) = name
        .strip_prefix("prophecy-")
        .and_then(|rest| rest.strip_suffix("Z.db"))
    else {
        return false;
    };
    let bytes = stamp.as_bytes();
    bytes.len() == 15
        && bytes[8] == b'T'
        && bytes[..8].iter().chain(&bytes[9..]).all(u8::is_ascii_digit)
}

/// Removes the oldest scheduled copies in `dir` so that at most `keep` (at least one) remain;
/// other files are left alone. Returns the files removed, oldest first.
pub(crate) fn rotate(dir: &Path, keep: usize) -> std::io::Result<Vec<PathBuf>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if let Some(name) = entry.file_name().to_str()
            && is_backup_name(name)
            && entry.file_type()?.is_file()
        {
            names.push(name.to_owned());
        }
    }
    // The UTC stamp sorts by age.
    names.sort();
    let excess = names.len().saturating_sub(keep.max(1));
    let mut removed = Vec::with_capacity(excess);
    for name in names.into_iter().take(excess) {
        let path = dir.join(name);
        std::fs::remove_file(&path)?;
        removed.push(path);
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    /// A folder of its own, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let dir = std::env::temp_dir()
                .join(format!("prophecy-backups-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }

        fn names(&self) -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(&self.0)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn copies_are_named_by_their_utc_time() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_636_800);
        assert_eq!(file_name(at), "prophecy-20261125T200000Z.db");
        assert!(is_backup_name(&file_name(SystemTime::now())));
        for name in [
            "prophecy.db",
            "prophecy-20261125T160000Z.db-wal",
            "prophecy-20261125T1600Z.db",
            "prophecy-2026112xT160000Z.db",
            "tables.db",
        ] {
            assert!(!is_backup_name(name), "{name}");
        }
    }

    #[test]
    fn rotation_keeps_the_newest_and_leaves_other_files_alone() {
        let dir = TempDir::new("rotate");
        let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_636_800);
        let copies: Vec<String> = (0..5)
            .map(|hour| file_name(start + Duration::from_secs(3600 * hour)))
            .collect();
        // Across midnight, and written newest first: age is in the name, not in the order of the
        // folder.
        for name in copies.iter().rev() {
            std::fs::write(dir.0.join(name), "copy").unwrap();
        }
        for other in [
            "tables.db",
            "prophecy-notes.db",
            "prophecy-20261125T160000Z.db.bak",
        ] {
            std::fs::write(dir.0.join(other), "mine").unwrap();
        }
        let removed = rotate(&dir.0, 2).unwrap();
        assert_eq!(
            removed,
            copies[..3]
                .iter()
                .map(|n| dir.0.join(n))
                .collect::<Vec<_>>()
        );
        assert_eq!(
            dir.names(),
            [
                "prophecy-20261125T160000Z.db.bak",
                "prophecy-20261125T230000Z.db",
                "prophecy-20261126T000000Z.db",
                "prophecy-notes.db",
                "tables.db",
            ]
        );
        // Nothing more to remove; keep 0 still keeps the newest.
        assert_eq!(rotate(&dir.0, 2).unwrap(), Vec::<PathBuf>::new());
        assert_eq!(rotate(&dir.0, 0).unwrap().len(), 1);
        assert!(dir.0.join("prophecy-20261126T000000Z.db").exists());
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn the_folder_of_copies_is_made_private_to_its_owner() {
        use std::os::unix::fs::PermissionsExt;
        let dir = TempDir::new("private");
        let db = dir.0.join("tables.db");
        let store = store::SqliteStore::open(&db).await.unwrap();
        let backups = Backups {
            every: Duration::from_secs(3600),
            dir: dir.0.join("copies/hourly"),
            keep: 2,
        };
        back_up_once(&db, &backups).await;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&backups.dir), 0o700);
        let names: Vec<PathBuf> = std::fs::read_dir(&backups.dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert_eq!(mode(&names[0]), 0o600);
        store.close().await;
    }

    #[tokio::test]
    async fn scheduled_copies_are_rotated_and_stop_with_the_server() {
        let dir = TempDir::new("schedule");
        let db = dir.0.join("tables.db");
        let store = store::SqliteStore::open(&db).await.unwrap();
        let backups = Backups {
            every: Duration::from_millis(300),
            dir: dir.0.join("backups"),
            keep: 2,
        };
        // Three copies made by an earlier run: the oldest go once a new one is written.
        std::fs::create_dir_all(&backups.dir).unwrap();
        for name in [
            "prophecy-20000101T000000Z.db",
            "prophecy-20000101T010000Z.db",
            "prophecy-20000101T020000Z.db",
        ] {
            std::fs::write(backups.dir.join(name), "old").unwrap();
        }
        let names = || {
            let mut names: Vec<String> = std::fs::read_dir(&backups.dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        let (stop, shutdown) = watch::channel(false);
        let task = tokio::spawn(keep_backing_up(db.clone(), backups.clone(), shutdown));
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while names().iter().all(|n| n.starts_with("prophecy-2000")) {
            assert!(tokio::time::Instant::now() < deadline, "a copy within 10 s");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = stop.send(true);
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("stops when told")
            .unwrap();
        // The copy that appeared was rotated before the task ended.
        let names = names();
        assert_eq!(names.len(), 2, "{names:?}");
        for gone in [
            "prophecy-20000101T000000Z.db",
            "prophecy-20000101T010000Z.db",
        ] {
            assert!(!names.iter().any(|n| n == gone), "{names:?}");
        }
        let newest = backups.dir.join(names.last().unwrap());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&newest), 0o600, "a copy is its owner's only");
        }
        let copy = store::SqliteStore::open(&newest).await.unwrap();
        copy.close().await;
        store.close().await;
    }
}
