//! `http_resource()` fetches only from allowed hosts (B11), here from a
//! one-request server on the loopback interface.

use bpvm::runtime::builtins::effects::Effects;
use bpvm::{Compiler, Dialect, Environment, Vm};
use std::io::{Read, Write};
use std::net::TcpListener;

/// Serves one request on `addr` (a loopback address) with `head` (status
/// line and headers) and `body`; returns the port.
fn serve(addr: &str, head: String, body: &'static str) -> u16 {
    serve_bytes(addr, head, body.as_bytes())
}

fn serve_bytes(addr: &str, head: String, body: &'static [u8]) -> u16 {
    let listener = TcpListener::bind((addr, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut request = [0u8; 2048];
            let _ = stream.read(&mut request);
            let head = format!("{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(body);
        }
    });
    port
}

fn serve_once(body: &'static str) -> u16 {
    serve("127.0.0.1", "HTTP/1.1 200 OK".into(), body)
}

/// A server on 127.0.0.1 that redirects to a second one on 127.0.0.2.
fn redirect_to_second_address() -> (u16, u16) {
    let second = serve("127.0.0.2", "HTTP/1.1 200 OK".into(), "SECRET");
    let first = serve(
        "127.0.0.1",
        format!("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:{second}/secret"),
        "",
    );
    (first, second)
}

fn run(src: &str, allow: &[&str]) -> Result<String, String> {
    let prog = Compiler::new(Dialect::Bluelink).compile(src).map_err(|d| d.message)?;
    let fx = Effects {
        allow_http: allow.iter().map(|h| h.to_string()).collect(),
        ..Effects::default()
    };
    bpvm::eval_with(&mut Vm::new(), &prog, &Environment::new(), &fx)
        .map(|v| v.to_json())
        .map_err(|d| d.message)
}

#[test]
fn an_allowed_host_is_fetched_as_bytes() {
    let port = serve_once(r#"{"name": "app"}"#);
    let got = run(
        &format!(r#"jsondecode(utf8(http_resource("http://127.0.0.1:{port}/config.json")))"#),
        &["127.0.0.1"],
    );
    assert_eq!(got, Ok(r#"{"name":"app"}"#.to_string()));
}

#[test]
fn other_hosts_are_refused() {
    let got = run(r#"http_resource("https://example.com/config.json")"#, &["127.0.0.1"]);
    assert_eq!(
        got,
        Err(
            "http_resource() may not fetch from \"example.com\"; allow the host first (bpvm: --allow-http example.com)"
                .into()
        )
    );
    let got = run(r#"http_resource("ftp://example.com/x")"#, &["example.com"]);
    assert_eq!(
        got,
        Err("http_resource() needs an http:// or https:// URL, got \"ftp://example.com/x\"".into())
    );
}

#[test]
fn a_failed_fetch_is_an_error_naming_the_url() {
    // Nothing listens on port 9 of the loopback interface.
    let got = run(r#"http_resource("http://127.0.0.1:9/x")"#, &["127.0.0.1"]);
    assert!(
        got.as_ref()
            .is_err_and(|e| e.starts_with("http_resource() could not fetch \"http://127.0.0.1:9/x\"")),
        "{got:?}"
    );
}

#[test]
fn a_redirect_to_a_host_not_allowed_is_refused() {
    let (first, _) = redirect_to_second_address();
    let url = format!("http://127.0.0.1:{first}/config.json");
    let got = run(&format!("utf8(http_resource({url:?}))"), &["127.0.0.1"]);
    assert_eq!(
        got,
        Err(format!(
            "http_resource() may not fetch from \"127.0.0.2\" (redirected from {url:?}); allow the host first (bpvm: --allow-http 127.0.0.2)"
        ))
    );
}

#[test]
fn a_redirect_to_an_allowed_host_is_followed() {
    let (first, _) = redirect_to_second_address();
    let url = format!("http://127.0.0.1:{first}/config.json");
    let got = run(&format!("utf8(http_resource({url:?}))"), &["127.0.0.1", "127.0.0.2"]);
    assert_eq!(got, Ok("\"SECRET\"".to_string()));
}

// Bluelink's http_resource_test.go, whose cases need a server
// (tests/cases/bluelink/reference/README.md).

/// `http_resource()` of the one-request server at 127.0.0.1 answering
/// `head` and `body`, read back through `read` (an expression around `$`).
fn fetch(head: &str, body: &'static [u8], read: &str) -> Result<String, String> {
    let port = serve_bytes("127.0.0.1", head.into(), body);
    let call = format!("http_resource(\"http://127.0.0.1:{port}/resource\")");
    run(&read.replace('$', &call), &["127.0.0.1"])
}

#[test]
fn reference_fetches_http_resource_successfully() {
    let got = fetch("HTTP/1.1 200 OK", b"test data content", "utf8($)");
    assert_eq!(got, Ok("\"test data content\"".to_string()));
}

#[test]
fn reference_fetches_json_resource() {
    let got = fetch(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json",
        br#"{"key": "value", "number": 42}"#,
        "utf8($)",
    );
    assert_eq!(got, Ok(r#""{\"key\": \"value\", \"number\": 42}""#.to_string()));
}

#[test]
fn reference_fetches_binary_resource() {
    // A PNG header: not UTF-8, so read back as base64.
    let got = fetch(
        "HTTP/1.1 200 OK\r\nContent-Type: image/png",
        &[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        "base64encode($)",
    );
    assert_eq!(got, Ok("\"iVBORw0KGgo=\"".to_string()));
}

#[test]
fn reference_returns_error_for_404() {
    let got = fetch("HTTP/1.1 404 Not Found", b"", "$");
    assert!(
        got.as_ref()
            .is_err_and(|e| e.starts_with("http_resource() could not fetch") && e.contains("404")),
        "{got:?}"
    );
}

#[test]
fn reference_returns_error_for_500() {
    let got = fetch("HTTP/1.1 500 Internal Server Error", b"", "$");
    assert!(
        got.as_ref()
            .is_err_and(|e| e.starts_with("http_resource() could not fetch") && e.contains("500")),
        "{got:?}"
    );
}

/// A server on 127.0.0.1 that answers one request with headers promising
/// `total` bytes, then sends one byte every `every`; returns the port.
fn trickle(total: usize, every: std::time::Duration) -> u16 {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut request = [0u8; 2048];
            let _ = stream.read(&mut request);
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {total}\r\nConnection: close\r\n\r\n");
            let _ = stream.write_all(head.as_bytes());
            for _ in 0..total {
                std::thread::sleep(every);
                if stream.write_all(b"x").is_err() {
                    return;
                }
            }
        }
    });
    port
}

#[test]
fn a_host_that_trickles_is_given_up_on_at_the_deadline() {
    // One byte every 100 ms for 10 minutes: every read makes progress, so
    // only a deadline on the whole fetch ends it.
    let port = trickle(6000, std::time::Duration::from_millis(100));
    let prog = Compiler::new(Dialect::Bluelink)
        .compile(&format!("http_resource(\"http://127.0.0.1:{port}/slow\")"))
        .unwrap();
    let fx = Effects {
        allow_http: vec!["127.0.0.1".into()],
        http_timeout: Some(std::time::Duration::from_millis(800)),
        ..Effects::default()
    };
    let started = std::time::Instant::now();
    let got = bpvm::eval_with(&mut Vm::new(), &prog, &Environment::new(), &fx).map_err(|d| d.message);
    let took = started.elapsed();
    assert_eq!(
        got.map(|v| v.to_json()),
        Err(format!(
            "http_resource() gave up on \"http://127.0.0.1:{port}/slow\": no whole response within 0.8 s (set BPVM_HTTP_TIMEOUT_SECS to raise the limit)"
        ))
    );
    assert!(took < std::time::Duration::from_secs(5), "took {took:?}");
}

#[test]
fn the_default_deadline_is_thirty_seconds() {
    use bpvm::runtime::builtins::http;
    assert_eq!(http::DEFAULT_TIMEOUT_SECS, 30);
    assert!(std::env::var(http::TIMEOUT_VARIABLE).is_ok() || http::timeout().as_secs() == 30);
}
