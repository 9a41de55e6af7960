//! Any line through the command parser: no panic, and an error is one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuzdik::protocol::command::parse;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let line = line.split('\n').next().unwrap_or("");
    if let Err(error) = parse(line) {
        let message = error.to_string();
        assert!(!message.contains('\n'), "a two-line error: {message:?}");
    }
});
