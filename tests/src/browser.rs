//! A real browser for the tests: Debian's chromium, headless, driven over the WebDriver
//! protocol (chromedriver; requests made with a plain HTTP client), and the servers and
//! matches the browser tests open. A test is skipped where chromium or chromedriver is missing,
//! unless `SCRYPTIC_REQUIRE_BROWSER` is set (CI sets it: `.ci/run` installs both).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a panic there is the test's failure"
)]

use crate::root;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The key WebDriver names an element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// WebDriver's values for the keys that are not characters.
pub mod keys {
    /// Enter.
    pub const ENTER: &str = "\u{E007}";
    /// Escape.
    pub const ESCAPE: &str = "\u{E00C}";
    /// Backspace.
    pub const BACKSPACE: &str = "\u{E003}";
    /// Control (held with another key: `Browser::chord`).
    pub const CONTROL: &str = "\u{E009}";
    /// The left arrow.
    pub const LEFT: &str = "\u{E012}";
    /// The up arrow.
    pub const UP: &str = "\u{E013}";
    /// The right arrow.
    pub const RIGHT: &str = "\u{E014}";
    /// The down arrow.
    pub const DOWN: &str = "\u{E015}";
}

/// A browser session of chromedriver's, closed with the driver when dropped.
pub struct Browser {
    driver: std::process::Child,
    base: String,
    session: String,
    agent: ureq::Agent,
}

impl Browser {
    /// Starts chromedriver and a headless chromium session, or says why not.
    pub fn start() -> Option<Browser> {
        Browser::start_with(&[], None)
    }

    /// A phone held upright (`width` by `height` CSS pixels, at `ratio` device pixels to one),
    /// touched, not clicked: chromium's own emulation of one.
    pub fn phone(width: u32, height: u32, ratio: f64) -> Option<Browser> {
        let metrics =
            json!({ "width": width, "height": height, "pixelRatio": ratio, "touch": true });
        Browser::start_with(&[], Some(json!({ "deviceMetrics": metrics })))
    }

    /// As `start`, with chromium's `args` added and its mobile emulation (`mobileEmulation`).
    pub fn start_with(args: &[&str], emulation: Option<Value>) -> Option<Browser> {
        let required = std::env::var_os("SCRYPTIC_REQUIRE_BROWSER").is_some();
        let present =
            std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists();
        if !present {
            assert!(
                !required,
                "SCRYPTIC_REQUIRE_BROWSER is set but {CHROMIUM} or {CHROMEDRIVER} is missing"
            );
            eprintln!(
                "skipped: no {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)"
            );
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = std::process::Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
            agent,
        };
        let start = Instant::now();
        while browser.get("/status").is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap().keep();
        let mut all_args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--window-size=1100,1400".into(),
            // WebGL without a GPU (the browser client draws with it).
            "--use-angle=swiftshader".into(),
            "--enable-unsafe-swiftshader".into(),
            format!("--user-data-dir={}", profile.display()),
        ];
        all_args.extend(args.iter().map(|a| a.to_string()));
        let mut options = json!({
            "binary": CHROMIUM,
            "args": all_args,
            // The network's log, read by `websocket_frames`: what the page's sockets got.
            "perfLoggingPrefs": { "enableNetwork": true, "enablePage": false }
        });
        if let Some(emulation) = emulation {
            options["mobileEmulation"] = emulation;
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
            "goog:loggingPrefs": { "performance": "ALL" }
        }}});
        let made = browser.post("/session", &capabilities).unwrap();
        browser.session = made["sessionId"].as_str().unwrap().to_string();
        Some(browser)
    }

    fn answer(
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<Value, String> {
        let mut response = response.map_err(|e| e.to_string())?;
        let status = response.status();
        let body: Value = response.body_mut().read_json().map_err(|e| e.to_string())?;
        if !status.is_success() {
            return Err(format!("{status}: {body}"));
        }
        Ok(body["value"].clone())
    }

    fn get(&self, path: &str) -> Result<Value, String> {
        Browser::answer(self.agent.get(format!("{}{path}", self.base)).call())
    }

    fn post(&self, path: &str, body: &Value) -> Result<Value, String> {
        Browser::answer(
            self.agent
                .post(format!("{}{path}", self.base))
                .send_json(body),
        )
    }

    fn command(&self, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.post(&path, &body)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Closes the tab and goes on in a new one (a person closing the tab and opening the link
    /// again later).
    pub fn close_tab_for_a_new_one(&self) {
        let made = self.command("/window/new", json!({ "type": "tab" }));
        let handle = made["handle"].as_str().unwrap().to_string();
        let path = format!("{}/session/{}/window", self.base, self.session);
        Browser::answer(self.agent.delete(&path).call()).unwrap_or_else(|e| panic!("{path}: {e}"));
        self.command("/window", json!({ "handle": handle }));
    }

    /// The window as a PNG image (the canvas included, as a person sees it).
    pub fn screenshot(&self) -> Vec<u8> {
        use base64::Engine;
        let path = format!("/session/{}/screenshot", self.session);
        let shot = self.get(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        base64::engine::general_purpose::STANDARD
            .decode(shot.as_str().unwrap())
            .unwrap()
    }

    /// The text of every WebSocket frame the page received since the last call, in order, as
    /// the browser's own network log (DevTools) recorded them: what reached the browser,
    /// whatever the client made of it.
    pub fn websocket_frames(&self) -> Vec<String> {
        let entries = self.command("/se/log", json!({ "type": "performance" }));
        let mut frames = Vec::new();
        for entry in entries.as_array().into_iter().flatten() {
            let Some(text) = entry["message"].as_str() else {
                continue;
            };
            let message: Value = serde_json::from_str(text).unwrap();
            let message = &message["message"];
            if message["method"] == "Network.webSocketFrameReceived" {
                let response = &message["params"]["response"];
                assert_eq!(
                    response["opcode"], 1,
                    "the server sends text frames: {response}"
                );
                frames.push(response["payloadData"].as_str().unwrap().to_string());
            }
        }
        frames
    }

    /// Writes the window's screenshot as `name` in the folder `SCRYPTIC_SCREENSHOTS` names, if
    /// it names one (what a person would have seen when a test failed); says where.
    pub fn keep_screenshot(&self, name: &str) -> String {
        let Some(dir) = std::env::var_os("SCRYPTIC_SCREENSHOTS") else {
            return "set SCRYPTIC_SCREENSHOTS to a folder to see the page".into();
        };
        let path = std::path::Path::new(&dir).join(name);
        std::fs::write(&path, self.screenshot()).unwrap();
        format!("the page is in {}", path.display())
    }

    pub fn open(&self, url: &str) {
        self.command("/url", json!({ "url": url }));
    }

    /// Runs `script` in the page (its `return` is the answer).
    pub fn run(&self, script: &str) -> Value {
        self.command("/execute/sync", json!({ "script": script, "args": [] }))
    }

    /// Runs `script`, which ends by calling `done(value)`.
    pub fn run_async(&self, script: &str) -> Value {
        let script = format!("const done = arguments[arguments.length - 1]; {script}");
        self.command("/execute/async", json!({ "script": script, "args": [] }))
    }

    /// Presses and lets go of each key of `keys` in turn, as a person at the keyboard would
    /// (WebDriver's key values: a character, or a key such as [`keys::ENTER`]); they go to the
    /// page's focused element.
    pub fn press(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|k| {
                [
                    json!({ "type": "keyDown", "value": k }),
                    json!({ "type": "keyUp", "value": k }),
                ]
            })
            .collect();
        let source = json!({ "type": "key", "id": "keyboard", "actions": actions });
        self.command("/actions", json!({ "actions": [source] }));
    }

    /// Holds `held` (a modifier such as [`keys::CONTROL`]) while pressing `key`.
    pub fn chord(&self, held: &str, key: &str) {
        let actions = json!([
            { "type": "keyDown", "value": held },
            { "type": "keyDown", "value": key },
            { "type": "keyUp", "value": key },
            { "type": "keyUp", "value": held },
        ]);
        let source = json!({ "type": "key", "id": "keyboard", "actions": actions });
        self.command("/actions", json!({ "actions": [source] }));
    }

    /// A finger's tap at (`x`, `y`), CSS pixels from the page's top left.
    pub fn tap(&self, x: f64, y: f64) {
        let actions = json!([
            { "type": "pointerMove", "x": x.round() as i64, "y": y.round() as i64, "origin": "viewport" },
            { "type": "pointerDown", "button": 0 },
            { "type": "pointerUp", "button": 0 },
        ]);
        let finger = json!({ "type": "pointer", "id": "finger",
            "parameters": { "pointerType": "touch" }, "actions": actions });
        self.command("/actions", json!({ "actions": [finger] }));
    }

    /// Waits until the page has drawn two more frames (what it was told is on the screen).
    pub fn next_frames(&self) {
        self.run_async("requestAnimationFrame(() => requestAnimationFrame(() => done(true)));");
    }

    pub fn element(&self, css: &str) -> String {
        let found = self.command("/element", json!({ "using": "css selector", "value": css }));
        found[ELEMENT].as_str().unwrap().to_string()
    }

    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.command(&format!("/element/{id}/click"), json!({}));
    }

    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.command(&format!("/element/{id}/value"), json!({ "text": text }));
    }

    /// Polls `script` until it answers `true`.
    pub fn wait_for(&self, what: &str, script: &str) {
        let start = Instant::now();
        while self.run(script) != json!(true) {
            let page = self.run("return document.body.innerText");
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waited 30 s for {what}; the page says {page}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self
                .agent
                .delete(format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// A server publishing nothing that plays the shipped packs from their folders, its AI seats
/// acting every `pace`.
pub fn playing_server(data: &std::path::Path, pace: Duration) -> scryptic::server::Started {
    let mut options = scryptic::server::Options::new("127.0.0.1:0".parse().unwrap(), data.into());
    options.packs = vec![root().join("packs")];
    options.ai_pace = pace;
    options.ai_letter = Some(pace);
    scryptic::server::start(options).unwrap()
}

/// A match of `pack` at `address` dealt by `seed`, with `seats` (seat, AI level) played by the
/// server's AI, the others open.
pub fn ai_match(
    address: &str,
    pack: &str,
    seats: &[(&str, &str)],
    seed: u64,
) -> scryptic::protocol::MatchInfo {
    match_of(address, pack, ("", ""), &[], seats, seed)
}

/// As `ai_match`, of the pack's mode and map `mode_map` (empty: the pack's first and the
/// mode's own) with `settings`.
pub fn match_of(
    address: &str,
    pack: &str,
    (mode, map): (&str, &str),
    settings: &[(&str, &str)],
    seats: &[(&str, &str)],
    seed: u64,
) -> scryptic::protocol::MatchInfo {
    let seats = seats
        .iter()
        .map(|(seat, level)| {
            (
                seat.to_string(),
                scryptic::protocol::SeatRequest::Ai {
                    level: level.to_string(),
                },
            )
        })
        .collect();
    let settings = settings.iter().map(|(k, v)| (k.to_string(), v.to_string()));
    scryptic::client::Lobby::new(address)
        .create(scryptic::protocol::CreateMatch {
            pack: pack.into(),
            mode: mode.into(),
            map: map.into(),
            settings: settings.collect(),
            seats,
            seed: Some(seed),
            log_after_end: true,
        })
        .unwrap()
}
