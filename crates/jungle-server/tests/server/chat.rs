//! Game chat (issue 14): players talk to each other, spectators among themselves; preset
//! phrases or bounded free text; limited; stored; a server may allow presets only.

use crate::common::*;
use jungle_protocol::ChatChannel;

fn say(game: Uuid, text: &str) -> ClientFrame {
    ClientFrame::Chat {
        game,
        preset: None,
        text: Some(text.to_owned()),
    }
}

fn preset(game: Uuid, key: &str) -> ClientFrame {
    ClientFrame::Chat {
        game,
        preset: Some(key.to_owned()),
        text: None,
    }
}

async fn next_line(client: &mut Client) -> (ChatChannel, Option<String>, Option<String>, String) {
    expect_frame!(client, ServerFrame::ChatLine { channel, preset, text, from, .. } => (channel, preset, text, from.name))
}

async fn players_and_spectators_talk_apart(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(300, 3), false)).await;
    let fan = server.player("Fan").await;
    let mut watcher = server.client(&fan).await;
    watcher.send(ClientFrame::Watch { game }).await;
    watcher.expect_game().await;

    red.send(preset(game, "good_luck")).await;
    for client in [&mut red, &mut blue] {
        let (channel, key, text, _) = next_line(client).await;
        assert_eq!(
            (channel, key.as_deref(), text),
            (ChatChannel::Players, Some("good_luck"), None)
        );
    }
    // The spectator's line reaches spectators only; markup travels as text, never as markup.
    watcher.send(say(game, "  <b>go</b> red!  ")).await;
    let (channel, _, text, from) = next_line(&mut watcher).await;
    assert_eq!(
        (channel, text.as_deref(), from.as_str()),
        (ChatChannel::Spectators, Some("<b>go</b> red!"), "Fan")
    );
    blue.send(say(game, "thanks")).await;
    let (channel, _, text, _) = next_line(&mut red).await;
    assert_eq!(
        (channel, text.as_deref()),
        (ChatChannel::Players, Some("thanks")),
        "the players never saw the fan's line"
    );
    // The speaker hears their own line too.
    assert_eq!(next_line(&mut blue).await.2.as_deref(), Some("thanks"));

    // A latecomer among the spectators reads what was said there.
    let late = server.player("Late").await;
    let mut late = server.client(&late).await;
    late.send(ClientFrame::Watch { game }).await;
    let (_, _, text, _) = next_line(&mut late).await;
    assert_eq!(text.as_deref(), Some("<b>go</b> red!"));

    // Bounds: nothing, too long, control characters, an unknown preset, both at once.
    for bad in [
        say(game, "   "),
        say(game, &"x".repeat(141)),
        say(game, "bell\u{7}"),
        preset(game, "insult"),
        ClientFrame::Chat {
            game,
            preset: Some("hello".into()),
            text: Some("hi".into()),
        },
    ] {
        red.send(bad).await;
        red.expect_error(ErrorCode::BadChat).await;
    }
    red.send(say(game, &"y".repeat(140))).await;
    let (_, _, text, _) = next_line(&mut blue).await;
    assert_eq!(text.map(|t| t.chars().count()), Some(140));
    // Not a member of the game: nothing to say there.
    let stranger = server.player("Stranger").await;
    let mut stranger = server.client(&stranger).await;
    stranger.send(say(game, "hi")).await;
    stranger.expect_error(ErrorCode::NotYourGame).await;

    // Stored with the game.
    let url = server.config.database_url.clone();
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let rows: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT channel, text FROM chat_lines WHERE game_id = $1 ORDER BY at")
            .bind(game.to_string())
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.contains(&("spectators".to_owned(), Some("<b>go</b> red!".to_owned()))));
    pool.close().await;
    server.shutdown().await;
}

async fn chat_is_limited_and_can_be_presets_only(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(300, 3), false)).await;
    for _ in 0..5 {
        red.send(preset(game, "hello")).await;
        next_line(&mut blue).await;
    }
    red.send(preset(game, "hello")).await;
    red.expect_error(ErrorCode::RateLimited).await;
    server.shutdown().await;

    let server = TestServer::start_with(db, |c| {
        c.chat = jungle_server::config::ChatMode::PresetsOnly
    })
    .await;
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(300, 3), false)).await;
    red.send(say(game, "free words")).await;
    let message = red.expect_error(ErrorCode::BadChat).await;
    assert!(message.contains("preset"), "{message}");
    red.send(preset(game, "well_played")).await;
    let (_, key, _, _) = next_line(&mut blue).await;
    assert_eq!(key.as_deref(), Some("well_played"));
    server.shutdown().await;
}

both_stores!(
    players_and_spectators_talk_apart,
    chat_is_limited_and_can_be_presets_only
);
