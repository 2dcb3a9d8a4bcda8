//! An engine that speaks our engine protocol (docs/cli.md, `jungle uci`) as a child process:
//! started with a shell command, told the rules, asked for a move by position and clocks.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long the engine has to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
}

/// What the engine is asked to think with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Think {
    /// Both clocks and increments, in milliseconds (Red's first, as `wtime`/`winc`).
    Clocks {
        rtime: u64,
        btime: u64,
        rinc: u64,
        binc: u64,
    },
    /// A fixed time for this move.
    MoveTime(u64),
}

impl Think {
    /// The `go` line.
    pub fn go(&self) -> String {
        match self {
            Think::Clocks {
                rtime,
                btime,
                rinc,
                binc,
            } => format!("go wtime {rtime} btime {btime} winc {rinc} binc {binc}"),
            Think::MoveTime(ms) => format!("go movetime {ms}"),
        }
    }

    /// The longest the engine may take before it is given up on.
    fn deadline(&self, red: bool) -> Duration {
        let ms = match self {
            Think::Clocks { rtime, btime, .. } => {
                if red {
                    *rtime
                } else {
                    *btime
                }
            }
            Think::MoveTime(ms) => *ms,
        };
        Duration::from_millis(ms) + Duration::from_secs(10)
    }
}

/// The `position` line: from the start or a FEN, then the moves.
pub fn position_line(initial: Option<&str>, moves: &[&str]) -> String {
    let mut line = match initial {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_owned(),
    };
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    line
}

impl Engine {
    /// Starts `command` (through the shell) and readies it for `rules`.
    pub async fn start(command: &str, rules: &str) -> Result<Engine, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("starting the engine {command:?}: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped")).lines();
        let mut engine = Engine {
            child,
            stdin,
            stdout,
        };
        engine.send("uci").await?;
        engine.wait_for("uciok", HANDSHAKE).await?;
        engine
            .send(&format!("setoption name Rules value {rules}"))
            .await?;
        engine.send("ucinewgame").await?;
        engine.send("isready").await?;
        engine.wait_for("readyok", HANDSHAKE).await?;
        Ok(engine)
    }

    async fn send(&mut self, line: &str) -> Result<(), String> {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .map_err(|e| format!("the engine stopped reading: {e}"))?;
        self.stdin.flush().await.map_err(|e| e.to_string())
    }

    /// Reads lines until one starts with `word`; that line.
    async fn wait_for(&mut self, word: &str, within: Duration) -> Result<String, String> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let line = tokio::time::timeout_at(deadline, self.stdout.next_line())
                .await
                .map_err(|_| format!("the engine did not say {word} in time"))?
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("the engine ended before {word}"))?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    /// The engine's move in the position; `None` when it has none.
    pub async fn best_move(
        &mut self,
        position: &str,
        think: &Think,
        red: bool,
    ) -> Result<Option<String>, String> {
        self.send(position).await?;
        self.send(&think.go()).await?;
        let line = self.wait_for("bestmove", think.deadline(red)).await?;
        Ok(line
            .split_whitespace()
            .nth(1)
            .filter(|m| *m != "(none)")
            .map(str::to_owned))
    }

    pub async fn quit(mut self) {
        let _ = self.send("quit").await;
        let _ = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_for_the_engine() {
        assert_eq!(position_line(None, &[]), "position startpos");
        assert_eq!(
            position_line(Some("8/8 b 1"), &["a3a4", "pass"]),
            "position fen 8/8 b 1 moves a3a4 pass"
        );
        let clocks = Think::Clocks {
            rtime: 1000,
            btime: 2000,
            rinc: 3,
            binc: 4,
        };
        assert_eq!(clocks.go(), "go wtime 1000 btime 2000 winc 3 binc 4");
        assert_eq!(Think::MoveTime(500).go(), "go movetime 500");
    }
}
