//! The Rules and Lexicon modes: a connotation list edited, constants chosen, typed and
//! refused, and a table edited row by row.

use super::*;

#[test]
fn edit_a_connotation_list_through_the_ui() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = blank(8, 8);
    app.lexicon.load(dir.path()).unwrap();
    app.mode = Mode::Lexicon;
    let mut h = harness(app);
    type_into(&mut h, "list name", "frozen");
    h.get_by_label("New list").click();
    h.run();
    type_into(&mut h, "word", "glacier");
    h.get_by_label("Add word").click();
    h.run();
    type_into(&mut h, "word", "zzqx");
    h.get_by_label("Add word").click();
    h.run();
    assert!(
        h.state()
            .lexicon
            .message
            .as_deref()
            .unwrap_or("")
            .contains("lacks")
    );
    h.get_by_label("Save lists (1)").click();
    h.run();
    let text = std::fs::read_to_string(dir.path().join("frozen.txt")).unwrap();
    assert!(text.lines().any(|l| l == "glacier"), "{text}");
    // Search through the runtime, and see which lists hold the word.
    type_into(&mut h, "search", "glaci");
    assert!(h.query_by_label_contains("in frozen").is_some());
}

#[test]
fn change_a_rule_through_the_ui_and_save_it_into_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ruled.ron");
    let mut app = blank(8, 8);
    app.doc.save_as(&path).unwrap();
    app.mode = Mode::Rules;
    let mut h = harness(app);
    let limit =
        |h: &Harness<'static, EditorApp>| h.state().doc.map.rule_set().unwrap().turn.rack_limit;
    let before = limit(&h);
    // Typed digit by digit, nothing applies until Enter: "1" alone is never tried.
    type_into(&mut h, "turn.rack_limit", "1");
    assert_eq!(limit(&h), before, "half a number is not applied");
    h.get_by_label("turn.rack_limit").type_text("1");
    h.run();
    assert_eq!(limit(&h), before);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(limit(&h), 11);
    // A value out of range is refused beside the field, and changes nothing (the constant's
    // label now says it differs from the preset).
    type_into(&mut h, "turn.rack_limit *", "0");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(limit(&h), 11);
    let refusal = h.state().rules.refusals.get("turn.rack_limit").cloned();
    let refusal = refusal.expect("the refusal is kept for the field");
    assert!(
        h.query_by_label(&refusal).is_some(),
        "the refusal is shown beside the field: {refusal}"
    );
    assert!(
        h.query_by_label("1 constant differs from the preset")
            .is_some()
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(
        Map::load(&path)
            .unwrap()
            .rule_set()
            .unwrap()
            .turn
            .rack_limit,
        11
    );
}

/// A constant that is one of a list is chosen from a drop-down of its values (typed as text,
/// `Exceed` without quotes was undone without a word); a table typed wrong is refused beside
/// its field, and one typed as a rule file writes it is taken.
#[test]
fn a_listed_constant_is_chosen_and_a_wrong_value_is_refused_beside_its_field() {
    let mut app = blank(8, 8);
    app.mode = Mode::Rules;
    let mut h = harness(app);
    let rules = |h: &Harness<'static, EditorApp>| h.state().doc.map.rule_set().unwrap();
    assert_eq!(
        rules(&h).placement.forest_cut,
        scryptic::rules::ForestCut::Match
    );
    h.get_by_label("placement.forest_cut").click();
    h.run();
    h.get_by_label("Exceed").click();
    h.run();
    assert_eq!(
        rules(&h).placement.forest_cut,
        scryptic::rules::ForestCut::Exceed
    );
}

/// A table constant opens into a row per entry with a field per value (a letter's value and
/// count, a seat's name typed without quotes): an entry is changed, removed and added, each
/// an undoable step; a wrong value is refused beside its field and changes nothing.
#[test]
fn a_table_constant_is_edited_row_by_row() {
    let mut app = blank(8, 8);
    app.mode = Mode::Rules;
    let mut h = harness(app);
    let rules = |h: &Harness<'static, EditorApp>| h.state().doc.map.rule_set().unwrap();
    let q = |h: &Harness<'static, EditorApp>| rules(h).letters.tiles.get(&'Q').copied();
    let before = q(&h).unwrap();
    h.get_by_label("letters.tiles").click();
    h.run();
    type_into(&mut h, "Q value", "10");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(q(&h).unwrap().value, 10);
    assert_eq!(q(&h).unwrap().count, before.count, "the count is kept");
    // Not a number: refused beside the field, nothing changed.
    type_into(&mut h, "Q count", "x");
    h.key_press(Key::Enter);
    h.run();
    let refusal = h
        .state()
        .rules
        .refusals
        .get("letters.tiles[Q].count")
        .cloned();
    let refusal = refusal.expect("the refusal is kept for the field");
    assert!(h.query_by_label(&refusal).is_some(), "shown: {refusal}");
    assert_eq!(q(&h).unwrap().count, before.count);
    // The preset's letters are changed, never removed (its own would come back).
    assert!(h.query_by_label("Remove").is_none());
    // A meaning of the connotation lists' is added as a copy of the last row, then removed.
    h.get_by_label("strength.connotations").click();
    h.run();
    type_into(&mut h, "New entry", "freezing");
    h.get_by_label("Add").click();
    h.run();
    let connotations = |h: &Harness<'static, EditorApp>| rules(h).strength.connotations;
    assert_eq!(
        connotations(&h).get("freezing"),
        connotations(&h).get("sneaking"),
        "a new row copies the last"
    );
    h.get_by_label("Remove").click();
    h.run();
    assert!(!connotations(&h).contains_key("freezing"));
    assert!(
        h.state().doc.map.rules.overrides.strength.is_none(),
        "the preset's table again is no override"
    );
    // A list of words (far down the list): a name typed without quotes.
    h.get_by_label("seats.names").scroll_to_me();
    h.run();
    h.get_by_label("seats.names").click();
    h.run();
    type_into(&mut h, "New item", "white");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(rules(&h).seats.names, ["white"]);
    h.get_by_label("Close").click();
    h.run();
    assert_eq!(
        h.state().rules.open_table,
        None,
        "Close folds the table away"
    );
    // Every change was a step of its own.
    h.state_mut().doc.undo();
    assert!(rules(&h).seats.names.is_empty());
}
