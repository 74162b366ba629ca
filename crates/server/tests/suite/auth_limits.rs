//! Limits around logging in: the bound on concurrent password hashing, per-account
//! throttling, the trusted proxy's client address, and the Origin check against the
//! configured public origin.

use crate::common::{spawn_app_at, spawn_app_with, Options, TestApp};
use serde_json::{json, Value};

async fn login(app: &TestApp, name: &str, password: &str) -> reqwest::Response {
    app.post(
        "/api/login",
        None,
        json!({"username": name, "password": password}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_logins_queues_boundedly_and_the_rest_are_told_to_retry() {
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.auth_burst = 1_000;
            c.login_free_failures = 1_000;
            c.hash_concurrency = 1;
            c.hash_queue = 2;
        }),
        ..Options::default()
    })
    .await;
    app.register("alice").await;
    let mut tasks = Vec::new();
    for _ in 0..30 {
        let http = app.http();
        let url = format!("{}/api/login", app.base);
        tasks.push(tokio::spawn(async move {
            http.post(url)
                .json(&json!({"username": "alice", "password": "wrong horse"}))
                .send()
                .await
                .expect("request")
        }));
    }
    let (mut refused, mut busy) = (0, 0);
    for t in tasks {
        let res = t.await.expect("task");
        match res.status().as_u16() {
            401 => refused += 1,
            503 => {
                assert_eq!(res.headers()["retry-after"], "1");
                let v: Value = res.json().await.expect("json");
                assert_eq!(v["error"], "busy", "{v}");
                busy += 1;
            }
            other => panic!("status {other}"),
        }
    }
    assert!(busy > 0, "some attempts must be turned away");
    assert!(refused >= 1, "the running and queued ones are checked");
    assert_eq!(refused + busy, 30);
    // Once the burst is over, the server checks passwords again.
    let ok = login(&app, "alice", "correct horse").await;
    assert_eq!(ok.status(), 200);
}

async fn login_from(
    app: &TestApp,
    forwarded_for: &str,
    name: &str,
    password: &str,
) -> reqwest::Response {
    app.http()
        .post(format!("{}/api/login", app.base))
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({"username": name, "password": password}))
        .send()
        .await
        .expect("request")
}

#[tokio::test]
async fn wrong_passwords_for_one_account_are_throttled_whatever_the_address() {
    let (app, clock) = spawn_app_at(
        1_000_000,
        Some(|c| {
            c.auth_burst = 10;
            c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        }),
    )
    .await;
    app.register("alice").await;
    // Five free failures from five addresses...
    for i in 0..5 {
        let res = login_from(&app, &format!("198.51.100.{i}"), "alice", "wrong horse").await;
        assert_eq!(res.status(), 401);
    }
    // ...then every further attempt waits, from any address, even with the right
    // password, and nothing is checked meanwhile.
    let res = login_from(&app, "198.51.100.9", "alice", "wrong horse").await;
    assert_eq!(
        res.status(),
        401,
        "the sixth is checked, then the wait starts"
    );
    for i in 10..20 {
        let res = login_from(&app, &format!("198.51.100.{i}"), "alice", "correct horse").await;
        assert_eq!(res.status(), 429);
        assert_eq!(res.headers()["retry-after"], "1");
        let v: Value = res.json().await.unwrap();
        assert_eq!(v["error"], "account_throttled", "{v}");
    }
    // Another account is not affected.
    app.register("bruno").await;
    assert_eq!(login(&app, "bruno", "correct horse").await.status(), 200);
    // The delay doubles with each failure.
    clock.advance(1_000);
    assert_eq!(
        login_from(&app, "203.0.113.1", "alice", "wrong")
            .await
            .status(),
        401
    );
    let res = login_from(&app, "203.0.113.2", "alice", "correct horse").await;
    assert_eq!(res.status(), 429);
    assert_eq!(res.headers()["retry-after"], "2");
    // After the wait, the right password gets in and clears the count.
    clock.advance(2_000);
    assert_eq!(
        login_from(&app, "203.0.113.3", "alice", "correct horse")
            .await
            .status(),
        200
    );
    assert_eq!(
        login_from(&app, "203.0.113.4", "alice", "wrong")
            .await
            .status(),
        401
    );
    assert_eq!(
        login_from(&app, "203.0.113.5", "alice", "correct horse")
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn only_a_trusted_proxy_names_the_client_address() {
    // Without a trusted proxy, X-Forwarded-For is ignored: one address, one budget.
    let app = spawn_app_with(Options {
        config: Some(|c| c.auth_burst = 3),
        ..Options::default()
    })
    .await;
    for i in 0..3 {
        let forwarded = format!("192.0.2.{i}");
        let res = app
            .post_guest_with(&[("x-forwarded-for", &forwarded)])
            .await;
        assert_eq!(res.status(), 201);
    }
    let res = app
        .post_guest_with(&[("x-forwarded-for", "192.0.2.77")])
        .await;
    assert_eq!(res.status(), 429, "a forged header earns no new budget");

    // Behind a trusted proxy, each forwarded client has its own budget.
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.auth_burst = 3;
            c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        }),
        ..Options::default()
    })
    .await;
    let guest_from = |who: &'static str| {
        let http = app.http();
        let url = format!("{}/api/guest", app.base);
        async move {
            http.post(url)
                .header("x-forwarded-for", who)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    for _ in 0..3 {
        assert_eq!(guest_from("192.0.2.1").await, 201);
    }
    assert_eq!(guest_from("192.0.2.1").await, 429);
    assert_eq!(
        guest_from("192.0.2.2").await,
        201,
        "another client, another budget"
    );
    assert_eq!(
        guest_from("192.0.2.2, 127.0.0.1").await,
        201,
        "the proxy's own hop is skipped"
    );
}

#[tokio::test]
async fn the_origin_is_compared_with_the_public_url_not_the_host_header() {
    let app = spawn_app_with(Options {
        config: Some(|c| c.public_url = Some("https://play.example.org".into())),
        ..Options::default()
    })
    .await;
    let post = |origin: &'static str, host: Option<&'static str>| {
        let mut req = app
            .http()
            .post(format!("{}/api/guest", app.base))
            .header("origin", origin);
        if let Some(h) = host {
            req = req.header("host", h);
        }
        async move { req.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(post("https://play.example.org", None).await, 201);
    // An attacker's page whose request names the attacker's host is refused.
    assert_eq!(post("http://evil.example", Some("evil.example")).await, 403);
    assert_eq!(post("http://127.0.0.1", Some("127.0.0.1")).await, 403);

    // The default public origin comes from the bound address.
    let app = spawn_app_with(Options::default()).await;
    let own = app.post_guest_with(&[("origin", &app.base)]).await;
    assert_eq!(own.status(), 201);
    let forged = app
        .post_guest_with(&[("origin", "http://evil.example"), ("host", "evil.example")])
        .await;
    assert_eq!(forged.status(), 403);
}
