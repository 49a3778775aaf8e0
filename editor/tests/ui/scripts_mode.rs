//! The Scripts mode: a script viewed, reloaded once when saved, and the editor at rest while
//! it watches one.

use super::*;

/// "Open in editor" with no editor that starts says so, with the script's path and how to
/// name an editor, and shows the script in the built-in view.
#[test]
fn a_script_opens_in_the_built_in_view_when_no_editor_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.ron");
    std::fs::write(
        dir.path().join("hello.lua"),
        "-- greets the players\nprint('hi')\n",
    )
    .unwrap();
    let mut app = blank(8, 8);
    app.doc
        .edit_objects("add script", |m| m.scripts.push("hello.lua".into()));
    app.doc.save_as(&path).unwrap();
    app.mode = Mode::Scripts;
    app.scripts.editor_command = Some("/nonexistent/editor-of-nowhere".into());
    let mut h = harness(app);
    h.get_by_label("Open in editor").click();
    h.run();
    let said = h
        .state()
        .scripts
        .console
        .last()
        .cloned()
        .unwrap_or_default();
    assert!(
        said.contains("no external editor could be started")
            && said.contains("hello.lua")
            && said.contains("$VISUAL"),
        "{said}"
    );
    h.get_by_label_contains("-- greets the players");
    h.get_by_label("Close the view").click();
    h.run();
    assert!(h.state().scripts.viewing.is_none());
}

/// A script saved while the editor watches it reloads once: the editor's own reading of it
/// (and of the scripts beside it) is no change (it once reloaded without end, "load 300,
/// 301, ...", at full CPU). Reload scripts reads them again, and starts nothing either.
#[test]
fn a_saved_script_reloads_once_and_never_loops() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("wending");
    copy_folder(&root().join("packs/wending"), &pack);
    let map = pack.join("campaigns/wending/1-the-ford.ron");
    let mut h = harness(EditorApp::new(Some(&map)));
    h.state_mut().mode = Mode::Scripts;
    h.run();
    click_label(&mut h, "Reload scripts");
    let settle = |h: &mut Harness<'static, EditorApp>| {
        // The watcher's events come on its own thread, after a debounce.
        for _ in 0..15 {
            std::thread::sleep(Duration::from_millis(100));
            h.step();
        }
        h.state().scripts.generation
    };
    let loaded = settle(&mut h);
    let script = pack.join("scripts/1-the-ford.lua");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("-- a line more\n");
    std::fs::write(&script, text).unwrap();
    let after_save = settle(&mut h);
    assert_eq!(after_save, loaded + 1, "the save reloads once");
    assert_eq!(settle(&mut h), after_save, "and nothing more");
}

/// A watched script wakes the editor only when what it holds changes: reading it (the editor
/// reads every script at each load) asks for no frame. The ford's map once kept a core busy at
/// rest: each frame read the script, the read was reported as an event, and the event woke the
/// window for another frame, 16 times a second.
#[test]
fn reading_a_watched_script_asks_for_no_frame() {
    let map = root().join("packs/wending/campaigns/wending/1-the-ford.ron");
    let script = root().join("packs/wending/scripts/1-the-ford.lua");
    let mut h = harness(EditorApp::new(Some(&map)));
    h.run();
    for read in 0..3 {
        let handled = |h: &Harness<'static, EditorApp>| {
            h.state()
                .scripts
                .watcher_events()
                .expect("the map's script is watched")
        };
        let before = handled(&h);
        std::fs::read(&script).unwrap();
        // Wait for the watcher to have seen the read (its thread reports after a debounce).
        let waited = std::time::Instant::now();
        while handled(&h) == before {
            assert!(
                waited.elapsed() < Duration::from_secs(60),
                "the watcher never reported the read"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            !h.ctx.has_requested_repaint(),
            "read {read}: the script's reading asked for a frame: {:?}",
            h.ctx.repaint_causes()
        );
        h.step();
    }
    assert_eq!(h.state().scripts.generation, 1, "nothing was reloaded");
}

/// Every file under `from`, copied to `to`.
fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}
