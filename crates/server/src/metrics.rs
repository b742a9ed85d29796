//! What an operator watches: `GET /metrics` in the Prometheus text format. One registry per
//! server (no global recorder), so two servers in one process never mix their figures.

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::time::Duration;

/// A label with one name, e.g. `limit="tables"`.
type Label = [(&'static str, &'static str); 1];

/// Every figure the server keeps.
pub struct Metrics {
    registry: Registry,
    /// Tables whose room is in memory.
    pub tables_loaded: Gauge,
    /// WebSockets open.
    pub sockets_open: Gauge,
    /// TCP connections open (HTTP and WebSocket).
    pub connections_open: Gauge,
    /// Times a table could not be read: its log or seats failed to load (a damaged row, an
    /// event this server cannot decode, the database failing).
    pub tables_unreadable: Counter,
    /// Connections turned away, by reason: `full` (`--max-connections`), `per_address`
    /// (`--connections-per-address`).
    connections_refused: Family<Label, Counter>,
    /// Connections and sockets closed for taking too long, by limit: `request_body`,
    /// `request_time`, `write_stall`, `socket_silence`.
    timed_out: Family<Label, Counter>,
    /// Actions by outcome: `accepted`, `refused` (by the rules or the table), `malformed`.
    actions: Family<Label, Counter>,
    /// Requests and messages answered "too many" or "too fast", by limit.
    limited: Family<Label, Counter>,
    /// Seconds a store append took (the commit, fsync included).
    pub store_append_seconds: Histogram,
    /// Seconds from a change's commit to its update written to a socket.
    pub broadcast_seconds: Histogram,
}

/// How an action ended.
#[derive(Debug, Clone, Copy)]
pub enum Outcome {
    /// Committed.
    Accepted,
    /// Refused by the rules or the table.
    Refused,
    /// Not an action this table understands.
    Malformed,
}

impl Metrics {
    /// Fresh figures, registered under `prophecy_`.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("prophecy");
        let metrics = Metrics {
            tables_loaded: Gauge::default(),
            sockets_open: Gauge::default(),
            connections_open: Gauge::default(),
            tables_unreadable: Counter::default(),
            connections_refused: Family::default(),
            timed_out: Family::default(),
            actions: Family::default(),
            limited: Family::default(),
            // 100 µs to about 6.5 s.
            store_append_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 17)),
            broadcast_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 17)),
            registry: Registry::default(),
        };
        registry.register(
            "tables_loaded",
            "Tables whose room is in memory",
            metrics.tables_loaded.clone(),
        );
        registry.register(
            "sockets_open",
            "WebSockets open",
            metrics.sockets_open.clone(),
        );
        registry.register(
            "connections_open",
            "TCP connections open, HTTP and WebSocket",
            metrics.connections_open.clone(),
        );
        registry.register(
            "connections_refused",
            "Connections turned away, by reason (full, per_address)",
            metrics.connections_refused.clone(),
        );
        registry.register(
            "tables_unreadable",
            "Times a table could not be read (its log or seats failed to load)",
            metrics.tables_unreadable.clone(),
        );
        registry.register(
            "timed_out",
            "Connections and sockets closed for taking too long, by limit",
            metrics.timed_out.clone(),
        );
        registry.register(
            "actions",
            "Actions by outcome (accepted, refused, malformed)",
            metrics.actions.clone(),
        );
        registry.register(
            "limited",
            "Requests and messages answered too many or too fast, by limit",
            metrics.limited.clone(),
        );
        registry.register(
            "store_append_seconds",
            "Time a store append took, the commit included",
            metrics.store_append_seconds.clone(),
        );
        registry.register(
            "broadcast_seconds",
            "Time from a change's commit to its update written to a socket",
            metrics.broadcast_seconds.clone(),
        );
        Metrics {
            registry,
            ..metrics
        }
    }

    /// An action ended so.
    pub fn action(&self, outcome: Outcome) {
        let name = match outcome {
            Outcome::Accepted => "accepted",
            Outcome::Refused => "refused",
            Outcome::Malformed => "malformed",
        };
        self.actions.get_or_create(&[("outcome", name)]).inc();
    }

    /// A limit answered "too many" (`tables`, `joins`, `seat_messages`, `seat_sockets`,
    /// `table_size`).
    pub fn limited(&self, limit: &'static str) {
        self.limited.get_or_create(&[("limit", limit)]).inc();
    }

    /// A connection was turned away (`full`, `per_address`).
    pub fn refused(&self, reason: &'static str) {
        self.connections_refused
            .get_or_create(&[("reason", reason)])
            .inc();
    }

    /// A connection or socket was closed for taking too long (`request_body`, `request_time`,
    /// `write_stall`, `socket_silence`).
    pub fn timed_out(&self, limit: &'static str) {
        self.timed_out.get_or_create(&[("limit", limit)]).inc();
    }

    /// Records a duration in seconds.
    pub fn observe(histogram: &Histogram, took: Duration) {
        histogram.observe(took.as_secs_f64());
    }

    /// The text a Prometheus server scrapes.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}
