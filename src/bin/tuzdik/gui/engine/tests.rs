use super::*;

#[test]
fn option_lines_are_read_with_spaces_in_names() {
    let option =
        EngineOption::parse("option name Skill Level type spin default 20 min 0 max 20").unwrap();
    assert_eq!(option.name, "Skill Level");
    assert_eq!((option.min, option.max), (Some(0), Some(20)));
    let combo = EngineOption::parse(
        "option name UCI_Variant type combo default togyz var togyz var kozdatu",
    )
    .unwrap();
    assert_eq!(combo.values, ["togyz", "kozdatu"]);
    assert_eq!(EngineOption::parse("option type spin"), None);
}

#[test]
fn info_lines_become_playok_lines() {
    let search = Search {
        id: 7,
        game: Game::new(Variant::TOGYZ),
    };
    let event = info_event(
        &search,
        "depth 3 seldepth 5 multipv 2 score cp -12 upperbound wdl 400 300 300 nodes 99 pv 8 8 2 banana 4",
    )
    .unwrap();
    assert_eq!(
        event,
        r#"{"type":"info","search":7,"depth":3,"seldepth":5,"multipv":2,"cp":-12,"upperbound":true,"wdl":[400,300,300],"nodes":99,"pv":["87(10)","87(10)","22"]}"#
    );
    assert_eq!(
        info_event(&search, "depth 3 currmove 7 currmovenumber 1"),
        None
    );
    assert_eq!(info_event(&search, "score banana depth -1"), None);
}

proptest::proptest! {
    /// Whatever an engine writes after `info`, the event (if any) holds a pv that replays
    /// legally from the searched position.
    #[test]
    fn any_info_line_gives_a_legal_pv_or_nothing(words in proptest::collection::vec(
        proptest::sample::select(vec![
            "depth", "score", "cp", "mate", "pv", "wdl", "multipv", "nodes", "lowerbound",
            "1", "-5", "9", "87", "22", "76(10)", "0000", "99", "banana", "string",
        ]),
        0..24,
    )) {
        let search = Search { id: 1, game: Game::new(Variant::TOGYZ) };
        if let Some(event) = info_event(&search, &words.join(" ")) {
            let pv = event.rsplit_once("\"pv\":[").unwrap().1.trim_end_matches("]}");
            let mut game = search.game.clone();
            for text in pv.split(',') {
                let text = text.trim_matches('"');
                proptest::prop_assert!(game.play_text(text).is_ok(), "{} in {}", text, event);
            }
        }
    }
}

#[test]
fn a_stray_or_illegal_bestmove_is_an_error_event() {
    let mut state = State::default();
    handle_line(&mut state, "bestmove 7");
    assert!(
        state.events.is_empty(),
        "a bestmove with no search is dropped"
    );
    state.search = Some(Search {
        id: 1,
        game: Game::new(Variant::TOGYZ),
    });
    handle_line(&mut state, "bestmove 0000");
    assert!(
        state.events[0].1.contains("not a legal move here"),
        "{:?}",
        state.events
    );
    assert!(state.search.is_none());
}
