//! The Map mode: painting, symmetry, cities and tokens, validation, selection and the
//! clipboard, Map properties and resizing, and the tileset's art.

use super::*;

#[test]
fn paint_a_stroke_fill_and_undo_each_as_one_step() {
    let mut h = harness(blank(16, 12));
    key(&mut h, Key::B);
    h.get_by_label("water").click();
    h.run();
    drag(&mut h, &[Pos::new(2, 2), Pos::new(4, 2), Pos::new(6, 2)]);
    assert_eq!(
        count(&h, Terrain::Water),
        5,
        "a stroke paints every cell it passes"
    );
    assert_eq!(terrain(&h, Pos::new(3, 2)), Terrain::Water);

    key(&mut h, Key::F);
    h.get_by_label("lava").click();
    h.run();
    click(&mut h, Pos::new(0, 0));
    assert_eq!(
        count(&h, Terrain::Lava),
        16 * 12 - 5,
        "the fill takes the plains around the water"
    );

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        count(&h, Terrain::Lava),
        0,
        "one undo takes the whole fill back"
    );
    assert_eq!(count(&h, Terrain::Water), 5);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        count(&h, Terrain::Water),
        0,
        "one undo takes the whole stroke back"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(count(&h, Terrain::Water), 5, "redo");
}

#[test]
fn rectangle_symmetry_and_eyedropper() {
    let mut h = harness(blank(10, 10));
    key(&mut h, Key::I);
    h.state_mut()
        .doc
        .paint_step("seed", &[Pos::new(9, 9)], Terrain::Mountain);
    h.run();
    click(&mut h, Pos::new(9, 9));
    assert_eq!(
        h.state().map_mode.tools.terrain,
        Terrain::Mountain,
        "the eyedropper picks"
    );
    key(&mut h, Key::R);
    h.state_mut().map_mode.tools.symmetry = scryptic_editor::paint::Symmetry::Rotate180;
    drag(&mut h, &[Pos::new(0, 0), Pos::new(1, 1)]);
    assert_eq!(
        count(&h, Terrain::Mountain),
        8,
        "a 2x2 rectangle and its rotated copy (one cell was already mountain)"
    );
    assert_eq!(terrain(&h, Pos::new(8, 8)), Terrain::Mountain);
}

/// Under symmetry a player's city is mirrored as the other player's (a fair duel), a neutral
/// city and a token as they are.
#[test]
fn mirrored_cities_go_to_the_other_player() {
    let mut h = harness(blank(12, 12));
    h.state_mut().map_mode.tools.symmetry = scryptic_editor::paint::Symmetry::Rotate180;
    key(&mut h, Key::C);
    h.get_by_label("gold").click();
    h.run();
    click(&mut h, Pos::new(2, 3));
    h.state_mut().map_mode.tools.city_owner = scryptic::Owner::Neutral;
    h.run();
    click(&mut h, Pos::new(5, 1));
    key(&mut h, Key::T);
    click(&mut h, Pos::new(4, 4));
    let map = &h.state().doc.map;
    let owner_at = |x, y| map.city_at(Pos::new(x, y)).map(|c| c.owner);
    assert_eq!(owner_at(2, 3), Some(scryptic::Owner::Gold));
    assert_eq!(
        owner_at(9, 8),
        Some(scryptic::Owner::Silver),
        "the image is silver's"
    );
    assert_eq!(owner_at(5, 1), Some(scryptic::Owner::Neutral));
    assert_eq!(owner_at(6, 10), Some(scryptic::Owner::Neutral));
    let kinds: Vec<&str> = map.tokens.iter().map(|t| t.kind.as_str()).collect();
    assert_eq!(kinds.len(), 2);
    assert_eq!(kinds[0], kinds[1]);
}

#[test]
fn place_a_city_and_a_token_save_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("made.ron");
    let mut h = harness(blank(12, 12));
    key(&mut h, Key::C);
    h.get_by_label("gold").click();
    h.run();
    click(&mut h, Pos::new(3, 4));
    key(&mut h, Key::T);
    h.get_by_label("flood").click();
    h.run();
    click(&mut h, Pos::new(6, 6));
    {
        let map = &h.state().doc.map;
        assert_eq!(map.cities.len(), 1);
        assert_eq!(map.cities[0].at, Pos::new(3, 4));
        assert_eq!(map.cities[0].owner, scryptic::Owner::Gold);
        assert_eq!(map.tokens.len(), 1);
        assert_eq!(map.tokens[0].kind, "flood");
    }
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    assert!(matches!(h.state().dialog, Some(Dialog::SaveAs(_))));
    type_into(&mut h, "path", &path.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    assert_eq!(h.state().dialog, None);
    assert!(!h.state().doc.is_dirty());
    let saved = Map::load(&path).expect("the saved map loads");
    assert_eq!(saved, h.state().doc.map);

    // Reopen through File > Open in a fresh editor.
    let mut h = harness(EditorApp::default());
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    type_into(&mut h, "path", &path.display().to_string());
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().doc.map, saved);
    assert_eq!(h.state().doc.path.as_deref(), Some(path.as_path()));
}

#[test]
fn the_shipped_duel_opens_with_its_tileset_and_validates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let h = harness(EditorApp::new(Some(&root.join("maps/duel-24.ron"))));
    assert_eq!(h.state().dialog, None);
    assert_eq!(h.state().doc.map.width(), 24);
    let (errors, _) = h.state().map_mode.validation.counts();
    assert_eq!(errors, 0, "{:?}", h.state().map_mode.validation.findings);
}

/// The validation panel lists every finding grouped by kind, each under its kind's header with
/// its cell named as players name it (A1), and a click on one jumps to it.
#[test]
fn validation_findings_are_grouped_by_kind_and_jump_when_clicked() {
    let mut app = blank(12, 12);
    for (id, x, y) in [("w1", 1, 1), ("w2", 2, 1), ("w3", 3, 1)] {
        app.doc.edit_objects("token", |m| {
            m.tokens.push(scryptic::TokenSpot {
                id: id.into(),
                kind: "quake".into(),
                at: Pos::new(x, y),
            });
        });
    }
    let mut h = harness(app);
    let groups: Vec<(&str, usize)> = h
        .state()
        .map_mode
        .validation
        .groups()
        .into_iter()
        .map(|(code, members)| (code, members.len()))
        .collect();
    assert!(groups.contains(&("unknown-token-kind", 3)), "{groups:?}");
    h.get_by_label_contains("unknown-token-kind (3)");
    h.get_by_label_contains("C2: ").click();
    h.run();
    let focused = h
        .state()
        .map_mode
        .validation
        .focused
        .expect("a finding is picked");
    assert_eq!(
        h.state().map_mode.validation.findings[focused].cells,
        [Pos::new(2, 1)]
    );
}

/// The Edit menu has what Tiled's has, each with its shortcut: select all, copy, and paste
/// into the layers chosen (terrain alone leaves the cities under it).
#[test]
fn the_edit_menu_selects_copies_and_pastes_by_layer() {
    let mut h = harness(blank(8, 8));
    h.state_mut()
        .doc
        .paint_step("water", &[Pos::new(0, 0)], Terrain::Water);
    h.state_mut().doc.map.cities.push(scryptic::City {
        id: "argentum".into(),
        name: "Argentum".into(),
        at: Pos::new(4, 4),
        owner: scryptic::Owner::Silver,
        bonus: None,
    });
    h.run();
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label_contains("Select all").click();
    h.run();
    assert!(h.state().map_mode.selection.is_some());
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label_contains("Copy").click();
    h.run();
    assert!(h.state().map_mode.clip.is_some(), "copied");
    // Pasted over Argentum with the terrain's layer alone: the water comes, the city stays.
    let app = h.state_mut();
    app.map_mode.paste_layers.pieces = false;
    app.map_mode.hovered = Some(Pos::new(4, 4));
    app.map_mode.paste(&mut app.doc);
    let map = &h.state().doc.map;
    assert_eq!(map.terrain.get(Pos::new(4, 4)), Some(&Terrain::Water));
    let ids: Vec<&str> = map.cities.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["argentum"], "the terrain alone leaves Argentum");
}

/// A region copied in one editor window goes to the system clipboard as text (which other
/// programs can read), and pasting that text in another window lays the region down there.
#[test]
fn a_region_copies_to_the_system_clipboard_and_pastes_in_another_window() {
    let mut first = harness(blank(12, 12));
    first
        .state_mut()
        .doc
        .paint_step("seed", &[Pos::new(1, 1), Pos::new(2, 1)], Terrain::Lava);
    first.run();
    key(&mut first, Key::M);
    drag(&mut first, &[Pos::new(1, 1), Pos::new(2, 2)]);
    // Ctrl+C, as the window system hands it over (egui-winit makes it a Copy event).
    first.event(Event::Copy);
    first.step();
    let copied = first
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .expect("the region reaches the system clipboard");
    assert!(copied.starts_with("scryptic-region 1\n"), "{copied}");

    let mut second = harness(blank(12, 12));
    let target = at(&second, Pos::new(5, 5));
    second.event(Event::PointerMoved(target));
    second.run();
    second.event(Event::Paste(copied));
    second.run();
    let map = &second.state().doc.map;
    assert_eq!(map.terrain.get(Pos::new(5, 5)), Some(&Terrain::Lava));
    assert_eq!(map.terrain.get(Pos::new(6, 5)), Some(&Terrain::Lava));
    assert_eq!(map.terrain.get(Pos::new(5, 6)), Some(&Terrain::Plains));
    // Text that is not a region pastes nothing new.
    let before = second.state().doc.map.clone();
    second.event(Event::Paste("hello".into()));
    second.run();
    assert_eq!(second.state().doc.map.terrain, before.terrain);
}

/// Map properties without a text file: name and author typed and committed when the field is
/// left (one undo step each), the preset chosen, and the map resized around its anchor; a size
/// the rules refuse changes nothing.
#[test]
fn map_properties_are_edited_and_the_map_resized_from_the_panel() {
    let mut h = harness(blank(12, 12));
    h.get_by_label("Map properties").click();
    h.run();
    type_into(&mut h, "Name", "Twin Fords");
    assert_eq!(h.state().doc.map.name, "test", "not committed while typing");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().doc.map.name, "Twin Fords");
    type_into(&mut h, "Author", "A. Designer");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().doc.map.author, "A. Designer");
    h.state_mut()
        .doc
        .paint_step("mark", &[Pos::new(0, 0)], Terrain::Lava);
    h.state_mut().map_mode.properties.anchor = scryptic_editor::properties::Anchor { x: 2, y: 2 };
    h.state_mut().map_mode.properties.size = Some((14, 13));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    let map = &h.state().doc.map;
    assert_eq!((map.width(), map.height()), (14, 13));
    assert_eq!(map.terrain.get(Pos::new(2, 1)), Some(&Terrain::Lava));
    h.state_mut().map_mode.properties.size = Some((2, 2));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    assert_eq!(h.state().doc.map.width(), 14, "too small: refused");
    assert!(h.state().map_mode.properties.message.is_some());
    h.state_mut().doc.undo();
    assert_eq!(h.state().doc.map.width(), 12, "a resize is one step");
    assert_eq!(h.state().doc.map.name, "Twin Fords");
}

/// The size fields follow the map: after a resize is undone (or redone), Width and Height
/// show the map's size, not the size it had (they kept the old width).
#[test]
fn the_size_fields_follow_the_map_through_undo() {
    let mut h = harness(blank(12, 12));
    h.get_by_label("Map properties").click();
    h.run();
    h.state_mut().map_mode.properties.size = Some((14, 13));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    let shown = |h: &Harness<'static, EditorApp>, field: &str| {
        h.get_by_label(field).accesskit_node().numeric_value()
    };
    assert_eq!(shown(&h, "Width"), Some(14.0));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map.width(), 12);
    assert_eq!(shown(&h, "Width"), Some(12.0), "the field follows the undo");
    assert_eq!(shown(&h, "Height"), Some(12.0));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map.width(), 14);
    assert_eq!(shown(&h, "Width"), Some(14.0), "and the redo");
}

/// The canvas keeps its place: opening Map properties does not narrow it (a field wider than
/// the panel widened the panel), and a map resized (or its resize undone) is fitted again.
#[test]
fn the_canvas_keeps_its_size_and_a_resized_map_is_fitted() {
    let mut h = harness(blank(12, 12));
    h.run();
    let canvas = |h: &Harness<'static, EditorApp>| h.state().map_mode.canvas.last_rect();
    let before = canvas(&h);
    h.get_by_label("Map properties").click();
    h.run();
    assert_eq!(canvas(&h), before, "the canvas did not move");
    h.state_mut().map_mode.properties.size = Some((24, 12));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    assert_eq!(
        h.state().map_mode.view.centre,
        [12.0, 6.0],
        "fitted to 24x12"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        h.state().map_mode.view.centre,
        [6.0, 6.0],
        "fitted back to 12x12"
    );
}

/// A new map draws with the stone tileset's art from the start, saved or not.
#[test]
fn a_new_map_starts_with_the_stone_tileset() {
    let h = harness(blank(10, 10));
    assert_eq!(
        h.state().doc.map.tileset,
        scryptic_editor::app::NEW_MAP_TILESET
    );
    assert!(
        scryptic_editor::app::tileset_of(&h.state().doc).is_some(),
        "the tileset loads for a map not yet saved"
    );
}

/// The blank map the editor opens on, with no file named, has the stone tileset too.
#[test]
fn the_editor_starts_on_a_map_with_the_stone_tileset() {
    let app = EditorApp::new(None);
    assert_eq!(app.doc.map.tileset, scryptic_editor::app::NEW_MAP_TILESET);
    assert!(!app.doc.is_dirty(), "nothing to save yet");
}

/// The texture ids of every image drawn in the last frame.
fn drawn_textures(h: &Harness<'_, EditorApp>) -> Vec<egui::TextureId> {
    h.output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Mesh(mesh) => Some(mesh.texture_id),
            _ => None,
        })
        .collect()
}

/// Close in, the canvas draws cities and tokens with the tileset's art, as play does, not
/// plain discs and diamonds.
#[test]
fn cities_and_tokens_are_drawn_with_the_tilesets_art() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut h = harness(EditorApp::new(Some(&root.join("maps/duel-24.ron"))));
    h.state_mut().map_mode.view.fit_pending = false;
    h.state_mut().map_mode.view.zoom = scryptic_editor::view::TEXTURE_ZOOM * 2.0;
    h.run();
    let drawn = drawn_textures(&h);
    let state = h.state();
    let tiles = state
        .map_mode
        .canvas
        .textures()
        .expect("the duel's tileset loads");
    let map = &state.doc.map;
    let visible = |at: Pos| {
        let rect = state.map_mode.canvas.last_rect().unwrap();
        rect.contains(state.map_mode.view.cell_centre(rect, at))
    };
    let city = map
        .cities
        .iter()
        .find(|c| visible(c.at))
        .expect("a city in view");
    let city_art = tiles
        .city(city.owner)
        .expect("the tileset has city art")
        .id();
    assert!(drawn.contains(&city_art), "the city is drawn with its tile");
    let token = map
        .tokens
        .iter()
        .find(|t| visible(t.at))
        .expect("a token in view");
    let jewel = tiles
        .token(&token.kind)
        .expect("the tileset has the jewel")
        .id();
    assert!(drawn.contains(&jewel), "the token is drawn with its jewel");
}
