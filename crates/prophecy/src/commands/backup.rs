//! `prophecy backup`: a consistent copy of the web table's database, taken while it serves.

use super::serve_failure;
use crate::Failure;
use crate::cli::BackupArgs;

/// Copies `--db` to `OUT`; says where the copy is and how to serve it.
pub fn run(args: BackupArgs) -> Result<String, Failure> {
    server::backup(&args.db, &args.out).map_err(serve_failure)?;
    let out = story::views::one_line(&args.out.display().to_string());
    let db = story::views::one_line(&args.db.display().to_string());
    Ok(format!(
        "Copied {db} to {out}; to serve the copy: prophecy serve --db {out}\n"
    ))
}
