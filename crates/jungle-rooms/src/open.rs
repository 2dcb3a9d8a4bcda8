//! Every way a room comes to be: a matched game, a private room, a game against the computer,
//! and the rooms found at start-up. Room codes are made here too.

use std::sync::Arc;
use std::time::Duration;

use jungle_engine::Level;
use jungle_protocol::ColorChoice;
use jungle_rules::{Position, Side};
use uuid::Uuid;

use super::{Hold, HoldKind, Room, RoomContext, RoomHandle, Rooms};
use jungle_game::clock::GameClock;
use jungle_game::session::{GameSession, HostColour, RoomSettings, SeatPlayer};

/// Most games against the computer a player may have in play at once.
pub const MAX_COMPUTER_GAMES: usize = 3;
/// Most private rooms a player may have waiting for a guest at once.
pub const MAX_WAITING_ROOMS: usize = 3;

/// A player already has as many rooms of this kind as allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtCap {
    pub kind: HoldKind,
    pub cap: usize,
}

/// Why a private room was not opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("at the cap")]
    AtCap(AtCap),
    /// Its invitation could not be stored: no code is handed out for a room a restart would
    /// lose.
    #[error(transparent)]
    Persist(#[from] jungle_store::persist::PersistError),
}
use jungle_store::persist::Write;
use jungle_store::{GameRecord, RatingRecord, WaitingRoom};

/// A fair coin, for colours.
pub fn coin_flip() -> Side {
    let mut byte = [0u8; 1];
    getrandom::fill(&mut byte).expect("system randomness");
    if byte[0] & 1 == 0 {
        Side::Red
    } else {
        Side::Blue
    }
}

/// The side a colour choice gives, tossing the coin for `random`.
pub fn side_for(color: ColorChoice) -> HostColour {
    let side = match color {
        ColorChoice::Red => Side::Red,
        ColorChoice::Blue => Side::Blue,
        ColorChoice::Random => coin_flip(),
    };
    HostColour {
        chosen: color,
        side,
    }
}

/// How many symbols a room code has: 31⁸ ≈ 8.5 × 10¹¹ codes, so that even an unlimited guesser
/// who finds one waiting room in 10⁹ guesses needs, with a thousand rooms waiting, about a
/// million guesses per hit — and guesses are rate limited besides.
pub const ROOM_CODE_LEN: usize = 8;

/// A fresh private room code: `ROOM_CODE_LEN` symbols drawn uniformly from an alphabet without
/// look-alikes (no 0/O, 1/I/L), easy to read aloud, and not in use.
pub fn new_room_code(rooms: &Rooms) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    // Bytes at or above the largest multiple of the alphabet's size are drawn again, so every
    // symbol is equally likely (a plain `% 31` would favour the first eight).
    let fair_below = (256 / ALPHABET.len() * ALPHABET.len()) as u8;
    loop {
        let mut code = String::with_capacity(ROOM_CODE_LEN);
        while code.len() < ROOM_CODE_LEN {
            let mut byte = [0u8; 1];
            getrandom::fill(&mut byte).expect("system randomness");
            if byte[0] < fair_below {
                code.push(ALPHABET[byte[0] as usize % ALPHABET.len()] as char);
            }
        }
        if !rooms.code_taken(&code) {
            return code;
        }
    }
}

/// A game between two known players, starting now.
pub fn matched(
    ctx: Arc<RoomContext>,
    game: Uuid,
    settings: RoomSettings,
    red: SeatPlayer,
    blue: SeatPlayer,
) -> RoomHandle {
    let (session, started) =
        GameSession::matched(settings, None, red, blue, ctx.timing, ctx.time.instant());
    Room::spawn(ctx, game, session, started, None)
}

/// A game of a tournament, paired by its director, starting now.
pub fn tournament_game(
    ctx: Arc<RoomContext>,
    settings: RoomSettings,
    red: SeatPlayer,
    blue: SeatPlayer,
    tournament: Uuid,
) -> RoomHandle {
    let (session, started) =
        GameSession::matched(settings, None, red, blue, ctx.timing, ctx.time.instant());
    let session = session.in_tournament(Some(tournament));
    Room::spawn(ctx, Uuid::new_v4(), session, started, None)
}

/// A casual game of `human` against the computer at `level`, with a room code so that friends
/// can watch through its link. `color` is the human's. The one way to open a computer game: at
/// most [`MAX_COMPUTER_GAMES`] in play per player.
pub async fn computer_game(
    ctx: Arc<RoomContext>,
    settings: RoomSettings,
    human: SeatPlayer,
    level: Level,
    color: ColorChoice,
    start: Position,
) -> Result<RoomHandle, AtCap> {
    let computer_rating = ctx
        .store
        .rating(jungle_game::computer::bot_id(level.get()), settings.rules)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "computer rating lookup failed");
            RatingRecord::from_glicko(jungle_game::rating::Glicko::default(), 0)
        });
    let computer = SeatPlayer::computer(level.get(), computer_rating);
    let (red, blue) = match side_for(color).side {
        Side::Red => (human, computer),
        Side::Blue => (computer, human),
    };
    let casual = RoomSettings {
        rated: false,
        ..settings
    };
    // Claimed only now, with nothing left to wait for before the room holds the claim.
    let player = match red.computer {
        Some(_) => blue.player.id,
        None => red.player.id,
    };
    let hold = claim(
        &ctx.rooms,
        player,
        HoldKind::ComputerGame,
        MAX_COMPUTER_GAMES,
    )?;
    let code = new_room_code(&ctx.rooms);
    let (session, started) = GameSession::matched(
        casual,
        Some(code),
        red,
        blue,
        ctx.timing,
        ctx.time.instant(),
    );
    let session = session.starting_from(start);
    let id = Uuid::new_v4();
    Ok(Room::spawn(ctx, id, session, started, Some(hold)))
}

/// Claims one of `player`'s `cap` rooms of a kind.
fn claim(rooms: &Rooms, player: Uuid, kind: HoldKind, cap: usize) -> Result<Hold, AtCap> {
    rooms
        .reserve(Hold { player, kind }, cap)
        .ok_or(AtCap { kind, cap })
}

/// A private room with its host seated, waiting for a guest. It is stored before its code is
/// returned, so that a link handed out outlives a restart. At most [`MAX_WAITING_ROOMS`] wait
/// per player.
pub async fn private(
    ctx: Arc<RoomContext>,
    settings: RoomSettings,
    host: SeatPlayer,
    color: ColorChoice,
    start: Position,
) -> Result<(RoomHandle, String), OpenError> {
    let hold = claim(
        &ctx.rooms,
        host.player.id,
        HoldKind::WaitingRoom,
        MAX_WAITING_ROOMS,
    )
    .map_err(OpenError::AtCap)?;
    let code = new_room_code(&ctx.rooms);
    let id = Uuid::new_v4();
    let saved = WaitingRoom {
        code: code.clone(),
        game: id,
        host: host.player.id,
        ruleset: settings.rules,
        clock: settings.clock,
        rated: settings.rated,
        color,
        created_at: jungle_store::now_ms(),
        start: (start != Position::start()).then(|| start.to_string()),
    };
    let session = GameSession::private(
        settings,
        code.clone(),
        host,
        side_for(color),
        Duration::ZERO,
        ctx.timing,
        ctx.time.instant(),
    )
    .starting_from(start);
    // Stored first: the code is handed out only for a room that outlives a restart.
    if let Err(e) = ctx.persister.write(Write::OpenRoom(saved)).await {
        ctx.rooms.unreserve(hold);
        return Err(e.into());
    }
    let handle = Room::spawn(ctx.clone(), id, session, Vec::new(), Some(hold));
    Ok((handle, code))
}

/// Reopens a stored waiting room under its code (a restart, or a room adopted from a node that
/// is gone), with its host as stored.
pub async fn restore_waiting(
    ctx: &Arc<RoomContext>,
    saved: &WaitingRoom,
) -> Result<RoomHandle, jungle_store::StoreError> {
    let store = &ctx.store;
    // The host's row is kept by a foreign key; its absence would be corruption.
    let host = store.player(saved.host).await?.ok_or_else(|| {
        jungle_store::StoreError::Corrupt(format!("room {}: no host {}", saved.code, saved.host))
    })?;
    let host = SeatPlayer {
        rating: store
            .rating(
                host.id,
                jungle_game::rating::RatingPool::of(saved.ruleset, saved.clock),
            )
            .await?,
        player: host,
        computer: None,
    };
    let waited = Duration::from_millis((jungle_store::now_ms() - saved.created_at).max(0) as u64);
    Ok(restored_private(ctx.clone(), saved, host, waited))
}

/// A private room found waiting at start-up, under its old code and game id, with the time
/// it has already waited counted against its lifetime (one whose hour is up closes at once,
/// and forgets itself like any room that expires).
pub fn restored_private(
    ctx: Arc<RoomContext>,
    saved: &WaitingRoom,
    host: SeatPlayer,
    waited: Duration,
) -> RoomHandle {
    let settings = RoomSettings {
        rules: saved.ruleset,
        clock: saved.clock,
        rated: saved.rated,
    };
    // It was allowed when it opened: it counts, whatever the cap says now.
    let hold = ctx.rooms.reserve_always(Hold {
        player: host.player.id,
        kind: HoldKind::WaitingRoom,
    });
    let session = GameSession::private(
        settings,
        saved.code.clone(),
        host,
        side_for(saved.color),
        waited,
        ctx.timing,
        ctx.time.instant(),
    );
    let start = match saved.start.as_deref().map(str::parse::<Position>) {
        Some(Ok(start)) => start,
        Some(Err(e)) => {
            tracing::error!(room = %saved.code, error = %e, "a stored start position does not read");
            Position::start()
        }
        None => Position::start(),
    };
    let session = session.starting_from(start);
    Room::spawn_resumed(ctx, saved.game, session, Some(hold))
}

/// Resumes a stored game in progress with its players as stored (a restart, or a game adopted
/// from a node that is gone). A game whose turns do not replay is logged and left.
pub async fn resume_record(
    ctx: &Arc<RoomContext>,
    record: GameRecord,
) -> Result<Option<RoomHandle>, jungle_store::StoreError> {
    let id = record.id;
    let Some(session) = resumed_session(ctx, record).await? else {
        return Ok(None);
    };
    // A resumed game against the computer counts against its player again, as it did.
    let human = match (
        session.seat(Side::Red).and_then(|s| s.who.computer),
        session.seat(Side::Blue).and_then(|s| s.who.computer),
    ) {
        (Some(_), None) => session.seat(Side::Blue),
        (None, Some(_)) => session.seat(Side::Red),
        _ => None,
    };
    let hold = human.map(|seat| {
        ctx.rooms.reserve_always(Hold {
            player: seat.who.player.id,
            kind: HoldKind::ComputerGame,
        })
    });
    Ok(Some(Room::spawn_resumed(ctx.clone(), id, session, hold)))
}

/// A stored game in progress as a session: its players and ratings as stored, its turns
/// replayed, its clock as saved after the last turn and charged with the time since (but
/// for the mover's vacations, over days), both players counted away from now (they
/// reconnect within the grace period). `None` for a game whose turns do not replay (logged).
pub async fn resumed_session(
    ctx: &Arc<RoomContext>,
    record: GameRecord,
) -> Result<Option<GameSession>, jungle_store::StoreError> {
    let store = &ctx.store;
    let mut seats = Vec::with_capacity(2);
    for id in [record.red, record.blue] {
        // The players' rows are kept by foreign keys; their absence would be corruption.
        let player = store.player(id).await?.ok_or_else(|| {
            jungle_store::StoreError::Corrupt(format!("game {}: no player {id}", record.id))
        })?;
        seats.push(SeatPlayer {
            rating: store
                .rating(
                    id,
                    jungle_game::rating::RatingPool::of(record.rules, record.clock),
                )
                .await?,
            player,
            computer: jungle_game::computer::bot_level(id),
        });
    }
    let (Some(blue), Some(red)) = (seats.pop(), seats.pop()) else {
        unreachable!("two seats were read");
    };
    let id = record.id;
    // A correspondence turn does not run while its player is on vacation, down or not.
    let mut away: [Vec<jungle_store::Vacation>; 2] = Default::default();
    if record.clock.is_correspondence() {
        let began = turn_began(&record);
        for (side, player) in [record.red, record.blue].into_iter().enumerate() {
            away[side] = store.vacations(player, began).await?;
        }
    }
    match replayed(ctx, record, red, blue, away) {
        Ok(session) => Ok(Some(session)),
        Err(e) => {
            tracing::error!(game = %id, error = %e, "could not resume a game");
            Ok(None)
        }
    }
}

/// A stored game replayed, with the clocks as saved after the last turn and the time since
/// charged to the side to move.
fn replayed(
    ctx: &Arc<RoomContext>,
    record: GameRecord,
    red: SeatPlayer,
    blue: SeatPlayer,
    away: [Vec<jungle_store::Vacation>; 2],
) -> Result<GameSession, String> {
    let settings = RoomSettings {
        rules: record.rules,
        clock: record.clock,
        rated: record.rated,
    };
    let game = jungle_game::replay::stored_game(&record).map_err(|stopped| stopped.to_string())?;
    let now = ctx.time.instant();
    let mut clock = match record.moves.last() {
        Some(last) => GameClock::restore(settings.clock, last.clock, now),
        None => GameClock::new(settings.clock, now),
    };
    // A correspondence turn runs by the wall clock, down or not, but for the mover's
    // vacations (the room reads those still to come when it starts).
    let to_move = game.position().side_to_move();
    // A day given this turn is in the stored clock: once a turn holds across a restart.
    let day_given = clock.has_extra_time(to_move);
    let (began, wall_now) = (turn_began(&record), ctx.time.wall_ms());
    let on_vacation: i64 = away[to_move.index()]
        .iter()
        .map(|v| (v.ends_at.min(wall_now) - v.starts_at.max(began)).max(0))
        .sum();
    let downtime = (wall_now - began - on_vacation).max(0) as u64;
    clock.charge_downtime(to_move, std::time::Duration::from_millis(downtime));
    Ok(GameSession::resumed(
        settings,
        record.room_code.clone(),
        game,
        clock,
        [red, blue],
        ctx.timing,
        now,
    )
    .in_tournament(record.tournament)
    .kept_private(record.private)
    .with_day_given(day_given))
}

/// When the running turn of a stored game began: its last move, or its start.
fn turn_began(record: &GameRecord) -> i64 {
    record
        .moves
        .last()
        .map_or(record.created_at, |last| last.played_at)
}

/// At start: resumes every game the database says is in progress (replayed to where it was;
/// the clocks restart from the last stored turn).
pub async fn resume_all(ctx: &Arc<RoomContext>) -> Result<(), jungle_store::StoreError> {
    let games = ctx.store.active_games().await?;
    let count = games.len();
    for record in games {
        resume_record(ctx, record).await?;
    }
    if count > 0 {
        tracing::info!(games = count, "resumed unfinished games");
    }
    Ok(())
}

/// At start: reopens the private rooms that were waiting when the server stopped, under their
/// codes, so that shared links keep working. Those whose hour is up expire as they start.
pub async fn restore_all_waiting(ctx: &Arc<RoomContext>) -> Result<(), jungle_store::StoreError> {
    let rooms = ctx.store.waiting_rooms().await?;
    for saved in &rooms {
        restore_waiting(ctx, saved).await?;
    }
    if !rooms.is_empty() {
        tracing::info!(rooms = rooms.len(), "restored waiting private rooms");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_codes_are_long_and_every_symbol_is_equally_likely() {
        let rooms = Rooms::default();
        let mut counts = std::collections::HashMap::new();
        for _ in 0..4_000 {
            let code = new_room_code(&rooms);
            assert_eq!(code.len(), ROOM_CODE_LEN);
            for c in code.chars() {
                assert!(!"0O1IL".contains(c), "{code}");
                *counts.entry(c).or_insert(0u32) += 1;
            }
        }
        assert_eq!(counts.len(), 31);
        // 32,000 symbols over 31: about 1,032 each; a `% 31` bias would give the first eight
        // symbols about 1,280.
        for (symbol, n) in counts {
            assert!((850..1_220).contains(&n), "{symbol}: {n}");
        }
    }
}
