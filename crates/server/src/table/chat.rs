//! A table's chat: plain-text lines up to [`MAX_CHARS`] characters, a per-person rate
//! limit and a cap on the lines a table keeps, so no one can flood the others or the
//! database.

use std::collections::HashMap;

use crate::protocol::{ChatLine, ErrorCode, ProtoError, UserInfo};
use crate::time::Millis;

/// Longest line, in characters.
pub const MAX_CHARS: usize = 280;

/// Lines one person may send at once before the limit applies.
pub const BURST: u32 = 5;

/// Milliseconds to earn back one line of the burst.
pub const REFILL_MS: Millis = 2_000;

/// Most lines a table keeps; later ones are refused.
pub const MAX_LINES: usize = 2_000;

/// A line as someone sent it, before it is checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChatPost<'a> {
    /// The writer.
    pub(crate) from: &'a UserInfo,
    /// The text as sent.
    pub(crate) text: &'a str,
    /// Whether the writer only watches.
    pub(crate) spectator: bool,
    /// Whether the line is kept from the players.
    pub(crate) hidden_from_players: bool,
}

/// Each writer's remaining burst and when it was last counted.
#[derive(Debug, Clone, Copy)]
struct Allowance {
    tokens: u32,
    at: Millis,
}

/// The lines of one table and its writers' allowances.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChatLog {
    lines: Vec<ChatLine>,
    allowances: HashMap<String, Allowance>,
}

/// The text to keep: line breaks and tabs become spaces, other control characters go,
/// and the ends are trimmed.
pub(crate) fn clean(text: &str) -> String {
    let spaced: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    spaced.trim().to_owned()
}

impl ChatLog {
    /// The lines, oldest first.
    pub(crate) fn lines(&self) -> &[ChatLine] {
        &self.lines
    }

    /// The lines a player (or, with `player` false, anyone else) may see.
    pub(crate) fn visible(&self, player: bool) -> Vec<ChatLine> {
        self.lines
            .iter()
            .filter(|l| !(player && l.hidden_from_players))
            .cloned()
            .collect()
    }

    /// Checks a post and counts it against its writer's allowance; returns the line
    /// to store and then [`Self::push`].
    pub(crate) fn check(
        &mut self,
        post: &ChatPost<'_>,
        now: Millis,
    ) -> Result<ChatLine, ProtoError> {
        let text = clean(post.text);
        if text.is_empty() {
            return Err(ProtoError::new(
                ErrorCode::BadChat,
                "a chat line needs some text",
            ));
        }
        let chars = text.chars().count();
        if chars > MAX_CHARS {
            return Err(ProtoError::new(
                ErrorCode::BadChat,
                format!("a chat line has at most {MAX_CHARS} characters; this one has {chars}"),
            ));
        }
        if self.lines.len() >= MAX_LINES {
            return Err(ProtoError::new(
                ErrorCode::ChatFull,
                format!("this table's chat is full ({MAX_LINES} lines)"),
            ));
        }
        let allowance = self
            .allowances
            .entry(post.from.id.clone())
            .or_insert(Allowance {
                tokens: BURST,
                at: now,
            });
        let earned = ((now - allowance.at).max(0) / REFILL_MS) as u32;
        if earned > 0 {
            allowance.tokens = (allowance.tokens + earned).min(BURST);
            allowance.at += Millis::from(earned) * REFILL_MS;
        }
        if allowance.tokens == BURST {
            allowance.at = now;
        }
        if allowance.tokens == 0 {
            let wait = (allowance.at + REFILL_MS - now).max(1);
            return Err(ProtoError::new(
                ErrorCode::RateLimited,
                format!("you are chatting too fast; wait {} s", (wait + 999) / 1000),
            ));
        }
        allowance.tokens -= 1;
        Ok(ChatLine {
            from: post.from.clone(),
            text,
            at: now,
            spectator: post.spectator,
            hidden_from_players: post.hidden_from_players,
        })
    }

    /// Adds a checked line.
    pub(crate) fn push(&mut self, line: ChatLine) {
        self.lines.push(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann() -> UserInfo {
        UserInfo {
            id: "a".into(),
            name: "ann".into(),
            guest: true,
            bot: false,
        }
    }

    fn post<'a>(from: &'a UserInfo, text: &'a str) -> ChatPost<'a> {
        ChatPost {
            from,
            text,
            spectator: false,
            hidden_from_players: false,
        }
    }

    #[test]
    fn text_is_cleaned_and_bounded() {
        assert_eq!(clean("  hi\nthere\u{7}  "), "hi there");
        let mut log = ChatLog::default();
        let u = ann();
        assert_eq!(
            log.check(&post(&u, " \n "), 0).unwrap_err().code,
            ErrorCode::BadChat
        );
        let long = "é".repeat(MAX_CHARS + 1);
        let e = log.check(&post(&u, &long), 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadChat);
        assert!(e.message.contains("281"), "{}", e.message);
        let exact = "é".repeat(MAX_CHARS);
        assert_eq!(log.check(&post(&u, &exact), 0).unwrap().text, exact);
        let html = log.check(&post(&u, "<b>x</b>"), 0).unwrap();
        assert_eq!(
            html.text, "<b>x</b>",
            "stored as sent; clients show it as text"
        );
    }

    #[test]
    fn each_writer_has_a_burst_then_a_line_every_two_seconds() {
        let mut log = ChatLog::default();
        let u = ann();
        for _ in 0..BURST {
            log.check(&post(&u, "x"), 1_000).unwrap();
        }
        let e = log.check(&post(&u, "x"), 1_000).unwrap_err();
        assert_eq!(e.code, ErrorCode::RateLimited);
        assert!(e.message.contains("wait 2 s"), "{}", e.message);
        let other = UserInfo {
            id: "b".into(),
            ..ann()
        };
        log.check(&post(&other, "x"), 1_000)
            .expect("others are not limited");
        assert!(log.check(&post(&u, "x"), 2_999).is_err());
        log.check(&post(&u, "x"), 3_000).unwrap();
        assert!(log.check(&post(&u, "x"), 3_000).is_err());
        for i in 0..BURST {
            log.check(&post(&u, "x"), 100_000 + Millis::from(i))
                .unwrap();
        }
    }

    #[test]
    fn the_log_has_a_cap() {
        let mut log = ChatLog::default();
        for i in 0..MAX_LINES {
            let u = UserInfo {
                id: format!("u{i}"),
                ..ann()
            };
            let line = log.check(&post(&u, "x"), 0).unwrap();
            log.push(line);
        }
        let e = log.check(&post(&ann(), "x"), 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::ChatFull);
        assert_eq!(log.lines().len(), MAX_LINES);
    }

    #[test]
    fn players_do_not_see_hidden_lines() {
        let mut log = ChatLog::default();
        let u = ann();
        let mut p = post(&u, "psst");
        p.hidden_from_players = true;
        p.spectator = true;
        let line = log.check(&p, 0).unwrap();
        log.push(line);
        assert!(log.visible(true).is_empty());
        assert_eq!(log.visible(false).len(), 1);
    }
}
