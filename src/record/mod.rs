//! Game records in PlayOK's PGN style: `[Tag "value"]` pairs, then numbered long moves
//! (`87(10)`, `68X`), `{comments}` and a result (`1-0`, `0-1`, `1/2-1/2`, `*`), with moves free
//! to run across lines.
//!
//! Reading only splits the text; [`Record::replay`] checks every move against the rules:
//! landing holes, tuzdik marks, `(k)` kazan totals, and the result of every finished game.

use std::fmt::{self, Write as _};

use thiserror::Error;

use crate::game::{Game, GameError, Termination};
use crate::moves::Move;
use crate::position::{PositionError, Side, Status};
use crate::variant::{Variant, VariantError};

/// A result token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`: South (White) won.
    SouthWins,
    /// `0-1`: North (Black) won.
    NorthWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl Outcome {
    /// The PGN token.
    pub fn token(self) -> &'static str {
        match self {
            Outcome::SouthWins => "1-0",
            Outcome::NorthWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Parses a PGN result token.
    pub fn from_token(token: &str) -> Option<Outcome> {
        match token {
            "1-0" => Some(Outcome::SouthWins),
            "0-1" => Some(Outcome::NorthWins),
            "1/2-1/2" => Some(Outcome::Draw),
            "*" => Some(Outcome::Unknown),
            _ => None,
        }
    }

    /// The outcome of a finished game's status.
    pub fn from_status(status: Status) -> Outcome {
        match status {
            Status::Ongoing => Outcome::Unknown,
            Status::Won(Side::South) => Outcome::SouthWins,
            Status::Won(Side::North) => Outcome::NorthWins,
            Status::Drawn => Outcome::Draw,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// One move of a record as written, with the comment that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move text (`87(10)`, `68X`, `5`, ...).
    pub text: String,
    /// The line it stands on (1-based, in the whole file).
    pub line: usize,
    /// A `{comment}` right after it.
    pub comment: Option<String>,
}

/// A game record: tags, moves, result and comments.
///
/// ```
/// use tuzdik::record::{Outcome, Record};
/// let text = "[Event \"demo\"]\n[Result \"*\"]\n\n1. 87(10) 87(10) 2. 22 *\n";
/// let records = Record::parse_all(text).unwrap();
/// assert_eq!(records[0].moves.len(), 3);
/// let game = records[0].replay().unwrap();
/// assert_eq!(game.moves().len(), 3);
/// assert_eq!(records[0].to_string(), text);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub leading_comment: Option<String>,
    /// The moves.
    pub moves: Vec<RecordedMove>,
    /// The result token at the end of the movetext, if any.
    pub result: Option<Outcome>,
    /// The line the record starts on (1-based).
    pub line: usize,
}

/// A record that could not be read or does not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// A line that looks like a tag is not `[Name "value"]`.
    #[error("line {line}: malformed tag '{text}'")]
    Tag {
        /// Line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A `{` comment that never closes.
    #[error("line {line}: comment is never closed")]
    OpenComment {
        /// Line the comment starts on.
        line: usize,
    },
    /// A `{` comment still open at the next game's tags.
    #[error("line {line}: comment is not closed before the tag on line {tag_line}")]
    CommentIntoTag {
        /// Line the comment starts on.
        line: usize,
        /// The tag line it ran into.
        tag_line: usize,
    },
    /// A Result tag whose value is not a result.
    #[error("line {line}: Result tag '{value}' is not 1-0, 0-1, 1/2-1/2 or *")]
    ResultTag {
        /// Line number (the record's first line when the record was not read from text).
        line: usize,
        /// The value.
        value: String,
    },
    /// Something after the result token of the movetext.
    #[error("line {line}: '{text}' after the result {result}")]
    AfterResult {
        /// Line number.
        line: usize,
        /// The token.
        text: String,
        /// The result that came before.
        result: Outcome,
    },
    /// A line that is not UTF-8.
    #[error("line {line}: not UTF-8 text")]
    NotUtf8 {
        /// Line number.
        line: usize,
    },
    /// The file could not be read.
    #[error("line {line}: read error: {error}")]
    Read {
        /// The line being read.
        line: usize,
        /// What the system said.
        error: String,
    },
    /// A token of the movetext that is not a move, number, result or comment.
    #[error("line {line}: unexpected '{text}' in the moves")]
    Token {
        /// Line number.
        line: usize,
        /// The token.
        text: String,
    },
    /// The Variant tag names no known variant.
    #[error("Variant tag: {0}")]
    Variant(#[from] VariantError),
    /// The FEN tag is not a valid position.
    #[error("FEN tag: {0}")]
    Fen(#[from] PositionError),
    /// A move is illegal or disagrees with its long form or `(k)`.
    #[error("move {number}{} '{text}' (line {line}): {error}", if *.side == Side::South { "." } else { "..." })]
    Move {
        /// The fullmove number.
        number: u32,
        /// Who played it.
        side: Side,
        /// The move as written.
        text: String,
        /// Its line.
        line: usize,
        /// What is wrong.
        error: GameError,
    },
    /// The recorded result disagrees with the one the rules give.
    #[error("result {written} is recorded, but the game ended {actual} ({})", .end.describe())]
    Result {
        /// The result in the record.
        written: Outcome,
        /// The result by the rules.
        actual: Outcome,
        /// How the game ended.
        end: Termination,
    },
    /// The Result tag and the result token at the end of the moves differ.
    #[error("the Result tag says {tag} but the moves end with {token}")]
    ResultMismatch {
        /// The tag's value.
        tag: Outcome,
        /// The token's value.
        token: Outcome,
    },
}

fn parse_tag(line: &str, number: usize) -> Result<(String, String), RecordError> {
    let bad = || RecordError::Tag {
        line: number,
        text: line.to_string(),
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, value) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let value = value.trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    Ok((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn looks_like_move(token: &str) -> bool {
    token == "0000"
        || token
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'X' | b'x' | b'(' | b')'))
}

/// The state of reading a file line by line: the record being read and an open comment.
#[derive(Default)]
struct Parser {
    current: Option<Record>,
    in_moves: bool,
    /// An open `{`: the line it opened on and its text so far.
    comment: Option<(usize, String)>,
    /// An error in the line that completed a record, reported after that record.
    deferred: Option<RecordError>,
}

impl Parser {
    fn record(&mut self, number: usize) -> &mut Record {
        self.current.get_or_insert_with(|| Record {
            line: number,
            ..Record::default()
        })
    }

    /// Reads one line; returns the record that a tag line after moves completed.
    fn line(&mut self, number: usize, line: &str) -> Result<Option<Record>, RecordError> {
        let line = line.trim();
        if line.starts_with('[') {
            if let Some((opened, _)) = &self.comment {
                // A tag line inside a comment is the next game: the `{` was never closed.
                if parse_tag(line, number).is_ok() {
                    return Err(RecordError::CommentIntoTag {
                        line: *opened,
                        tag_line: number,
                    });
                }
            } else {
                let mut completed = None;
                if self.in_moves || self.current.is_none() {
                    completed = self.current.take();
                    self.in_moves = false;
                }
                let tag = parse_tag(line, number).and_then(|(name, value)| {
                    if name.eq_ignore_ascii_case("Result") && Outcome::from_token(&value).is_none()
                    {
                        Err(RecordError::ResultTag {
                            line: number,
                            value,
                        })
                    } else {
                        Ok((name, value))
                    }
                });
                return match (tag, completed) {
                    (Ok(tag), completed) => {
                        self.record(number).tags.push(tag);
                        Ok(completed)
                    }
                    // The game before this line is whole: it is handed out first.
                    (Err(error), Some(completed)) => {
                        self.deferred = Some(error);
                        Ok(Some(completed))
                    }
                    (Err(error), None) => Err(error),
                };
            }
        }
        let mut rest = line;
        while !rest.is_empty() {
            if let Some((_, text)) = self.comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        text.push_str(&rest[..end]);
                        let finished = std::mem::take(text).trim().to_string();
                        self.comment = None;
                        let record = self.record(number);
                        match record.moves.last_mut() {
                            Some(last) if last.comment.is_none() => last.comment = Some(finished),
                            Some(last) => {
                                let joined = last.comment.take().unwrap_or_default();
                                last.comment = Some(format!("{joined} {finished}"));
                            }
                            None => record.leading_comment = Some(finished),
                        }
                        rest = rest[end + 1..].trim_start();
                    }
                    None => {
                        text.push_str(rest);
                        text.push(' ');
                        rest = "";
                    }
                }
                continue;
            }
            if let Some(after) = rest.strip_prefix('{') {
                self.comment = Some((number, String::new()));
                rest = after;
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = rest[end..].trim_start();
            self.in_moves = true;
            let record = self.record(number);
            // The result ends the movetext: a move, number or second result after it is
            // a record that is broken or cut, never something to skip.
            if let Some(result) = record.result {
                return Err(RecordError::AfterResult {
                    line: number,
                    text: token.to_string(),
                    result,
                });
            }
            if is_move_number(token) {
                continue;
            }
            if let Some(outcome) = Outcome::from_token(token) {
                record.result = Some(outcome);
                continue;
            }
            // A number glued to its move, as in `12.87`.
            let token = match token.find('.') {
                Some(dot) if is_move_number(&token[..=dot]) => token[dot..].trim_start_matches('.'),
                _ => token,
            };
            if !looks_like_move(token) || token.is_empty() {
                return Err(RecordError::Token {
                    line: number,
                    text: token.to_string(),
                });
            }
            record.moves.push(RecordedMove {
                text: token.to_string(),
                line: number,
                comment: None,
            });
        }
        Ok(None)
    }

    /// The end of the file: the last record, or the comment left open.
    fn finish(&mut self) -> Result<Option<Record>, RecordError> {
        if let Some((line, _)) = self.comment.take() {
            return Err(RecordError::OpenComment { line });
        }
        Ok(self.current.take())
    }
}

/// Reads the records of a file one at a time, so that a file of any size takes the memory of
/// its longest game. A UTF-8 byte order mark at the start is skipped; a line that is not
/// UTF-8 is an error. After the first error the reader yields nothing more.
///
/// ```
/// use tuzdik::record::RecordReader;
/// let text = "[Event \"a\"]\n\n1. 87(10) *\n\n[Event \"b\"]\n\n1. 22 *\n";
/// let events: Vec<String> = RecordReader::new(text.as_bytes())
///     .map(|record| record.unwrap().tag("Event").unwrap().to_string())
///     .collect();
/// assert_eq!(events, ["a", "b"]);
/// ```
pub struct RecordReader<R> {
    input: R,
    parser: Parser,
    /// Lines read so far.
    lines: usize,
    /// Records handed out so far.
    records: usize,
    bytes: Vec<u8>,
    /// An error found after a record was completed, handed out after it.
    pending: Option<ReplayFailure>,
    done: bool,
}

impl<R: std::io::BufRead> RecordReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> RecordReader<R> {
        RecordReader {
            input,
            parser: Parser::default(),
            lines: 0,
            records: 0,
            bytes: Vec::new(),
            pending: None,
            done: false,
        }
    }

    /// The failure `error` as of the record being read: its number, first line and Event.
    fn failure(&self, error: RecordError) -> ReplayFailure {
        let current = self.parser.current.as_ref();
        ReplayFailure {
            game: self.records + 1,
            line: current.map_or(self.lines, |record| record.line),
            event: current.and_then(|record| record.tag("Event").map(str::to_string)),
            error,
        }
    }

    fn hand_out(&mut self, record: Record) -> Option<Result<Record, ReplayFailure>> {
        self.records += 1;
        if let Some(error) = self.parser.deferred.take() {
            self.pending = Some(self.failure(error));
        }
        Some(Ok(record))
    }

    /// The next line without its line break, or `None` at the end of the input.
    fn next_line(&mut self) -> Result<Option<String>, RecordError> {
        self.bytes.clear();
        let read = self
            .input
            .read_until(b'\n', &mut self.bytes)
            .map_err(|error| RecordError::Read {
                line: self.lines + 1,
                error: error.to_string(),
            })?;
        if read == 0 {
            return Ok(None);
        }
        self.lines += 1;
        let mut bytes = self.bytes.as_slice();
        if self.lines == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(Some(text.to_string())),
            Err(_) => Err(RecordError::NotUtf8 { line: self.lines }),
        }
    }
}

impl<R: std::io::BufRead> Iterator for RecordReader<R> {
    type Item = Result<Record, ReplayFailure>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(failure) = self.pending.take() {
            self.done = true;
            return Some(Err(failure));
        }
        while !self.done {
            let line = match self.next_line() {
                Ok(line) => line,
                Err(error) => {
                    self.done = true;
                    return Some(Err(self.failure(error)));
                }
            };
            let Some(line) = line else {
                self.done = true;
                return match self.parser.finish() {
                    Ok(Some(record)) => self.hand_out(record),
                    Ok(None) => None,
                    Err(error) => Some(Err(self.failure(error))),
                };
            };
            match self.parser.line(self.lines, &line) {
                Ok(Some(record)) => return self.hand_out(record),
                Ok(None) => {}
                Err(error) => {
                    self.done = true;
                    return Some(Err(self.failure(error)));
                }
            }
        }
        None
    }
}

impl Record {
    /// Splits a file into records. Fails on the first malformed tag, token or comment.
    pub fn parse_all(text: &str) -> Result<Vec<Record>, RecordError> {
        RecordReader::new(text.as_bytes())
            .map(|item| item.map_err(|failure| failure.error))
            .collect()
    }

    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Sets a tag, replacing an existing one of the same name.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(key, _)| key == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The variant from the Variant tag (a spec such as `kozdatu tuzdik=on`), Toguz Kumalak
    /// without one.
    pub fn variant(&self) -> Result<Variant, RecordError> {
        match self.tag("Variant") {
            Some(spec) => Ok(spec.parse()?),
            None => Ok(Variant::TOGYZ),
        }
    }

    /// The start: the FEN tag's position, or the variant's start position.
    pub fn start(&self) -> Result<Game, RecordError> {
        let variant = self.variant()?;
        match self.tag("FEN") {
            Some(fen) => Ok(Game::from_fen(fen, variant)?),
            None => Ok(Game::new(variant)),
        }
    }

    /// Replays every move (checking long forms and `(k)`), then, for a game the rules have
    /// ended, checks the recorded result.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = self.start()?;
        for recorded in &self.moves {
            let number = game.fullmove();
            let side = game.position().side_to_move();
            game.play_text(&recorded.text)
                .map_err(|error| RecordError::Move {
                    number,
                    side,
                    text: recorded.text.clone(),
                    line: recorded.line,
                    error,
                })?;
        }
        let tag = match self.tag("Result") {
            Some(value) => {
                Some(
                    Outcome::from_token(value).ok_or_else(|| RecordError::ResultTag {
                        line: self.line,
                        value: value.to_string(),
                    })?,
                )
            }
            None => None,
        };
        if let (Some(tag), Some(token)) = (tag, self.result)
            && tag != token
        {
            return Err(RecordError::ResultMismatch { tag, token });
        }
        if let Some(end) = game.termination() {
            let actual = Outcome::from_status(game.status());
            if let Some(written) = tag.or(self.result)
                && written != actual
                && written != Outcome::Unknown
            {
                return Err(RecordError::Result {
                    written,
                    actual,
                    end,
                });
            }
        }
        Ok(game)
    }

    /// A record of a game, in PlayOK's long notation with `(k)` after every move that
    /// captures. `tags` come first (Variant, FEN and SetUp are added when needed; Result is
    /// set from `result`, or from the game when it is over).
    pub fn from_game(game: &Game, tags: &[(&str, String)], result: Option<Outcome>) -> Record {
        let mut record = Record::default();
        for (name, value) in tags {
            record.set_tag(name, value.clone());
        }
        let outcome = result.unwrap_or_else(|| Outcome::from_status(game.status()));
        record.set_tag("Result", outcome.token());
        if !game.variant().is_default() || game.variant() != Variant::TOGYZ {
            record.set_tag("Variant", game.variant().to_string());
        }
        let start = game.start();
        if *start != crate::Position::start(game.variant()) || game.start_fullmove() != 1 {
            record.set_tag("SetUp", "1");
            record.set_tag("FEN", start.to_fen(game.start_fullmove()));
        }
        for (pos, &mv) in game.positions().iter().zip(game.moves()) {
            let captures = pos.effect_of(mv).captured != 0 && !pos.effect_of(mv).made_tuzdik;
            record.moves.push(RecordedMove {
                text: pos.long_notation(mv, captures),
                line: 0,
                comment: None,
            });
        }
        record.result = Some(outcome);
        record
    }

    /// The moves as [`Move`]s after a successful replay.
    pub fn played_moves(&self) -> Result<Vec<Move>, RecordError> {
        Ok(self.replay()?.moves().to_vec())
    }
}

/// Writes the record: tags, a blank line, numbered moves wrapped before 80 columns, the result.
impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{escaped}\"]")?;
        }
        writeln!(f)?;
        let (mut number, mut side) = match self.start() {
            Ok(game) => (game.start_fullmove(), game.position().side_to_move()),
            Err(_) => (1, Side::South),
        };
        let mut words: Vec<String> = Vec::new();
        if let Some(comment) = &self.leading_comment {
            words.push(format!("{{{comment}}}"));
        }
        for (index, recorded) in self.moves.iter().enumerate() {
            match side {
                Side::South => words.push(format!("{number}.")),
                Side::North if index == 0 => words.push(format!("{number}...")),
                Side::North => {}
            }
            words.push(recorded.text.clone());
            if let Some(comment) = &recorded.comment {
                words.push(format!("{{{comment}}}"));
            }
            if side == Side::North {
                number = number.saturating_add(1);
            }
            side = side.opponent();
        }
        if let Some(result) = self.result {
            words.push(result.token().to_string());
        }
        let mut line = String::new();
        for word in words {
            if !line.is_empty() && line.len() + 1 + word.len() > 79 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            let _ = write!(line, "{word}");
        }
        if !line.is_empty() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// What [`replay_all`] found.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ReplaySummary {
    /// Games read.
    pub games: usize,
    /// Games the rules ended (their results were checked).
    pub finished: usize,
    /// Moves replayed.
    pub moves: usize,
}

impl fmt::Display for ReplaySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games, {} finished, results agree ({} moves)",
            self.games, self.finished, self.moves
        )
    }
}

/// The first game of a file that fails, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}{error}", where_in_file(*.game, *.line, .event.as_deref()))]
pub struct ReplayFailure {
    /// The game's number in the file (1-based): the game replayed or being read.
    pub game: usize,
    /// The line it starts on.
    pub line: usize,
    /// Its Event tag.
    pub event: Option<String>,
    /// What went wrong.
    pub error: RecordError,
}

fn where_in_file(game: usize, line: usize, event: Option<&str>) -> String {
    match (game, event) {
        (0, _) => String::new(),
        // Nothing of the game was read (the file could not be read at all).
        (_, None) if line == 0 => format!("game {game}: "),
        (_, Some(event)) => format!("game {game} (line {line}, Event {event}): "),
        (_, None) => format!("game {game} (line {line}): "),
    }
}

/// Reads and replays every game of a file.
pub fn replay_all(text: &str) -> Result<ReplaySummary, ReplayFailure> {
    replay_reader(text.as_bytes())
}

/// Reads and replays every game of a stream, one game at a time: the memory used is that of
/// the longest game, whatever the size of the file.
pub fn replay_reader(input: impl std::io::BufRead) -> Result<ReplaySummary, ReplayFailure> {
    let mut summary = ReplaySummary::default();
    for (index, record) in RecordReader::new(input).enumerate() {
        let record = record?;
        let game = record.replay().map_err(|error| ReplayFailure {
            game: index + 1,
            line: record.line,
            event: record.tag("Event").map(str::to_string),
            error,
        })?;
        summary.games += 1;
        summary.moves += game.moves().len();
        if game.termination().is_some() {
            summary.finished += 1;
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests;
