//! `scryptic serve` as a process of a test's own (the binary people run), which a test can kill
//! as `kill -9` does and start again on the same port and data.
#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a panic there is the test's failure"
)]

use crate::{repo_path, scryptic_binary};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

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
