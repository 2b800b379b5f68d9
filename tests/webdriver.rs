//! The few W3C WebDriver commands the browser tests send to chromedriver,
//! as blocking JSON requests, one connection each.
//!
//! Why not a WebDriver crate: `fantoccini`, through Mozilla's `webdriver`
//! types, brought two versions of ICU (one with its compiled segmenter
//! data) into every `cargo test` build — a sixth of a fresh build's CPU
//! time for eight endpoints (docs/decisions.md, "Build and test time").

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};

/// The key under which WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// One browser session on one chromedriver; the tests end it with
/// [`Browser::close`].
pub struct Browser {
    driver: SocketAddr,
    session: String,
}

/// An element of the page the session shows.
pub struct Element<'a> {
    browser: &'a Browser,
    id: String,
}

/// One request; the reply's status and body. chromedriver keeps the
/// connection open whatever the request says, so the body is read by its
/// `Content-Length`, not to the end of the stream.
fn http(driver: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(driver).expect("chromedriver answers");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {driver}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let mut length = 0;
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut raw = vec![0; length];
    r.read_exact(&mut raw).unwrap();
    (status, String::from_utf8_lossy(&raw).into_owned())
}

/// A command's `value`, or the driver's error and message as one line.
fn send(
    driver: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Result<Value, String> {
    let body = body.map(|b| b.to_string());
    let (code, text) = http(driver, method, path, body.as_deref());
    let reply: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{method} {path}: HTTP {code}, not JSON ({e}): {text}"))?;
    let value = reply.get("value").cloned().unwrap_or(Value::Null);
    if code == 200 {
        Ok(value)
    } else {
        Err(format!(
            "{method} {path}: HTTP {code}, {}: {}",
            value["error"].as_str().unwrap_or("?"),
            value["message"].as_str().unwrap_or(&text)
        ))
    }
}

impl Browser {
    /// A new session with these capabilities (`alwaysMatch`).
    pub fn start(driver: SocketAddr, capabilities: Value) -> Result<Browser, String> {
        let v = send(
            driver,
            "POST",
            "/session",
            Some(json!({ "capabilities": { "alwaysMatch": capabilities } })),
        )?;
        let session = v["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session id in {v}"))?
            .to_string();
        Ok(Browser { driver, session })
    }

    fn command(&self, method: &str, tail: &str, body: Option<Value>) -> Result<Value, String> {
        send(
            self.driver,
            method,
            &format!("/session/{}{tail}", self.session),
            body,
        )
    }

    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.command("POST", "/url", Some(json!({ "url": url })))
            .map(drop)
    }

    /// Runs a function body in the page and returns what it returns.
    pub fn execute(&self, script: &str) -> Result<Value, String> {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Runs a function body that calls `arguments[0]` with its result.
    pub fn execute_async(&self, script: &str) -> Result<Value, String> {
        self.command(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// The first element the CSS selector matches.
    pub fn find(&self, css: &str) -> Result<Element<'_>, String> {
        let v = self.command(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        )?;
        let id = v[ELEMENT]
            .as_str()
            .ok_or_else(|| format!("no element reference in {v}"))?
            .to_string();
        Ok(Element { browser: self, id })
    }

    /// The window as PNG bytes.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let v = self.command("GET", "/screenshot", None)?;
        base64::engine::general_purpose::STANDARD
            .decode(v.as_str().ok_or("a screenshot that is not a string")?)
            .map_err(|e| format!("a screenshot that is not base64: {e}"))
    }

    pub fn close(self) -> Result<(), String> {
        self.command("DELETE", "", None).map(drop)
    }
}

impl Element<'_> {
    pub fn click(&self) -> Result<(), String> {
        self.browser
            .command(
                "POST",
                &format!("/element/{}/click", self.id),
                Some(json!({})),
            )
            .map(drop)
    }

    /// Types `text` (WebDriver key codes such as `\u{E007}` for Enter).
    pub fn send_keys(&self, text: &str) -> Result<(), String> {
        self.browser
            .command(
                "POST",
                &format!("/element/{}/value", self.id),
                Some(json!({ "text": text })),
            )
            .map(drop)
    }
}
