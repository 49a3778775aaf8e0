//! What is secret on disk is its owner's alone, whatever the umask: the server's data folder
//! (every rack is in its database) and the seats' tokens a player keeps; and a server refuses
//! a data folder others can read, saying how to fix it.
#![cfg(unix)]
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{repo_path, scryptic_binary};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// `scryptic ARGS` under a umask of 022 (files readable by everyone unless made otherwise).
fn with_umask_022(args: &str) -> Command {
    let mut command = Command::new("sh");
    command.arg("-c").arg(format!(
        "umask 022 && exec {} {args}",
        scryptic_binary().display()
    ));
    command
}

#[test]
fn the_servers_data_and_a_players_tokens_are_their_owners_alone() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("server");
    let mut serve = with_umask_022(&format!(
        "serve --bind 127.0.0.1:0 --data {} --packs {}",
        data.display(),
        repo_path("packs")
    ))
    .stdout(Stdio::piped())
    .stdin(Stdio::null())
    .spawn()
    .unwrap();
    let (_, base) = scryptic_tests::serve::listening(&mut serve);
    assert_eq!(mode(&data), 0o700, "the data folder");
    assert_eq!(mode(&data.join("matches.sqlite")), 0o600, "the database");
    // A player hosts and takes a seat: its token is kept, for them alone.
    let home = dir.path().join("home");
    let hosted = with_umask_022(&format!(
        "host word-wars --server {base} --seat gold=me --seat silver=ai --name Ann"
    ))
    .env("SCRYPTIC_DATA", &home)
    .stdin(Stdio::null())
    .output()
    .unwrap();
    let said = String::from_utf8_lossy(&hosted.stdout);
    assert!(
        said.contains("made"),
        "{said}{}",
        String::from_utf8_lossy(&hosted.stderr)
    );
    let online = home.join("online");
    assert_eq!(mode(&online), 0o700, "the tokens' folder");
    let tokens: Vec<_> = std::fs::read_dir(&online)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(tokens.len(), 1, "{tokens:?}");
    assert_eq!(mode(&tokens[0]), 0o600, "the seat's token");
    let _ = serve.kill();
    let _ = serve.wait();
    // Opened to others, the folder is refused with how to close it.
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    let refused = with_umask_022(&format!(
        "serve --bind 127.0.0.1:0 --data {}",
        data.display()
    ))
    .stdin(Stdio::null())
    .output()
    .unwrap();
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains(&format!("chmod 700 {}", data.display())),
        "{err}"
    );
}
