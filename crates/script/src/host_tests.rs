//! One state per pack: what each pack keeps to itself (globals, storage, random stream, memory,
//! budget), and what crosses between them (interfaces, custom events), copied.

use super::*;

/// A host of a game that loads `packs` in order (the last is the level's own).
fn host_of(packs: &[&str]) -> ScriptHost {
    let mut h = ScriptHost::new(ScriptLimits::default(), 7).unwrap();
    h.set_packs(
        packs.iter().map(ToString::to_string).collect(),
        packs.last().map(ToString::to_string).unwrap_or_default(),
        crate::save::StringTables::new(),
    );
    h
}

fn run(h: &mut ScriptHost, name: &str, source: &str) {
    h.load(name, source)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
}

/// A global of script `script`, as its own environment holds it.
fn global<T: mlua::FromLua>(h: &ScriptHost, script: &str, name: &str) -> T {
    h.state_running(script)
        .and_then(|s| s.envs.of_script(script))
        .unwrap_or_else(|| panic!("{script} was not loaded"))
        .get(name)
        .unwrap()
}

/// Each pack's scripts run in a state of their own, named by pack: `ID:path` in pack `ID`,
/// a plain path in the level's own pack, and states kept in load order.
#[test]
fn each_pack_runs_in_its_own_state_in_load_order() {
    let mut h = host_of(&["core", "economy", "level"]);
    run(&mut h, "mine.lua", "print('level')");
    run(&mut h, "economy:scripts/bank.lua", "print('economy')");
    run(&mut h, "core:scripts/win.lua", "print('core')");
    let packs: Vec<String> = h.pack_states().into_iter().map(|(p, _)| p).collect();
    assert_eq!(packs, ["core", "economy", "level"]);
    // A state of its own each: memory counted per pack, and summed.
    let memory: usize = h.pack_states().iter().map(|(_, m)| m).sum();
    assert_eq!(memory, h.used_memory());
}

/// Storage is each pack's own; the save keeps each under its pack's id and gives each back
/// to its pack; the one table of an earlier save goes to the level's own pack.
#[test]
fn storage_is_kept_per_pack() {
    let mut h = host_of(&["economy", "level"]);
    run(&mut h, "economy:bank.lua", "storage.gold = 5");
    run(&mut h, "level.lua", "storage.gold = 1 seen = storage.gold");
    assert_eq!(global::<i64>(&h, "level.lua", "seen"), 1);
    let text = h.storage_json().unwrap();
    assert_eq!(
        text,
        r#"{"packs":{"economy":[["gold",5]],"level":[["gold",1]]},"storage_version":3}"#
    );

    let mut next = host_of(&["economy", "level"]);
    next.set_storage_json(&text).unwrap();
    run(&mut next, "economy:bank.lua", "gold = storage.gold");
    run(&mut next, "level.lua", "gold = storage.gold");
    assert_eq!(global::<i64>(&next, "economy:bank.lua", "gold"), 5);
    assert_eq!(global::<i64>(&next, "level.lua", "gold"), 1);

    let mut old = host_of(&["economy", "level"]);
    old.set_storage_json(r#"{"storage_version":2,"table":[["gold",9]]}"#)
        .unwrap();
    run(&mut old, "economy:bank.lua", "gold = storage.gold");
    run(&mut old, "level.lua", "gold = storage.gold");
    assert_eq!(
        global::<Option<i64>>(&old, "economy:bank.lua", "gold"),
        None
    );
    assert_eq!(global::<i64>(&old, "level.lua", "gold"), 9);
}

/// A pack's random stream comes from the game's seed and its id: another pack's draws do not
/// move it, and two packs draw differently.
#[test]
fn each_pack_draws_from_its_own_random_stream() {
    let draw = "n = math.random(1000000)";
    let mut alone = host_of(&["a", "b"]);
    run(&mut alone, "a:x.lua", draw);
    let mut busy = host_of(&["a", "b"]);
    run(
        &mut busy,
        "b:noise.lua",
        "for i = 1, 50 do math.random() end",
    );
    run(&mut busy, "a:x.lua", draw);
    run(&mut busy, "b:x.lua", draw);
    let a: i64 = global(&alone, "a:x.lua", "n");
    assert_eq!(global::<i64>(&busy, "a:x.lua", "n"), a);
    assert_ne!(global::<i64>(&busy, "b:x.lua", "n"), a);
}

/// A pack that spends its memory or its budget spends its own: the other packs' scripts go on.
#[test]
fn a_pack_exhausting_its_state_leaves_the_others_working() {
    let mut h = host_of(&["greedy", "level"]);
    let err = h
        .load(
            "greedy:hog.lua",
            "local t = {} for i = 1, 1e9 do t[i] = i end",
        )
        .expect_err("stopped");
    assert!(
        err.message.contains(MEMORY_MESSAGE) || err.message.contains(BUDGET_MESSAGE),
        "{err}"
    );
    run(
        &mut h,
        "level.lua",
        "local t = {} for i = 1, 100000 do t[i] = i end n = #t",
    );
    assert_eq!(global::<i64>(&h, "level.lua", "n"), 100_000);
}

/// An interface another pack provides is found across states: its values copied, its
/// functions called there with copied arguments and results, its errors named.
#[test]
fn interfaces_cross_packs_by_copy() {
    let mut h = host_of(&["economy", "level"]);
    run(
        &mut h,
        "economy:bank.lua",
        "local balance = 0\n\
         scryptic.provide('bank', {\n\
           rate = 3, names = { 'gold', 'silver' },\n\
           deposit = function(n) balance = balance + n return balance, { total = balance } end,\n\
           broken = function() error('the vault is shut') end,\n\
         })",
    );
    run(
        &mut h,
        "level.lua",
        "local bank = scryptic.use('economy:bank')\n\
         rate = bank.rate\n\
         bank.names[1] = 'lead'\n\
         first = scryptic.use('economy:bank').names[1]\n\
         local b, t = bank.deposit(4)\n\
         balance, total = bank.deposit(2), t.total\n\
         ok, err = pcall(bank.broken) err = tostring(err)\n\
         bad = tostring(select(2, pcall(bank.deposit, print)))",
    );
    assert_eq!(global::<i64>(&h, "level.lua", "rate"), 3);
    assert_eq!(global::<String>(&h, "level.lua", "first"), "gold");
    assert_eq!(global::<i64>(&h, "level.lua", "balance"), 6);
    assert_eq!(global::<i64>(&h, "level.lua", "total"), 4);
    assert!(!global::<bool>(&h, "level.lua", "ok"));
    let err: String = global(&h, "level.lua", "err");
    assert!(
        err.contains("interface `economy:bank` of pack `economy`")
            && err.contains("the vault is shut"),
        "{err}"
    );
    let bad: String = global(&h, "level.lua", "bad");
    assert!(bad.contains("not a function"), "{bad}");
}

/// Interfaces used in a cycle across packs are refused, not run without end: a pack whose
/// script is running cannot be called back into.
#[test]
fn interfaces_in_a_cycle_across_packs_are_refused() {
    let mut h = host_of(&["a", "b"]);
    run(
        &mut h,
        "a:ping.lua",
        "scryptic.provide('ping', { call = function() return scryptic.use('b:pong').call() end })",
    );
    run(
        &mut h,
        "b:pong.lua",
        "scryptic.provide('pong', { call = function() return scryptic.use('a:ping').call() end })\n\
         ok, err = pcall(function() return scryptic.use('a:ping').call() end) err = tostring(err)",
    );
    assert!(!global::<bool>(&h, "b:pong.lua", "ok"));
    let err: String = global(&h, "b:pong.lua", "err");
    assert!(err.contains("cycle"), "{err}");
}

/// A custom event one pack emits reaches the handlers of every pack, its fields copied into
/// each.
#[test]
fn custom_events_reach_every_pack() {
    let mut h = host_of(&["economy", "level"]);
    run(
        &mut h,
        "economy:bank.lua",
        "scryptic.on('economy:payday', function(game, ev) mine = ev.amount end)",
    );
    run(
        &mut h,
        "level.lua",
        "scryptic.on('economy:payday', function(game, ev) theirs = ev.amount ev.amount = 0 end)\n\
         scryptic.emit('economy:payday', { amount = 12 })",
    );
    for (name, from, fields) in h.take_emitted() {
        assert!(h.dispatch_custom(&name, None, (from, &fields)).is_empty());
    }
    assert_eq!(global::<i64>(&h, "economy:bank.lua", "mine"), 12);
    assert_eq!(global::<i64>(&h, "level.lua", "theirs"), 12);
}

/// A pack may redefine a token of a pack it loads after; a reload goes to the script's own
/// state.
#[test]
fn later_packs_redefine_tokens_and_reloads_find_their_pack() {
    let mut h = host_of(&["core", "level"]);
    let token = |n: i64| {
        format!(
            "scryptic.token({{ id = 'shrine', invoke = function(game, t) game:award(t.player, {n}) end }})"
        )
    };
    run(&mut h, "core:shrine.lua", &token(1));
    run(&mut h, "level:shrine.lua", &token(5));
    assert_eq!(h.token_kinds(), ["shrine", "shrine"]);
    h.reload("level:shrine.lua", "version = 2").unwrap();
    assert_eq!(global::<i64>(&h, "level:shrine.lua", "version"), 2);
    assert_eq!(h.token_kinds(), ["shrine"]);
}

/// A script runs in its own pack's state only: a name that could be read two ways (a colon
/// in its path) or that names a pack the game does not load is refused, and nothing runs.
#[test]
fn a_script_name_cannot_reach_another_packs_state() {
    let mut h = host_of(&["victim", "evil"]);
    run(&mut h, "victim:keep.lua", "storage.gold = 5");
    for (name, expect) in [
        ("evil:victim:spy.lua", "its path holds no colon"),
        ("stranger:spy.lua", "which this game does not load"),
    ] {
        let e = h
            .load(name, "storage.gold = 0 print('ran')")
            .expect_err(name);
        assert!(e.message.contains(expect), "{name}: {e}");
    }
    assert!(
        h.drain_console()
            .iter()
            .all(|l| !l.to_string().contains("ran"))
    );
    assert_eq!(h.pack_states().len(), 1, "no state was made for them");
    assert!(h.storage_json().unwrap().contains(r#"["gold",5]"#));
}

/// An interface belongs to the pack that provides it: a plain name is the pack's own
/// (`economy:bank`), a pack cannot provide another pack's name, a second provider of one name
/// is refused naming the first, and `use` of a plain name looks in the script's own pack only.
#[test]
fn an_interface_belongs_to_the_pack_that_provides_it() {
    let mut h = host_of(&["economy", "impostor", "town"]);
    run(
        &mut h,
        "economy:bank.lua",
        "scryptic.provide('bank', { who = 'economy' })",
    );
    let e = h
        .load(
            "impostor:fake.lua",
            "scryptic.provide('economy:bank', { who = 'impostor' })",
        )
        .expect_err("an impostor");
    assert!(e.message.contains("belongs to pack `economy`"), "{e}");
    run(
        &mut h,
        "impostor:own.lua",
        "scryptic.provide('bank', { who = 'impostor' })",
    );
    run(
        &mut h,
        "town.lua",
        "who = scryptic.use('economy:bank').who\n\
         theirs = scryptic.use('impostor:bank').who\n\
         ok, err = pcall(scryptic.use, 'bank') err = tostring(err)",
    );
    assert_eq!(global::<String>(&h, "town.lua", "who"), "economy");
    assert_eq!(global::<String>(&h, "town.lua", "theirs"), "impostor");
    assert!(!global::<bool>(&h, "town.lua", "ok"));
    let err: String = global(&h, "town.lua", "err");
    assert!(err.contains("`town:bank`"), "{err}");

    // The level outside any pack names interfaces freely, but not one a pack provides.
    let mut level = host_of(&["economy", ""]);
    run(
        &mut level,
        "economy:bank.lua",
        "scryptic.provide('bank', {})",
    );
    let e = level
        .load("level.lua", "scryptic.provide('economy:bank', {})")
        .expect_err("a second provider");
    assert!(
        e.message
            .contains("already provided by economy:bank.lua of pack `economy`"),
        "{e}"
    );
}
