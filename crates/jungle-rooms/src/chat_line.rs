//! What a chat line may hold, wherever it comes from (the socket's `chat` frame, the Bot and
//! Board APIs' `/chat`): one known preset, or free text of 1 to [`MAX_CHAT_CHARS`] characters
//! without control characters, where the server allows free text.

use jungle_protocol::{CHAT_PRESETS, MAX_CHAT_CHARS};

/// What players may say in game chat (the server's `--chat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChatMode {
    All,
    PresetsOnly,
}

/// A line fit to say: a preset, or trimmed text.
#[derive(Debug, PartialEq, Eq)]
pub struct ChatLine {
    pub preset: Option<String>,
    pub text: Option<String>,
}

/// Checks a line as sent; the refusal is the reason, for the sender.
pub fn check(
    mode: ChatMode,
    preset: Option<String>,
    text: Option<String>,
) -> Result<ChatLine, &'static str> {
    match (preset, text) {
        (Some(preset), None) if CHAT_PRESETS.contains(&preset.as_str()) => Ok(ChatLine {
            preset: Some(preset),
            text: None,
        }),
        (None, Some(text)) => {
            if mode == ChatMode::PresetsOnly {
                return Err("this server allows preset phrases only");
            }
            let text = text.trim();
            let length = text.chars().count();
            if length == 0 || length > MAX_CHAT_CHARS {
                return Err("a chat line holds 1 to 140 characters");
            }
            if text.chars().any(char::is_control) {
                return Err("a chat line may not hold control characters");
            }
            Ok(ChatLine {
                preset: None,
                text: Some(text.to_owned()),
            })
        }
        _ => Err("send one known preset, or some text"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_and_bounded() {
        let line = check(ChatMode::All, None, Some("  good game ".into())).unwrap();
        assert_eq!(line.text.as_deref(), Some("good game"));
        assert!(check(ChatMode::All, None, Some("x".repeat(MAX_CHAT_CHARS + 1))).is_err());
        assert!(check(ChatMode::All, None, Some("   ".into())).is_err());
        assert!(check(ChatMode::All, None, Some("a\u{7}b".into())).is_err());
    }

    #[test]
    fn presets_only_refuses_text_but_takes_presets() {
        assert!(check(ChatMode::PresetsOnly, None, Some("hi".into())).is_err());
        let preset = CHAT_PRESETS[0].to_owned();
        assert!(check(ChatMode::PresetsOnly, Some(preset), None).is_ok());
        assert!(check(ChatMode::All, Some("no-such-preset".into()), None).is_err());
        assert!(check(
            ChatMode::All,
            Some(CHAT_PRESETS[0].into()),
            Some("x".into())
        )
        .is_err());
    }
}
