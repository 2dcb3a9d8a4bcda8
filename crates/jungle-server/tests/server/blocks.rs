//! Players can say no (issue 23): who may challenge me (everyone, accounts, nobody), and a
//! block list: a blocked player cannot challenge me, does not reach me in chat, and is never
//! paired with me by matchmaking. Blocks are bounded and limited.

use std::time::Duration;

use crate::common::*;
use serde_json::json;

async fn block(server: &TestServer, who: &Player, whom: Uuid) -> u16 {
    call(
        server,
        reqwest::Method::PUT,
        &format!("/api/account/blocks/{whom}"),
        &who.token,
        None,
    )
    .await
    .0
}

async fn unblock(server: &TestServer, who: &Player, whom: Uuid) -> u16 {
    call(
        server,
        reqwest::Method::DELETE,
        &format!("/api/account/blocks/{whom}"),
        &who.token,
        None,
    )
    .await
    .0
}

async fn set_challenges(server: &TestServer, who: &Player, policy: &str) {
    let status = call(
        server,
        reqwest::Method::PUT,
        "/api/account/settings",
        &who.token,
        Some(json!({ "challenges": policy })),
    )
    .await
    .0;
    assert_eq!(status, 200);
}

fn challenge(to: Uuid) -> ClientFrame {
    ClientFrame::Challenge {
        to,
        rules: Ruleset::Classic,
        clock: fischer(300, 3),
        rated: false,
        color: ColorChoice::Random,
    }
}

/// The challenge's fate: delivered (`Ok`), or the refusal's code.
async fn challenge_result(from: &mut Client, to: Uuid) -> Result<(), ErrorCode> {
    from.send(challenge(to)).await;
    loop {
        match from.next().await.expect("an answer") {
            ServerFrame::ChallengeSent { challenge } => {
                from.send(ClientFrame::CancelChallenge { id: challenge.id })
                    .await;
                return Ok(());
            }
            ServerFrame::Error { code, .. } => return Err(code),
            _ => {}
        }
    }
}

async fn who_may_challenge_me_and_whom_i_block(db: Db) {
    let server = TestServer::start(db).await;
    let ada = server.account("Ada").await;
    let bob = server.account("Bob").await;
    let _ada_online = server.client(&ada).await;
    let mut bob_client = server.client(&bob).await;
    let guest = server.player("Passer-by").await;
    let mut guest_client = server.client(&guest).await;

    assert_eq!(challenge_result(&mut bob_client, ada.id).await, Ok(()));
    // Accounts only: the guest is refused, Bob is not.
    set_challenges(&server, &ada, "accounts").await;
    assert_eq!(
        challenge_result(&mut guest_client, ada.id).await,
        Err(ErrorCode::ChallengeRefused)
    );
    assert_eq!(challenge_result(&mut bob_client, ada.id).await, Ok(()));
    // Nobody.
    set_challenges(&server, &ada, "nobody").await;
    assert_eq!(
        challenge_result(&mut bob_client, ada.id).await,
        Err(ErrorCode::ChallengeRefused)
    );
    set_challenges(&server, &ada, "everyone").await;
    // A setting that is not one of the three is refused and changes nothing.
    let status = call(
        &server,
        reqwest::Method::PUT,
        "/api/account/settings",
        &ada.token,
        Some(json!({ "challenges": "friends" })),
    )
    .await
    .0;
    assert_eq!(status, 400);

    // A block: Bob cannot challenge Ada; unblocked, he can again.
    assert_eq!(block(&server, &ada, bob.id).await, 204);
    assert_eq!(
        block(&server, &ada, bob.id).await,
        204,
        "twice changes nothing"
    );
    let listed: Vec<http::Blocked> = reqwest::Client::new()
        .get(server.url("/api/account/blocks"))
        .bearer_auth(&ada.token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed.iter().map(|b| b.id).collect::<Vec<_>>(), [bob.id]);
    assert_eq!(
        challenge_result(&mut bob_client, ada.id).await,
        Err(ErrorCode::ChallengeRefused)
    );
    // Nor may Ada challenge someone she blocks (the two stay apart).
    let mut ada_client = server.client(&ada).await;
    assert_eq!(
        challenge_result(&mut ada_client, bob.id).await,
        Err(ErrorCode::ChallengeRefused)
    );
    assert_eq!(unblock(&server, &ada, bob.id).await, 204);
    assert_eq!(challenge_result(&mut bob_client, ada.id).await, Ok(()));

    // Refusals: yourself, nobody, guests have no block list.
    assert_eq!(block(&server, &ada, ada.id).await, 400);
    assert_eq!(block(&server, &ada, Uuid::new_v4()).await, 404);
    assert_eq!(block(&server, &guest, ada.id).await, 401);
    server.shutdown().await;
}

/// In a game, the blocked player's lines do not reach the blocker; the blocker's still reach
/// them.
async fn a_blocked_player_does_not_reach_me_in_chat(db: Db) {
    let server = TestServer::start(db).await;
    let ada = server.account("Ada").await;
    let bob = server.account("Bob").await;
    let mut host = server.client(&ada).await;
    let (code, game) = open_private_room(&mut host, fischer(300, 3), false).await;
    let mut guest = server.client(&bob).await;
    guest.send(ClientFrame::JoinRoom { code }).await;
    guest.expect_game().await;
    assert_eq!(block(&server, &ada, bob.id).await, 204);
    let say = |text: &str| ClientFrame::Chat {
        game,
        preset: None,
        text: Some(text.into()),
    };
    guest.send(say("can you hear me")).await;
    expect_frame!(guest, ServerFrame::ChatLine { .. });
    host.send(say("I can't hear you")).await;
    let heard = expect_frame!(host, ServerFrame::ChatLine { text, .. } => text);
    assert_eq!(
        heard.as_deref(),
        Some("I can't hear you"),
        "Bob's line never came"
    );
    let heard = expect_frame!(guest, ServerFrame::ChatLine { text, .. } => text);
    assert_eq!(heard.as_deref(), Some("I can't hear you"));
    server.shutdown().await;
}

/// Matchmaking never pairs a player with someone they block, or who blocks them.
async fn matchmaking_keeps_blocked_players_apart(db: Db) {
    let server = TestServer::start(db).await;
    let ada = server.account("Ada").await;
    let bob = server.account("Bob").await;
    assert_eq!(block(&server, &bob, ada.id).await, 204);
    let mut a = server.client(&ada).await;
    let mut b = server.client(&bob).await;
    let casual = seek(Ruleset::Classic, fischer(180, 2), false);
    a.send(casual.clone()).await;
    expect_frame!(a, ServerFrame::Seeking { .. });
    b.send(casual.clone()).await;
    expect_frame!(b, ServerFrame::Seeking { .. });
    // Two pairing rounds pass without a game.
    let quiet = tokio::time::timeout(Duration::from_millis(2_500), async {
        loop {
            if let Some(ServerFrame::Game(_)) = a.next().await {
                return;
            }
        }
    })
    .await;
    assert!(quiet.is_err(), "Ada and Bob were paired");
    // Anyone else is paired with one of them.
    let mut c = server.client(&server.account("Cleo").await).await;
    c.send(casual).await;
    let state = c.expect_game().await;
    let opponent = if state.you == Some(Side::Red) {
        state.blue
    } else {
        state.red
    };
    assert!([ada.id, bob.id].contains(&opponent.unwrap().id));
    server.shutdown().await;
}

/// At most 500 blocks an account (rate limits off here to reach them).
async fn blocks_are_bounded(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let ada = server.account("Ada").await;
    for _ in 0..500 {
        let other = server.player("Pest").await;
        assert_eq!(block(&server, &ada, other.id).await, 204);
    }
    let one_more = server.player("Pest").await;
    assert_eq!(block(&server, &ada, one_more.id).await, 409);
    server.shutdown().await;
}

/// Changing blocks is limited: 30, then 1 per 2 s.
async fn block_writes_are_limited(db: Db) {
    let server = TestServer::start(db).await;
    let ada = server.account("Ada").await;
    let bob = server.player("Bob").await;
    let mut statuses = Vec::new();
    for _ in 0..31 {
        statuses.push(block(&server, &ada, bob.id).await);
    }
    assert!(statuses[..30].iter().all(|&s| s == 204), "{statuses:?}");
    assert_eq!(statuses[30], 429);
    server.shutdown().await;
}

both_stores!(
    who_may_challenge_me_and_whom_i_block,
    a_blocked_player_does_not_reach_me_in_chat,
    matchmaking_keeps_blocked_players_apart,
    blocks_are_bounded,
    block_writes_are_limited,
);
