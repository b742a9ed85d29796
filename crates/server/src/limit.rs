//! Budgets for what a stranger can spend: tables, seats and connections per client address,
//! messages and sockets per seat. Rates are counted by `governor` (GCRA); this module only says
//! whose budget a request draws on and how the answer reads. On a database that several servers
//! share, the per-address budgets are the database's ([`AddressBudget`]), so that an address
//! has one budget however many servers it reaches.

use axum::http::HeaderMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use store::{Grant, Store};

/// A seat: the table's token and the player's number.
pub type SeatKey = (Arc<str>, u32);

/// A budget per key: `per` events per `period`, in bursts of up to `burst`.
pub struct Budget<K: std::hash::Hash + Eq + Clone> {
    limiter: DefaultKeyedRateLimiter<K>,
    clock: DefaultClock,
}

impl<K: std::hash::Hash + Eq + Clone> Budget<K> {
    /// `per_minute` a minute, all of them at once if need be.
    pub fn per_minute(per_minute: u32) -> Budget<K> {
        let n = NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        Budget::new(Quota::per_minute(n))
    }

    /// `per_second` a second on average, in bursts of `burst`.
    pub fn per_second(per_second: u32, burst: u32) -> Budget<K> {
        let rate = NonZeroU32::new(per_second.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Budget::new(Quota::per_second(rate).allow_burst(burst))
    }

    fn new(quota: Quota) -> Budget<K> {
        Budget {
            limiter: DefaultKeyedRateLimiter::hashmap(quota),
            clock: DefaultClock::default(),
        }
    }

    /// Spends `cost` of `key`'s budget, or says how long until it could.
    pub fn spend(&self, key: &K, cost: u32) -> Result<(), Duration> {
        let cost = NonZeroU32::new(cost.max(1)).unwrap_or(NonZeroU32::MIN);
        match self.limiter.check_key_n(key, cost) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(not_until.wait_time_from(self.clock.now())),
            // More than the whole burst: never affordable.
            Err(_) => Err(Duration::MAX),
        }
    }

    /// Forgets keys whose budget is full again, so the table of keys does not grow forever.
    pub fn forget_idle(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

/// A grant from a shared budget is at least this share of the whole budget (its burst), so
/// that a busy address costs a round trip to the database per grant, not per request, and at
/// most this share sits unused on each server.
const GRANT_SHARE: u32 = 8;

/// What is left of a grant this long after it was taken lapses: it is never given back (the
/// other servers may have waited for it), and what a server holds does not pile up.
const GRANT_LIFE: Duration = Duration::from_secs(60);

/// Why a per-address budget refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Past the budget: it allows again after this wait (`Duration::MAX`: never, the cost is
    /// more than the whole budget).
    Until(Duration),
    /// The budget shared with the other servers could not be checked (the database failed):
    /// refused rather than allowed unchecked.
    Unchecked,
}

/// What a player hears when their address's budget cannot be checked ([`Refused::Unchecked`]).
pub const UNCHECKED: &str =
    "Your address's budget cannot be checked right now; nothing changed, try again in a moment.";

/// A budget per client address: `per_minute` units a minute, all at once if need be. On a
/// store one server uses, it is the server's own. On a shared store every server draws on one
/// budget in the database, by grants ([`Store::take_grant`]) of at least 1/[`GRANT_SHARE`] of
/// it, and spends what it holds of them here until they are used up or lapse.
pub struct AddressBudget {
    /// Its name in the shared store.
    kind: &'static str,
    per_minute: u32,
    keeper: Keeper,
}

enum Keeper {
    Own(Budget<IpAddr>),
    Shared(Box<Held>),
}

/// What this server holds of its grants, per address.
struct Held {
    grants: Mutex<HashMap<IpAddr, Holding>>,
    /// One grant taken at a time per address: requests that find too little held wait for the
    /// grant the first is taking instead of each taking one (which would drain the shared
    /// budget). Addresses share [`TAKING_LANES`] locks by hash, so the locks are bounded.
    taking: [tokio::sync::Mutex<()>; TAKING_LANES],
    /// Which lock an address takes.
    lanes: std::hash::RandomState,
}

/// Locks for taking grants, shared by addresses (see [`Held::taking`]).
const TAKING_LANES: usize = 64;

impl Default for Held {
    fn default() -> Held {
        Held {
            grants: Mutex::default(),
            taking: std::array::from_fn(|_| tokio::sync::Mutex::new(())),
            lanes: std::hash::RandomState::new(),
        }
    }
}

impl Held {
    fn lane(&self, address: IpAddr) -> &tokio::sync::Mutex<()> {
        use std::hash::BuildHasher;
        let hash = self.lanes.hash_one(address);
        &self.taking[(hash % TAKING_LANES as u64) as usize]
    }
}

/// Units of grants held for one address, and when they lapse.
#[derive(Debug, Clone, Copy)]
struct Holding {
    units: u32,
    lapses: Instant,
}

impl Held {
    /// Spends `cost` of what is held for `address`; when that is too little, takes it all out
    /// instead (to add to a new grant, or to put back).
    fn spend(&self, address: IpAddr, cost: u32, now: Instant) -> Result<(), Holding> {
        let mut grants = self.grants.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(held) = grants.get_mut(&address)
            && held.lapses > now
            && held.units >= cost
        {
            held.units -= cost;
            return Ok(());
        }
        let holding = grants.remove(&address).filter(|held| held.lapses > now);
        Err(holding.unwrap_or(Holding {
            units: 0,
            lapses: now,
        }))
    }

    /// Adds `holding` to what is held for `address`; both last until the later lapse.
    fn hold(&self, address: IpAddr, holding: Holding) {
        if holding.units == 0 {
            return;
        }
        let mut grants = self.grants.lock().unwrap_or_else(|e| e.into_inner());
        let held = grants.entry(address).or_insert(Holding {
            units: 0,
            lapses: holding.lapses,
        });
        held.units = held.units.saturating_add(holding.units);
        held.lapses = held.lapses.max(holding.lapses);
    }

    fn forget_lapsed(&self, now: Instant) {
        let mut grants = self.grants.lock().unwrap_or_else(|e| e.into_inner());
        grants.retain(|_, held| held.lapses > now);
        grants.shrink_to_fit();
    }
}

impl AddressBudget {
    /// `per_minute` units a minute for each address, kept by this server alone, or in the
    /// store when it is `shared` by several servers (under the name `kind`).
    pub fn per_minute(kind: &'static str, per_minute: u32, shared: bool) -> AddressBudget {
        AddressBudget {
            kind,
            per_minute: per_minute.max(1),
            keeper: if shared {
                Keeper::Shared(Box::default())
            } else {
                Keeper::Own(Budget::per_minute(per_minute))
            },
        }
    }

    /// Spends `cost` of `address`'s budget, or says why not.
    pub async fn spend<S: Store>(
        &self,
        store: &S,
        address: IpAddr,
        cost: u32,
    ) -> Result<(), Refused> {
        let cost = cost.max(1);
        let held = match &self.keeper {
            Keeper::Own(budget) => return budget.spend(&address, cost).map_err(Refused::Until),
            Keeper::Shared(held) => held,
        };
        if cost > self.per_minute {
            return Err(Refused::Until(Duration::MAX));
        }
        let Err(holding) = held.spend(address, cost, Instant::now()) else {
            return Ok(());
        };
        held.hold(address, holding);
        let _turn = held.lane(address).lock().await;
        let Err(holding) = held.spend(address, cost, Instant::now()) else {
            return Ok(());
        };
        let least = cost - holding.units;
        let most = least.max(self.per_minute / GRANT_SHARE);
        let grant = store
            .take_grant(
                &address.to_string(),
                self.kind,
                least,
                most,
                self.per_minute,
            )
            .await;
        let refused = match grant {
            Ok(Grant::Granted(units)) => {
                let units = (holding.units + units).saturating_sub(cost);
                let lapses = Instant::now() + GRANT_LIFE;
                held.hold(address, Holding { units, lapses });
                return Ok(());
            }
            Ok(Grant::NotUntil(wait)) => Refused::Until(wait),
            Ok(Grant::Never) => Refused::Until(Duration::MAX),
            Err(e) => {
                tracing::error!(
                    "cannot take from the {} budget of {address}: {e}",
                    self.kind
                );
                Refused::Unchecked
            }
        };
        held.hold(address, holding);
        Err(refused)
    }

    /// Forgets the addresses whose budget is full again, or whose grants lapsed.
    pub fn forget_idle(&self) {
        match &self.keeper {
            Keeper::Own(budget) => budget.forget_idle(),
            Keeper::Shared(held) => held.forget_lapsed(Instant::now()),
        }
    }
}

/// Where a request came from and which of the server's addresses it reached. Handlers find it
/// among the request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// The other end of the TCP connection (a proxy's, behind one).
    pub remote: SocketAddr,
    /// The server's address the client connected to: links and QR codes use it when no
    /// `--url` is given, never the request's Host header, which the client chooses.
    pub local: SocketAddr,
}

/// Where a request comes from, for the per-address budgets. Behind a trusted proxy that is
/// the last address in `X-Forwarded-For` (the one the proxy itself saw); otherwise the TCP
/// peer, and the header is ignored (anyone can write it). IPv6 addresses count by their /64,
/// which one host usually holds whole.
pub fn client(peer: Option<&Peer>, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    let forwarded = trust_proxy
        .then(|| {
            headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|value| value.to_str().ok())
                .flat_map(|value| value.split(','))
                .next_back()
                .and_then(|last| last.trim().parse::<IpAddr>().ok())
        })
        .flatten();
    let ip = forwarded
        .or(peer.map(|peer| peer.remote.ip()))
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    address_key(ip)
}

/// Whose budget an address draws on: an IPv4 address is its own (an IPv4-mapped IPv6 address
/// too); an IPv6 address counts by its /64, which one host usually holds whole.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mask = !0u128 << 64;
                IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
            }
        },
        v4 => v4,
    }
}

/// "in 40 s", "in a moment": when a budget allows again.
pub fn wait_words(wait: Duration) -> String {
    if wait == Duration::MAX {
        return "later".to_owned();
    }
    let seconds = wait.as_secs_f64().ceil() as u64;
    if seconds <= 1 {
        "in a moment".to_owned()
    } else {
        format!("in {seconds} s")
    }
}

/// An amount of KiB as people read it: "16 MiB", "64 KiB".
pub fn kib_words(kib: u32) -> String {
    if kib >= 1024 && kib.is_multiple_of(1024) {
        format!("{} MiB", kib / 1024)
    } else {
        format!("{kib} KiB")
    }
}

/// Places held per key (sockets per seat, connections per address), each key under a cap.
pub struct Places<K: std::hash::Hash + Eq + Clone> {
    open: Mutex<HashMap<K, u32>>,
}

/// The sockets each seat holds open, against the per-seat cap.
pub type SeatSockets = Places<SeatKey>;

/// A seat's place for one socket; given back when dropped.
pub type SocketSlot = Place<SeatKey>;

/// One place of a key; given back when dropped.
pub struct Place<K: std::hash::Hash + Eq + Clone> {
    places: Arc<Places<K>>,
    key: K,
}

impl<K: std::hash::Hash + Eq + Clone> Default for Places<K> {
    fn default() -> Places<K> {
        Places {
            open: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: std::hash::Hash + Eq + Clone> Places<K> {
    /// A place for one more of `key`'s, unless it already holds `cap`.
    pub fn open(self: &Arc<Places<K>>, key: K, cap: u32) -> Option<Place<K>> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(key.clone()).or_insert(0);
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(Place {
            places: self.clone(),
            key,
        })
    }
}

impl<K: std::hash::Hash + Eq + Clone> Drop for Place<K> {
    fn drop(&mut self) {
        let mut open = self.places.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(remote: &str) -> Peer {
        Peer {
            remote: remote.parse().unwrap(),
            local: "127.0.0.1:8080".parse().unwrap(),
        }
    }

    #[test]
    fn a_forwarded_address_counts_only_behind_a_trusted_proxy() {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "1.2.3.4, 5.6.7.8".parse().unwrap());
        let proxy = peer("127.0.0.1:5000");
        assert_eq!(
            client(Some(&proxy), &headers, false),
            "127.0.0.1".parse::<IpAddr>().unwrap()
        );
        // The proxy appends what it saw: the last entry, not one the client wrote.
        assert_eq!(
            client(Some(&proxy), &headers, true),
            "5.6.7.8".parse::<IpAddr>().unwrap()
        );
        headers.insert("x-forwarded-for", "not an address".parse().unwrap());
        assert_eq!(
            client(Some(&proxy), &headers, true),
            "127.0.0.1".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn ipv6_addresses_count_by_their_64_bit_prefix() {
        let headers = HeaderMap::new();
        let a = client(Some(&peer("[2001:db8:1:2:aaaa::1]:5000")), &headers, false);
        let b = client(Some(&peer("[2001:db8:1:2:bbbb::9]:5000")), &headers, false);
        let c = client(Some(&peer("[2001:db8:1:3::1]:5000")), &headers, false);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn ipv4_mapped_ipv6_addresses_count_as_ipv4() {
        assert_eq!(
            address_key("::ffff:192.0.2.7".parse().unwrap()),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            address_key("2001:db8:1:2:aaaa::1".parse().unwrap()),
            "2001:db8:1:2::".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn a_budget_refuses_past_its_burst_and_says_when() {
        let budget = Budget::<u32>::per_minute(3);
        for _ in 0..3 {
            assert!(budget.spend(&1, 1).is_ok());
        }
        let wait = budget.spend(&1, 1).unwrap_err();
        assert!(wait > Duration::from_secs(10) && wait <= Duration::from_secs(20));
        assert!(budget.spend(&2, 1).is_ok(), "each key has its own budget");
        assert_eq!(budget.spend(&3, 4), Err(Duration::MAX));
    }

    #[test]
    fn what_is_held_of_a_grant_is_spent_here_until_it_lapses() {
        let held = Held::default();
        let address: IpAddr = "192.0.2.1".parse().unwrap();
        let now = Instant::now();
        assert_eq!(held.spend(address, 1, now).unwrap_err().units, 0);
        let lapses = now + GRANT_LIFE;
        held.hold(address, Holding { units: 3, lapses });
        assert!(held.spend(address, 2, now).is_ok());
        // Too little left: all of it is taken out, to go with a new grant.
        assert_eq!(held.spend(address, 2, now).unwrap_err().units, 1);
        assert_eq!(held.spend(address, 1, now).unwrap_err().units, 0);
        // Put back, it lapses with its grant.
        held.hold(address, Holding { units: 1, lapses });
        assert!(held.spend(address, 1, now + GRANT_LIFE / 2).is_ok());
        held.hold(address, Holding { units: 5, lapses });
        assert_eq!(held.spend(address, 1, lapses).unwrap_err().units, 0);
        held.hold(address, Holding { units: 5, lapses });
        held.forget_lapsed(lapses);
        assert!(held.grants.lock().unwrap().is_empty());
    }

    #[test]
    fn a_seat_holds_at_most_its_cap_of_sockets() {
        let sockets = Arc::new(SeatSockets::default());
        let seat: SeatKey = (Arc::from("t"), 1);
        let first = sockets.open(seat.clone(), 2).unwrap();
        let _second = sockets.open(seat.clone(), 2).unwrap();
        assert!(sockets.open(seat.clone(), 2).is_none());
        assert!(sockets.open((Arc::from("t"), 2), 2).is_some());
        drop(first);
        assert!(sockets.open(seat, 2).is_some());
    }
}
