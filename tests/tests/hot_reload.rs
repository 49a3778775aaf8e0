//! Hot reload: a good change replaces a script's handlers, a broken one leaves the old ones,
//! storage is kept, and the watcher sees atomic saves and bursts of saves.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

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
    assert!(host.dispatch_event("turn_start", Some(1), &[]).is_empty());
}

const V1: &str = "storage.loads = (storage.loads or 0) + 1\nscryptic.on('turn_start', function() print('v1 ' .. storage.loads) end)";
const V2: &str = "storage.loads = (storage.loads or 0) + 1\nscryptic.on('turn_start', function() print('v2 ' .. storage.loads) end)\nscryptic.on('on_reload', function(game, ev) print('reloaded', game, type(ev)) end)";

#[test]
fn a_good_change_replaces_the_handlers_and_keeps_storage() {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load("mod.lua", V1).unwrap();
    turn(&mut host);
    assert_eq!(printed(&mut host), vec!["v1 1"]);
    host.reload("mod.lua", V2).unwrap();
    assert_eq!(printed(&mut host), vec!["reloaded\tnil\ttable"]);
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

/// A reload that fails partway changes nothing: storage written before the failure is as it
/// was (a value changed, a key added, a table changed inside), no handler of the new text
/// stays, and the old version goes on with its own globals. A first load that fails leaves
/// nothing behind either.
#[test]
fn a_failed_reload_changes_nothing() {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load(
        "mod.lua",
        "storage.army = { 'archer' }\nlocal mine = 'v1'\nscryptic.on('turn_start', function() print(mine .. ' ' .. #storage.army) end)",
    )
    .unwrap();
    let before = host.storage_json().unwrap();
    let err = host
        .reload(
            "mod.lua",
            "storage.army[1] = 'knight'\nstorage.army[2] = 'scout'\nstorage.loads = 99\n\
             scryptic.on('turn_end', function() end)\n\
             scryptic.token { id = 'half', invoke = function() end }\n\
             error('late failure')",
        )
        .unwrap_err();
    assert!(err.message.contains("late failure"), "{err}");
    assert_eq!(host.storage_json().unwrap(), before);
    assert_eq!(host.handler_count("turn_end"), 0);
    assert!(host.token_kinds().is_empty());
    turn(&mut host);
    assert_eq!(printed(&mut host), vec!["v1 1"]);

    host.load(
        "new.lua",
        "storage.fresh = true\nscryptic.on('turn_end', function() end)\nerror('no')",
    )
    .unwrap_err();
    assert_eq!(host.storage_json().unwrap(), before);
    assert_eq!(host.handler_count("turn_end"), 0);
    assert!(!host.scripts().contains(&"new.lua".to_string()));
}

/// The watcher reacts to what a file holds, not to its being opened or read: reading a
/// script (as a text editor opening it does, and as the reload itself does) reloads nothing,
/// saving new text reloads it once, and saving the same text again reloads nothing.
#[test]
fn only_a_change_of_content_reloads_a_script() {
    use scryptic::game::Action;
    use scryptic::script::ScriptedGame;
    use scryptic::script::live::{LiveFiles, LiveNotice};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mod.lua");
    std::fs::write(&file, V1).unwrap();
    let map = scryptic::map::Map::new("Live", 8, 8);
    let script = scryptic::save::ScriptSource {
        name: "mod.lua".into(),
        source: V1.into(),
    };
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let (mut game, _) = ScriptedGame::start(
        &map,
        map.rule_set().unwrap(),
        lexicon,
        1,
        vec![script],
        None,
    )
    .unwrap();
    let live = LiveFiles::new(&game, dir.path(), None, Vec::new());
    let reloads = |game: &ScriptedGame| game.game().log().iter().filter(|a| a.is_reload()).count();
    let path = std::fs::canonicalize(&file).unwrap();
    // Opened and read, as an editor does: events arrive, nothing reloads.
    let _ = std::fs::read_to_string(&file).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(live.poll(&mut game).is_empty());
    assert!(live.reload(&mut game, &path).is_none());
    std::fs::write(&file, V2).unwrap();
    assert!(matches!(
        live.reload(&mut game, &path),
        Some(LiveNotice::Reloaded(_))
    ));
    assert!(
        live.reload(&mut game, &path).is_none(),
        "read again, unchanged"
    );
    std::fs::write(&file, V2).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        live.poll(&mut game).is_empty(),
        "saved again with the same text"
    );
    assert_eq!(reloads(&game), 1);
    assert!(matches!(
        game.game().log().last(),
        Some(Action::ReloadScript { .. })
    ));
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

/// Something done just before a line is typed.
type BeforeLine = Option<Box<dyn FnOnce()>>;

/// Input typed at `scryptic play`, where a line may first do something (as a designer saving
/// a file between two commands would).
struct Typist {
    lines: std::collections::VecDeque<(String, BeforeLine)>,
    current: Vec<u8>,
}

impl Typist {
    fn new() -> Typist {
        Typist {
            lines: Default::default(),
            current: Vec::new(),
        }
    }

    fn line(mut self, text: &str) -> Typist {
        self.lines.push_back((format!("{text}\n"), None));
        self
    }

    fn after(mut self, action: impl FnOnce() + 'static, text: &str) -> Typist {
        self.lines
            .push_back((format!("{text}\n"), Some(Box::new(action))));
        self
    }
}

impl std::io::Read for Typist {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = std::io::BufRead::fill_buf(self)?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl std::io::BufRead for Typist {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.current.is_empty()
            && let Some((text, action)) = self.lines.pop_front()
        {
            if let Some(action) = action {
                action();
            }
            self.current = text.into_bytes();
        }
        Ok(&self.current)
    }

    fn consume(&mut self, amount: usize) {
        self.current.drain(..amount);
    }
}

fn play_typing(args: &[&str], mut typist: Typist) -> String {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = std::iter::once("scryptic").chain(args.iter().copied());
    let code = scryptic::cli::run(argv, &mut typist, &mut out, &mut err);
    let err = String::from_utf8_lossy(&err);
    assert_eq!(code, 0, "{err}");
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn play_reloads_connotation_lists_as_they_are_saved() {
    let dir = tempfile::tempdir().unwrap();
    let lists = dir.path().join("lists");
    std::fs::create_dir(&lists).unwrap();
    let defending = lists.join("defending.txt");
    std::fs::write(&defending, "# walls\nwall\n").unwrap();
    let map = scryptic_tests::root().join("maps/tutorial.ron");
    let (first, second) = (dir.path().join("a.ron"), dir.path().join("b.ron"));
    let bad = defending.clone();
    let good = defending.clone();
    let settle = || std::thread::sleep(Duration::from_millis(400));
    let typist = Typist::new()
        .line(&format!("save {}", first.display()))
        .after(
            move || {
                std::fs::write(&bad, "wall\nBad Word\n").unwrap();
                settle();
            },
            "board",
        )
        .after(
            move || {
                std::fs::write(&good, "table\nwall\n").unwrap();
                settle();
            },
            "board",
        )
        .line(&format!("save {}", second.display()))
        .line("quit");
    let args = [
        "play",
        map.to_str().unwrap(),
        "--connotations",
        lists.to_str().unwrap(),
    ];
    let out = play_typing(&args, typist);
    assert!(
        out.contains("defending.txt:2:1: 'Bad Word' has capitals"),
        "the broken list is reported where it is broken:\n{out}"
    );
    assert!(
        out.contains("the connotation list `defending` was reloaded"),
        "{out}"
    );
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let replay = |path: &Path| {
        let save = scryptic::save::SaveFile::load(path).unwrap();
        save.replay(lexicon.clone(), Some(scryptic::ai::spy()))
            .unwrap()
            .0
    };
    let before = replay(&first);
    assert_eq!(before.lexicon().connotations("WALLS"), vec!["defending"]);
    assert!(before.lexicon().connotations("TABLE").is_empty());
    let after = replay(&second);
    assert_eq!(after.lexicon().connotations("TABLE"), vec!["defending"]);
}
