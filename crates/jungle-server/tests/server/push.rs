//! Web Push (issue 52), black-box on both stores: an account subscribes a browser (the test
//! plays the browser with its own keys, and the push service with a server on loopback),
//! and its move in a game over days arrives encrypted, signed with the server's VAPID key,
//! and opens to "your move" with the game's link; what the account turned off is not pushed,
//! a subscription its service says is gone is forgotten, and the key outlives a restart.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use base64::Engine as _;
use jungle_protocol::http::{PushMessage, PushView};
use jungle_push::ReceiverKeys;
use serde_json::json;

use crate::common::*;
use crate::correspondence::{back_to, red_moves_and_leaves, LINE, THREE_DAYS};

/// One message as the push service received it.
#[derive(Clone, Debug)]
struct Received {
    path: String,
    headers: HeaderMap,
    body: Vec<u8>,
}

/// A push service on loopback: it keeps what it is sent and answers 201, or 410 (gone) on
/// paths that start with `/gone`.
struct PushService {
    url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl PushService {
    async fn start() -> PushService {
        let received: Arc<Mutex<Vec<Received>>> = Arc::default();
        let kept = received.clone();
        let app = axum::Router::new().fallback(
            move |uri: axum::http::Uri, headers: HeaderMap, body: axum::body::Bytes| {
                let kept = kept.clone();
                async move {
                    let path = uri.path().to_owned();
                    let gone = path.starts_with("/gone");
                    kept.lock().unwrap().push(Received {
                        path,
                        headers,
                        body: body.to_vec(),
                    });
                    if gone {
                        StatusCode::GONE
                    } else {
                        StatusCode::CREATED
                    }
                }
            },
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        PushService { url, received }
    }

    fn count(&self) -> usize {
        self.received.lock().unwrap().len()
    }

    /// Waits (up to 10 s) until `n` messages came; all of them.
    async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..200 {
            if self.count() >= n {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let got = self.received.lock().unwrap().clone();
        assert!(got.len() >= n, "{} pushes of {n}", got.len());
        got
    }
}

fn subscription(endpoint: &str, keys: &ReceiverKeys) -> serde_json::Value {
    json!({
        "endpoint": endpoint,
        "expirationTime": null,
        "keys": { "p256dh": keys.p256dh_base64url(), "auth": keys.auth_base64url() },
    })
}

/// The VAPID header's token, checked: signed (ES256) by the key the server gives browsers,
/// for the push service's origin, with a contact, not expired. Returns its claims.
fn checked_signature(authorization: &str, public_key: &str, audience: &str) -> serde_json::Value {
    use p256::ecdsa::signature::Verifier as _;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let rest = authorization.strip_prefix("vapid t=").expect(authorization);
    let (token, key) = rest.split_once(", k=").expect(authorization);
    assert_eq!(
        key, public_key,
        "signed with the key browsers subscribe with"
    );
    let mut parts = token.split('.');
    let (header, claims, signature) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    let verifying = p256::ecdsa::VerifyingKey::from_sec1_bytes(&b64.decode(key).unwrap()).unwrap();
    let signature = p256::ecdsa::Signature::from_slice(&b64.decode(signature).unwrap()).unwrap();
    verifying
        .verify(format!("{header}.{claims}").as_bytes(), &signature)
        .expect("a valid ES256 signature");
    let claims: serde_json::Value = serde_json::from_slice(&b64.decode(claims).unwrap()).unwrap();
    assert_eq!(claims["aud"], audience);
    assert!(
        claims["sub"].as_str().unwrap().starts_with("mailto:"),
        "{claims}"
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let exp = claims["exp"].as_u64().unwrap();
    assert!(exp > now && exp <= now + 86_400, "{claims}");
    claims
}

async fn push_view(server: &TestServer, player: &Player) -> PushView {
    let (status, view) = call(
        server,
        reqwest::Method::GET,
        "/api/push",
        &player.token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{view}");
    serde_json::from_value(view).unwrap()
}

async fn a_push_comes_when_it_is_your_turn(db: Db) {
    let service = PushService::start().await;
    let mut server = TestServer::start_with(db, |c| c.push_loopback_endpoints = true).await;
    let (host, guest) = (server.account("Ren").await, server.account("Bo").await);
    let before = push_view(&server, &host).await;
    assert_eq!(before.subscriptions, 0);
    assert!(
        before.turns && before.challenges && before.tournaments,
        "on until turned off"
    );

    // Ren's browser subscribes; what is not a subscription is refused and changes nothing.
    let browser = ReceiverKeys::generate();
    let post = |body: serde_json::Value, token: &str| {
        let token = token.to_owned();
        let server = &server;
        async move {
            call(
                server,
                reqwest::Method::POST,
                "/api/push/subscriptions",
                &token,
                Some(body),
            )
            .await
        }
    };
    let (status, view) = post(
        subscription(&format!("{}/ren", service.url), &browser),
        &host.token,
    )
    .await;
    assert_eq!(status, 201, "{view}");
    assert_eq!(view["subscriptions"], 1);
    let other = ReceiverKeys::generate();
    for bad in [
        subscription("ftp://push.example/x", &other),
        subscription("https://10.0.0.5/x", &other),
        subscription("https://localhost/x", &other),
        subscription(
            &format!("https://push.example/{}", "x".repeat(1100)),
            &other,
        ),
        json!({ "endpoint": "https://push.example/x", "keys": { "p256dh": "AAAA", "auth": other.auth_base64url() } }),
        json!({ "endpoint": "https://push.example/x", "keys": { "p256dh": other.p256dh_base64url(), "auth": "AAAA" } }),
        json!({ "endpoint": "https://push.example/x" }),
    ] {
        let (status, answer) = post(bad.clone(), &host.token).await;
        assert_eq!(status, 400, "{bad}: {answer}");
    }
    let (status, _) = post(subscription("https://push.example/x", &other), "").await;
    assert_eq!(status, 401, "nobody signed in");
    let passer = server.player("Passer").await;
    let (status, _) = post(
        subscription("https://push.example/x", &other),
        &passer.token,
    )
    .await;
    assert_eq!(status, 400, "pushes are for accounts");
    assert_eq!(push_view(&server, &host).await.subscriptions, 1);

    // Ren moves and leaves; Bo answers: Ren's move, away. One push, for Ren's browser only.
    let (red, mut blue, game) = private_game_between(&server, &host, &guest, THREE_DAYS).await;
    red_moves_and_leaves(red, &mut blue, game, [LINE[0], LINE[1]]).await;
    let pushed = service.wait_for(1).await.remove(0);
    assert_eq!(pushed.path, "/ren");
    let header = |name: &str| pushed.headers[name].to_str().unwrap().to_owned();
    assert_eq!(header("content-encoding"), "aes128gcm");
    assert_eq!(header("ttl"), "86400");
    checked_signature(&header("authorization"), &before.public_key, &service.url);
    let opened = browser
        .decrypt(&pushed.body)
        .expect("the browser's keys open it");
    let message: PushMessage = serde_json::from_slice(&opened).unwrap();
    assert_eq!(message.kind, "turn");
    assert_eq!(message.title, "Your move");
    assert!(
        message.body.contains("Bo"),
        "the opponent is named: {}",
        message.body
    );
    assert!(
        message.url.ends_with(&format!("/g/{game}")),
        "{}",
        message.url
    );
    assert!(
        message.url.starts_with("http://127.0.0.1:"),
        "a link to this site: {}",
        message.url
    );
    assert!(
        other.decrypt(&pushed.body).is_err(),
        "nobody else's keys open it"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        service.count(),
        1,
        "Bo, at the board and unsubscribed, gets nothing"
    );

    // Turned off: Ren's next move away is not pushed.
    let (status, view) = call(
        &server,
        reqwest::Method::PUT,
        "/api/push/settings",
        &host.token,
        Some(json!({ "turns": false })),
    )
    .await;
    assert_eq!(
        (status, view["turns"].clone(), view["challenges"].clone()),
        (200, json!(false), json!(true))
    );
    let (red, _) = back_to(&server, &host, game).await;
    red_moves_and_leaves(red, &mut blue, game, [LINE[2], LINE[3]]).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(service.count(), 1, "turned off");

    // On again, with a second browser whose subscription its service says is gone: both are
    // sent to, and the gone one is forgotten.
    call(
        &server,
        reqwest::Method::PUT,
        "/api/push/settings",
        &host.token,
        Some(json!({ "turns": true })),
    )
    .await;
    let (status, _) = post(
        subscription(&format!("{}/gone", service.url), &other),
        &host.token,
    )
    .await;
    assert_eq!(status, 201);
    let (red, _) = back_to(&server, &host, game).await;
    red_moves_and_leaves(red, &mut blue, game, [LINE[4], LINE[5]]).await;
    let all = service.wait_for(3).await;
    let mut paths: Vec<&str> = all[1..].iter().map(|r| r.path.as_str()).collect();
    paths.sort();
    assert_eq!(paths, ["/gone", "/ren"]);
    // Each turn of one game has the same topic: a phone that is off gets the newest only.
    let topic = |r: &Received| r.headers["topic"].to_str().unwrap().to_owned();
    assert_eq!(topic(&all[0]).len(), 32);
    assert!(all[1..].iter().all(|r| topic(r) == topic(&all[0])));
    for _ in 0..100 {
        if push_view(&server, &host).await.subscriptions == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        push_view(&server, &host).await.subscriptions,
        1,
        "the gone one is forgotten"
    );

    // The account's export shows its browsers and choices.
    let (status, export) = call(
        &server,
        reqwest::Method::GET,
        "/api/account/export",
        &host.token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        export["push"]["endpoints"],
        json!([format!("{}/ren", service.url)])
    );
    assert_eq!(export["push"]["turns"], true);

    // Ren's browser unsubscribes (only Ren's own: Bo cannot remove it).
    let endpoint = json!({ "endpoint": format!("{}/ren", service.url) });
    let (_, view) = call(
        &server,
        reqwest::Method::DELETE,
        "/api/push/subscriptions",
        &guest.token,
        Some(endpoint.clone()),
    )
    .await;
    assert_eq!(view["subscriptions"], 0, "Bo has none");
    assert_eq!(
        push_view(&server, &host).await.subscriptions,
        1,
        "and Ren's stays"
    );
    let (status, view) = call(
        &server,
        reqwest::Method::DELETE,
        "/api/push/subscriptions",
        &host.token,
        Some(endpoint),
    )
    .await;
    assert_eq!((status, view["subscriptions"].clone()), (200, json!(0)));

    // A browser signed in on its own session subscribes; signing that session out ends its
    // pushes (a phone left behind, lent, or lost).
    let phone = server.account_named("Renphone").await;
    let signed: jungle_protocol::http::SignedIn =
        sign_in(server.addr, "Renphone", PASSWORD, None, None)
            .await
            .json()
            .await
            .unwrap();
    let (status, view) = call(
        &server,
        reqwest::Method::POST,
        "/api/push/subscriptions",
        &signed.token,
        Some(subscription(&format!("{}/renphone", service.url), &browser)),
    )
    .await;
    assert_eq!((status, view["subscriptions"].clone()), (201, json!(1)));
    let (status, _) = call(
        &server,
        reqwest::Method::DELETE,
        "/api/session",
        &signed.token,
        None,
    )
    .await;
    assert_eq!(status, 204, "signed out");
    assert_eq!(
        push_view(&server, &phone).await.subscriptions,
        0,
        "its pushes end with it"
    );
    // What is no subscription's field is refused.
    let mut extra = subscription(&format!("{}/renphone", service.url), &browser);
    extra["tracking"] = json!("x");
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        "/api/push/subscriptions",
        &phone.token,
        Some(extra),
    )
    .await;
    assert_eq!(status, 400, "an unknown field");

    // The key is made once and kept: subscriptions outlive a restart.
    server.restart().await;
    assert_eq!(
        push_view(&server, &host).await.public_key,
        before.public_key
    );
    server.shutdown().await;
}

/// A challenge, and a tournament joined that starts within five minutes, reach the subscribed
/// account's browser in its language.
async fn a_challenge_and_a_tournament_about_to_start_are_pushed(db: Db) {
    let service = PushService::start().await;
    let server = TestServer::start_with(db, |c| c.push_loopback_endpoints = true).await;
    let (ren, bo) = (server.account("Ren").await, server.account("Bo").await);
    let browser = ReceiverKeys::generate();
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        "/api/push/subscriptions",
        &ren.token,
        Some(subscription(&format!("{}/ren", service.url), &browser)),
    )
    .await;
    assert_eq!(status, 201);
    let (status, _) = call(
        &server,
        reqwest::Method::PUT,
        "/api/account/settings",
        &ren.token,
        Some(json!({ "language": "zh" })),
    )
    .await;
    assert_eq!(status, 200, "Ren reads Chinese");
    let open = |received: &Received| -> PushMessage {
        serde_json::from_slice(&browser.decrypt(&received.body).unwrap()).unwrap()
    };

    let ren_online = server.client(&ren).await;
    let mut challenger = server.client(&bo).await;
    challenger
        .send(ClientFrame::Challenge {
            to: ren.id,
            rules: Ruleset::Classic,
            clock: fischer(180, 2),
            rated: false,
            color: ColorChoice::Random,
        })
        .await;
    let challenge = open(&service.wait_for(1).await[0]);
    assert_eq!(challenge.kind, "challenge");
    assert_eq!(challenge.title, "有人挑战你");
    assert!(challenge.body.contains("Bo"), "{}", challenge.body);
    assert_eq!(
        service.received.lock().unwrap()[0].headers["ttl"],
        "60",
        "a challenge lapses in a minute"
    );

    let starts_at = jungle_game::time_text::rfc3339(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
            + 240_000,
    );
    let (status, made) = call(
        &server,
        reqwest::Method::POST,
        "/api/tournaments",
        &bo.token,
        Some(json!({ "name": "Evening arena", "rules": "classic", "clock": { "kind": "fischer", "base_s": 180, "inc_s": 2 }, "minutes": 30, "starts_at": starts_at })),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id: Uuid = made["id"].as_str().unwrap().parse().unwrap();
    let mut entrant = server.client(&ren).await;
    entrant
        .send(ClientFrame::JoinTournament { id, code: None })
        .await;
    expect_frame!(entrant, ServerFrame::TournamentEntry { .. });
    // With the site open, Ren sees the countdown: nothing is pushed.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(service.count(), 1, "not while on the site");
    // Ren closes the site: told at the next tick.
    drop(entrant);
    drop(ren_online);
    let soon = open(&service.wait_for(2).await[1]);
    assert_eq!(soon.kind, "tournament");
    assert!(
        soon.body.contains("Evening arena") && soon.body.contains("4 分钟"),
        "{}",
        soon.body
    );
    assert!(soon.url.ends_with(&format!("/t/{id}")), "{}", soon.url);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(service.count(), 2, "told once");
    server.shutdown().await;
}

both_stores!(
    a_push_comes_when_it_is_your_turn,
    a_challenge_and_a_tournament_about_to_start_are_pushed
);
