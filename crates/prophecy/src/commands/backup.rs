//! `prophecy backup`: a consistent copy of the web table's database, taken while it serves;
//! `prophecy db copy`: its tables moved into PostgreSQL.

use super::serve_failure;
use crate::Failure;
use crate::cli::{BackupArgs, DbCopyArgs};

/// Copies `--db` to `OUT`, and says where the copy is and how to serve it; or checks the
/// `--check` file.
pub fn run(args: BackupArgs) -> Result<String, Failure> {
    let out = match (args.check, args.out) {
        (Some(file), _) => return check(&file),
        (None, Some(out)) => out,
        (None, None) => {
            return Err(Failure::Usage(
                "give the copy's file, or --check FILE".into(),
            ));
        }
    };
    server::backup(&args.db, &out).map_err(serve_failure)?;
    let out = story::views::one_line(&out.display().to_string());
    let db = story::views::one_line(&args.db.display().to_string());
    Ok(format!(
        "Copied {db} to {out}; to serve the copy: prophecy serve --db {out}\n"
    ))
}

/// Checks `file`: what it holds, or each table whose log the rules refuse (status 2).
fn check(file: &std::path::Path) -> Result<String, Failure> {
    let verified = server::verify(file).map_err(serve_failure)?;
    let shown = story::views::one_line(&file.display().to_string());
    let holds = format!(
        "{shown} holds {} ({} and {})",
        super::count(verified.tables, "table", "tables"),
        super::count(verified.seats, "seat", "seats"),
        super::count(verified.events, "event", "events"),
    );
    if verified.failed.is_empty() {
        return Ok(format!(
            "{holds}; the file is sound and every table's log replays through its rules. To serve it: prophecy serve --db {shown}\n"
        ));
    }
    let failed: Vec<String> = (verified.failed.iter())
        .map(|t| {
            format!(
                "table {} ({}): {}",
                t.table,
                story::views::one_line(&t.game),
                story::views::one_line(&t.reason)
            )
        })
        .collect();
    Err(Failure::Usage(format!(
        "{holds}, and {} not replay through its rules: {}",
        super::count(failed.len() as u64, "table does", "tables do"),
        failed.join("; ")
    )))
}

/// Copies `--from` into `--to`; says what was copied, what was there already, and each table
/// left out because its log is not a game its rules could have played (one line each, by its
/// number in the file).
pub fn copy(args: DbCopyArgs) -> Result<String, Failure> {
    let copied = server::copy_to_postgres(&args.from, &args.to).map_err(serve_failure)?;
    let from = story::views::one_line(&args.from.display().to_string());
    let to = server::Database::Postgres(args.to).to_string();
    let mut out = format!(
        "Copied {} ({} and {}) from {from} to {to}",
        super::count(copied.tables, "new table", "new tables"),
        super::count(copied.seats, "seat", "seats"),
        super::count(copied.events, "event", "events"),
    );
    if copied.unchanged > 0 {
        out.push_str(&format!(
            "; {} already there",
            super::count(copied.unchanged, "table was", "tables were")
        ));
    }
    out.push_str(".\n");
    if copied.diverged > 0 {
        out.push_str(&format!(
            "Left as they are: {} played on in both places since an earlier copy.\n",
            super::count(copied.diverged, "table", "tables")
        ));
    }
    for skipped in &copied.skipped {
        out.push_str(&format!(
            "Skipped table {} of the file ({}): {}.\n",
            skipped.table,
            story::views::one_line(&skipped.game),
            story::views::one_line(&skipped.reason)
        ));
    }
    Ok(out)
}
