//! The tests' PostgreSQL server (`PROPHECY_TEST_POSTGRES`, as for the store's tests), reached
//! with Debian's `psql`, and databases of their own on it.

use std::process::Command;

/// The address of a database whose user may create databases.
pub fn server_url() -> String {
    std::env::var("PROPHECY_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// The address of the database `name` on the tests' server.
pub fn pg_url(name: &str) -> String {
    let server = server_url();
    let (address, query) = server.split_once('?').unwrap_or((&server, ""));
    let at = address.rfind('/').expect("postgres://USER@HOST:PORT/DB");
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    format!("{}/{name}{query}", &address[..at])
}

/// Runs `sql` with psql on the database at `url`: its rows, unaligned.
pub fn psql_at(url: &str, sql: &str) -> String {
    let run = Command::new("psql")
        .arg(url)
        .args(["-v", "ON_ERROR_STOP=1", "-tAc", sql])
        .output()
        .expect("psql runs (Debian's postgresql-client)");
    assert!(
        run.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).unwrap()
}

/// Runs `sql` on the tests' server.
pub fn psql(sql: &str) {
    psql_at(&server_url(), sql);
}

/// A database of its own on the tests' server, dropped when this is dropped.
pub struct PgDb {
    pub name: String,
    pub url: String,
}

impl PgDb {
    pub fn create(name: &str) -> PgDb {
        let name = format!("prophecy_cli_{name}_{}", std::process::id());
        psql(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        psql(&format!("CREATE DATABASE {name}"));
        let url = pg_url(&name);
        PgDb { name, url }
    }
}

impl Drop for PgDb {
    fn drop(&mut self) {
        psql(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ));
    }
}
