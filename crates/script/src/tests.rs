use super::*;

fn host() -> ScriptHost {
    ScriptHost::new(ScriptLimits::default(), 1).unwrap()
}

/// Loading `source` fails with a message containing `expected`, and the host still works.
fn check_refused(source: &str, expected: &str) {
    let mut h = host();
    let err = h.load("escape.lua", source).expect_err(source);
    assert!(
        err.to_string().contains(expected),
        "{source}\n  gave: {err}"
    );
    h.load("after.lua", "x = 1 + 1")
        .expect("the host goes on after a refusal");
}

#[test]
fn sandbox_escapes_are_refused() {
    let cases = [
        ("io.open('/etc/passwd')", "global 'io'"),
        ("os.exit(1)", "global 'os'"),
        ("require('io')", "global 'require'"),
        ("load('return 1')()", "global 'load'"),
        ("loadfile('x.lua')", "global 'loadfile'"),
        ("dofile('x.lua')", "global 'dofile'"),
        ("string.dump(print)", "field 'dump'"),
        ("debug.getinfo(1)", "global 'debug'"),
        ("package.path = ''", "global 'package'"),
        ("collectgarbage('stop')", "global 'collectgarbage'"),
        (
            "getmetatable('').__index.upper = nil",
            "attempt to index a nil value",
        ),
        ("scryptic.on = nil", "scryptic is read-only"),
        (
            "setmetatable(scryptic, {})",
            "cannot change a protected metatable",
        ),
        ("math.randomseed(1)", "field 'randomseed'"),
        (
            "setmetatable({}, {__gc = function() end})",
            "finalizers (__gc) are not available",
        ),
        (
            "rawset(scryptic, 'on', print)",
            "rawset: the table is read-only",
        ),
        (
            "rawset(string, 'format', print)",
            "rawset: the table is read-only",
        ),
        ("string.format = print", "string is read-only"),
        ("_G.table.insert = print", "table is read-only"),
        (
            "setmetatable(math, {})",
            "cannot change a protected metatable",
        ),
        (
            "getmetatable(utf8).__index.char = nil",
            "attempt to index a nil value",
        ),
        (
            "setmetatable(_G, {})",
            "cannot change a protected metatable",
        ),
    ];
    for (source, expected) in cases {
        check_refused(source, expected);
    }
}

#[test]
fn metatables_without_finalizers_still_work() {
    let mut h = host();
    h.load(
        "meta.lua",
        "local t = setmetatable({}, {__index = function(_, k) return k .. '!' end})\n\
         assert(t.hi == 'hi!')",
    )
    .expect("plain metatables are allowed");
}

/// Dispatches `event` with `fields` to a handler that returns what it saw as text.
fn event_seen(event: &str, fields: &[(&'static str, EventField<'_>)]) -> Result<String, String> {
    let mut h = host();
    // An unknown event cannot be handled; a handler of another stands by.
    let handled = if events().any(|e| e == event) {
        event
    } else {
        "turn_end"
    };
    h.load(
        "seen.lua",
        &format!(
            "scryptic.on('{handled}', function(game, ev)\n\
               seen = tostring(game)\n\
               for k, v in scryptic.sorted_pairs(ev) do seen = seen .. ' ' .. k .. '=' .. tostring(v) end\n\
             end)"
        ),
    )
    .unwrap();
    let errors = h.dispatch_event(event, Some(1), fields);
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    global(&h, "seen.lua", "seen").map_err(|e| e.to_string())
}

/// An event, its fields, and what its handler sees (or the error).
type EventCase = (
    &'static str,
    Vec<(&'static str, EventField<'static>)>,
    Result<&'static str, &'static str>,
);

#[test]
fn events_reach_handlers_as_tables_of_their_fields() {
    use std::borrow::Cow;
    let cases: [EventCase; 5] = [
        (
            "turn_start",
            vec![
                ("drew", EventField::Text(Cow::Borrowed("QI"))),
                ("player", EventField::Word("gold")),
                ("turn", EventField::Int(7)),
            ],
            Ok("nil drew=QI player=gold turn=7"),
        ),
        (
            "turn_end",
            vec![
                ("player", EventField::Word("silver")),
                ("passed", EventField::Bool(false)),
            ],
            Ok("nil passed=false player=silver"),
        ),
        // An absent field is left out of the table (a draw has no winner).
        (
            "game_end",
            vec![("reason", EventField::Text(Cow::Borrowed("a draw")))],
            Ok("nil reason=a draw"),
        ),
        (
            "turn_end",
            vec![("winner", EventField::Word("gold"))],
            Err("`winner` is not a field of event `turn_end`"),
        ),
        ("turn_stop", vec![], Err("`turn_stop` is not an event")),
    ];
    for (event, fields, expected) in cases {
        let seen = event_seen(event, &fields);
        match expected {
            Ok(text) => assert_eq!(seen.as_deref(), Ok(text), "{event}"),
            Err(message) => {
                let err = seen.expect_err(event);
                assert!(err.contains(message), "{event}: {err}");
            }
        }
    }
}

/// How many of the occurrences, each given by its fields, a `turn_start` handler with filter
/// `filter` (Lua text) is called for.
fn filtered_calls(filter: &str, occurrences: &[(&'static str, i64)]) -> Result<i64, String> {
    let mut h = host();
    h.load(
        "filtered.lua",
        &format!(
            "calls = 0\nscryptic.on('turn_start', function() calls = calls + 1 end, {filter})"
        ),
    )
    .map_err(|e| e.to_string())?;
    let calls = |h: &ScriptHost| global::<i64>(h, "filtered.lua", "calls").unwrap();
    for &(player, turn) in occurrences {
        let fields = [
            ("player", EventField::Word(player)),
            ("turn", EventField::Int(turn)),
        ];
        let (wanted, before) = (h.wants_event("turn_start", &fields), calls(&h));
        assert!(h.dispatch_event("turn_start", Some(1), &fields).is_empty());
        // A handler is wanted exactly when it is then called.
        assert_eq!(
            wanted,
            calls(&h) == before + 1,
            "{filter} with {player} {turn}"
        );
    }
    Ok(calls(&h))
}

#[test]
fn handlers_get_only_the_occurrences_their_filters_match() {
    let turns: Vec<(&str, i64)> = (1..=12)
        .map(|t| (if t % 2 == 1 { "gold" } else { "silver" }, t))
        .collect();
    let cases: [(&str, Result<i64, &str>); 14] = [
        ("nil", Ok(12)),
        ("{}", Ok(12)),
        ("{ player = 'silver' }", Ok(6)),
        ("{ turn = 5 }", Ok(1)),
        ("{ turn = 5.0 }", Ok(1)),
        ("{ player = 'silver', turn = { every = 6 } }", Ok(2)),
        ("{ player = 'gold', turn = { every = 2 } }", Ok(0)),
        (
            "{ playr = 'gold' }",
            Err(
                "the filter names `playr`, which is not a field of event `turn_start` (it has player, turn, drew)",
            ),
        ),
        (
            "{ turn = 'five' }",
            Err("the filter's `turn` of event `turn_start` must be an integer or {every = n}"),
        ),
        (
            "{ turn = { every = 0 } }",
            Err("must be an integer or {every = n}"),
        ),
        (
            "{ player = true }",
            Err("the filter's `player` of event `turn_start` must be one of \"gold\", \"silver\""),
        ),
        (
            "{ player = 'sliver' }",
            Err("the filter's `player` of event `turn_start` must be one of \"gold\", \"silver\""),
        ),
        ("{ drew = 'QI' }", Ok(0)),
        // Of several mistakes, the first by name is the one reported, every time.
        (
            "{ turnn = 1, playr = 'gold', drw = '' }",
            Err("the filter names `drw`"),
        ),
    ];
    for (filter, expected) in cases {
        let got = filtered_calls(filter, &turns);
        match expected {
            Ok(n) => assert_eq!(got, Ok(n), "{filter}"),
            Err(message) => {
                let err = got.expect_err(filter);
                assert!(err.contains(message), "{filter}: {err}");
                assert!(
                    err.starts_with("script filtered.lua:2 in event load"),
                    "{err}"
                );
            }
        }
    }
}

#[test]
fn a_filter_on_an_absent_field_matches_nothing() {
    let mut h = host();
    h.load(
        "ends.lua",
        "ends = 0\nscryptic.on('game_end', function() ends = ends + 1 end, { winner = 'gold' })",
    )
    .unwrap();
    let draw = [("reason", EventField::Text("a draw".into()))];
    let won = [("winner", EventField::Word("gold")), draw[0].clone()];
    assert!(!h.wants_event("game_end", &draw));
    assert!(h.dispatch_event("game_end", None, &draw).is_empty());
    assert!(h.dispatch_event("game_end", None, &won).is_empty());
    assert_eq!(global::<i64>(&h, "ends.lua", "ends").unwrap(), 1);
}

#[test]
fn every_event_fits_its_caller() {
    for (event, _, fields) in api::EVENT_FIELDS {
        assert!(
            fields.len() <= lua_values::MOST_EVENT_FIELDS,
            "{event} has {} fields; raise MOST_EVENT_FIELDS",
            fields.len()
        );
    }
}

#[test]
fn host_made_values_do_not_lift_the_cap_for_scripts() {
    let mut h = host();
    h.load(
        "hold.lua",
        "scryptic.on('turn_end', function(game, ev) held = held or {} held[#held + 1] = string.rep(ev.player, 1024 * 1024) end)",
    )
    .unwrap();
    let fields = [("player", EventField::Word("gold"))];
    let failed = (0..64).find_map(|_| h.dispatch_event("turn_end", Some(1), &fields).pop());
    let err = failed.expect("the cap stops a handler that keeps memory");
    assert!(err.message.contains(MEMORY_MESSAGE), "{err}");
    assert!(h.used_memory() <= ScriptLimits::default().memory_bytes);
}

#[test]
fn bytecode_is_refused() {
    check_refused("\x1bLua\x54\x00", "binary chunk");
}

#[test]
fn runaway_loops_and_deep_recursion_are_stopped_even_in_pcall_and_coroutines() {
    let cases = [
        "while true do end",
        "while true do pcall(function() while true do end end) end",
        "while true do xpcall(function() while true do end end, function(e) return e end) end",
        "local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end",
        "local f = coroutine.wrap(function() while true do end end) while true do pcall(f) end",
        "local function f(n) return f(n + 1) + 1 end f(1)",
    ];
    for source in cases {
        let mut h = host();
        let err = h.load("loop.lua", source).expect_err(source);
        // Deep recursion may reach the memory cap (its stack grows) before the budget.
        let stopped = [BUDGET_MESSAGE, "stack overflow", MEMORY_MESSAGE]
            .iter()
            .any(|m| err.message.contains(m));
        assert!(stopped, "{source}\n  gave: {err}");
        h.load("after.lua", "x = 1").expect("the host goes on");
    }
}

#[test]
fn memory_bombs_are_stopped() {
    let cases = [
        "local s = string.rep('x', 100 * 1024 * 1024)",
        "local t = {} for i = 1, 64 do t[i] = string.rep('x', 1024 * 1024) .. i end",
        "local ok = pcall(string.rep, 'x', 1024 * 1024 * 1024) while true do end",
    ];
    for source in cases {
        let mut h = host();
        let err = h.load("bomb.lua", source).expect_err(source);
        assert!(
            err.message.contains(MEMORY_MESSAGE),
            "{source}\n  gave: {err}"
        );
        h.load("after.lua", "local t = {} for i = 1, 1000 do t[i] = i end")
            .expect("memory is released after a failure");
        assert!(h.used_memory() < 4 * 1024 * 1024, "{}", h.used_memory());
    }
}

#[test]
fn errors_name_the_script_line_event_and_turn() {
    let mut h = host();
    h.load(
        "intro.lua",
        "scryptic.on('turn_start', function(game)\n  error('boom')\nend)",
    )
    .unwrap();
    let errors = h.dispatch_event("turn_start", Some(3), &[]);
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].to_string(),
        "script intro.lua:2 in event turn_start (turn 3): boom"
    );
    let syntax = h
        .load("broken.lua", "scryptic.on('turn_start', function(\n")
        .unwrap_err();
    assert_eq!(
        (syntax.script.as_str(), syntax.line, syntax.event.as_str()),
        ("broken.lua", Some(2), "load")
    );
}

#[test]
fn a_handler_that_keeps_failing_is_switched_off() {
    let mut h = host();
    h.load("flaky.lua", "scryptic.on('turn_end', function() error('again') end)\nscryptic.on('turn_end', function() print('fine') end)").unwrap();
    for turn in 1..=3 {
        assert_eq!(h.dispatch_event("turn_end", Some(turn), &[]).len(), 1);
    }
    assert_eq!(h.handler_count("turn_end"), 1);
    assert!(h.dispatch_event("turn_end", Some(4), &[]).is_empty());
    let console = h.drain_console();
    assert!(console.iter().any(|l| matches!(l, ConsoleLine::Notice(n) if n.contains("failed 3 times and is switched off"))), "{console:?}");
    let printed = console.iter().filter(|l| matches!(l, ConsoleLine::Output { script, text } if script == "flaky.lua" && text == "fine")).count();
    assert_eq!(printed, 4);
}

/// 256 handlers failing alike three times make a few console lines, each with a count, not
/// 768 errors and 256 notices.
#[test]
fn errors_repeated_one_after_another_are_counted_not_repeated() {
    let mut h = host();
    h.load(
        "many.lua",
        "for i = 1, 256 do scryptic.on('turn_end', function() error('again') end) end",
    )
    .unwrap();
    for turn in 1..=3 {
        assert_eq!(h.dispatch_event("turn_end", Some(turn), &[]).len(), 256);
    }
    let console: Vec<String> = h.drain_console().iter().map(ToString::to_string).collect();
    assert!(console.len() <= 8, "{console:#?}");
    assert!(
        console
            .iter()
            .any(|l| l.contains("the same again 255 more times")),
        "{console:#?}"
    );
    assert!(
        console
            .iter()
            .any(|l| l.contains("failed 3 times and is switched off")),
        "{console:#?}"
    );
    assert_eq!(h.handler_count("turn_end"), 0);
}

#[test]
fn unknown_events_and_incomplete_definitions_are_refused() {
    let cases = [
        (
            "scryptic.on('turn_begin', function() end)",
            "unknown event `turn_begin`; the events are game_start",
        ),
        (
            "scryptic.on('on_reload', function() end, { turn = 1 })",
            "(it has no fields to filter by)",
        ),
        (
            "scryptic.on('word_committed', function() end, { dir = 'diagonal' })",
            "the filter's `dir` of event `word_committed` must be one of \"across\", \"down\"",
        ),
        (
            "scryptic.on('city_captured', function() end, { from = 'nobody' })",
            "must be one of \"gold\", \"silver\", \"neutral\"",
        ),
        (
            "scryptic.token { name = 'Quake', invoke = function() end }",
            "scryptic.token needs an `id`",
        ),
        (
            "scryptic.win_condition { id = 'first_to_150' }",
            "needs `check` (a function)",
        ),
        (
            "for i = 1, 1000 do scryptic.on('turn_start', function() end) end",
            "escape.lua already has 256 handlers, the most one script may register",
        ),
        (
            "for i = 1, 1000 do scryptic.token { id = 'k' .. i, invoke = print } end",
            "escape.lua already defines 64 of scryptic.token, the most one script may",
        ),
    ];
    for (source, expected) in cases {
        check_refused(source, expected);
    }
}

#[test]
fn definitions_are_registered_by_id() {
    let mut h = host();
    h.load(
        "mod.lua",
        "scryptic.token { id = 'quake', invoke = function() end }\n\
         scryptic.win_condition { id = 'first_to_150', check = function() end }\n\
         scryptic.strength_modifier { id = 'frost', apply = function() end }\n\
         scryptic.token { id = 'quake', invoke = function() end }",
    )
    .unwrap();
    assert_eq!(h.token_kinds(), vec!["quake"]);
    assert_eq!(h.win_conditions(), vec!["first_to_150"]);
    assert_eq!(h.strength_modifiers(), vec!["frost"]);
    assert_eq!(h.scripts(), vec!["mod.lua"]);
}

#[test]
fn random_numbers_follow_the_seed() {
    let draw = |seed| {
        let mut h = ScriptHost::new(ScriptLimits::default(), seed).unwrap();
        h.load(
            "r.lua",
            "print(math.random(1, 1000000), math.random(6), math.random() < 1)",
        )
        .unwrap();
        h.drain_console()
    };
    assert_eq!(draw(7), draw(7));
    assert_ne!(draw(7), draw(8));
}

#[test]
fn sorted_pairs_iterate_in_a_fixed_order() {
    let mut h = host();
    h.load("s.lua", "local t = {b = 1, a = 2, [3] = 'x', [1] = 'y'} local out = {} for k, v in scryptic.sorted_pairs(t) do out[#out + 1] = tostring(k) end print(table.concat(out, ','))").unwrap();
    assert_eq!(
        h.drain_console(),
        vec![ConsoleLine::Output {
            script: "s.lua".into(),
            text: "1,3,a,b".into()
        }]
    );
}

/// Runs `find`, `match`, `gmatch` and `gsub` of pattern `p` on subject `s` in `lua` and
/// describes what they returned (or that they failed), for comparing two implementations.
fn pattern_outcomes(lua: &Lua, s: &str, p: &str) -> String {
    lua.load(
        r##"
        local s, p = ...
        local function show(ok, ...)
            if not ok then return "error" end
            local parts = {}
            for i = 1, select("#", ...) do parts[#parts + 1] = tostring((select(i, ...))) end
            return table.concat(parts, ",")
        end
        local out = {
            show(pcall(string.find, s, p)),
            show(pcall(string.find, s, p, 3)),
            show(pcall(string.match, s, p)),
            show(pcall(string.gsub, s, p, "<%0>")),
            show(pcall(string.gsub, s, p, function(c) return c == "" and "!" or nil end, 3)),
            show(pcall(function()
                local all = {}
                for a, b in string.gmatch(s, p) do all[#all + 1] = tostring(a) .. ":" .. tostring(b) end
                return table.concat(all, ";")
            end)),
        }
        return table.concat(out, " | ")
        "##,
    )
    .call::<String>((s, p))
    .unwrap_or_else(|e| format!("host error {e}"))
}

/// A random pattern made of the pieces Lua patterns are made of.
fn random_pattern(rng: &mut impl rand::RngExt) -> String {
    const PIECES: [&str; 28] = [
        "a", "b", ".", "%a", "%d", "%s", "%W", "[ab]", "[^a]", "[a-c]", "[%d.]", "*", "+", "-",
        "?", "(", ")", "()", "%b()", "%f[%a]", "%1", "^", "$", "%", "[", "]", "x", "%%",
    ];
    let len = rng.random_range(1..7);
    (0..len)
        .map(|_| PIECES[rng.random_range(0..PIECES.len())])
        .collect()
}

#[test]
fn patterns_agree_with_the_c_library() {
    use rand::SeedableRng;
    let reference = Lua::new();
    let mut sandboxed = host();
    sandboxed.load("empty.lua", "").expect("loads");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let subjects = [
        "",
        "abc",
        "aab(ba)c 12 x",
        "  ba-ab.9",
        "((a)b)(",
        "xaxbxcx",
    ];
    for case in 0..4000 {
        let pattern = random_pattern(&mut rng);
        let subject = subjects[case % subjects.len()];
        let budget = &sandboxed.first_state().budget;
        budget.open(1_000_000, std::time::Duration::from_secs(10));
        let outcome = pattern_outcomes(&sandboxed.first_state().lua, subject, &pattern);
        budget.close();
        assert_eq!(
            outcome,
            pattern_outcomes(&reference, subject, &pattern),
            "pattern {pattern:?} on {subject:?}"
        );
    }
}

#[test]
fn a_print_flood_keeps_the_console_bounded_and_escaped() {
    let mut h = host();
    let err = h
        .load(
            "flood.lua",
            "scryptic.on('turn_start', function(game) game = game end)\n\
             while true do print(string.rep('\\27[2J', 2000), 'tail') end",
        )
        .expect_err("stopped by the budget");
    assert!(err.message.contains(BUDGET_MESSAGE), "{err}");
    let lines = h.drain_console();
    let printed: Vec<&String> = lines
        .iter()
        .filter_map(|l| match l {
            ConsoleLine::Output { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(printed.len(), text::MAX_CONSOLE_LINES);
    for text in printed {
        assert!(!text.contains('\x1b'), "an escape reached the console");
        assert!(text.starts_with("\\x1b[2J"), "{}", &text[..20]);
        assert!(
            text.len() < text::MAX_PRINT_BYTES * 5,
            "{} bytes",
            text.len()
        );
    }
}

#[test]
fn errors_and_messages_from_scripts_are_escaped() {
    let mut h = host();
    let err = h
        .load(
            "e.lua",
            "error('\\27]0;owned\\7' .. string.rep('x', 100000))",
        )
        .expect_err("fails");
    assert!(!err.message.contains('\x1b') && !err.message.contains('\x07'));
    assert!(
        err.message.len() < text::MAX_ERROR_BYTES + 64,
        "{}",
        err.message.len()
    );
}

/// A global of script `script`, as its own environment holds it.
fn global<T: mlua::FromLua>(h: &ScriptHost, script: &str, name: &str) -> mlua::Result<T> {
    h.state_running(script)
        .ok_or_else(|| mlua::Error::runtime(format!("{script} was not loaded")))?
        .envs
        .of_script(script)
        .ok_or_else(|| mlua::Error::runtime(format!("{script} was not loaded")))?
        .get(name)
}

/// What one script does to its globals and to the libraries, another never sees: each script
/// has its own environment over frozen libraries.
#[test]
fn scripts_cannot_change_what_other_scripts_see() {
    let mut h = host();
    h.load(
        "poisoner.lua",
        "ipairs = function() error('poisoned') end\n\
         tostring = function() return 'poisoned' end\n\
         string = { format = function() return 'poisoned' end }\n\
         local on = scryptic.on\n\
         scryptic = { on = function() error('poisoned') end }\n\
         shared_secret = 42\n\
         _G.also_mine = 1\n\
         storage.note = 'storage is shared on purpose'",
    )
    .unwrap();
    h.load(
        "victim.lua",
        "local n = 0\n\
         for _ in ipairs({1, 2, 3}) do n = n + 1 end\n\
         seen = string.format('%d %s %s %s %s', n, tostring(shared_secret), tostring(also_mine),\n\
             tostring(_G == _ENV), storage.note)\n\
         scryptic.on('turn_start', function() end)\n\
         libraries = 0\n\
         for name in pairs(string) do libraries = libraries + 1 end\n\
         libraries = libraries + #{table.unpack({1, 2})} + (rawget(math, 'pi') and 1 or 0)\n\
         libraries = libraries + (next(utf8) and 1 or 0) + rawlen(scryptic)",
    )
    .unwrap();
    assert_eq!(
        global::<String>(&h, "victim.lua", "seen").unwrap(),
        "3 nil nil true storage is shared on purpose"
    );
    assert_eq!(h.handler_count("turn_start"), 1);
    // The frozen `string` still lists its functions, and the raw functions see through it.
    let libraries = global::<i64>(&h, "victim.lua", "libraries").unwrap();
    assert!(libraries > 15, "{libraries}");
    assert_eq!(
        global::<i64>(&h, "poisoner.lua", "shared_secret").unwrap(),
        42
    );
}

/// String keys are visited in the same order in every state (Lua's hash seed is fixed at
/// build time; see `.cargo/config.toml`), so `pairs` behaves the same in a game and its replay.
#[test]
fn string_keys_iterate_in_the_same_order_in_every_state() {
    let order = || {
        let mut h = host();
        h.load(
            "keys.lua",
            "local t = {}\n\
             for i = 1, 300 do t['key' .. (i * 7919 % 1000)] = i end\n\
             local seen = {}\n\
             for k in pairs(t) do seen[#seen + 1] = k end\n\
             order = table.concat(seen, ',')",
        )
        .unwrap();
        global::<String>(&h, "keys.lua", "order").unwrap()
    };
    let first = order();
    // Made later and elsewhere in memory: a seed from the clock or addresses would differ.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let _ballast: Vec<ScriptHost> = (0..3).map(|_| host()).collect();
    assert_eq!(order(), first);
}

/// Tables, functions and userdata are named by a number given in the order they are first
/// shown, never by their address; `%p` is refused and weak tables are not available.
#[test]
fn nothing_a_script_sees_depends_on_addresses_or_the_collector() {
    let names = || {
        let mut h = host();
        h.load(
            "names.lua",
            "local a, b = {}, function() end\n\
             shown = tostring(a) .. ' ' .. tostring(b) .. ' ' .. tostring(a) .. ' '\n\
                 .. string.format('%s|%5s|%d', {}, 'x', 3) .. ' ' .. tostring(print)",
        )
        .unwrap();
        global::<String>(&h, "names.lua", "shown").unwrap()
    };
    let shown = names();
    assert_eq!(
        shown,
        "table: #1 function: #2 table: #1 table: #3|    x|3 function: #4"
    );
    assert_eq!(names(), shown);
    check_refused(
        "return string.format('%p', {})",
        "string.format's %p is not available",
    );
    check_refused(
        "setmetatable({}, { __mode = 'k' })",
        "weak tables (__mode) are not available",
    );
    // `%%p` is a literal, not an address.
    let mut h = host();
    h.load("percent.lua", "shown = string.format('100%%p')")
        .unwrap();
    assert_eq!(
        global::<String>(&h, "percent.lua", "shown").unwrap(),
        "100%p"
    );
}

/// Loads `source` as `name` into `h`, panicking with the error if it fails.
fn run(h: &mut ScriptHost, name: &str, source: &str) {
    h.load(name, source).unwrap_or_else(|e| panic!("{e}"));
}

/// Storage written out and read back into another state holds exactly what was stored:
/// integers and floats apart, any bytes, whole-number and string keys apart, nested tables.
#[test]
fn storage_round_trips_exactly() {
    let mut h = host();
    run(
        &mut h,
        "keep.lua",
        "storage.int, storage.float, storage.tenth = 3, 3.0, 0.1\n\
         storage.big, storage.inf, storage.negzero = math.maxinteger, 1/0, -0.0\n\
         storage.nan, storage.nan2 = 0/0, -(0/0)\n\
         storage.bytes = '\\0\\255abc\\n'\n\
         storage.keys = { [1] = 'one', ['1'] = 'string one', ['#1'] = 'hash one', [-5] = true }\n\
         storage.deep = { a = { b = { c = { 1, 2, 3 } } } }",
    );
    let text = h.storage_json().unwrap();
    let mut other = host();
    other.set_storage_json(&text).unwrap();
    run(
        &mut other,
        "check.lua",
        "local s = storage\n\
         assert(math.type(s.int) == 'integer' and s.int == 3)\n\
         assert(math.type(s.float) == 'float' and s.float == 3.0)\n\
         assert(s.tenth == 0.1 and s.big == math.maxinteger and s.inf == 1/0)\n\
         assert(1 / s.negzero == -1/0, 'negative zero')\n\
         assert(s.nan ~= s.nan and s.nan2 ~= s.nan2, 'NaN')\n\
         assert(string.pack('d', s.nan) == string.pack('d', 0/0), 'the NaN of 0/0, bit for bit')\n\
         assert(string.pack('d', s.nan2) == string.pack('d', -(0/0)), 'its opposite')\n\
         assert(s.bytes == '\\0\\255abc\\n')\n\
         assert(s.keys[1] == 'one' and s.keys['1'] == 'string one' and s.keys['#1'] == 'hash one')\n\
         assert(s.keys[-5] == true)\n\
         assert(#s.deep.a.b.c == 3 and s.deep.a.b.c[3] == 3)",
    );
    assert_eq!(
        other.storage_json().unwrap(),
        text,
        "written the same again"
    );
}

/// What storage cannot keep is refused when it is stored, naming the key, and the refused
/// store changes nothing.
#[test]
fn storage_refuses_what_it_cannot_keep_when_it_is_stored() {
    let cases = [
        (
            "storage.f = print",
            "storage.f: storage cannot keep a function",
        ),
        (
            "storage.army = { { name = 'x', on_death = function() end } }",
            "storage.army[1].on_death: storage cannot keep a function",
        ),
        (
            "local t = {}; t.me = t; storage.loop = t",
            "storage.loop.me: storage cannot keep a table that holds itself",
        ),
        (
            "local t = {}; for i = 1, 40 do t = { t } end; storage.deep = t",
            "storage nests deeper than 32 tables",
        ),
        (
            "storage.obj = setmetatable({}, { __index = {} })",
            "storage.obj: storage cannot keep a table with a metatable",
        ),
        (
            "storage.list = {}; storage.list[1.5] = 1",
            "storage.list: storage keys are strings or whole numbers, not the fraction 1.5",
        ),
        (
            "storage['a b'] = coroutine.create(print)",
            "storage[\"a b\"]: storage cannot keep a thread",
        ),
        (
            "rawset(storage, 'x', print)",
            "rawset: the table is read-only",
        ),
    ];
    for (source, expected) in cases {
        check_refused(source, expected);
    }
    let mut h = host();
    run(
        &mut h,
        "partial.lua",
        "storage.kept = { 1 }\n\
         local t = { ok = 1, bad = print }\n\
         refused = not pcall(function() storage.kept = t end)\n\
         plain = getmetatable(t) == nil and t.ok == 1",
    );
    assert!(global::<bool>(&h, "partial.lua", "refused").unwrap());
    assert!(global::<bool>(&h, "partial.lua", "plain").unwrap());
    assert_eq!(
        h.storage_json().unwrap(),
        r#"{"packs":{"":[["kept",{"table":[[1,1]]}]]},"storage_version":3}"#
    );
}

/// A table a script stores stays its own: changing it afterwards changes storage (checked as
/// a store), and the table functions, `pairs`, `ipairs` and `#` work on storage tables.
#[test]
fn a_stored_table_goes_on_working_as_storage() {
    let mut h = host();
    run(
        &mut h,
        "live.lua",
        "local army = { 'archer' }\n\
         storage.army = army\n\
         army[2] = 'knight'\n\
         table.insert(storage.army, 'scout')\n\
         table.sort(storage.army)\n\
         local n = 0\n\
         for _, unit in ipairs(army) do n = n + #unit end\n\
         for k in pairs(storage) do n = n + #k end\n\
         total = n + #army + rawlen(army) + (rawget(army, 1) == 'archer' and 100 or 0)\n\
         refused = select(2, pcall(function() army.plan = print end))",
    );
    // archer + knight + scout = 17 letters, `army` 4, # and rawlen 3 each, rawget 100.
    assert_eq!(global::<i64>(&h, "live.lua", "total").unwrap(), 127);
    let refused = global::<String>(&h, "live.lua", "refused").unwrap();
    assert!(
        refused.contains("storage.army.plan: storage cannot keep a function"),
        "{refused}"
    );
    assert_eq!(
        h.storage_json().unwrap(),
        r#"{"packs":{"":[["army",{"table":[[1,"archer"],[2,"knight"],[3,"scout"]]}]]},"storage_version":3}"#
    );
}

/// Storage written by earlier versions (plain JSON) is still read.
#[test]
fn storage_in_the_old_plain_json_is_read() {
    let mut h = host();
    h.set_storage_json(r##"{"chapter": 2, "ratio": 0.5, "list": {"#1": "a", "#2": "b"}}"##)
        .unwrap();
    run(
        &mut h,
        "old.lua",
        "ok = storage.chapter == 2 and math.type(storage.chapter) == 'integer'\n\
             and storage.ratio == 0.5 and #storage.list == 2 and storage.list[2] == 'b'",
    );
    assert!(global::<bool>(&h, "old.lua", "ok").unwrap());
    for bad in [
        "3",
        r#"{"storage_version": 2, "table": [["x", {"float": "many"}]]}"#,
        r#"{"storage_version": 2, "table": [["x", {"bytes": "abc"}]]}"#,
        r#"{"storage_version": 9, "table": []}"#,
    ] {
        let before = h.storage_json().unwrap();
        assert!(h.set_storage_json(bad).is_err(), "{bad}");
        assert_eq!(h.storage_json().unwrap(), before, "{bad} changed storage");
    }
}

/// Storage larger written out than a save carries is refused as a whole, with its size.
#[test]
fn storage_too_large_for_a_save_is_refused_with_its_size() {
    let mut h = host();
    // Bytes that are not UTF-8 are written in hex, two characters each.
    run(
        &mut h,
        "big.lua",
        "storage.blob = string.rep('\\255', 9 * 1024 * 1024)",
    );
    match h.storage_json() {
        Err(StorageError::TooLarge { bytes, most }) => assert!(bytes > most),
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

/// Storage of more entries than a save keeps is refused by their count before its text (and
/// its tree of JSON values) is made, and so is storage text holding more.
#[test]
fn storage_of_too_many_entries_is_refused_before_it_is_written() {
    // Each store is checked, which is work the budget counts: this test's budget is larger.
    let limits = ScriptLimits {
        instructions: 500_000_000,
        ..ScriptLimits::default()
    };
    let mut h = ScriptHost::new(limits, 1).unwrap();
    run(
        &mut h,
        "many.lua",
        "local t = {} for i = 1, 100001 do t[i] = true end storage.many = t",
    );
    assert_eq!(
        h.storage_json(),
        Err(StorageError::TooManyEntries {
            most: super::storage::MAX_ENTRIES
        })
    );
    let text = format!(
        r#"{{"storage_version":3,"packs":{{"":[["x",{{"table":[{}]}}]]}}}}"#,
        vec!["[1,1]"; 400_001].join(",")
    );
    let mut other = host();
    assert!(matches!(
        other.set_storage_json(&text),
        Err(StorageError::TooManyEntries { .. })
    ));
}

/// The registry's summary keeps one bit per event in a 64-bit word.
#[test]
fn every_event_has_a_bit_in_the_registry_summary() {
    assert!(super::events().count() <= 64);
}
