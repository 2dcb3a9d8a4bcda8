//! JGN, the Jungle Game Notation (`docs/notation.md`): PGN-style tag pairs, then movetext, then
//! the result.
//!
//! ```text
//! [Event "Rated classic game"]
//! [Red "Ada"]
//! [Blue "Grace"]
//! [Rules "classic"]
//! [TimeControl "300+2"]
//! [Result "1-0"]
//! [Termination "den"]
//!
//! 1. e3d3 {[%clk 0:04:58]} a9b9 {[%clk 0:04:59]} 2. d3d4 pass 1-0
//! ```
//!
//! The parser takes what people paste: any whitespace and line endings, comments anywhere
//! between moves, move numbers with or without the dot and with `...`, no result token. Bad
//! input gets the line and column and what was expected; never a panic.
//!
//! Long (about 600 lines) for one concern: the text format's reader and writer, every tag and move
//! form, and their tests.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::{Game, ParseMoveError, ParsePositionError, ParseRulesetError, PlayError, Position};
use crate::{Ruleset, Side, Turn};

/// The tags written first, in this order; `FEN` follows them, then any others as read.
pub const TAG_ORDER: [&str; 11] = [
    "Event",
    "Site",
    "Date",
    "Red",
    "Blue",
    "RedRating",
    "BlueRating",
    "Rules",
    "TimeControl",
    "Result",
    "Termination",
];

/// How a game ended, as its result token says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    RedWon,
    /// `0-1`
    BlueWon,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished, or not known.
    #[default]
    Unknown,
}

impl GameResult {
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::RedWon => "1-0",
            GameResult::BlueWon => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    fn from_token(token: &str) -> Option<GameResult> {
        [
            GameResult::RedWon,
            GameResult::BlueWon,
            GameResult::Draw,
            GameResult::Unknown,
        ]
        .into_iter()
        .find(|r| r.token() == token)
    }

    /// The result of a game won by `winner` (`None`: drawn).
    pub const fn from_winner(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::Red) => GameResult::RedWon,
            Some(Side::Blue) => GameResult::BlueWon,
            None => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// One turn of the movetext, with what the comments after it said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextTurn {
    pub turn: Turn,
    /// The mover's clock after the turn, in milliseconds (`{[%clk 0:04:58]}`).
    pub clock_ms: Option<u64>,
    /// The rest of the comments' text, if any.
    pub comment: Option<String>,
}

impl TextTurn {
    pub fn new(turn: Turn) -> TextTurn {
        TextTurn {
            turn,
            clock_ms: None,
            comment: None,
        }
    }
}

/// A game in JGN: its tags, turns and result. Parse with `str::parse`, write with `Display`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    /// Tag pairs as read (or set); written in [`TAG_ORDER`], then `FEN`, then the rest.
    pub tags: Vec<(String, String)>,
    /// A comment before the first turn.
    pub comment: Option<String>,
    pub turns: Vec<TextTurn>,
    pub result: GameResult,
}

impl GameText {
    /// The text of a game's turns and result (by its outcome: `*` while it is not over), with
    /// its `Rules` tag and, when it did not start from the initial position, its `FEN`.
    pub fn from_game(game: &Game, ruleset: Ruleset) -> GameText {
        let mut text = GameText {
            turns: game.turns().map(TextTurn::new).collect(),
            result: game
                .outcome()
                .map_or(GameResult::Unknown, |o| GameResult::from_winner(o.winner)),
            ..GameText::default()
        };
        text.set_tag("Rules", ruleset.name());
        if *game.start() != Position::default() {
            text.set_tag("FEN", &game.start().to_string());
        }
        text
    }

    /// The value of a tag, if present (the first, if repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if present.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// The ruleset of the `Rules` tag; `classic` when there is none.
    pub fn ruleset(&self) -> Result<Ruleset, ParseRulesetError> {
        self.tag("Rules").map_or(Ok(Ruleset::Classic), str::parse)
    }

    /// The starting position: the `FEN` tag's, or the initial one.
    pub fn start(&self) -> Result<Position, ParsePositionError> {
        self.tag("FEN").map_or(Ok(Position::default()), str::parse)
    }

    /// Plays the turns from the start under the `Rules` tag's ruleset, with every rule.
    pub fn replay(&self) -> Result<Game, ReplayTextError> {
        let ruleset = self.ruleset().map_err(ReplayTextError::Rules)?;
        let start = self.start().map_err(ReplayTextError::Position)?;
        Game::replay(ruleset.rules(), start, self.turns.iter().map(|t| t.turn))
            .map_err(|(index, error)| ReplayTextError::Turn { index, error })
    }
}

/// Why a game's text could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayTextError {
    Rules(ParseRulesetError),
    Position(ParsePositionError),
    /// Turn `index` (0 for the first) cannot be played.
    Turn {
        index: usize,
        error: PlayError,
    },
}

impl fmt::Display for ReplayTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayTextError::Rules(e) => write!(f, "Rules tag: {e}"),
            ReplayTextError::Position(e) => write!(f, "FEN tag: {e}"),
            ReplayTextError::Turn { index, error } => write!(
                f,
                "turn {} (move {}{}): {error}",
                index + 1,
                index / 2 + 1,
                if index % 2 == 0 { "" } else { "..." }
            ),
        }
    }
}

impl std::error::Error for ReplayTextError {}

/// What was wrong, and where (lines and columns count from 1, columns in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGameTextError {
    pub line: usize,
    pub column: usize,
    pub kind: GameTextErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameTextErrorKind {
    /// Something other than what may stand here.
    Expected {
        expected: &'static str,
        found: String,
    },
    /// A token shaped like a move that is not one.
    BadMove { text: String, error: ParseMoveError },
    /// A `{` without its `}`.
    UnterminatedComment,
    /// A tag value's `"` without its closing `"`.
    UnterminatedString,
    /// A tag after the movetext began.
    TagAfterMoves,
    /// Moves after the result token.
    AfterResult(String),
    /// A clock comment whose time does not read (`[%clk H:MM:SS]`).
    BadClock(String),
}

impl fmt::Display for ParseGameTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            GameTextErrorKind::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found:?}")
            }
            GameTextErrorKind::BadMove { text, error } => write!(f, "bad move {text:?}: {error}"),
            GameTextErrorKind::UnterminatedComment => f.write_str("a comment `{` is never closed"),
            GameTextErrorKind::UnterminatedString => f.write_str("a tag value is never closed"),
            GameTextErrorKind::TagAfterMoves => f.write_str("tags must come before the moves"),
            GameTextErrorKind::AfterResult(found) => {
                write!(f, "{found:?} after the result, which ends the game")
            }
            GameTextErrorKind::BadClock(text) => {
                write!(f, "clock {text:?} is not H:MM:SS")
            }
        }
    }
}

impl std::error::Error for ParseGameTextError {}

/// Reads characters, keeping the line and column of the next.
struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.next();
        }
    }

    fn error(&self, line: usize, column: usize, kind: GameTextErrorKind) -> ParseGameTextError {
        ParseGameTextError { line, column, kind }
    }

    /// A run of characters up to whitespace or a delimiter.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | '}' | '[' | ']' | '"') {
                break;
            }
            word.push(c);
            self.next();
        }
        word
    }
}

/// A word that is a move number: `12`, `12.`, `12...` (the dots optional).
fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    !digits.is_empty() && digits.len() <= 6 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `[%clk H:MM:SS]` or `[%clk H:MM:SS.d]` (hours optional) in milliseconds.
fn parse_clock(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let parts: Vec<&str> = whole.split(':').collect();
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.is_empty() || p.len() > 4) {
        return None;
    }
    let mut seconds: u64 = 0;
    for (i, part) in parts.iter().enumerate() {
        let value: u64 = part.parse().ok()?;
        if i > 0 && value >= 60 {
            return None;
        }
        seconds = seconds * 60 + value;
    }
    let millis = match fraction.len() {
        0 => 0,
        1..=3 if fraction.bytes().all(|b| b.is_ascii_digit()) => {
            fraction.parse::<u64>().ok()? * 10u64.pow(3 - fraction.len() as u32)
        }
        _ => return None,
    };
    Some(seconds * 1000 + millis)
}

/// Splits a comment's text into its clock and the rest.
fn read_comment(text: &str) -> Result<(Option<u64>, Option<String>), String> {
    let mut clock = None;
    let mut rest = text.to_owned();
    if let Some(start) = text.find("[%clk") {
        let after = &text[start + "[%clk".len()..];
        let Some(end) = after.find(']') else {
            return Err(after.trim().to_owned());
        };
        let value = after[..end].trim();
        clock = Some(parse_clock(value).ok_or_else(|| value.to_owned())?);
        rest = format!("{}{}", &text[..start], &after[end + 1..]);
    }
    let rest = comment_text(&rest);
    Ok((clock, (!rest.is_empty()).then_some(rest)))
}

impl FromStr for GameText {
    type Err = ParseGameTextError;

    fn from_str(text: &str) -> Result<GameText, ParseGameTextError> {
        use GameTextErrorKind as E;
        let mut r = Reader {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        };
        let mut game = GameText::default();
        let mut result: Option<GameResult> = None;
        loop {
            r.skip_space();
            let (line, column) = (r.line, r.column);
            let Some(c) = r.peek() else { break };
            match c {
                '[' => {
                    if !game.turns.is_empty() || game.comment.is_some() || result.is_some() {
                        return Err(r.error(line, column, E::TagAfterMoves));
                    }
                    r.next();
                    r.skip_space();
                    let (nl, nc) = (r.line, r.column);
                    let name = r.word();
                    if name.is_empty()
                        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        let found = r.peek().map_or_else(|| "the end".to_owned(), String::from);
                        let found = if name.is_empty() { found } else { name };
                        return Err(r.error(
                            nl,
                            nc,
                            E::Expected {
                                expected: "a tag name",
                                found,
                            },
                        ));
                    }
                    r.skip_space();
                    let (ql, qc) = (r.line, r.column);
                    if r.peek() != Some('"') {
                        let found = r.peek().map_or_else(|| "the end".to_owned(), String::from);
                        return Err(r.error(
                            ql,
                            qc,
                            E::Expected {
                                expected: "a quoted tag value",
                                found,
                            },
                        ));
                    }
                    r.next();
                    let mut value = String::new();
                    loop {
                        match r.next() {
                            None => return Err(r.error(ql, qc, E::UnterminatedString)),
                            Some('"') => break,
                            Some('\\') => match r.next() {
                                None => return Err(r.error(ql, qc, E::UnterminatedString)),
                                Some(escaped) => value.push(escaped),
                            },
                            Some(c) => value.push(c),
                        }
                    }
                    r.skip_space();
                    let (el, ec) = (r.line, r.column);
                    if r.peek() != Some(']') {
                        let found = r.word();
                        return Err(r.error(
                            el,
                            ec,
                            E::Expected {
                                expected: "`]` closing the tag",
                                found,
                            },
                        ));
                    }
                    r.next();
                    game.tags.push((name, value));
                }
                '{' => {
                    r.next();
                    let mut body = String::new();
                    loop {
                        match r.next() {
                            None => return Err(r.error(line, column, E::UnterminatedComment)),
                            Some('}') => break,
                            Some(c) => body.push(c),
                        }
                    }
                    let (clock, comment) = read_comment(&body)
                        .map_err(|bad| r.error(line, column, E::BadClock(bad)))?;
                    match game.turns.last_mut() {
                        Some(turn) if result.is_none() => {
                            turn.clock_ms = clock.or(turn.clock_ms);
                            turn.comment = join(turn.comment.take(), comment);
                        }
                        _ => game.comment = join(game.comment.take(), comment),
                    }
                }
                _ => {
                    let word = r.word();
                    if word.is_empty() {
                        // A lone delimiter: `]`, `}` or `"` out of place.
                        r.next();
                        return Err(r.error(
                            line,
                            column,
                            E::Expected {
                                expected: "a move, a move number, a comment or a result",
                                found: c.to_string(),
                            },
                        ));
                    }
                    if let Some(token) = GameResult::from_token(&word) {
                        if result.is_some() {
                            return Err(r.error(line, column, E::AfterResult(word)));
                        }
                        result = Some(token);
                        continue;
                    }
                    if result.is_some() {
                        return Err(r.error(line, column, E::AfterResult(word)));
                    }
                    if is_move_number(&word) || word.bytes().all(|b| b == b'.') {
                        continue;
                    }
                    // `12.a3a4` (no space after the number) is read as both.
                    let mv = match word.find('.') {
                        Some(dot) if is_move_number(&word[..=dot]) => {
                            word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
                        }
                        _ => word.as_str(),
                    };
                    let looks_like_move = mv == "pass"
                        || (mv.len() == 4
                            && mv.bytes().next().is_some_and(|b| b.is_ascii_lowercase()));
                    if !looks_like_move {
                        return Err(r.error(
                            line,
                            column,
                            E::Expected {
                                expected: "a move, a move number, a comment or a result",
                                found: word,
                            },
                        ));
                    }
                    let turn = mv.parse::<Turn>().map_err(|error| {
                        r.error(
                            line,
                            column,
                            E::BadMove {
                                text: mv.to_owned(),
                                error,
                            },
                        )
                    })?;
                    game.turns.push(TextTurn::new(turn));
                }
            }
        }
        game.result = result.unwrap_or_default();
        Ok(game)
    }
}

fn join(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a} {b}")),
        (a, b) => a.or(b),
    }
}

/// `H:MM:SS`, with tenths under a minute.
fn format_clock(ms: u64) -> String {
    let seconds = ms / 1000;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if ms < 60_000 && !ms.is_multiple_of(1000) {
        format!("{h}:{m:02}:{s:02}.{}", ms % 1000 / 100)
    } else {
        format!("{h}:{m:02}:{s:02}")
    }
}

/// A tag value with `\` and `"` escaped and line breaks made spaces.
fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Comment text as it is kept and written: braces taken out (a comment cannot hold one) and
/// runs of whitespace made one space, so that text read back reads the same.
fn comment_text(text: &str) -> String {
    text.replace(['{', '}'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for GameText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = TAG_ORDER.iter().chain(std::iter::once(&"FEN"));
        for name in known {
            if *name == "Result" {
                writeln!(f, "[Result {}]", quote(self.result.token()))?;
            } else if let Some(value) = self.tag(name) {
                writeln!(f, "[{name} {}]", quote(value))?;
            }
        }
        for (name, value) in &self.tags {
            if !TAG_ORDER.contains(&name.as_str()) && name != "FEN" {
                writeln!(f, "[{name} {}]", quote(value))?;
            }
        }
        writeln!(f)?;
        // Movetext in lines of at most about 80 characters.
        let mut words: Vec<String> = Vec::new();
        if let Some(comment) = &self.comment {
            words.push(format!("{{{}}}", comment_text(comment)));
        }
        for (index, turn) in self.turns.iter().enumerate() {
            if index % 2 == 0 {
                words.push(format!("{}.", index / 2 + 1));
            }
            words.push(turn.turn.to_string());
            let clock = turn
                .clock_ms
                .map(|ms| format!("[%clk {}]", format_clock(ms)));
            let comment = turn.comment.as_deref().map(comment_text);
            let body = match (clock, comment) {
                (Some(clock), Some(comment)) => Some(format!("{clock} {comment}")),
                (clock, comment) => clock.or(comment),
            };
            if let Some(body) = body {
                words.push(format!("{{{body}}}"));
            }
        }
        words.push(self.result.token().to_owned());
        let mut line = String::new();
        for word in words {
            if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            let _ = write!(line, "{word}");
        }
        writeln!(f, "{line}")
    }
}

#[cfg(test)]
mod tests;
