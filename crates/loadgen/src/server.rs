//! The server under test: a `prophecy serve` child process on a fresh database (killed when
//! dropped, so an error or a panic never leaves it running), or a server already running; and
//! what `/proc` says about its CPU time and memory.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How a table's four players are placed on the servers, when there are several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    /// Player p of table t on server (t + p) mod N: every update crosses servers.
    Spread,
    /// Every player of table t on server t mod N, as behind a proxy that hashes the table's
    /// token (t mod N stands for that hash).
    Sticky,
}

impl Placement {
    /// The server (an index below `servers`) that `player` of table `table` uses.
    pub fn server(self, table: usize, player: usize, servers: usize) -> usize {
        match self {
            Placement::Spread => (table + player) % servers,
            Placement::Sticky => table % servers,
        }
    }

    /// Its name, as in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Placement::Spread => "spread",
            Placement::Sticky => "sticky",
        }
    }

    /// The rule in words, for the report.
    pub fn rule(self, servers: usize) -> String {
        match self {
            Placement::Spread => format!("player p of table t on server (t + p) mod {servers}"),
            Placement::Sticky => format!("all four players of table t on server t mod {servers}"),
        }
    }
}

/// A server to load.
pub struct Server {
    /// Where it listens (always 127.0.0.1).
    pub addr: SocketAddr,
    /// Its process, for CPU and memory, when known.
    pub pid: Option<u32>,
    child: Option<Child>,
    /// The folder holding the database and the server's log, when we made it.
    dir: Option<PathBuf>,
}

impl Server {
    /// Starts `bin serve` on a free port of 127.0.0.1 with `db` (or a new SQLite file in a fresh
    /// folder, which also holds its log), and waits until it accepts connections.
    pub fn spawn(bin: &Path, db: Option<&str>) -> Result<Server, String> {
        if !bin.is_file() {
            return Err(format!(
                "no server binary at {}: build it with `cargo build --release -p prophecy`, or pass --server-bin",
                bin.display()
            ));
        }
        let port = free_port()?;
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let dir = fresh_dir()?;
        let log = std::fs::File::create(dir.join("server.log"))
            .map_err(|e| format!("cannot create the server's log: {e}"))?;
        let child = Command::new(bin)
            .arg("serve")
            .arg("--addr")
            .arg(addr.to_string())
            .arg("--db")
            .arg(db.map_or_else(|| dir.join("tables.db").into_os_string(), Into::into))
            // Every player comes from 127.0.0.1: lift the per-address budgets and cap.
            .args([
                "--tables-per-minute",
                "10000",
                "--joins-per-minute",
                "10000",
                "--sync-kib-per-minute",
                "1000000000",
                "--written-kib-per-minute",
                "1000000000",
                "--connections-per-address",
                "1000000",
            ])
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let mut server = Server {
            addr,
            pid: Some(child.id()),
            child: Some(child),
            dir: Some(dir),
        };
        server.wait_until_listening(Duration::from_secs(15))?;
        Ok(server)
    }

    /// A server someone else started; `pid` lets the report include its CPU and memory.
    pub fn existing(addr: SocketAddr, pid: Option<u32>) -> Result<Server, String> {
        let mut server = Server {
            addr,
            pid,
            child: None,
            dir: None,
        };
        server.wait_until_listening(Duration::from_secs(5))?;
        Ok(server)
    }

    fn wait_until_listening(&mut self, within: Duration) -> Result<(), String> {
        let deadline = Instant::now() + within;
        loop {
            if std::net::TcpStream::connect_timeout(&self.addr, Duration::from_millis(200)).is_ok()
            {
                return Ok(());
            }
            if let Some(child) = &mut self.child
                && let Ok(Some(status)) = child.try_wait()
            {
                return Err(format!(
                    "the server exited ({status}) before answering; its log: {}",
                    self.log_path()
                        .map_or_else(String::new, |p| p.display().to_string())
                ));
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the server did not answer on {} within {} s",
                    self.addr,
                    within.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The child's log file, when we started it.
    pub fn log_path(&self) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join("server.log"))
    }

    /// Whether the child we started is still running.
    pub fn alive(&mut self) -> bool {
        match &mut self.child {
            Some(child) => matches!(child.try_wait(), Ok(None)),
            None => true,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(dir) = self.dir.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A port of 127.0.0.1 that was free a moment ago (bound, then released for the server).
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .map_err(|e| format!("cannot find a free port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

fn fresh_dir() -> Result<PathBuf, String> {
    let nonce = getrandom::u64().unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "prophecy-loadgen-{}-{nonce:016x}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// Clock ticks per second, the unit of `/proc/…/stat` times (`getconf CLK_TCK`; 100 on every
/// usual Linux).
pub fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|t| *t > 0.0)
        .unwrap_or(100.0)
}

/// utime + stime of a process, in clock ticks.
pub fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_cpu_ticks(&stat)
}

/// utime + stime from the text of `/proc/PID/stat`.
fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    parse_stat(stat).map(|s| s.ticks)
}

/// What loadgen reads of one `/proc/PID/stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stat<'a> {
    /// The command name (field 2), the same text as `/proc/PID/comm`.
    comm: &'a str,
    /// utime + stime (fields 14 and 15), in clock ticks.
    ticks: u64,
    /// When the process started (field 22), in clock ticks after boot.
    started: u64,
}

/// Fields of the text of `/proc/PID/stat`. The command name in field 2 may hold spaces and
/// parentheses, so it runs from the first `(` to the last `)`, and fields are counted after it.
fn parse_stat(stat: &str) -> Option<Stat<'_>> {
    let (open, close) = (stat.find('(')?, stat.rfind(')')?);
    let comm = stat.get(open + 1..close)?;
    let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Stat {
        comm,
        ticks: utime + stime,
        started: fields.get(19)?.parse().ok()?,
    })
}

/// A process across two readings of `/proc`: its pid and start time, so that a pid reused in
/// between is not taken for the same process.
pub type ProcessKey = (u32, u64);

/// utime + stime, in clock ticks, of every process on the machine named `comm` (PostgreSQL's
/// postmaster and backends are all `postgres`). The name comes from `/proc/PID/stat`, not
/// `/proc/PID/comm`: one read gives the name and the times together.
pub fn cpu_ticks_named(comm: &str) -> HashMap<ProcessKey, u64> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return HashMap::new();
    };
    entries
        .filter_map(|entry| {
            let pid: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            // The process may have ended since the listing: it is skipped.
            let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let stat = parse_stat(&text)?;
            (stat.comm == comm).then_some(((pid, stat.started), stat.ticks))
        })
        .collect()
}

/// CPU ticks that a group of processes used between two readings, and how many of them ended
/// in between. A process started in between counts from zero; one that ended is lost (its
/// ticks went with it), hence the count.
pub fn ticks_between(
    before: &HashMap<ProcessKey, u64>,
    after: &HashMap<ProcessKey, u64>,
) -> (u64, usize) {
    let used = after
        .iter()
        .map(|(key, &b)| b.saturating_sub(before.get(key).copied().unwrap_or(0)))
        .sum();
    let ended = before.keys().filter(|k| !after.contains_key(k)).count();
    (used, ended)
}

/// (VmRSS, VmHWM) of a process, in MiB.
pub fn memory_mib(pid: u32) -> (Option<f64>, Option<f64>) {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return (None, None);
    };
    (
        status_kib(&status, "VmRSS:").map(|k| k / 1024.0),
        status_kib(&status, "VmHWM:").map(|k| k / 1024.0),
    )
}

fn status_kib(status: &str, key: &str) -> Option<f64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The machine's CPU time so far, from the first line of `/proc/stat`, in clock ticks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MachineTicks {
    /// Every state together.
    pub total: u64,
    /// Idle, not waiting for the disk.
    pub idle: u64,
    /// Idle while a disk request of this CPU's was outstanding.
    pub iowait: u64,
}

/// The machine's CPU time so far.
pub fn machine_ticks() -> Option<MachineTicks> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_machine_ticks(stat.lines().next()?)
}

fn parse_machine_ticks(line: &str) -> Option<MachineTicks> {
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    let values: Vec<u64> = fields
        .take(8)
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    Some(MachineTicks {
        total: values.iter().sum(),
        idle: *values.get(3)?,
        iowait: *values.get(4)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sticky_tables_keep_their_players_on_one_server() {
        let homes = |placement: Placement, table, servers| -> Vec<usize> {
            (0..crate::table::SEATS)
                .map(|player| placement.server(table, player, servers))
                .collect()
        };
        assert_eq!(homes(Placement::Sticky, 5, 2), [1, 1, 1, 1]);
        assert_eq!(homes(Placement::Sticky, 6, 3), [0, 0, 0, 0]);
        assert_eq!(homes(Placement::Spread, 5, 2), [1, 0, 1, 0]);
        assert_eq!(homes(Placement::Spread, 6, 3), [0, 1, 2, 0]);
        // One server: both are the same.
        assert_eq!(homes(Placement::Spread, 7, 1), [0; crate::table::SEATS]);
        // Sticky tables still share the servers out evenly.
        let mut load = [0; 3];
        for table in 0..300 {
            load[Placement::Sticky.server(table, 0, 3)] += 1;
        }
        assert_eq!(load, [100; 3]);
    }

    #[test]
    fn proc_files_parse() {
        let stat = "4242 (tokio (rt) x) S 1 4242 4242 0 -1 4194560 1017 0 0 0 250 75 0 0 20 0 5 0 123 456 789";
        assert_eq!(parse_cpu_ticks(stat), Some(325));
        let status = "Name:\tprophecy\nVmHWM:\t   20480 kB\nVmRSS:\t   10240 kB\n";
        assert_eq!(status_kib(status, "VmRSS:"), Some(10240.0));
        assert_eq!(status_kib(status, "VmHWM:"), Some(20480.0));
        assert_eq!(
            parse_machine_ticks("cpu  10 1 5 100 4 0 2 0 0 0"),
            Some(MachineTicks {
                total: 122,
                idle: 100,
                iowait: 4
            })
        );
        assert_eq!(parse_machine_ticks("cpu0 1 2 3 4 5 6 7 8"), None);
    }

    #[test]
    fn stat_gives_the_name_times_and_start() {
        let backend =
            "2236 (postgres) S 2200 2236 2236 0 -1 4194560 900 0 0 0 40 2 0 0 20 0 1 0 7777 1 2";
        assert_eq!(
            parse_stat(backend),
            Some(Stat {
                comm: "postgres",
                ticks: 42,
                started: 7777
            })
        );
        let odd = "9 (a) b (c)) R 1 9 9 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 55 1 2";
        assert_eq!(
            parse_stat(odd).map(|s| (s.comm, s.ticks)),
            Some(("a) b (c)", 7))
        );
        assert_eq!(parse_stat("12 (postgres) S 1 2 3"), None);
    }

    #[test]
    fn processes_started_count_from_zero_and_ended_ones_are_counted_apart() {
        let before = HashMap::from([((10, 1), 100), ((11, 1), 50), ((12, 1), 70)]);
        // 10 ran on, 11 ended, 12's pid now belongs to a new process, 13 is new.
        let after = HashMap::from([((10, 1), 130), ((12, 900), 5), ((13, 950), 8)]);
        assert_eq!(ticks_between(&before, &after), (30 + 5 + 8, 2));
        assert_eq!(ticks_between(&after, &after), (0, 0));
    }
}
