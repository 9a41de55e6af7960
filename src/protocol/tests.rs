use super::*;

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session() -> (Session, Buffer) {
    let buffer = Buffer::default();
    (Session::new(Output::new(buffer.clone())), buffer)
}

fn take(buffer: &Buffer) -> Vec<String> {
    let mut bytes = buffer.0.lock().unwrap();
    let text = String::from_utf8(std::mem::take(&mut *bytes)).unwrap();
    text.lines().map(str::to_string).collect()
}

#[test]
fn a_bad_position_keeps_the_old_one() {
    let (mut s, out) = session();
    s.handle_line("position startpos moves 7");
    let before = s.game().clone();
    s.handle_line("position startpos moves 7 86");
    s.handle_line("position fen 9,9/9 0 0 w");
    s.handle_line(
        "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w moves 1 1 1 1 1 1 1 1 12",
    );
    let lines = take(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines.iter().all(|l| l.starts_with("info string error: ")));
    assert_eq!(s.game(), &before);
}

#[test]
fn queries_answer() {
    let (mut s, out) = session();
    s.handle_line("query p1turn");
    s.handle_line("query gameover");
    s.handle_line("query result");
    s.handle_line("position fen 0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 80 81 w");
    s.handle_line("query gameover");
    s.handle_line("query result");
    assert_eq!(
        take(&out),
        [
            "response true",
            "response false",
            "response none",
            "response true",
            "response p2win"
        ]
    );
}

#[test]
fn rule_options_reset_the_position() {
    let (mut s, out) = session();
    s.handle_line("position startpos moves 1");
    s.handle_line("setoption name UCI_Variant value bestemshchi");
    s.handle_line("d");
    let lines = take(&out);
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: 5,5,5,5,5/5,5,5,5,5 0 0 w 1"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "Legal: 1 2 3 4 5"));
}

#[test]
fn perft_runs_and_reports() {
    let (mut s, out) = session();
    s.handle_line("perft 3");
    s.finish();
    let lines = take(&out);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 613")
    );
    assert_eq!(lines.len(), 11);
}

#[test]
fn long_lines_are_refused_whole() {
    let mut input = std::io::Cursor::new(format!("{}\nisready\n", "x".repeat(MAX_LINE_BYTES + 5)));
    assert_eq!(
        read_bounded_line(&mut input).unwrap(),
        Some(Err(MAX_LINE_BYTES + 5))
    );
    assert_eq!(
        read_bounded_line(&mut input).unwrap(),
        Some(Ok("isready".to_string()))
    );
    assert_eq!(read_bounded_line(&mut input).unwrap(), None);
}
