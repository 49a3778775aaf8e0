//! Hot reload: a good change replaces a script's handlers, a broken one leaves the old ones,
//! storage is kept, and the watcher sees atomic saves and bursts of saves.

use scryptic::script::watch::Watcher;
use scryptic::script::{ConsoleLine, ScriptHost, ScriptLimits};
use std::path::Path;
use std::time::Duration;

fn printed(host: &mut ScriptHost) -> Vec<String> {
    host.drain_console()
        .into_iter()
        .filter_map(|l| match l {
            ConsoleLine::Output { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

fn turn(host: &mut ScriptHost) {
    assert!(
        host.dispatch("turn_start", Some(1), |_| Ok(mlua::MultiValue::new()))
            .is_empty()
    );
}

const V1: &str = "storage.loads = (storage.loads or 0) + 1\nscryptic.on('turn_start', function() print('v1 ' .. storage.loads) end)";
const V2: &str = "storage.loads = (storage.loads or 0) + 1\nscryptic.on('turn_start', function() print('v2 ' .. storage.loads) end)\nscryptic.on('on_reload', function() print('reloaded') end)";

#[test]
fn a_good_change_replaces_the_handlers_and_keeps_storage() {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load("mod.lua", V1).unwrap();
    turn(&mut host);
    assert_eq!(printed(&mut host), vec!["v1 1"]);
    host.reload("mod.lua", V2).unwrap();
    assert_eq!(printed(&mut host), vec!["reloaded"]);
    turn(&mut host);
    assert_eq!(
        printed(&mut host),
        vec!["v2 2"],
        "one handler, the new one, with storage kept"
    );
    assert_eq!(host.generation(), 1);
    assert_eq!(host.handler_count("turn_start"), 1);
}

#[test]
fn a_broken_change_leaves_the_old_handlers() {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load("mod.lua", V1).unwrap();
    let err = host
        .reload(
            "mod.lua",
            "scryptic.on('turn_start', function()\n  print('half')\n",
        )
        .unwrap_err();
    assert_eq!((err.script.as_str(), err.line), ("mod.lua", Some(3)));
    turn(&mut host);
    assert_eq!(
        printed(&mut host),
        vec!["v1 1"],
        "the old handler still runs; nothing of the broken text ran"
    );
    let err = host
        .reload(
            "mod.lua",
            "scryptic.on('turn_start', function() end)\nerror('late failure')",
        )
        .unwrap_err();
    assert!(err.message.contains("late failure"));
    assert_eq!(
        host.handler_count("turn_start"),
        1,
        "the half-loaded handler was dropped"
    );
    assert_eq!(host.generation(), 0);
}

fn wait_for(watcher: &Watcher, file: &Path) -> bool {
    let wanted = std::fs::canonicalize(file).unwrap();
    watcher.wait(Duration::from_secs(5)).contains(&wanted)
}

#[test]
fn the_watcher_sees_plain_saves_atomic_saves_and_bursts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mod.lua");
    std::fs::write(&file, V1).unwrap();
    let watcher = Watcher::new(std::slice::from_ref(&file)).unwrap();
    std::fs::write(dir.path().join("other.lua"), "-- not watched").unwrap();
    std::fs::write(&file, V2).unwrap();
    assert!(wait_for(&watcher, &file), "a plain save is seen");
    let staged = dir.path().join(".mod.lua.tmp");
    std::fs::write(&staged, V1).unwrap();
    std::fs::rename(&staged, &file).unwrap();
    assert!(wait_for(&watcher, &file), "an atomic rename-save is seen");
    for i in 0..10 {
        std::fs::write(&file, format!("print({i})")).unwrap();
    }
    assert!(wait_for(&watcher, &file), "a burst of saves is seen");
    std::thread::sleep(Duration::from_millis(300));
    let _ = watcher.changed();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "print(9)");
    assert!(
        watcher.changed().is_empty(),
        "nothing more once the burst is over"
    );
}
