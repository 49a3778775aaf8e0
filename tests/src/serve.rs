//! `scryptic serve` as a process of a test's own (the binary people run), which a test can kill
//! as `kill -9` does and start again on the same port and data; and `scryptic join` as a
//! person's terminal, which a test types into once it shows what a person would wait for.
#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a panic there is the test's failure"
)]

use crate::{repo_path, scryptic_binary};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A `scryptic serve` of the test's own, on a free port, killed (as by `kill -9`) when
/// dropped.
pub struct Server {
    child: Child,
    /// Its address, `http://127.0.0.1:PORT`.
    pub base: String,
    /// What it said first (`serving on ADDRESS (N matches resumed from DIR)`).
    pub said: String,
    data: PathBuf,
}

/// What a `scryptic serve` child (its output piped) said first, and the address in it.
pub fn listening(child: &mut Child) -> (String, String) {
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("the server says where it listens: {first}"))
        .to_string();
    (first, base)
}

impl Server {
    /// A server on a free port of loopback, keeping its matches in `data`, playing the
    /// repository's packs, its AI seats quick.
    pub fn start(data: &Path) -> Server {
        Server::start_at(data, "127.0.0.1:0")
    }

    /// `kill -9`, then a new server on the same port and data.
    pub fn restart(&mut self) {
        self.kill();
        let bind = self.base.trim_start_matches("http://").to_string();
        let again = Server::start_at(&self.data, &bind);
        // The old one is already dead: its drop must not kill the new process.
        let old = std::mem::replace(self, again);
        std::mem::forget(old);
    }

    /// As [`Server::start`], listening at `bind`.
    pub fn start_at(data: &Path, bind: &str) -> Server {
        Server::start_with(data, bind, &[])
    }

    /// As [`Server::start_at`], with more of `serve`'s flags (`--database`, `--shard`).
    pub fn start_with(data: &Path, bind: &str, more: &[&str]) -> Server {
        let mut child = Command::new(scryptic_binary())
            .args([
                "serve",
                "--bind",
                bind,
                "--ai-pace",
                "20",
                "--round-pause",
                "1",
            ])
            .arg("--data")
            .arg(data)
            .arg("--packs")
            .arg(repo_path("packs"))
            .args(more)
            .env("SCRYPTIC_DATA", data.join("home"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let (first, base) = listening(&mut child);
        Server {
            child,
            base,
            said: first,
            data: data.to_path_buf(),
        }
    }

    /// `kill -9`: nothing is flushed, nothing is said.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Makes a match with `scryptic host --server`, every seat open unless `args` say; its id.
    pub fn host(&self, args: &[&str]) -> String {
        let out = Command::new(scryptic_binary())
            .arg("host")
            .args(args)
            .args(["--server", &self.base])
            .env("SCRYPTIC_DATA", self.data.join("host"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "host: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text.split_whitespace()
            .skip_while(|w| *w != "match")
            .nth(1)
            .unwrap_or_else(|| panic!("host names the match: {text}"))
            .to_string()
    }

    /// What `scryptic matches` prints of this server.
    pub fn matches(&self) -> String {
        let out = Command::new(scryptic_binary())
            .args(["matches", &self.base])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Match `id`'s address.
    pub fn url(&self, id: &str) -> String {
        format!("{}/matches/{id}", self.base)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// How long a client may take to show what a test waits for.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Collects what a child writes, on a thread.
fn collect(from: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let into = text.clone();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(from);
        let mut chunk = [0u8; 4096];
        while let Ok(n) = reader.read(&mut chunk) {
            if n == 0 {
                break;
            }
            into.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&chunk[..n]));
        }
    });
    text
}

/// A `scryptic join` client: its pipe in, everything it wrote.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    output: Arc<Mutex<String>>,
    /// How far the test has read.
    cursor: usize,
    name: String,
}

impl Client {
    /// Joins `url` with `args`, keeping its tokens in `home` (a machine of its own).
    pub fn join(url: &str, home: &Path, args: &[&str]) -> Client {
        let mut child = Command::new(scryptic_binary())
            .args(["join", url])
            .args(args)
            .env("SCRYPTIC_DATA", home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let output = collect(child.stdout.take().unwrap());
        let errors = collect(child.stderr.take().unwrap());
        // Errors go with the output, where a test's failure shows them.
        let joined = output.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(50));
                let taken = std::mem::take(&mut *errors.lock().unwrap());
                if !taken.is_empty() {
                    joined
                        .lock()
                        .unwrap()
                        .push_str(&format!("[stderr] {taken}"));
                }
            }
        });
        Client {
            child,
            stdin,
            output,
            cursor: 0,
            name: args.join(" "),
        }
    }

    /// Waits until the client has written `needle` past what was read; reads up to its end.
    pub fn expect(&mut self, needle: &str) -> String {
        let began = Instant::now();
        loop {
            {
                let text = self.output.lock().unwrap();
                if let Some(at) = text[self.cursor..].find(needle) {
                    let seen = text[self.cursor..self.cursor + at + needle.len()].to_string();
                    self.cursor += at + needle.len();
                    return seen;
                }
            }
            if began.elapsed() > PATIENCE {
                let text = self.output.lock().unwrap().clone();
                panic!(
                    "client `{}` never wrote `{needle}`; after what was read it wrote:\n{}\n(before that:\n{})",
                    self.name,
                    &text[self.cursor..],
                    &text[..self.cursor]
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn everything(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// Types `quit` and waits for the client to end: its exit code.
    pub fn quit(mut self) -> i32 {
        self.send("quit");
        let began = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(
                began.elapsed() < PATIENCE,
                "client `{}` does not quit",
                self.name
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
