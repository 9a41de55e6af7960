//! Any bytes as a PGN file: reading and replaying never panic, and every game that replays
//! is written and read back to the same positions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuzdik::record::{Record, RecordReader, replay_reader};

fuzz_target!(|data: &[u8]| {
    let _ = replay_reader(data);
    for record in RecordReader::new(data).take(50) {
        let Ok(record) = record else {
            break;
        };
        let _ = record.to_string();
        let Ok(game) = record.replay() else {
            continue;
        };
        let written = Record::from_game(&game, &[("Event", "fuzz".to_string())], None).to_string();
        let back = Record::parse_all(&written)
            .unwrap_or_else(|error| panic!("{error}\n{written}"));
        assert_eq!(back.len(), 1, "{written}");
        let again = back[0]
            .replay()
            .unwrap_or_else(|error| panic!("{error}\n{written}"));
        assert_eq!(again.positions(), game.positions(), "{written}");
    }
});
