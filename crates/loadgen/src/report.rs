//! What one run measured, the percentile arithmetic, and the text and JSON renderings.

use crate::server::Placement;
use serde::Serialize;
use std::fmt::Write as _;

/// Latency percentiles of every sample, exact (all samples are kept and sorted: a run has at
/// most a few hundred thousand, so a histogram would save nothing worth its approximation).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Latency {
    /// How many rolls were timed.
    pub samples: usize,
    /// Median, in milliseconds.
    pub p50_ms: f64,
    /// 90th percentile, in milliseconds.
    pub p90_ms: f64,
    /// 99th percentile, in milliseconds.
    pub p99_ms: f64,
    /// The slowest roll, in milliseconds.
    pub max_ms: f64,
    /// The mean, in milliseconds.
    pub mean_ms: f64,
}

impl Latency {
    /// Percentiles of `samples` (milliseconds, in any order); all zero when there are none.
    pub fn of(mut samples: Vec<f64>) -> Latency {
        samples.sort_by(f64::total_cmp);
        let mean = if samples.is_empty() {
            0.0
        } else {
            samples.iter().sum::<f64>() / samples.len() as f64
        };
        Latency {
            samples: samples.len(),
            p50_ms: percentile(&samples, 50.0),
            p90_ms: percentile(&samples, 90.0),
            p99_ms: percentile(&samples, 99.0),
            max_ms: samples.last().copied().unwrap_or(0.0),
            mean_ms: mean,
        }
    }
}

/// The nearest-rank percentile of sorted samples: the smallest sample that at least `p`% of
/// the samples do not exceed (so p99 of 100 samples is the 99th, and of 10 samples the 10th).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// What went wrong during a run. A clean run has every field zero.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Errors {
    /// Actions the rules refused (the generator's bug, or a changed server).
    pub refused: u64,
    /// `error` answers other than rate limiting.
    pub errors: u64,
    /// "Too fast" answers: the generator's pacing overran the server's rate limit.
    pub rate_limited: u64,
    /// Rolls or actions not answered within the timeout.
    pub timeouts: u64,
    /// Sockets the server closed, or that failed.
    pub disconnects: u64,
    /// Tables that could not be set up.
    pub setup_failures: u64,
    /// Tables that performed every scene of their outline before the run ended (they stop
    /// rolling, so the offered load drops: give a longer outline with `--scenes`).
    pub exhausted_tables: u64,
    /// Tables stopped because what the server sent could not be read as the generator expects
    /// (a patch that does not apply, an id missing from the view).
    pub misread: u64,
}

impl Errors {
    /// Adds another table's counts.
    pub fn add(&mut self, other: &Errors) {
        self.refused += other.refused;
        self.errors += other.errors;
        self.rate_limited += other.rate_limited;
        self.timeouts += other.timeouts;
        self.disconnects += other.disconnects;
        self.setup_failures += other.setup_failures;
        self.exhausted_tables += other.exhausted_tables;
        self.misread += other.misread;
    }

    /// Everything but exhausted outlines, which are not failures of the server.
    pub fn failures(&self) -> u64 {
        self.refused
            + self.errors
            + self.rate_limited
            + self.timeouts
            + self.disconnects
            + self.setup_failures
            + self.misread
    }
}

/// CPU and memory of a process over the measured window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProcessUse {
    /// The process id.
    pub pid: u32,
    /// Further processes summed in (the other servers, with several).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<u32>,
    /// utime + stime over the window, as a percentage of one core (200 = two cores busy).
    pub cpu_percent_of_one_core: f64,
    /// The same as a percentage of all the machine's cores.
    pub cpu_percent_of_machine: f64,
    /// Resident memory at the end, in MiB (`VmRSS`).
    pub rss_mib: Option<f64>,
    /// Peak resident memory, in MiB (`VmHWM`).
    pub peak_rss_mib: Option<f64>,
}

/// The whole machine over the measured window (from `/proc/stat`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MachineUse {
    /// Cores the operating system reports.
    pub cores: usize,
    /// Share of all cores' time not idle, in percent.
    pub busy_percent: f64,
    /// Share of all cores' time idle while waiting for the disk, in percent.
    pub iowait_percent: f64,
    /// CPU used by everything but the server and the generator (other work on the machine
    /// competes with both), as a percentage of one core.
    pub others_percent_of_one_core: Option<f64>,
}

/// Every process on the machine named `postgres` (the PostgreSQL the servers use, and any
/// other cluster on the machine) over the measured window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PostgresUse {
    /// Processes alive as the window closed.
    pub processes: usize,
    /// Processes alive as the window opened and gone as it closed: their CPU is not counted.
    pub ended: usize,
    /// utime + stime over the window, in cores (1.0 = one core busy throughout).
    pub cpu_cores: f64,
}

/// CPU time per action served, in milliseconds: `cpu_s` seconds of CPU over a window in which
/// `actions` actions were served. None without actions.
pub fn cpu_ms_per_action(cpu_s: f64, actions: u64) -> Option<f64> {
    (actions > 0).then(|| cpu_s * 1000.0 / actions as f64)
}

/// One run: the settings, the figures, and what went wrong.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Players (N).
    pub players: usize,
    /// Servers loaded.
    pub servers: usize,
    /// How each table's players were placed on them.
    pub placement: Placement,
    /// Tables of four.
    pub tables: usize,
    /// Scenes in each table's outline (one roll each).
    pub scenes_per_table: usize,
    /// Mean pause between the starts of two rolls at one table, in milliseconds.
    pub think_ms: u64,
    /// Rolls per second the tables were asked for in total (tables ÷ think time).
    pub offered_rolls_per_s: f64,
    /// Seconds spent creating tables, joining and reaching the story phase (not measured).
    pub setup_s: f64,
    /// Seconds of warm-up before the window.
    pub warmup_s: f64,
    /// Length of the measured window, in seconds.
    pub duration_s: f64,
    /// Rolls sent within the window and seen by all four players.
    pub rolls: u64,
    /// `rolls` per second of the window.
    pub rolls_per_s: f64,
    /// Accepted actions per second in the window (six per scene: place, start, pair, roll,
    /// narrate, finish).
    pub actions_per_s: f64,
    /// WebSocket messages the generator received per second in the window.
    pub messages_per_s: f64,
    /// Megabytes (10⁶ bytes) of WebSocket text received per second in the window.
    pub received_mb_per_s: f64,
    /// From sending `make_check` to the last of the table's four sockets receiving its update.
    pub latency: Latency,
    /// From sending `make_check` to the roller's `done` (decided, stored and published):
    /// the server's share of `latency`.
    pub answer_latency: Latency,
    /// What went wrong.
    pub errors: Errors,
    /// The server process, when its pid is known.
    pub server: Option<ProcessUse>,
    /// The generator itself (it shares the machine with the server).
    pub generator: Option<ProcessUse>,
    /// The whole machine.
    pub machine: Option<MachineUse>,
    /// The servers' CPU time over the window ÷ the actions served in it, in milliseconds;
    /// none when their processes are unknown.
    pub server_cpu_ms_per_action: Option<f64>,
    /// Every `postgres` process, when there was any.
    pub postgres: Option<PostgresUse>,
    /// Their CPU time over the window ÷ the actions served in it, in milliseconds.
    pub postgres_cpu_ms_per_action: Option<f64>,
}

impl Report {
    /// Whether this run keeps p99 under `limit_ms` with nothing lost.
    pub fn passes(&self, limit_ms: f64) -> bool {
        self.latency.samples > 0 && self.latency.p99_ms < limit_ms && self.errors.failures() == 0
    }

    /// The report as a few lines of text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let l = &self.latency;
        let _ = writeln!(
            out,
            "N = {} players at {} tables, {} scenes each, one roll per table every {} ms ({:.1} rolls/s offered)",
            self.players,
            self.tables,
            self.scenes_per_table,
            self.think_ms,
            self.offered_rolls_per_s
        );
        let _ = writeln!(
            out,
            "setup {:.1} s (not measured), warm-up {:.0} s, window {:.1} s",
            self.setup_s, self.warmup_s, self.duration_s
        );
        let _ = writeln!(
            out,
            "placement: {} over {} server{} ({})",
            self.placement.name(),
            self.servers,
            if self.servers == 1 { "" } else { "s" },
            self.placement.rule(self.servers)
        );
        let _ = writeln!(
            out,
            "rolls: {} ({:.1}/s); actions {:.1}/s; received {:.0} messages/s, {:.2} MB/s",
            self.rolls,
            self.rolls_per_s,
            self.actions_per_s,
            self.messages_per_s,
            self.received_mb_per_s
        );
        let _ = writeln!(
            out,
            "roll → all four players: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms (mean {:.1} ms, {} samples)",
            l.p50_ms, l.p90_ms, l.p99_ms, l.max_ms, l.mean_ms, l.samples
        );
        let a = &self.answer_latency;
        let _ = writeln!(
            out,
            "roll → the roller's done:   p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            a.p50_ms, a.p90_ms, a.p99_ms, a.max_ms
        );
        for (name, usage) in [("server", &self.server), ("generator", &self.generator)] {
            if let Some(u) = usage {
                let pids: Vec<String> = std::iter::once(u.pid)
                    .chain(u.also.iter().copied())
                    .map(|p| p.to_string())
                    .collect();
                let (name, label) = if pids.len() > 1 {
                    (format!("{name}s"), "pids")
                } else {
                    (name.to_owned(), "pid")
                };
                let _ = write!(
                    out,
                    "{name} ({label} {}): CPU {:.0}% of one core, {:.0}% of the machine",
                    pids.join(", "),
                    u.cpu_percent_of_one_core,
                    u.cpu_percent_of_machine
                );
                if let (Some(rss), Some(peak)) = (u.rss_mib, u.peak_rss_mib) {
                    let _ = write!(out, "; RSS {rss:.1} MiB (peak {peak:.1} MiB)");
                }
                out.push('\n');
            }
        }
        self.cpu_text(&mut out);
        if let Some(m) = &self.machine {
            let _ = write!(
                out,
                "machine: {} cores, {:.0}% busy, {:.1}% waiting for the disk",
                m.cores, m.busy_percent, m.iowait_percent
            );
            if let Some(others) = m.others_percent_of_one_core {
                let _ = write!(out, "; other processes {others:.0}% of one core");
            }
            out.push('\n');
        }
        let e = &self.errors;
        let _ = writeln!(
            out,
            "errors: {} refused, {} errors, {} rate-limited, {} timeouts, {} disconnects, {} tables not set up, {} tables out of scenes, {} tables stopped misreading the server",
            e.refused,
            e.errors,
            e.rate_limited,
            e.timeouts,
            e.disconnects,
            e.setup_failures,
            e.exhausted_tables,
            e.misread
        );
        out
    }
}

impl Report {
    /// The lines of CPU per action: the servers', then PostgreSQL's.
    fn cpu_text(&self, out: &mut String) {
        if let Some(ms) = self.server_cpu_ms_per_action {
            let _ = writeln!(out, "server CPU per action: {ms:.3} ms");
        }
        if let Some(p) = &self.postgres {
            let _ = write!(
                out,
                "PostgreSQL (all postgres processes): CPU {:.2} cores",
                p.cpu_cores
            );
            if let Some(ms) = self.postgres_cpu_ms_per_action {
                let _ = write!(out, ", {ms:.3} ms per action");
            }
            let _ = writeln!(
                out,
                "; {} processes, {} ended in the window (their CPU not counted)",
                p.processes, p.ended
            );
        }
    }
}

/// A sweep: one line per run, then the largest N that kept p99 under the limit.
pub fn sweep_text(reports: &[Report], limit_ms: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>8} {:>7}",
        "N",
        "tables",
        "rolls/s",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "srv CPU%",
        "srv RSS",
        "failures",
        "p99 ok"
    );
    for r in reports {
        let (cpu, rss) = r.server.as_ref().map_or((f64::NAN, f64::NAN), |s| {
            (s.cpu_percent_of_one_core, s.rss_mib.unwrap_or(f64::NAN))
        });
        let _ = writeln!(
            out,
            "{:>6} {:>6} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>9.0} {:>6.0}MiB {:>8} {:>7}",
            r.players,
            r.tables,
            r.rolls_per_s,
            r.latency.p50_ms,
            r.latency.p90_ms,
            r.latency.p99_ms,
            r.latency.max_ms,
            cpu,
            rss,
            r.errors.failures(),
            if r.passes(limit_ms) { "yes" } else { "no" }
        );
    }
    // With repeated runs an N counts when most of its runs pass.
    let repeated = reports
        .iter()
        .any(|r| reports.iter().filter(|o| o.players == r.players).count() > 1);
    let most = if repeated { " in most of its runs" } else { "" };
    match largest_passing(reports, limit_ms) {
        Some(n) => {
            let _ = writeln!(out, "largest N with p99 < {limit_ms} ms{most}: {n}");
        }
        None => {
            let _ = writeln!(out, "no N kept p99 under {limit_ms} ms");
        }
    }
    out
}

/// Whether most of the runs of `players` in `reports` (more than half) passed.
pub fn level_passes(reports: &[Report], players: usize, limit_ms: f64) -> bool {
    let (runs, passed) = (reports.iter())
        .filter(|r| r.players == players)
        .fold((0, 0), |(runs, passed), r| {
            (runs + 1, passed + usize::from(r.passes(limit_ms)))
        });
    passed * 2 > runs
}

/// The largest N that passed (most of its runs did), below every N that failed (a lucky pass
/// above a failure does not count: the answer must be a level the server sustains).
pub fn largest_passing(reports: &[Report], limit_ms: f64) -> Option<usize> {
    let levels = || reports.iter().map(|r| r.players);
    let smallest_failure = levels()
        .filter(|&n| !level_passes(reports, n, limit_ms))
        .min()
        .unwrap_or(usize::MAX);
    levels()
        .filter(|&n| n < smallest_failure && level_passes(reports, n, limit_ms))
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(samples: &[f64], p: f64, expected: f64) {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(percentile(&sorted, p), expected, "p{p} of {samples:?}");
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        check(&[], 50.0, 0.0);
        check(&[7.0], 99.0, 7.0);
        check(&[7.0], 0.0, 7.0);
        check(&[3.0, 1.0, 2.0, 4.0], 50.0, 2.0);
        check(&[3.0, 1.0, 2.0, 4.0], 75.0, 3.0);
        check(&[3.0, 1.0, 2.0, 4.0], 76.0, 4.0);
        let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        check(&hundred, 50.0, 50.0);
        check(&hundred, 99.0, 99.0);
        check(&hundred, 100.0, 100.0);
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        check(&ten, 99.0, 10.0);
        check(&ten, 90.0, 9.0);
    }

    #[test]
    fn latency_summary() {
        let l = Latency::of(vec![4.0, 1.0, 3.0, 2.0]);
        assert_eq!(
            l,
            Latency {
                samples: 4,
                p50_ms: 2.0,
                p90_ms: 4.0,
                p99_ms: 4.0,
                max_ms: 4.0,
                mean_ms: 2.5
            }
        );
        assert_eq!(Latency::of(Vec::new()).samples, 0);
    }

    fn run(players: usize, p99: f64, failures: u64) -> Report {
        Report {
            players,
            servers: 1,
            placement: Placement::Spread,
            tables: players / 4,
            scenes_per_table: 20,
            think_ms: 2000,
            offered_rolls_per_s: 0.0,
            setup_s: 0.0,
            warmup_s: 0.0,
            duration_s: 1.0,
            rolls: 1,
            rolls_per_s: 1.0,
            actions_per_s: 6.0,
            messages_per_s: 0.0,
            received_mb_per_s: 0.0,
            latency: Latency {
                samples: 1,
                p50_ms: p99,
                p90_ms: p99,
                p99_ms: p99,
                max_ms: p99,
                mean_ms: p99,
            },
            answer_latency: Latency::of(vec![p99]),
            errors: Errors {
                timeouts: failures,
                ..Errors::default()
            },
            server: None,
            generator: None,
            machine: None,
            server_cpu_ms_per_action: None,
            postgres: None,
            postgres_cpu_ms_per_action: None,
        }
    }

    #[test]
    fn cpu_per_action_is_milliseconds_of_cpu_over_actions() {
        // 1.5 s of CPU over 3,000 actions: half a millisecond each.
        assert_eq!(cpu_ms_per_action(1.5, 3000), Some(0.5));
        assert_eq!(cpu_ms_per_action(0.0, 10), Some(0.0));
        assert_eq!(cpu_ms_per_action(2.0, 0), None);
    }

    /// The report says how tables were placed and what an action cost, in text and in JSON.
    #[test]
    fn the_report_gives_the_placement_and_the_cpu_per_action() {
        let mut r = run(40, 5.0, 0);
        r.servers = 2;
        r.placement = Placement::Sticky;
        r.server_cpu_ms_per_action = Some(0.25);
        r.postgres = Some(PostgresUse {
            processes: 12,
            ended: 1,
            cpu_cores: 0.4,
        });
        r.postgres_cpu_ms_per_action = Some(0.125);
        let text = r.text();
        assert!(text.contains(
            "placement: sticky over 2 servers (all four players of table t on server t mod 2)\n"
        ));
        assert!(text.contains("server CPU per action: 0.250 ms\n"));
        assert!(text.contains(
            "PostgreSQL (all postgres processes): CPU 0.40 cores, 0.125 ms per action; 12 processes, 1 ended in the window (their CPU not counted)\n"
        ));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["placement"], "sticky");
        assert_eq!(json["server_cpu_ms_per_action"], 0.25);
        assert_eq!(json["postgres_cpu_ms_per_action"], 0.125);
        assert_eq!(json["postgres"]["cpu_cores"], 0.4);
        // Without PostgreSQL or known servers, neither line.
        let plain = run(40, 5.0, 0).text();
        assert!(plain.contains("placement: spread over 1 server ("));
        assert!(!plain.contains("CPU per action") && !plain.contains("PostgreSQL"));
    }

    #[test]
    fn the_largest_passing_n_lies_below_every_failure() {
        let runs = [
            run(250, 5.0, 0),
            run(500, 20.0, 0),
            run(1000, 150.0, 0),
            run(2000, 90.0, 0),
        ];
        assert_eq!(largest_passing(&runs, 100.0), Some(500));
        assert_eq!(largest_passing(&runs, 200.0), Some(2000));
        assert_eq!(largest_passing(&[run(4, 1.0, 1)], 100.0), None);
        assert!(sweep_text(&runs, 100.0).ends_with("largest N with p99 < 100 ms: 500\n"));
    }

    /// A table stopped because the generator could not read the server fails the run, as a
    /// timeout does, and the report says so.
    #[test]
    fn a_table_stopped_misreading_the_server_fails_the_run() {
        let mut misread = run(400, 5.0, 0);
        misread.errors.misread = 1;
        assert_eq!(misread.errors.failures(), 1);
        assert_eq!(largest_passing(&[misread.clone()], 100.0), None);
        assert!(
            misread
                .text()
                .contains("1 tables stopped misreading the server")
        );
    }

    /// With `--repeat`, an N passes when more than half of its runs do: one slow run in three
    /// does not fail it, one in two does.
    #[test]
    fn a_repeated_n_passes_when_most_of_its_runs_do() {
        let runs = [
            run(4000, 30.0, 0),
            run(4000, 45.0, 0),
            run(4000, 40.0, 0),
            run(6000, 60.0, 0),
            run(6000, 126.0, 0),
            run(6000, 80.0, 0),
            run(8000, 90.0, 0),
            run(8000, 250.0, 0),
        ];
        assert!(level_passes(&runs, 6000, 100.0));
        assert!(!level_passes(&runs, 8000, 100.0));
        assert_eq!(largest_passing(&runs, 100.0), Some(6000));
        // A run that lost a roll fails, whatever its p99.
        let mut lossy = runs.to_vec();
        lossy[5] = run(6000, 80.0, 1);
        assert_eq!(largest_passing(&lossy, 100.0), Some(4000));
        assert!(
            sweep_text(&runs, 100.0)
                .ends_with("largest N with p99 < 100 ms in most of its runs: 6000\n")
        );
    }
}
