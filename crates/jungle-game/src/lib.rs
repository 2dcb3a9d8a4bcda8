//! Jungle Arena's game domain, pure: no I/O, no async, no store. Time is passed in.
//!
//! - [`session`]: one game as a state machine (seats, presence, offers, rematch, phase),
//!   answering with events or a typed refusal; [`clock`]: its clock.
//! - [`records`]: games and players as they are kept and passed between crates;
//!   [`ended`]: a game's end as the other domains hear it.
//! - [`rating`]: Glicko-2 and the rating pools.
//! - [`arena`], [`table`]: an arena tournament's scoring and standings.
//! - [`puzzle`], [`theme`], [`themes`]: a puzzle and its judging, its themes, and how they
//!   are read from its line.
//! - [`assessment`]: the fair-play verdict from a player's signals.
//! - [`replay`]: a stored game's positions, turn by turn.
//! - [`names`]: usernames and the look-alike check; [`computer`]: the computer opponent's
//!   identity; [`time_text`]: durations as people read them.

pub mod arena;
pub mod assessment;
pub mod clock;
pub mod computer;
pub mod ended;
pub mod names;
pub mod puzzle;
pub mod rating;
pub mod records;
pub mod replay;
pub mod session;
pub mod table;
pub mod theme;
pub mod themes;
pub mod time_text;
