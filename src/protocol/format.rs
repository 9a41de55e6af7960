//! How moves, scores, `info` lines, `bestmove` and the board are written for the GUI.

use super::*;

/// How moves and scores are written for the GUI.
#[derive(Clone, Copy, Debug)]
pub(super) struct Style {
    pub(super) dialect: Dialect,
    pub(super) long_moves: bool,
    pub(super) show_wdl: bool,
}

impl Style {
    pub(super) fn moves_from(&self, root: &Position, moves: &[Move]) -> Vec<String> {
        let mut pos = *root;
        let mut written = Vec::with_capacity(moves.len());
        for &mv in moves {
            written.push(if self.long_moves {
                pos.long_notation(mv, false)
            } else {
                mv.to_string()
            });
            if pos.try_play(mv).is_err() {
                break;
            }
        }
        written
    }

    pub(super) fn score(&self, score: Score) -> String {
        match score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::MatePlies(plies) => match self.dialect {
                Dialect::Uci => format!("mate {}", Score::mate_moves(plies)),
                Dialect::Ugi => format!("mate {plies}"),
            },
        }
    }

    pub(super) fn report(&self, root: &Position, report: &Report) -> String {
        let millis = report.time.as_millis() as u64;
        let nps = report.nodes.saturating_mul(1000) / millis.max(1);
        let bound = match report.bound {
            Some(ScoreBound::Lower) => " lowerbound",
            Some(ScoreBound::Upper) => " upperbound",
            None => "",
        };
        let (score, [win, draw, loss]) = report.shown(root);
        let wdl = if self.show_wdl {
            format!(" wdl {win} {draw} {loss}")
        } else {
            String::new()
        };
        let mut line = format!(
            "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {nps} hashfull {} time {millis}",
            report.depth,
            report.seldepth,
            report.multipv,
            self.score(score),
            report.nodes,
            report.hashfull,
        );
        if let Some(hits) = report.tbhits {
            let at = line.find(" time ").unwrap_or(line.len());
            line.insert_str(at, &format!(" tbhits {hits}"));
        }
        if !report.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&self.moves_from(root, &report.pv).join(" "));
        }
        line
    }

    pub(super) fn info(&self, root: &Position, info: &Info) -> String {
        match info {
            Info::Line(report) => self.report(root, report),
            Info::CurrMove { depth, mv, number } => format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                self.moves_from(root, &[*mv]).join("")
            ),
        }
    }

    pub(super) fn bestmove(
        &self,
        root: &Position,
        best: Option<Move>,
        ponder: Option<Move>,
    ) -> String {
        let Some(best) = best else {
            return "bestmove 0000".to_string();
        };
        let moves = self.moves_from(root, &[best]);
        match (self.dialect, ponder) {
            (Dialect::Uci, Some(reply)) => {
                let both = self.moves_from(root, &[best, reply]);
                format!(
                    "bestmove {} ponder {}",
                    both[0],
                    both.get(1).map_or("", String::as_str)
                )
            }
            _ => format!("bestmove {}", moves[0]),
        }
    }
}

/// The board as `d` draws it: [`crate::diagram::board`] from South's side (North's row on
/// top, read right to left, so the sowing ring runs counter-clockwise on the screen), then a
/// line with the rules, whose move it is or how the game ended, and the fullmove number.
pub fn board_drawing(game: &Game) -> Vec<String> {
    let pos = game.position();
    let mover = pos.side_to_move();
    let mut lines = crate::diagram::board(game, Side::South, ["", ""]);
    let state = match game.termination() {
        Some(end) => format!(
            "game over: {} ({})",
            match game.status() {
                Status::Won(side) => format!("{side} wins"),
                _ => "draw".to_string(),
            },
            end.describe()
        ),
        None => format!("{mover} to move"),
    };
    lines.push(format!(
        "{}, {state}, fullmove {}",
        pos.variant(),
        game.fullmove()
    ));
    lines
}
