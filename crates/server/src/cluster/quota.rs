//! The per-user table limits made one atomic check across every node, in Redis.
//!
//! Each user has two sorted sets, `stella:quota:open:USER` (open tables they created
//! or sit at) and `stella:quota:computer:USER` (tables with computer seats they
//! created). A member is a table id, or a creation or join under way (`pending:…`);
//! its score is when it lapses, on Redis's clock, so a dead node's members lapse on
//! their own within [`HOLD_MS`].
//!
//! - Every [`SYNC_EVERY`] each node writes what its own tables make their users hold
//!   (each member [`HOLD_MS`] ahead) and takes out what they no longer hold, so a
//!   table that starts or closes stops counting within a second.
//! - A creation or a join first runs `RESERVE`: one Lua script, which Redis runs
//!   alone, drops lapsed members, counts, and adds a pending member only when the
//!   count is under the limit. Two nodes asking at once are therefore counted one
//!   after the other: the limit is never passed, however the requests are spread.
//! - When the creation or join is over, its node writes the user's holdings at once
//!   and then drops the pending member ([`Reservation::done`](crate::limits::Reservation::done)),
//!   so the table counts without a gap. A join at a table run on another node leaves
//!   the pending member for [`LINGER_MS`] instead, until that node's next write counts
//!   the seat.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Mutex};

use super::bus::{Bus, BusError};
use crate::ids::random_id;
use crate::limits::TableLimits;
use crate::lobby::Lobby;
use crate::protocol::{ErrorCode, PlayerView, ProtoError, TableSummary};

/// How often a node writes its users' holdings.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);
/// How long a member lasts unless written again: the lease time, after which a dead
/// node's tables are given up everywhere else too.
pub const HOLD_MS: u64 = super::lease::LEASE_MS as u64;
/// How long the pending member of a join at a table run elsewhere stays after the
/// join (longer than [`SYNC_EVERY`], so that the table's node has counted the seat).
pub const LINGER_MS: u64 = 2_500;
/// The most members one script call writes (a bound on its size).
const BATCH: usize = 1_000;

/// Adds a pending member when the user is under the limits. KEYS: the open set, the
/// computer set. ARGV: the member, the open limit, the computer limit (empty: not a
/// table with computer seats), the time it lasts. Answers `{0, 0}` when added, else
/// `{1, count}` (open tables) or `{2, count}` (computer tables).
const RESERVE: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local open = redis.call('ZCARD', KEYS[1])
if open >= tonumber(ARGV[2]) then return {1, open} end
if ARGV[3] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  local computer = redis.call('ZCARD', KEYS[2])
  if computer >= tonumber(ARGV[3]) then return {2, computer} end
  redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ttl)
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return {0, 0}
"#;

/// Writes members. KEYS: one set per member. ARGV: the time an added member lasts,
/// how many of the first KEYS get their member added (the rest have it removed), then
/// the members in the order of KEYS. A set lasts as long as its newest member.
const WRITE: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local adds = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  if i <= adds then
    redis.call('ZADD', key, now + ttl, ARGV[i + 2])
    redis.call('PEXPIRE', key, ttl)
  else
    redis.call('ZREM', key, ARGV[i + 2])
  end
end
return 0
"#;

/// Shortens a pending member to lapse `ARGV[2]` ms from now, if it is still there.
/// KEYS: its sets. ARGV: the member, the time left.
const LINGER: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[2]), ARGV[1])
end
return 0
"#;

/// What a limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    /// Open tables created or seated at.
    Open,
    /// Open or live tables with computer seats, created.
    Computer,
}

/// The Redis set of `user`'s holdings of one kind.
fn key(kind: Kind, user: &str) -> String {
    let kind = match kind {
        Kind::Open => "open",
        Kind::Computer => "computer",
    };
    format!("stella:quota:{kind}:{user}")
}

/// One table held by one user.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Holding {
    kind: Kind,
    user: String,
    table: String,
}

/// What the table `s`, created by `owner`, makes its users hold (as
/// [`Lobby::holdings`] counts them).
fn holdings_of(s: &TableSummary, owner: Option<&str>) -> Vec<Holding> {
    let mut out = Vec::new();
    let mut add = |kind, user: &str| {
        let h = Holding {
            kind,
            user: user.to_owned(),
            table: s.id.clone(),
        };
        if !out.contains(&h) {
            out.push(h);
        }
    };
    if s.status == "open" {
        if let Some(owner) = owner {
            add(Kind::Open, owner);
        }
        for seat in &s.seats {
            if let PlayerView::Human { id, .. } = &seat.player {
                add(Kind::Open, id);
            }
        }
    }
    let computers = s
        .seats
        .iter()
        .any(|seat| matches!(seat.player, PlayerView::Computer { .. }));
    if let (true, Some(owner)) = (computers, owner) {
        add(Kind::Computer, owner);
    }
    out
}

/// What the tables this node runs make their users hold (of `user` only, if given).
fn holdings_here(lobby: &Lobby, user: Option<&str>) -> HashSet<Holding> {
    lobby
        .list_all()
        .into_iter()
        .filter(|s| lobby.get(&s.id).is_some())
        .flat_map(|s| holdings_of(&s, lobby.owner(&s.id).as_deref()))
        .filter(|h| user.is_none_or(|u| h.user == u))
        .collect()
}

/// This node's part in the shared per-user table limits.
#[derive(Debug)]
pub struct ClusterQuota {
    bus: Bus,
    lobby: Arc<Lobby>,
    /// The holdings this node last wrote; one write at a time.
    written: Mutex<HashSet<Holding>>,
}

/// A creation or join counted in Redis while it is under way.
#[derive(Debug)]
pub struct ClusterHold {
    quota: Arc<ClusterQuota>,
    user: String,
    member: String,
    computer: bool,
    over: bool,
}

fn unavailable(e: BusError) -> ProtoError {
    tracing::error!(error = %e, "could not check the table limits in Redis");
    ProtoError::new(
        ErrorCode::Unavailable,
        "the table limits cannot be checked now; try again in a moment",
    )
}

impl ClusterQuota {
    /// Starts writing this node's holdings every [`SYNC_EVERY`] until `shutdown`.
    pub fn start(bus: Bus, lobby: Arc<Lobby>, mut shutdown: watch::Receiver<bool>) -> Arc<Self> {
        let quota = Arc::new(ClusterQuota {
            bus,
            lobby,
            written: Mutex::new(HashSet::new()),
        });
        let q = quota.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SYNC_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        if let Err(e) = q.sync(None).await {
                            tracing::warn!(error = %e, "could not write the table holdings");
                        }
                    }
                    _ = shutdown.changed() => break,
                }
            }
        });
        quota
    }

    /// Counts one more table for `user` (with computer seats when `computer`) on every
    /// node at once, or says which limit it would pass.
    pub async fn reserve(
        self: &Arc<Self>,
        user: &str,
        limits: TableLimits,
        computer: bool,
    ) -> Result<ClusterHold, ProtoError> {
        let member = format!("pending:{}", random_id(16));
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(RESERVE)
            .arg(2)
            .arg(key(Kind::Open, user))
            .arg(key(Kind::Computer, user))
            .arg(&member)
            .arg(limits.open_tables)
            .arg(if computer {
                limits.computer_tables.to_string()
            } else {
                String::new()
            })
            .arg(HOLD_MS);
        let (code, count): (i64, i64) = self.bus.command(&cmd).await.map_err(unavailable)?;
        match code {
            0 => Ok(ClusterHold {
                quota: self.clone(),
                user: user.to_owned(),
                member,
                computer,
                over: false,
            }),
            1 => Err(crate::limits::too_many_tables(count as usize, limits)),
            _ => Err(crate::limits::too_many_computer_tables(
                count as usize,
                limits,
            )),
        }
    }

    /// Writes what this node's tables make their users hold (only `user`'s, if given)
    /// and takes out what they held at the last write and hold no more.
    async fn sync(&self, user: Option<&str>) -> Result<(), BusError> {
        let mut written = self.written.lock().await;
        let now = holdings_here(&self.lobby, user);
        let gone: Vec<Holding> = written
            .iter()
            .filter(|h| user.is_none_or(|u| h.user == u) && !now.contains(h))
            .cloned()
            .collect();
        let mut adds: Vec<&Holding> = now.iter().collect();
        adds.sort();
        for chunk in adds.chunks(BATCH) {
            self.write(chunk, &[]).await?;
        }
        for chunk in gone.chunks(BATCH) {
            self.write(&[], &chunk.iter().collect::<Vec<_>>()).await?;
        }
        for h in &gone {
            written.remove(h);
        }
        written.extend(now);
        Ok(())
    }

    /// Adds `adds` and removes `removes` in one script call.
    async fn write(&self, adds: &[&Holding], removes: &[&Holding]) -> Result<(), BusError> {
        if adds.is_empty() && removes.is_empty() {
            return Ok(());
        }
        let all = adds.iter().chain(removes);
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(WRITE).arg(adds.len() + removes.len());
        for h in all.clone() {
            cmd.arg(key(h.kind, &h.user));
        }
        cmd.arg(HOLD_MS).arg(adds.len());
        for h in all {
            cmd.arg(&h.table);
        }
        self.bus.command::<i64>(&cmd).await.map(|_| ())
    }

    /// The sets a hold of `user` counts in.
    fn keys(user: &str, computer: bool) -> Vec<String> {
        let mut keys = vec![key(Kind::Open, user)];
        if computer {
            keys.push(key(Kind::Computer, user));
        }
        keys
    }
}

impl ClusterHold {
    /// Ends the hold once the creation or join of `table` is over (made or refused):
    /// the user's holdings on this node are written, then the pending member goes, or
    /// stays [`LINGER_MS`] more when `table` runs on another node (whose next write
    /// counts the seat).
    pub async fn done(mut self, table: Option<&str>) {
        self.over = true;
        let quota = self.quota.clone();
        if let Err(e) = quota.sync(Some(&self.user)).await {
            tracing::warn!(error = %e, "could not write a user's table holdings");
        }
        let elsewhere = table.is_some_and(|t| quota.lobby.get(t).is_none());
        let result = if elsewhere {
            let mut cmd = redis::cmd("EVAL");
            let keys = ClusterQuota::keys(&self.user, self.computer);
            cmd.arg(LINGER).arg(keys.len());
            for k in &keys {
                cmd.arg(k);
            }
            cmd.arg(&self.member).arg(LINGER_MS);
            quota.bus.command::<i64>(&cmd).await.map(|_| ())
        } else {
            remove(&quota.bus, &self.user, &self.member, self.computer).await
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, "could not end a table hold; it lapses on its own");
        }
    }
}

/// Removes a pending member.
async fn remove(bus: &Bus, user: &str, member: &str, computer: bool) -> Result<(), BusError> {
    let mut pipe = redis::pipe();
    for k in ClusterQuota::keys(user, computer) {
        pipe.cmd("ZREM").arg(k).arg(member).ignore();
    }
    bus.pipeline(&pipe).await
}

impl Drop for ClusterHold {
    fn drop(&mut self) {
        if self.over {
            return;
        }
        // Given up without `done` (the request failed): the member goes now.
        let bus = self.quota.bus.clone();
        let (user, member, computer) = (self.user.clone(), self.member.clone(), self.computer);
        tokio::spawn(async move {
            if let Err(e) = remove(&bus, &user, &member, computer).await {
                tracing::warn!(error = %e, "could not end a table hold; it lapses on its own");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SeatView;

    fn summary(status: &str, seats: Vec<PlayerView>) -> TableSummary {
        TableSummary {
            id: "t".into(),
            variant: "classic-3".into(),
            time: None,
            rated: false,
            status: status.into(),
            seats: seats
                .into_iter()
                .enumerate()
                .map(|(seat, player)| SeatView {
                    seat,
                    colour: "red".into(),
                    player,
                })
                .collect(),
            private: false,
            move_time: None,
            connected: Vec::new(),
            bots: false,
        }
    }

    fn human(id: &str) -> PlayerView {
        PlayerView::Human {
            id: id.into(),
            name: id.into(),
            guest: false,
            bot: false,
        }
    }

    fn held(kind: Kind, user: &str) -> Holding {
        Holding {
            kind,
            user: user.into(),
            table: "t".into(),
        }
    }

    #[test]
    fn tables_are_held_as_the_lobby_counts_them() {
        let open = summary("open", vec![human("a"), human("b"), PlayerView::Open]);
        assert_eq!(
            holdings_of(&open, Some("a")),
            [held(Kind::Open, "a"), held(Kind::Open, "b")]
        );
        let computer = PlayerView::Computer { level: 1 };
        let open_vs = summary("open", vec![human("a"), computer.clone(), PlayerView::Open]);
        assert_eq!(
            holdings_of(&open_vs, Some("a")),
            [held(Kind::Open, "a"), held(Kind::Computer, "a")]
        );
        let live_vs = summary("live", vec![human("a"), computer]);
        assert_eq!(
            holdings_of(&live_vs, Some("a")),
            [held(Kind::Computer, "a")]
        );
        let live = summary("live", vec![human("a"), human("b")]);
        assert!(holdings_of(&live, Some("a")).is_empty());
    }

    #[test]
    fn the_sets_are_named_by_kind_and_user() {
        assert_eq!(key(Kind::Open, "u1"), "stella:quota:open:u1");
        assert_eq!(key(Kind::Computer, "u1"), "stella:quota:computer:u1");
    }
}
