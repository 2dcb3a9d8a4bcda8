//! No lock-out by strangers (issue 23): failed sign-ins slow the address that fails (and the
//! pair of address and account), not the account for everyone; an attack spread over many
//! addresses spends a budget that only unknown origins wait on, so the owner signs in at once
//! from a device or an address that signed in before. Addresses come through a trusted proxy's
//! `X-Forwarded-For`, so one test machine can be many clients.

use crate::common::*;

/// A sign-in attempt as Hermione from `address` (as the proxy names it), with the device
/// cookie if given; the status and the device cookie the answer sets, if any.
async fn hermione_signs_in(
    server: &TestServer,
    address: &str,
    password: &str,
    device: Option<&str>,
) -> (u16, Option<String>) {
    let answer = sign_in(server.addr, "Hermione", password, Some(address), device).await;
    let status = answer.status().as_u16();
    let cookie = answer
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("jungle_device="))
        .map(|v| v.split(';').next().unwrap_or_default().to_owned());
    (status, cookie)
}

async fn an_owner_signs_in_at_once_from_their_usual_device_under_attack(db: Db) {
    let server = TestServer::start_with(db, |c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    account_named(server.addr, "Hermione", Some("198.51.100.7")).await;
    // The owner signs in once from home: that browser gets its device cookie.
    let (status, device) = hermione_signs_in(&server, "198.51.100.7", PASSWORD, None).await;
    assert_eq!(status, 200);
    let device = device.expect("a device cookie");

    // An attack from one address: that address on this account is slowed, nobody else.
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(
            hermione_signs_in(&server, "203.0.113.66", "guess", None)
                .await
                .0,
        );
    }
    assert_eq!(&statuses[..5], [401; 5]);
    assert!(statuses[5..].contains(&429), "{statuses:?}");
    assert_eq!(
        hermione_signs_in(&server, "198.51.100.7", PASSWORD, None)
            .await
            .0,
        200,
        "the owner at home is not slowed by one attacker"
    );

    // An attack spread over 60 addresses, one guess each: no address is slowed, and the
    // account's budget for strangers is spent.
    for n in 0..60 {
        let address = format!("10.1.{}.{}", n / 250, n % 250 + 1);
        let (status, _) = hermione_signs_in(&server, &address, "guess", None).await;
        assert!(status == 401 || status == 429, "{status}");
    }
    // A stranger now waits, even with the right password…
    assert_eq!(
        hermione_signs_in(&server, "192.0.2.50", PASSWORD, None)
            .await
            .0,
        429
    );
    // …but the owner's own browser signs in at once from anywhere, and so does their home.
    assert_eq!(
        hermione_signs_in(&server, "192.0.2.51", PASSWORD, Some(&device))
            .await
            .0,
        200
    );
    assert_eq!(
        hermione_signs_in(&server, "198.51.100.7", PASSWORD, None)
            .await
            .0,
        200
    );

    // Someone on the owner's own network guesses from the owner's address: that address
    // waits, the owner's browser there does not.
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(
            hermione_signs_in(&server, "198.51.100.7", "guess", None)
                .await
                .0,
        );
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert_eq!(
        hermione_signs_in(&server, "198.51.100.7", PASSWORD, Some(&device))
            .await
            .0,
        200,
        "the owner's own browser on the shared address"
    );
    // A device cookie nobody signed in with is no way round: it counts as its address.
    assert_eq!(
        hermione_signs_in(&server, "198.51.100.7", PASSWORD, Some("made-up"))
            .await
            .0,
        429
    );
    server.shutdown().await;
}

both_stores!(an_owner_signs_in_at_once_from_their_usual_device_under_attack);
