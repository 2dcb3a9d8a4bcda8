//! The words of a push, in the language the account chose (English when it chose none): the
//! service worker shows them as they come.

use jungle_protocol::http::{DisplaySettings, PushMessage};
use jungle_store::Store;
use uuid::Uuid;

/// The account's language (`en`, `zh`, `zh-Hant`) from its display settings.
pub async fn language_of(store: &Store, player: Uuid) -> String {
    let saved = store.settings(player).await.ok().flatten();
    saved
        .and_then(|json| serde_json::from_str::<DisplaySettings>(&json).ok())
        .and_then(|settings| settings.language)
        .filter(|l| matches!(l.as_str(), "zh" | "zh-Hant"))
        .unwrap_or_else(|| "en".to_owned())
}

fn pick<'a>(language: &str, en: &'a str, zh: &'a str, zh_hant: &'a str) -> &'a str {
    match language {
        "zh" => zh,
        "zh-Hant" => zh_hant,
        _ => en,
    }
}

pub fn your_turn(language: &str, opponent: &str, game: Uuid) -> PushMessage {
    PushMessage {
        kind: "turn".into(),
        title: pick(language, "Your move", "轮到你了", "輪到你了").into(),
        body: pick(
            language,
            "against {name}, in your game over days",
            "对手 {name}，通讯赛对局",
            "對手 {name}，通訊賽對局",
        )
        .replace("{name}", opponent),
        url: format!("/g/{game}"),
        tag: format!("turn-{game}"),
    }
}

pub fn challenged(language: &str, from: &str) -> PushMessage {
    PushMessage {
        kind: "challenge".into(),
        title: pick(language, "A challenge", "有人挑战你", "有人挑戰你").into(),
        body: pick(
            language,
            "{name} challenges you to a game",
            "{name} 向你发起挑战",
            "{name} 向你發起挑戰",
        )
        .replace("{name}", from),
        url: "/".into(),
        tag: "challenge".into(),
    }
}

pub fn tournament_soon(language: &str, name: &str, id: Uuid, minutes: u32) -> PushMessage {
    PushMessage {
        kind: "tournament".into(),
        title: pick(
            language,
            "Your tournament is about to start",
            "你的比赛即将开始",
            "你的比賽即將開始",
        )
        .into(),
        body: pick(
            language,
            "{name} starts in {n} min",
            "{name} 将在 {n} 分钟后开始",
            "{name} 將在 {n} 分鐘後開始",
        )
        .replace("{name}", name)
        .replace("{n}", &minutes.to_string()),
        url: format!("/t/{id}"),
        tag: format!("tournament-{id}"),
    }
}
