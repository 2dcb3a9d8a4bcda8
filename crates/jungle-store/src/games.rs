//! Every query on the `games` table and its moves: creating, reading, listing and archiving games
//! (their end is `game_end/`).
//!
//! Long (about 650 lines) for one table; a game's end, the part that runs other domains' rules, is
//! apart in `game_end/`.

use jungle_protocol::http::GameSummary;
use jungle_protocol::{GameStatus, RatingChange, Reason};
use jungle_rules::{Ruleset, Side};
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, AnyConnection, Row, Transaction};
use uuid::Uuid;

use super::{get_uuid, now_ms, Backend, Store, StoreError};
use jungle_game::records::{ChatRecord, GameRecord, MoveRecord, NewGame, StoredClock};

/// Most turns inserted by one statement.
pub const TURNS_PER_STATEMENT: usize = 512;

/// On SQLite, statements of at most this many turns are kept prepared; larger ones are
/// prepared for their one use. Each count of rows is its own statement, and a connection keeps
/// up to 100: kept for every count up to 512, they held 11 MB of SQLite's memory in the
/// server's process at 3,000 games. A large batch comes only under heavy load, where preparing
/// it costs little beside its rows. PostgreSQL keeps its prepared statements in its own
/// process, and one not kept would cost a second round trip (sqlx parses it first), so there
/// every statement is kept.
pub(super) const TURNS_KEPT_PREPARED: usize = 16;

/// The columns of a stored turn, in `moves` and in the move log alike.
pub(super) const TURN_COLUMNS: &str =
    "game_id, ply, mv, red_ms, blue_ms, red_timeouts, blue_timeouts, played_at, blurred";

/// One value of a stored turn.
pub(super) enum TurnValue {
    Text(String),
    Integer(i64),
}

/// A turn's values in the order of [`TURN_COLUMNS`], as both of the writer's connections store
/// them (a turn not yet stamped gets `now`).
pub(super) fn turn_row(game: Uuid, m: &MoveRecord, now: i64) -> [TurnValue; 9] {
    use TurnValue::{Integer, Text};
    [
        Text(game.to_string()),
        Integer(m.ply),
        Text(m.mv.clone()),
        Integer(m.clock.red_ms),
        Integer(m.clock.blue_ms),
        Integer(m.clock.red_timeouts),
        Integer(m.clock.blue_timeouts),
        Integer(if m.played_at > 0 { m.played_at } else { now }),
        Integer(i64::from(m.blurred)),
    ]
}

/// Binds each turn's values ([`turn_row`]).
fn bind_turns<'q>(
    mut query: Query<'q, Any, AnyArguments<'q>>,
    turns: &[(Uuid, MoveRecord)],
) -> Query<'q, Any, AnyArguments<'q>> {
    let now = now_ms();
    for (game, m) in turns {
        for value in turn_row(*game, m, now) {
            query = match value {
                TurnValue::Text(text) => query.bind(text),
                TurnValue::Integer(n) => query.bind(n),
            };
        }
    }
    query
}

pub(crate) fn status_name(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Waiting => "waiting",
        GameStatus::Active => "active",
        GameStatus::Finished => "finished",
        GameStatus::Aborted => "aborted",
    }
}

fn parse_status(text: &str) -> Result<GameStatus, StoreError> {
    Ok(match text {
        "waiting" => GameStatus::Waiting,
        "active" => GameStatus::Active,
        "finished" => GameStatus::Finished,
        "aborted" => GameStatus::Aborted,
        other => return Err(StoreError::Corrupt(format!("game status {other:?}"))),
    })
}

fn parse_side(text: Option<String>) -> Result<Option<Side>, StoreError> {
    text.map(|t| {
        t.parse()
            .map_err(|_| StoreError::Corrupt(format!("side {t:?}")))
    })
    .transpose()
}

fn parse_ruleset(text: &str) -> Result<Ruleset, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("ruleset {text:?}")))
}

const GAME_COLUMNS: &str = "g.id, g.ruleset, g.clock, g.rated, g.room_code, g.red_id, g.blue_id,
    g.red_rating, g.blue_rating, g.red_provisional, g.blue_provisional, g.start_fen, g.status,
    g.winner, g.reason, g.rating_applied,
    g.red_change, g.blue_change, g.created_at, g.ended_at, g.private, pr.name AS red_name, pb.name AS blue_name,
    pr.title AS red_title, pb.title AS blue_title,
    (SELECT tg.tournament_id FROM tournament_games tg WHERE tg.game_id = g.id) AS tournament_id";

fn game_from_row(r: &AnyRow) -> Result<GameRecord, StoreError> {
    let clock: String = r.try_get("clock")?;
    let red_change: Option<i64> = r.try_get("red_change")?;
    let blue_change: Option<i64> = r.try_get("blue_change")?;
    let reason: Option<String> = r.try_get("reason")?;
    Ok(GameRecord {
        id: get_uuid(r, "id")?,
        rules: parse_ruleset(&r.try_get::<String, _>("ruleset")?)?,
        clock: serde_json::from_str(&clock).map_err(|e| StoreError::Corrupt(e.to_string()))?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        room_code: r.try_get("room_code")?,
        red: get_uuid(r, "red_id")?,
        blue: get_uuid(r, "blue_id")?,
        red_name: r.try_get("red_name")?,
        blue_name: r.try_get("blue_name")?,
        red_rating: r.try_get::<i64, _>("red_rating")? as i32,
        blue_rating: r.try_get::<i64, _>("blue_rating")? as i32,
        red_provisional: r.try_get::<i64, _>("red_provisional")? != 0,
        blue_provisional: r.try_get::<i64, _>("blue_provisional")? != 0,
        red_title: r.try_get("red_title")?,
        blue_title: r.try_get("blue_title")?,
        start: r.try_get("start_fen")?,
        status: parse_status(&r.try_get::<String, _>("status")?)?,
        winner: parse_side(r.try_get("winner")?)?,
        reason: reason.as_deref().and_then(Reason::from_name),
        rating_applied: r.try_get::<i64, _>("rating_applied")? != 0,
        rating_change: match (red_change, blue_change) {
            (Some(red), Some(blue)) => Some(RatingChange {
                red: red as i32,
                blue: blue as i32,
            }),
            _ => None,
        },
        moves: Vec::new(),
        created_at: r.try_get("created_at")?,
        ended_at: r.try_get("ended_at")?,
        private: r.try_get::<i64, _>("private")? != 0,
        tournament: r
            .try_get::<Option<String>, _>("tournament_id")?
            .map(|t| {
                t.parse()
                    .map_err(|_| StoreError::Corrupt(format!("tournament id {t:?}")))
            })
            .transpose()?,
    })
}

impl Store {
    pub async fn insert_game(
        &self,
        tx: &mut Transaction<'_, Any>,
        game: &NewGame,
    ) -> Result<(), StoreError> {
        let clock = serde_json::to_string(&game.clock).expect("clock serializes");
        sqlx::query(
            "INSERT INTO games (id, ruleset, clock, rated, room_code, red_id, blue_id, red_rating,
                blue_rating, start_fen, status, created_at, private, red_provisional, blue_provisional)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'active', $11, $12, $13, $14)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(game.id.to_string())
        .bind(game.ruleset.name())
        .bind(clock)
        .bind(game.rated as i64)
        .bind(game.room_code.clone())
        .bind(game.red.to_string())
        .bind(game.blue.to_string())
        .bind(game.red_rating as i64)
        .bind(game.blue_rating as i64)
        .bind(game.start_fen.clone())
        .bind(if game.created_at > 0 { game.created_at } else { now_ms() })
        .bind(i64::from(game.private))
        .bind(i64::from(game.red_provisional))
        .bind(i64::from(game.blue_provisional))
        .execute(&mut **tx)
        .await?;
        // A game over days, stored, counts as itself: the places claimed for it go.
        if game.clock.is_correspondence() {
            sqlx::query("DELETE FROM correspondence_claims WHERE game_id = $1")
                .bind(game.id.to_string())
                .execute(&mut **tx)
                .await?;
        }
        // A private room's game starting ends its wait, in the same transaction.
        if let Some(code) = &game.room_code {
            self.delete_waiting_room(tx, code).await?;
        }
        // A tournament's pairing is stored with its game: both or neither.
        if let Some(tournament) = game.tournament {
            self.insert_pairing(tx, tournament, game).await?;
        }
        Ok(())
    }

    /// Appends turns to `moves`; a turn already stored (a retried write) is left as it is.
    /// Turns on the clock go to the move log instead ([`Store::append_to_log`]).
    /// Takes a transaction or, for turns that fit one statement ([`TURNS_PER_STATEMENT`]), a
    /// bare connection: one statement commits whole or not at all.
    pub async fn insert_moves(
        &self,
        conn: &mut AnyConnection,
        moves: &[(Uuid, MoveRecord)],
    ) -> Result<(), StoreError> {
        self.insert_turn_rows(
            conn,
            "moves",
            moves,
            " ON CONFLICT (game_id, ply) DO NOTHING",
        )
        .await
    }

    /// Many rows per statement: one round trip for a whole batch of games' turns.
    pub(super) async fn insert_turn_rows(
        &self,
        conn: &mut AnyConnection,
        table: &str,
        moves: &[(Uuid, MoveRecord)],
        on_conflict: &str,
    ) -> Result<(), StoreError> {
        for chunk in moves.chunks(TURNS_PER_STATEMENT) {
            let sql = self.turn_rows_sql(table, chunk.len(), on_conflict);
            let kept = self.backend == Backend::Postgres || chunk.len() <= TURNS_KEPT_PREPARED;
            let query = sqlx::query(&sql).persistent(kept);
            bind_turns(query, chunk).execute(&mut *conn).await?;
        }
        Ok(())
    }

    /// An insert of `rows` turns into `table`, then `tail`; the values go in by [`bind_turns`].
    pub(super) fn turn_rows_sql(&self, table: &str, rows: usize, tail: &str) -> String {
        let mut sql = format!("INSERT INTO {table} ({TURN_COLUMNS}) VALUES ");
        for i in 0..rows {
            if i > 0 {
                sql.push(',');
            }
            self.push_row_placeholders(&mut sql, i * 9, 9);
        }
        sql.push_str(tail);
        sql
    }

    /// Replaces the clocks stored with one turn (a correspondence day given).
    pub async fn set_turn_clock(
        &self,
        tx: &mut Transaction<'_, Any>,
        game: Uuid,
        ply: usize,
        clock: StoredClock,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE moves SET red_ms = $1, blue_ms = $2, red_timeouts = $3, blue_timeouts = $4
             WHERE game_id = $5 AND ply = $6",
        )
        .bind(clock.red_ms)
        .bind(clock.blue_ms)
        .bind(clock.red_timeouts)
        .bind(clock.blue_timeouts)
        .bind(game.to_string())
        .bind(ply as i64)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Appends `(p1, …, pN)` for the row whose first parameter is number `first + 1`. SQLite
    /// gets anonymous `?`: for numbered ones sqlx looks each name up, which SQLite answers by a
    /// linear scan, so a 1,024-parameter insert spent most of its time there.
    fn push_row_placeholders(&self, sql: &mut String, first: usize, count: usize) {
        use std::fmt::Write as _;
        sql.push('(');
        for n in 1..=count {
            if n > 1 {
                sql.push_str(", ");
            }
            match self.backend {
                Backend::Sqlite => sql.push('?'),
                Backend::Postgres => {
                    let _ = write!(sql, "${}", first + n);
                }
            }
        }
        sql.push(')');
    }

    pub async fn game(&self, id: Uuid) -> Result<Option<GameRecord>, StoreError> {
        match self.game_without_moves(id).await? {
            Some(game) => self.with_moves(game).await.map(Some),
            None => Ok(None),
        }
    }

    /// `game` (read by [`Store::game_without_moves`]) with its turns.
    pub async fn with_moves(&self, mut game: GameRecord) -> Result<GameRecord, StoreError> {
        // A game's end moves its turns out of the log in the same commit: an ended game's
        // are all in `moves`. (One that ended after its row was read is also looked for in the
        // log, which does no harm.)
        game.moves = self
            .moves(game.id, game.status == GameStatus::Active)
            .await?;
        Ok(game)
    }

    /// A game's row, its `moves` left empty: for a question about its players or status,
    /// which should not read (for a game in progress, scan) the move log.
    pub async fn game_without_moves(&self, id: Uuid) -> Result<Option<GameRecord>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g
             JOIN players pr ON pr.id = g.red_id JOIN players pb ON pb.id = g.blue_id
             WHERE g.id = $1"
        );
        let Some(row) = sqlx::query(&sql)
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        game_from_row(&row).map(Some)
    }

    /// A game's turns by ply; `with_log`: the move log's too (a game in progress), read by a
    /// scan of the log, which the writer keeps short.
    async fn moves(&self, id: Uuid, with_log: bool) -> Result<Vec<MoveRecord>, StoreError> {
        const COLUMNS: &str =
            "ply, mv, red_ms, blue_ms, red_timeouts, blue_timeouts, played_at, blurred";
        let sql = if with_log {
            // `moves` first at equal plies: a turn folded while this read ran is in both.
            format!(
                "SELECT {COLUMNS}, 0 AS src FROM moves WHERE game_id = $1
                 UNION ALL SELECT {COLUMNS}, 1 AS src FROM move_log WHERE game_id = $1
                 ORDER BY ply, src"
            )
        } else {
            format!("SELECT {COLUMNS} FROM moves WHERE game_id = $1 ORDER BY ply")
        };
        let rows = sqlx::query(&sql)
            .bind(id.to_string())
            .fetch_all(&self.pool)
            .await?;
        let mut moves = rows
            .iter()
            .map(|r| {
                Ok(MoveRecord {
                    ply: r.try_get("ply")?,
                    mv: r.try_get("mv")?,
                    clock: StoredClock {
                        red_ms: r.try_get("red_ms")?,
                        blue_ms: r.try_get("blue_ms")?,
                        red_timeouts: r.try_get("red_timeouts")?,
                        blue_timeouts: r.try_get("blue_timeouts")?,
                    },
                    blurred: r.try_get::<i64, _>("blurred")? != 0,
                    played_at: r.try_get("played_at")?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        moves.dedup_by_key(|m| m.ply);
        Ok(moves)
    }

    /// Games still in progress, with their moves: what a restarted server resumes.
    pub async fn active_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'active'")
            .fetch_all(&self.pool)
            .await?;
        let mut games = Vec::with_capacity(rows.len());
        for row in &rows {
            if let Some(game) = self.game(get_uuid(row, "id")?).await? {
                games.push(game);
            }
        }
        Ok(games)
    }

    /// The ids of every game in progress (what the nodes of a cluster look through for
    /// orphans).
    pub async fn active_game_ids_all(&self) -> Result<Vec<Uuid>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'active'")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| get_uuid(r, "id")).collect()
    }

    /// The ids of a player's games in one sitting in progress: those a new tab goes back
    /// into and that keep a player busy (correspondence games are opened from their list).
    pub async fn active_game_ids_in_one_sitting(
        &self,
        player: Uuid,
    ) -> Result<Vec<Uuid>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, created_at FROM games WHERE red_id = $1 AND status = 'active'
               AND clock NOT LIKE '{\"kind\":\"days\"%'
             UNION ALL
             SELECT id, created_at FROM games WHERE blue_id = $1 AND status = 'active'
               AND clock NOT LIKE '{\"kind\":\"days\"%'
             ORDER BY created_at",
        )
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| get_uuid(r, "id")).collect()
    }

    /// The ids of a player's games in progress.
    pub async fn active_game_ids(&self, player: Uuid) -> Result<Vec<Uuid>, StoreError> {
        // Two indexed lookups: with `OR`, SQLite chose the status index and read every game
        // in progress for each sign-in (9,900 of them in the load benchmark).
        let rows = sqlx::query(
            "SELECT id, created_at FROM games WHERE red_id = $1 AND status = 'active'
             UNION ALL
             SELECT id, created_at FROM games WHERE blue_id = $1 AND status = 'active'
             ORDER BY created_at",
        )
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| get_uuid(r, "id")).collect()
    }

    /// Whether `player` sits in a game in one sitting (not over days) in progress against
    /// anyone but our computer (whose players are marked by their engine level).
    pub async fn plays_in_one_sitting(&self, player: Uuid) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM games g JOIN players o ON o.id = g.blue_id
             WHERE g.red_id = $1 AND g.status = 'active' AND o.bot_level IS NULL
               AND g.clock NOT LIKE '{\"kind\":\"days\"%'
             UNION ALL
             SELECT 1 AS one FROM games g JOIN players o ON o.id = g.red_id
             WHERE g.blue_id = $1 AND g.status = 'active' AND o.bot_level IS NULL
               AND g.clock NOT LIKE '{\"kind\":\"days\"%'
             LIMIT 1",
        )
        .bind(player.to_string())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    pub async fn insert_chat_line(
        &self,
        tx: &mut Transaction<'_, Any>,
        line: &ChatRecord,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO chat_lines (game_id, channel, player_id, preset, text, at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(line.game.to_string())
        .bind(line.channel)
        .bind(line.player.to_string())
        .bind(line.preset.clone())
        .bind(line.text.clone())
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// How many lines `player` has stored in `game`'s chat.
    pub async fn chat_count(&self, game: Uuid, player: Uuid) -> Result<u32, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM chat_lines WHERE game_id = $1 AND player_id = $2",
        )
        .bind(game.to_string())
        .bind(player.to_string())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u32)
    }

    /// The latest `limit` lines of `game`'s chat, oldest first, each with its speaker's name
    /// (a room that starts again shows them to those who join, as it did).
    pub async fn recent_chat(
        &self,
        game: Uuid,
        limit: usize,
    ) -> Result<Vec<(ChatRecord, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.channel, c.player_id, c.preset, c.text, p.name FROM chat_lines c \
             JOIN players p ON p.id = c.player_id \
             WHERE c.game_id = $1 ORDER BY c.at DESC LIMIT $2",
        )
        .bind(game.to_string())
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows
            .iter()
            .map(|r| {
                let channel: String = r.try_get("channel")?;
                let record = ChatRecord {
                    game,
                    channel: if channel == "players" {
                        "players"
                    } else {
                        "spectators"
                    },
                    player: get_uuid(r, "player_id")?,
                    preset: r.try_get("preset")?,
                    text: r.try_get("text")?,
                };
                Ok((record, r.try_get("name")?))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// A game's chat lines, oldest first.
    pub async fn chat_lines(&self, game: Uuid) -> Result<Vec<ChatRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT channel, player_id, preset, text FROM chat_lines WHERE game_id = $1 ORDER BY at",
        )
        .bind(game.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let channel: String = r.try_get("channel")?;
                Ok(ChatRecord {
                    game,
                    channel: if channel == "players" {
                        "players"
                    } else {
                        "spectators"
                    },
                    player: get_uuid(r, "player_id")?,
                    preset: r.try_get("preset")?,
                    text: r.try_get("text")?,
                })
            })
            .collect()
    }

    /// Undoes a game's turns from `kept` on, and records the takeback.
    pub async fn take_back(
        &self,
        tx: &mut Transaction<'_, Any>,
        game: Uuid,
        kept: usize,
        undone: &[String],
    ) -> Result<(), StoreError> {
        // The log first: on PostgreSQL another node's fold may be moving this game's turns
        // from the log into `moves` meanwhile; this waits for it, and the next statement
        // then sees what it moved.
        for table in ["move_log", "moves"] {
            sqlx::query(&format!(
                "DELETE FROM {table} WHERE game_id = $1 AND ply >= $2"
            ))
            .bind(game.to_string())
            .bind(kept as i64)
            .execute(&mut **tx)
            .await?;
        }
        sqlx::query("INSERT INTO takebacks (game_id, kept, undone, at) VALUES ($1, $2, $3, $4)")
            .bind(game.to_string())
            .bind(kept as i64)
            .bind(undone.join(" "))
            .bind(now_ms())
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// A finished game's stored whole-game analysis (JSON), if it has one.
    pub async fn game_evals(&self, game: Uuid) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT evals FROM game_evals WHERE game_id = $1")
            .bind(game.to_string())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(r.try_get("evals")?)).transpose()
    }

    /// Keeps a game's analysis; the first stored stays (a second is the same work again).
    pub async fn save_game_evals(&self, game: Uuid, json: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO game_evals (game_id, evals, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game.to_string())
        .bind(json)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Keys (creation time, id) of a player's games, newest first, after the key `after`
    /// (a private room's game in play left out: this is a public export).
    pub async fn player_game_keys(
        &self,
        player: Uuid,
        after: Option<(i64, Uuid)>,
        limit: i64,
    ) -> Result<Vec<(i64, Uuid)>, StoreError> {
        let (before_at, before_id) = after.unwrap_or((i64::MAX, Uuid::max()));
        let rows = sqlx::query(
            "SELECT id, created_at FROM games
             WHERE (red_id = $1 OR blue_id = $1)
               AND (created_at < $2 OR (created_at = $2 AND id < $3))
               AND (private = 0 OR status <> 'active')
             ORDER BY created_at DESC, id DESC LIMIT $4",
        )
        .bind(player.to_string())
        .bind(before_at)
        .bind(before_id.to_string())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("created_at")?, get_uuid(r, "id")?)))
            .collect()
    }

    /// A player's games, newest first: `limit` of them after skipping `offset`, of one
    /// ruleset or all.
    pub async fn player_games(
        &self,
        player: Uuid,
        rules: Option<Ruleset>,
        offset: i64,
        limit: i64,
        with_private_in_play: bool,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.ruleset, g.red_id, g.blue_id, g.status, g.winner, g.reason, g.plies,
                    g.created_at, g.ended_at, g.clock, g.rated, g.red_rating, g.blue_rating,
                    g.red_provisional, g.blue_provisional,
                    g.rating_applied, g.red_change, g.blue_change,
                    r.name AS red_name, b.name AS blue_name, r.title AS red_title, b.title AS blue_title
             FROM games g JOIN players r ON r.id = g.red_id JOIN players b ON b.id = g.blue_id
             WHERE (g.red_id = $1 OR g.blue_id = $1) AND ($2 = '' OR g.ruleset = $2)
               AND ($5 = 1 OR g.private = 0 OR g.status <> 'active')
             ORDER BY g.created_at DESC, g.id DESC LIMIT $3 OFFSET $4",
        )
        .bind(player.to_string())
        .bind(rules.map_or("", |r| r.name()))
        .bind(limit)
        .bind(offset)
        .bind(i64::from(with_private_in_play))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let reason: Option<String> = r.try_get("reason")?;
                Ok(GameSummary {
                    id: get_uuid(r, "id")?,
                    rules: parse_ruleset(&r.try_get::<String, _>("ruleset")?)?,
                    red: get_uuid(r, "red_id")?,
                    blue: get_uuid(r, "blue_id")?,
                    status: parse_status(&r.try_get::<String, _>("status")?)?,
                    winner: parse_side(r.try_get("winner")?)?,
                    reason: reason.as_deref().and_then(Reason::from_name),
                    plies: r.try_get("plies")?,
                    created_at: r.try_get("created_at")?,
                    ended_at: r.try_get("ended_at")?,
                    clock: serde_json::from_str(&r.try_get::<String, _>("clock")?)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                    rated: r.try_get::<i64, _>("rated")? != 0,
                    red_name: r.try_get("red_name")?,
                    blue_name: r.try_get("blue_name")?,
                    red_title: r.try_get("red_title")?,
                    blue_title: r.try_get("blue_title")?,
                    red_rating: r.try_get::<i64, _>("red_rating")? as i32,
                    blue_rating: r.try_get::<i64, _>("blue_rating")? as i32,
                    red_provisional: r.try_get::<i64, _>("red_provisional")? != 0,
                    blue_provisional: r.try_get::<i64, _>("blue_provisional")? != 0,
                    rating_change: match (
                        r.try_get::<i64, _>("rating_applied")? != 0,
                        r.try_get::<Option<i64>, _>("red_change")?,
                        r.try_get::<Option<i64>, _>("blue_change")?,
                    ) {
                        (true, Some(red), Some(blue)) => Some(jungle_protocol::RatingChange {
                            red: red as i32,
                            blue: blue as i32,
                        }),
                        _ => None,
                    },
                })
            })
            .collect()
    }
}
