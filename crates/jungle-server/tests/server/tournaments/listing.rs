//! Tournament lists: the operator's scheduled arenas listed ahead, and a list that spam cannot bury.

use super::*;

async fn scheduled_arenas_are_listed_ahead_once(db: Db) {
    let hourly = "every=hourly,rules=classic,clock=3+2,minutes=55,name=Hourly classic";
    let mut server = TestServer::start_with(db, |c| {
        c.schedules = vec![hourly.parse().unwrap()];
    })
    .await;
    // The hourly arenas listed (upcoming or running), by id and start. Once the hour turns
    // during the test the next one is listed beside the one running, so "once" is per start.
    let listed = |list: &http::Tournaments| -> Vec<(Uuid, String)> {
        list.upcoming
            .iter()
            .chain(&list.running)
            .filter(|t| t.name == "Hourly classic")
            .map(|t| (t.id, t.starts_at.clone()))
            .collect()
    };
    let once_per_start = |arenas: &[(Uuid, String)]| {
        let starts: std::collections::HashSet<&String> = arenas.iter().map(|(_, s)| s).collect();
        assert_eq!(
            starts.len(),
            arenas.len(),
            "one arena per start: {arenas:?}"
        );
    };
    let until = tokio::time::Instant::now() + WAIT;
    let first = loop {
        let list: http::Tournaments = server.get("/api/tournaments").await;
        let arenas = listed(&list);
        if let Some(first) = arenas.first().cloned() {
            once_per_start(&arenas);
            let next = list.upcoming.iter().chain(&list.running).next().unwrap();
            assert_eq!(
                (next.rules, next.rated, next.private),
                (Ruleset::Classic, true, false)
            );
            assert!(next.starts_at.ends_with(":00:00Z"), "{}", next.starts_at);
            break first;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the scheduled arena was listed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // A restart looks again and finds it made: the same arena, none twice.
    server.restart().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let list: http::Tournaments = server.get("/api/tournaments").await;
    let arenas = listed(&list);
    once_per_start(&arenas);
    assert!(
        arenas.contains(&first),
        "{first:?} still listed: {arenas:?}"
    );
    server.shutdown().await;
}

async fn create_from(server: &TestServer, token: &str, address: &str, body: Value) -> u16 {
    reqwest::Client::new()
        .post(server.url("/api/tournaments"))
        .header("X-Forwarded-For", address)
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Spam cannot bury the list: public arenas need an account, each account and each address
/// has few open at once, the operator's scheduled arenas come first on every page, arenas
/// people joined come before empty ones, and every arena is on some page.
async fn the_tournament_list_stays_useful_under_spam(db: Db) {
    let hourly = "every=hourly,rules=classic,clock=3+2,minutes=55,name=Hourly classic";
    let server = TestServer::start_with(db, |c| {
        c.schedules = vec![hourly.parse().unwrap()];
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.no_rate_limits = true;
    })
    .await;
    // 19 addresses, 4 accounts each trying 3 arenas: 10 an address at most.
    let mut made = 0;
    for a in 0..19 {
        let address = format!("10.2.0.{}", a + 1);
        let mut refused = 0;
        for k in 0..4 {
            let spammer = account_named(server.addr, &format!("Spam{a}x{k}"), Some(&address)).await;
            for n in 0..3 {
                match create_from(
                    &server,
                    &spammer.token,
                    &address,
                    arena(&format!("Spam {a}.{k}.{n}")),
                )
                .await
                {
                    201 => made += 1,
                    400 => refused += 1,
                    other => panic!("{other}"),
                }
            }
        }
        assert_eq!(refused, 2, "an address holds 10 open public arenas at most");
    }
    assert_eq!(made, 190);
    // A real arena that people join.
    let host = account_named(server.addr, "RealHost", Some("192.0.2.10")).await;
    assert_eq!(
        create_from(&server, &host.token, "192.0.2.10", arena("Friday arena")).await,
        201
    );
    let list: http::Tournaments = server.get("/api/tournaments").await;
    let friday = list
        .running
        .iter()
        .find(|t| t.name == "Friday arena")
        .map(|t| t.id);
    let friday = match friday {
        Some(id) => id,
        None => {
            // Not on the first page yet (nobody joined): find it on the others.
            let mut found = None;
            for page in 2..=list.pages {
                let more: http::Tournaments =
                    server.get(&format!("/api/tournaments?page={page}")).await;
                found = found.or(more
                    .running
                    .iter()
                    .find(|t| t.name == "Friday arena")
                    .map(|t| t.id));
            }
            found.expect("every arena is on some page")
        }
    };
    for name in ["Lia", "Max"] {
        let mut player = server.client(&server.account(name).await).await;
        player
            .send(ClientFrame::JoinTournament {
                id: friday,
                code: None,
            })
            .await;
        expect_frame!(player, ServerFrame::TournamentEntry { active: true, .. });
    }
    // The scheduled arena (made within a moment of the start) and then the joined one lead.
    let until = tokio::time::Instant::now() + WAIT;
    let first = loop {
        let list: http::Tournaments = server.get("/api/tournaments").await;
        if list
            .upcoming
            .iter()
            .chain(&list.running)
            .any(|t| t.official)
        {
            break list;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the scheduled arena is listed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!((first.total, first.pages, first.page), (191, 4, 1));
    let page_one: Vec<&http::Tournament> = first.upcoming.iter().chain(&first.running).collect();
    assert!(page_one[0].official, "{:?}", page_one[0].name);
    let players_first = first.running.iter().find(|t| !t.official).unwrap();
    assert_eq!(players_first.name, "Friday arena");
    assert_eq!(players_first.players, 2);
    // Every page repeats the scheduled arena first; together the pages hold every arena once.
    let mut seen = std::collections::HashSet::new();
    for page in 1..=first.pages {
        let list: http::Tournaments = server.get(&format!("/api/tournaments?page={page}")).await;
        let all: Vec<&http::Tournament> = list.upcoming.iter().chain(&list.running).collect();
        assert!(all.iter().any(|t| t.official), "page {page}");
        for t in all.into_iter().filter(|t| !t.official) {
            assert!(seen.insert(t.id), "{} twice", t.name);
        }
    }
    assert_eq!(seen.len(), 191);
    server.shutdown().await;
}

both_stores!(
    the_tournament_list_stays_useful_under_spam,
    scheduled_arenas_are_listed_ahead_once,
);
