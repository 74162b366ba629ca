//! One engine program, spoken to over docs/engine-protocol.md: set up the game, ask
//! for a move within a time, and give up on an engine that stays silent.

use std::process::Stdio;
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::timeout;

/// Extra time an engine gets past its `movetime` before it is told to `stop`.
const GRACE: Duration = Duration::from_millis(1500);

/// Time an engine gets to answer `stop` before it counts as silent.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// A running engine program; killed when dropped.
#[derive(Debug)]
pub struct Engine {
    _child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Engine {
    /// Starts `command` with the shell.
    pub fn start(command: &str) -> anyhow::Result<Engine> {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start the engine {command:?}"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        Ok(Engine {
            _child: child,
            stdin,
            lines: BufReader::new(stdout).lines(),
        })
    }

    async fn send(&mut self, line: &str) -> anyhow::Result<()> {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .context("the engine closed its input")?;
        self.stdin.flush().await?;
        Ok(())
    }

    /// The engine's move in `variant` after `moves`, thinking about `think` long.
    /// Errors when the engine reports an error, answers something else than a move,
    /// exits, or stays silent past the grace times.
    pub async fn best_move(
        &mut self,
        variant: &str,
        moves: &[String],
        think: Duration,
    ) -> anyhow::Result<String> {
        self.send(&format!("variant {variant}")).await?;
        let mut position = String::from("position startpos");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position).await?;
        self.send(&format!("go movetime {}", think.as_millis().max(1)))
            .await?;
        let mut wait = think + GRACE;
        let mut stopped = false;
        loop {
            match timeout(wait, self.lines.next_line()).await {
                Ok(Ok(Some(line))) => {
                    let line = line.trim();
                    if let Some(m) = line.strip_prefix("bestmove ") {
                        let m = m.split_whitespace().next().unwrap_or("");
                        if m.is_empty() || m == "none" {
                            bail!("the engine has no move");
                        }
                        return Ok(m.to_owned());
                    }
                    if let Some(e) = line.strip_prefix("error ") {
                        bail!("the engine reports: {e}");
                    }
                }
                Ok(Ok(None)) => bail!("the engine exited"),
                Ok(Err(e)) => bail!("cannot read the engine: {e}"),
                Err(_) if !stopped => {
                    self.send("stop").await?;
                    stopped = true;
                    wait = STOP_GRACE;
                }
                Err(_) => bail!("the engine gave no move in time"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shell engine that answers every `go` with `answer`.
    fn scripted(answer: &str) -> Engine {
        Engine::start(&format!(
            "while read l; do case \"$l\" in go*) echo 'info depth 1'; echo '{answer}';; esac; done"
        ))
        .unwrap()
    }

    #[tokio::test]
    async fn a_move_is_read_past_the_info_lines() {
        let mut e = scripted("bestmove m3-m5");
        let m = e
            .best_move("classic-2", &[], Duration::from_millis(10))
            .await
            .unwrap();
        assert_eq!(m, "m3-m5");
    }

    #[tokio::test]
    async fn errors_and_no_move_are_failures() {
        let mut e = scripted("error illegal move");
        let err = e
            .best_move("classic-2", &["m3-m5".into()], Duration::from_millis(10))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("illegal move"), "{err}");
        let mut e = scripted("bestmove none");
        assert!(e
            .best_move("classic-2", &[], Duration::from_millis(10))
            .await
            .is_err());
    }

    #[tokio::test]
    async fn a_silent_or_dead_engine_fails_in_bounded_time() {
        let mut e = Engine::start("cat > /dev/null").unwrap();
        let started = std::time::Instant::now();
        let err = e
            .best_move("classic-2", &[], Duration::from_millis(10))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("in time"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));
        let mut e = Engine::start("true").unwrap();
        assert!(e
            .best_move("classic-2", &[], Duration::from_millis(10))
            .await
            .is_err());
    }
}
