//! The command layer: one input line in, one [`Command`] (or a clear error) out, parsed with
//! nom. Nothing here touches engine state, so any line at all can be fed to [`parse`].

use nom::IResult;
use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{multispace0, multispace1};
use nom::combinator::{all_consuming, map, map_res, opt, rest, value, verify};
use nom::multi::many0;
use nom::sequence::{pair, preceded, terminated};
use thiserror::Error;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSpec {
    /// `startpos`: the variant's start position.
    Startpos,
    /// `fen <position string>`.
    Fen(String),
    /// `random <seed>`: Mangala IV's random traditional set-up.
    Random(u64),
}

/// The limits of a `go` command. Times are in milliseconds; a negative time counts as 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// South's (p1's) remaining time.
    pub south_time: Option<i64>,
    /// North's (p2's) remaining time.
    pub north_time: Option<i64>,
    /// South's increment.
    pub south_inc: Option<i64>,
    /// North's increment.
    pub north_inc: Option<i64>,
    /// Moves to the next time control.
    pub moves_to_go: Option<u64>,
    /// Depth limit in plies.
    pub depth: Option<u64>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub move_time: Option<i64>,
    /// Search for a win in this many moves.
    pub mate: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder search (until `ponderhit` or `stop`).
    pub ponder: bool,
    /// Restrict the root to these moves (as written).
    pub search_moves: Vec<String>,
    /// `searchmoves` came with no move after it (all moves are searched, and said).
    pub search_moves_empty: bool,
}

/// What `query` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is the game over?
    GameOver,
    /// Is it p1's (South's) turn?
    P1Turn,
    /// The game's result.
    Result,
    /// Which player the winner of Mangala IV's odd/even guess should choose to be.
    Side,
}

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`.
    Uci,
    /// `ugi`.
    Ugi,
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (case is kept; matching is case-insensitive).
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `ucinewgame` / `uginewgame`.
    NewGame,
    /// `position startpos|fen ... [moves ...]`.
    Position {
        /// Where it starts.
        start: StartSpec,
        /// The moves to play, as written.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: draw the board.
    Display,
    /// `eval`: the static evaluation.
    Eval,
    /// `query ...`.
    Query(Query),
    /// `perft <depth>`.
    Perft(u64),
    /// `bench [depth]`.
    Bench(Option<u64>),
    /// `help`: a short list of the commands.
    Help,
    /// An empty line: ignored.
    Empty,
}

/// A line that is not a valid command. The message is what follows `info string error: `.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// The command is known but its arguments are wrong.
    #[error("{command}: {reason}")]
    Malformed {
        /// The command word.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

type Res<'a, T> = IResult<&'a str, T>;

fn word(input: &str) -> Res<'_, &str> {
    take_till1(char::is_whitespace)(input)
}

fn keyword<'a>(name: &'static str) -> impl FnMut(&'a str) -> Res<'a, &'a str> {
    verify(word, move |w: &str| w.eq_ignore_ascii_case(name))
}

fn words(input: &str) -> Res<'_, Vec<&str>> {
    many0(preceded(multispace0, word))(input)
}

fn malformed(command: &'static str, reason: impl Into<String>) -> CommandError {
    CommandError::Malformed {
        command,
        reason: reason.into(),
    }
}

/// Parses one line. Leading and trailing white space is ignored; keywords are
/// case-insensitive.
///
/// ```
/// use tuzdik::protocol::command::{parse, Command, StartSpec};
/// assert_eq!(
///     parse("position startpos moves 7 87(10)"),
///     Ok(Command::Position { start: StartSpec::Startpos, moves: vec!["7".into(), "87(10)".into()] })
/// );
/// assert!(parse("jump").is_err());
/// ```
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let Ok((args, head)) = terminated(word, multispace0)(line) else {
        return Ok(Command::Empty);
    };
    let simple = |command: Command, name: &'static str| {
        if args.is_empty() {
            Ok(command)
        } else {
            Err(malformed(name, format!("takes no arguments, got '{args}'")))
        }
    };
    match head.to_ascii_lowercase().as_str() {
        "uci" => simple(Command::Uci, "uci"),
        "ugi" => simple(Command::Ugi, "ugi"),
        "isready" => simple(Command::IsReady, "isready"),
        "ucinewgame" | "uginewgame" => simple(Command::NewGame, "ucinewgame"),
        "stop" => simple(Command::Stop, "stop"),
        "ponderhit" => simple(Command::PonderHit, "ponderhit"),
        "quit" => simple(Command::Quit, "quit"),
        "d" => simple(Command::Display, "d"),
        "eval" => simple(Command::Eval, "eval"),
        "help" => simple(Command::Help, "help"),
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args).map(Command::Go),
        "query" => parse_query(args),
        "perft" => match parse_count(args) {
            Some(Some(depth)) => Ok(Command::Perft(depth)),
            _ => Err(malformed("perft", "expected one depth, e.g. 'perft 6'")),
        },
        "bench" => match parse_count(args) {
            Some(depth) => Ok(Command::Bench(depth)),
            None => Err(malformed(
                "bench",
                "expected at most one depth, e.g. 'bench 12'",
            )),
        },
        _ => Err(CommandError::Unknown(head.to_string())),
    }
}

/// `Some(None)` for no argument, `Some(Some(n))` for one number, `None` otherwise.
fn parse_count(args: &str) -> Option<Option<u64>> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    match tokens.as_slice() {
        [] => Some(None),
        [n] => n.parse().ok().map(Some),
        _ => None,
    }
}

fn parse_setoption(args: &str) -> Result<Command, CommandError> {
    // `name <words...> [value <rest>]`: the name may contain spaces ("Move Overhead").
    let name_part = preceded(pair(keyword("name"), multispace1), rest);
    let Ok((_, body)) = all_consuming(name_part)(args) else {
        return Err(malformed(
            "setoption",
            "expected 'setoption name <name> [value <value>]'",
        ));
    };
    let tokens: Vec<&str> = body.split_whitespace().collect();
    let split = tokens.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name_tokens, value) = match split {
        Some(at) => (&tokens[..at], Some(tokens[at + 1..].join(" "))),
        None => (&tokens[..], None),
    };
    if name_tokens.is_empty() {
        return Err(malformed("setoption", "the option name is missing"));
    }
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

fn parse_position(args: &str) -> Result<Command, CommandError> {
    let startpos = value(StartSpec::Startpos, keyword("startpos"));
    let random = map_res(
        preceded(pair(keyword("random"), multispace1), word),
        |seed: &str| seed.parse().map(StartSpec::Random),
    );
    let fen = map(
        preceded(pair(keyword("fen"), multispace1), take_till1_before_moves),
        |text: &str| StartSpec::Fen(text.trim().to_string()),
    );
    let moves = opt(preceded(pair(multispace0, keyword("moves")), words));
    let mut parser = all_consuming(terminated(
        pair(alt((startpos, random, fen)), moves),
        multispace0,
    ));
    match parser(args) {
        Ok((_, (start, moves))) => Ok(Command::Position {
            start,
            moves: moves
                .unwrap_or_default()
                .into_iter()
                .map(str::to_string)
                .collect(),
        }),
        Err(_) => Err(random_seed_error(args).unwrap_or_else(|| {
            malformed(
                "position",
                "expected 'position startpos [moves ...]', 'position fen <position> [moves ...]' or 'position random <seed> [moves ...]'",
            )
        })),
    }
}

/// Why a refused `position random ...` was refused, when it is its seed.
fn random_seed_error(args: &str) -> Option<CommandError> {
    let mut tokens = args.split_whitespace();
    if !tokens.next()?.eq_ignore_ascii_case("random") {
        return None;
    }
    match tokens.next() {
        None => Some(malformed("position", "random: the seed is missing")),
        Some(seed) if seed.parse::<u64>().is_err() => Some(malformed(
            "position",
            format!(
                "random: the seed must be a whole number from 0 to {}, not '{seed}'",
                u64::MAX
            ),
        )),
        Some(_) => None,
    }
}

/// Everything up to the word `moves` (or the end of the line).
fn take_till1_before_moves(input: &str) -> Res<'_, &str> {
    let mut end = input.len();
    let mut offset = 0;
    for token in input.split_whitespace() {
        let at = input[offset..].find(token).map_or(offset, |i| offset + i);
        if token.eq_ignore_ascii_case("moves") {
            end = at;
            break;
        }
        offset = at + token.len();
    }
    let taken = input[..end].trim_end();
    if taken.is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::TakeTill1,
        )));
    }
    Ok((&input[taken.len()..], taken))
}

fn parse_go(args: &str) -> Result<GoParams, CommandError> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    let mut params = GoParams::default();
    let mut index = 0;
    while index < tokens.len() {
        let key = tokens[index].to_ascii_lowercase();
        index += 1;
        let mut time = |slot: &mut Option<i64>, name: &'static str| -> Result<(), CommandError> {
            let text = tokens
                .get(index)
                .ok_or_else(|| malformed("go", format!("{name} needs a value")))?;
            index += 1;
            *slot = Some(parse_time(text).ok_or_else(|| {
                malformed(
                    "go",
                    format!("{name} '{text}' is not a number of milliseconds"),
                )
            })?);
            Ok(())
        };
        match key.as_str() {
            "wtime" | "p1time" => time(&mut params.south_time, "wtime")?,
            "btime" | "p2time" => time(&mut params.north_time, "btime")?,
            "winc" | "p1inc" => time(&mut params.south_inc, "winc")?,
            "binc" | "p2inc" => time(&mut params.north_inc, "binc")?,
            "movetime" => time(&mut params.move_time, "movetime")?,
            "movestogo" | "depth" | "nodes" | "mate" => {
                let name: &'static str = match key.as_str() {
                    "movestogo" => "movestogo",
                    "depth" => "depth",
                    "nodes" => "nodes",
                    _ => "mate",
                };
                let text = tokens
                    .get(index)
                    .ok_or_else(|| malformed("go", format!("{name} needs a value")))?;
                index += 1;
                let n = parse_count_value(text).ok_or_else(|| {
                    malformed("go", format!("{name} '{text}' is not a whole number"))
                })?;
                match name {
                    "movestogo" => params.moves_to_go = Some(n),
                    "depth" => params.depth = Some(n),
                    "nodes" => params.nodes = Some(n),
                    _ => params.mate = Some(n),
                }
            }
            "infinite" => params.infinite = true,
            "ponder" => params.ponder = true,
            "searchmoves" => {
                while index < tokens.len() && !is_go_keyword(tokens[index]) {
                    params.search_moves.push(tokens[index].to_string());
                    index += 1;
                }
                params.search_moves_empty = params.search_moves.is_empty();
            }
            _ => {
                return Err(malformed(
                    "go",
                    format!("unknown limit '{}'", tokens[index - 1]),
                ));
            }
        }
    }
    Ok(params)
}

fn is_go_keyword(token: &str) -> bool {
    const KEYWORDS: [&str; 16] = [
        "wtime",
        "btime",
        "winc",
        "binc",
        "p1time",
        "p2time",
        "p1inc",
        "p2inc",
        "movetime",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
    ];
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(token))
}

/// Milliseconds; negative values are kept (the clock may be overdrawn) and huge ones clamp.
fn parse_time(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

/// A whole number; huge values clamp to `u64::MAX`.
fn parse_count_value(text: &str) -> Option<u64> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

fn parse_query(args: &str) -> Result<Command, CommandError> {
    match args.trim().to_ascii_lowercase().as_str() {
        "gameover" => Ok(Command::Query(Query::GameOver)),
        "p1turn" => Ok(Command::Query(Query::P1Turn)),
        "result" => Ok(Command::Query(Query::Result)),
        "side" => Ok(Command::Query(Query::Side)),
        other => Err(malformed(
            "query",
            format!("unknown query '{other}' (expected gameover, p1turn, result or side)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn setoption_names_may_have_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert!(parse("setoption Hash 3").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn position_with_fen_and_moves() {
        assert_eq!(
            parse("position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1 moves 7 8"),
            Ok(Command::Position {
                start: StartSpec::Fen("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1".into()),
                moves: vec!["7".into(), "8".into()]
            })
        );
        assert_eq!(
            parse("POSITION STARTPOS"),
            Ok(Command::Position {
                start: StartSpec::Startpos,
                moves: vec![]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position fen moves 7").is_err());
        assert!(parse("position startpos 7").is_err());
        assert_eq!(
            parse("position random 42 moves 1"),
            Ok(Command::Position {
                start: StartSpec::Random(42),
                moves: vec!["1".into()]
            })
        );
        for (line, named) in [
            ("position random", "the seed is missing"),
            ("position random moves 1", "not 'moves'"),
            ("position random -3", "not '-3'"),
            ("position random abc", "not 'abc'"),
            (
                "position random 18446744073709551616",
                "not '18446744073709551616'",
            ),
        ] {
            let error = parse(line).unwrap_err().to_string();
            assert!(error.contains(named), "{line}: {error}");
        }
        assert_eq!(
            parse("position random 18446744073709551615"),
            Ok(Command::Position {
                start: StartSpec::Random(u64::MAX),
                moves: vec![]
            })
        );
    }

    #[test]
    fn go_takes_any_subset() {
        let go = parse("go wtime 1000 btime -5 winc 10 binc 10 movestogo 5 depth 9 nodes 100 movetime 50 mate 3 infinite ponder searchmoves 1 2").unwrap();
        let Command::Go(params) = go else { panic!() };
        assert_eq!(params.south_time, Some(1000));
        assert_eq!(params.north_time, Some(-5));
        assert_eq!(params.search_moves, vec!["1", "2"]);
        assert!(params.infinite && params.ponder);
        let Command::Go(params) = parse("go p1time 5 p2time 6 p1inc 1 p2inc 2").unwrap() else {
            panic!()
        };
        assert_eq!((params.south_time, params.north_inc), (Some(5), Some(2)));
        assert_eq!(parse("go"), Ok(Command::Go(GoParams::default())));
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go wibble 3").is_err());
        let Command::Go(params) = parse("go depth 3 searchmoves").unwrap() else {
            panic!()
        };
        assert!(params.search_moves.is_empty() && params.search_moves_empty);
        assert_eq!(params.depth, Some(3));
        let Command::Go(params) = parse("go searchmoves depth 3").unwrap() else {
            panic!()
        };
        assert!(params.search_moves_empty);
        let Command::Go(params) = parse("go nodes 99999999999999999999999").unwrap() else {
            panic!()
        };
        assert_eq!(params.nodes, Some(u64::MAX));
    }

    #[test]
    fn unknown_and_malformed_lines_are_errors() {
        assert_eq!(parse("hello"), Err(CommandError::Unknown("hello".into())));
        assert!(parse("isready now").is_err());
        assert!(parse("perft").is_err());
        assert!(parse("perft -1").is_err());
        assert!(parse("query colour").is_err());
        assert_eq!(parse("   "), Ok(Command::Empty));
        assert_eq!(parse("bench"), Ok(Command::Bench(None)));
        assert_eq!(parse("HELP"), Ok(Command::Help));
        assert!(parse("help me").is_err());
    }

    proptest! {
        #[test]
        fn any_line_parses_or_fails_cleanly(line in ".{0,200}") {
            let _ = parse(&line);
        }

        #[test]
        fn command_like_lines_parse_or_fail_cleanly(
            head in prop::sample::select(vec!["go", "position", "setoption", "perft", "query", "bench", "d"]),
            tail in "[ a-z0-9,/\\-()X]{0,80}"
        ) {
            let _ = parse(&format!("{head} {tail}"));
        }
    }
}
