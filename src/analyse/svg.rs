//! `analyse --svg DIR`: pictures a person can open in any browser, drawn here as SVG text (no
//! plotting runtime): per game an evaluation graph (`game-001-graph.svg`) and a board diagram
//! at every flagged move (`game-001-ply-023.svg`, the position before the move).

use std::fmt::Write;
use std::path::Path;

use super::{AnalysedGame, AnalysedMove, Class};
use crate::interactive::show;
use crate::position::{Position, Side};

/// Colours of the marks, as lichess's (yellow, orange, red).
fn colour(class: Class) -> &'static str {
    match class {
        Class::Inaccuracy => "#d4a800",
        Class::Mistake => "#e07000",
        Class::Blunder => "#d0021b",
    }
}

/// Text made safe for XML's character data and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 allows no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn open(width: u32, height: u32, title: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"sans-serif\">\n<title>{}</title>\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n",
        escape(title)
    )
}

fn text(out: &mut String, x: f64, y: f64, size: u32, anchor: &str, content: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{anchor}\">{}</text>",
        escape(content)
    );
}

/// A rounded rectangle.
struct Rect {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    radius: u32,
    fill: &'static str,
    stroke: &'static str,
    stroke_width: u32,
}

fn rect(out: &mut String, r: Rect) {
    let _ = writeln!(
        out,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"{}\" fill=\"{}\" \
         stroke=\"{}\" stroke-width=\"{}\"/>",
        r.x, r.y, r.width, r.height, r.radius, r.fill, r.stroke, r.stroke_width
    );
}

/// The players as the record names them: `Alice (South) - Bob (North)`.
fn players(game: &AnalysedGame) -> String {
    let name = |tag: &str| game.record.tag(tag).unwrap_or("?").to_string();
    format!("{} (South) - {} (North)", name("White"), name("Black"))
}

/// South's win expectation over the game, one point per ply, with the flagged moves marked.
pub(crate) fn graph(game: &AnalysedGame) -> String {
    const WIDTH: u32 = 760;
    const HEIGHT: u32 = 300;
    let (left, right, top, bottom) = (60.0, 20.0, 40.0, 40.0);
    let plot_width = f64::from(WIDTH) - left - right;
    let plot_height = f64::from(HEIGHT) - top - bottom;
    let values = game.south_expectations();
    let plies = (values.len() - 1).max(1) as f64;
    let x = |ply: usize| left + plot_width * ply as f64 / plies;
    let y = |value: f64| top + plot_height * (1.0 - value.clamp(0.0, 1.0));
    let title = format!("Game {}: {}", game.number, players(game));
    let mut out = open(WIDTH, HEIGHT, &title);
    text(&mut out, left, 24.0, 15, "start", &title);
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{plot_width}\" height=\"{plot_height}\" \
         fill=\"#3a3a3a\"/>"
    );
    // South's share in white under the curve, North's dark above it.
    let mut area = format!("M {:.1} {:.1}", x(0), y(0.0));
    for (ply, &value) in values.iter().enumerate() {
        let _ = write!(area, " L {:.1} {:.1}", x(ply), y(value));
    }
    let _ = write!(area, " L {:.1} {:.1} Z", x(values.len() - 1), y(0.0));
    let _ = writeln!(out, "<path d=\"{area}\" fill=\"#f4f4f4\" stroke=\"none\"/>");
    for (value, label) in [
        (0.0, "0%"),
        (0.25, "25%"),
        (0.5, "50%"),
        (0.75, "75%"),
        (1.0, "100%"),
    ] {
        let _ = writeln!(
            out,
            "<line x1=\"{left}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#888888\" \
             stroke-width=\"{}\" stroke-dasharray=\"4 3\"/>",
            y(value),
            left + plot_width,
            y(value),
            if value == 0.5 { 1.5 } else { 0.5 }
        );
        text(&mut out, left - 6.0, y(value) + 4.0, 11, "end", label);
    }
    let step = [5, 10, 20, 50, 100]
        .into_iter()
        .find(|step| plies / f64::from(*step) <= 12.0)
        .unwrap_or(200) as usize;
    for ply in (0..values.len()).step_by(step) {
        text(
            &mut out,
            x(ply),
            top + plot_height + 16.0,
            11,
            "middle",
            &ply.to_string(),
        );
    }
    text(
        &mut out,
        left + plot_width / 2.0,
        f64::from(HEIGHT) - 6.0,
        12,
        "middle",
        "ply (South's win expectation: white below the line, North's dark above)",
    );
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(ply, &value)| format!("{:.1},{:.1}", x(ply), y(value)))
        .collect();
    let _ = writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>",
        points.join(" ")
    );
    for (index, mv) in game.moves.iter().enumerate() {
        if let Some(class) = mv.class {
            let ply = index + 1;
            let _ = writeln!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{}\" stroke=\"#000000\" \
                 stroke-width=\"0.8\"><title>{}</title></circle>",
                x(ply),
                y(values[ply]),
                colour(class),
                escape(&format!(
                    "ply {ply}: {} {}, {} ({:.0}% lost)",
                    mv.mover,
                    mv.played,
                    class.name(),
                    mv.loss * 100.0
                ))
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The hole a move is played from, if the text is a legal move there.
fn source_hole(pos: &Position, text: Option<&str>) -> Option<usize> {
    let mv = pos.parse_move(text?).ok()?;
    pos.is_legal(mv).then_some(())?;
    mv.source().map(usize::from)
}

/// The position before a flagged move, from South's side of the board: North's row on top
/// (holes N..1 from the left, as it faces North), the kazans between the rows, South's row
/// below (1..N). The hole played from is ringed in the mark's colour, the engine's choice in
/// green; a tuzdik is dark with an X.
pub(crate) fn board(pos: &Position, ply: usize, mv: &AnalysedMove) -> String {
    const CELL: f64 = 64.0;
    const MARGIN: f64 = 40.0;
    let holes = pos.variant().holes_per_side();
    let width = (2.0 * MARGIN + CELL * holes as f64) as u32;
    let (title_height, row_height, kazan_height) = (56.0, CELL, 44.0);
    let north_top = title_height + 22.0;
    let kazans_top = north_top + row_height + 8.0;
    let south_top = kazans_top + 2.0 * kazan_height + 8.0;
    let height = (south_top + row_height + 60.0) as u32;
    let class = mv.class.map_or("move", Class::name);
    let article = if class.starts_with('i') { "an" } else { "a" };
    let best = mv.lines.first();
    let headline = format!(
        "Ply {ply}: {} played {} ({} for South after it), {article} {class}: {:.0}% of \
         winning chances lost",
        mv.mover,
        mv.played,
        show(mv.score),
        mv.loss * 100.0
    );
    let mut out = open(width, height, &headline);
    text(&mut out, MARGIN, 22.0, 15, "start", &headline);
    if let Some(line) = best {
        let first = line.pv.first().map_or("", String::as_str);
        text(
            &mut out,
            MARGIN,
            42.0,
            13,
            "start",
            &format!(
                "Best was {first} ({}), line {}",
                show(line.score),
                line.pv
                    .iter()
                    .take(8)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        );
    }
    let played = source_hole(pos, Some(&mv.played));
    let chosen = source_hole(
        pos,
        best.and_then(|line| line.pv.first()).map(String::as_str),
    )
    .filter(|&hole| Some(hole) != played);
    let mover = pos.side_to_move();
    let store = if pos.variant().is_mangala() {
        "captured"
    } else {
        "kazan"
    };
    rect(
        &mut out,
        Rect {
            x: MARGIN - 10.0,
            y: north_top - 8.0,
            width: CELL * holes as f64 + 20.0,
            height: south_top + row_height + 16.0 - north_top,
            radius: 12,
            fill: "#c8945a",
            stroke: "#6b4423",
            stroke_width: 2,
        },
    );
    for side in [Side::North, Side::South] {
        let row_top = if side == Side::North {
            north_top
        } else {
            south_top
        };
        for hole in 1..=holes {
            let column = if side == Side::North {
                holes - hole
            } else {
                hole - 1
            };
            let x = MARGIN + CELL * column as f64;
            let tuzdik = pos.is_tuzdik(side, hole);
            let ring = if side != mover {
                None
            } else if Some(hole) == played {
                Some(mv.class.map_or("#000000", colour))
            } else if Some(hole) == chosen {
                Some("#1a9c3a")
            } else {
                None
            };
            rect(
                &mut out,
                Rect {
                    x: x + 4.0,
                    y: row_top + 4.0,
                    width: CELL - 8.0,
                    height: row_height - 8.0,
                    radius: 10,
                    fill: if tuzdik { "#4a2c12" } else { "#f3e2c4" },
                    stroke: ring.unwrap_or("#6b4423"),
                    stroke_width: if ring.is_some() { 4 } else { 1 },
                },
            );
            let centre = x + CELL / 2.0;
            let count = pos.stones(side, hole).to_string();
            let middle = row_top + row_height / 2.0 + 8.0;
            text(
                &mut out,
                centre,
                middle,
                22,
                "middle",
                if tuzdik { "X" } else { &count },
            );
            if tuzdik {
                let _ = writeln!(
                    out,
                    "<text x=\"{centre:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\" \
                     fill=\"#f3e2c4\">tuzdik</text>",
                    row_top + row_height - 10.0
                );
            }
            let label_y = if side == Side::North {
                row_top - 12.0
            } else {
                row_top + row_height + 24.0
            };
            text(&mut out, centre, label_y, 11, "middle", &hole.to_string());
        }
    }
    for (index, side) in [Side::North, Side::South].into_iter().enumerate() {
        let y = kazans_top + kazan_height * index as f64;
        let tuzdik = pos
            .tuzdik(side)
            .map(|hole| format!(", tuzdik on {}'s hole {hole}", side.opponent()))
            .unwrap_or_default();
        rect(
            &mut out,
            Rect {
                x: MARGIN + 4.0,
                y: y + 2.0,
                width: CELL * holes as f64 - 8.0,
                height: kazan_height - 4.0,
                radius: 8,
                fill: "#e8cfa4",
                stroke: "#6b4423",
                stroke_width: 1,
            },
        );
        text(
            &mut out,
            MARGIN + CELL * holes as f64 / 2.0,
            y + kazan_height / 2.0 + 5.0,
            14,
            "middle",
            &format!("{side}'s {store}: {}{tuzdik}", pos.kazan(side)),
        );
    }
    let legend = format!(
        "{mover} to move. Ringed: the hole played from{}.",
        if chosen.is_some() {
            " and, in green, the engine's choice"
        } else {
            ""
        }
    );
    text(
        &mut out,
        MARGIN,
        f64::from(height) - 10.0,
        12,
        "start",
        &legend,
    );
    out.push_str("</svg>\n");
    out
}

/// Writes a game's graph and its flagged moves' boards into `dir`.
pub(crate) fn write_game(dir: &Path, game: &AnalysedGame) -> std::io::Result<()> {
    let number = game.number;
    std::fs::write(dir.join(format!("game-{number:03}-graph.svg")), graph(game))?;
    for (index, mv) in game.moves.iter().enumerate() {
        if mv.class.is_some() {
            let ply = index + 1;
            let picture = board(&game.game.positions()[index], ply, mv);
            std::fs::write(
                dir.join(format!("game-{number:03}-ply-{ply:03}.svg")),
                picture,
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::ShownLine;
    use crate::game::Game;
    use crate::interactive::Eval;
    use crate::record::Record;
    use crate::rng::SplitMix;
    use crate::search::Score;
    use crate::{Family, Variant};

    /// A game of random moves that reaches a position with as many tuzdiks as the variant
    /// allows (none in Mangala), stopped there.
    fn game_with_tuzdiks(variant: Variant, seed: u64) -> Game {
        let wanted = if variant.tuzdik() { 2 } else { 0 };
        let mut rng = SplitMix::new(seed);
        for _ in 0..2_000 {
            let mut game = Game::new(variant);
            while game.termination().is_none() {
                let pos = game.position();
                let owned = Side::BOTH
                    .into_iter()
                    .filter(|&side| pos.tuzdik(side).is_some())
                    .count();
                if owned == wanted && game.moves().len() >= 6 {
                    return game;
                }
                let moves = game.legal_moves();
                let mv = moves[rng.below(moves.len())];
                game.try_play(mv).unwrap();
            }
        }
        panic!("no game of {variant} reached {wanted} tuzdiks");
    }

    fn flagged(pos: &Position, class: Class) -> AnalysedMove {
        let moves = pos.legal_moves();
        let text = |index: usize| pos.record_notation(moves[index % moves.len()]);
        let mut mv = AnalysedMove::blunder_sample(
            pos.side_to_move(),
            text(0),
            vec![ShownLine {
                pv: vec![text(1), "<&\"'>".into()],
                score: Eval::Search(Score::MatePlies(3)),
                wdl: [1000, 0, 0],
                expectation: 1.0,
            }],
        );
        mv.class = Some(class);
        mv
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"))
    }

    #[test]
    fn boards_are_well_formed_with_every_hole_kazan_and_tuzdik_of_each_variant() {
        let variants = [
            Variant::TOGYZ,
            Variant::new(Family::Kozdatu).with_tuzdik(true),
            Variant::new(Family::Bestemshchi).with_tuzdik(true),
            Variant::new(Family::Mangala4),
        ];
        for (seed, variant) in variants.into_iter().enumerate() {
            let game = game_with_tuzdiks(variant, seed as u64 + 1);
            let pos = *game.position();
            let mv = flagged(&pos, Class::Blunder);
            let svg = board(&pos, game.moves().len() + 1, &mv);
            let document = parse(&svg);
            let root = document.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            let n = variant.holes_per_side();
            let texts: Vec<String> = document
                .descendants()
                .filter(|node| node.has_tag_name("text"))
                .map(|node| node.text().unwrap_or_default().to_string())
                .collect();
            // 2N holes, two kazans and the board's frame.
            let rects = document.descendants().filter(|n| n.has_tag_name("rect"));
            assert_eq!(rects.count(), 1 + 1 + 2 * n + 2, "{variant}");
            let tuzdiks = texts.iter().filter(|text| text.as_str() == "X").count();
            assert_eq!(tuzdiks, if variant.tuzdik() { 2 } else { 0 }, "{variant}");
            for side in Side::BOTH {
                let kazan = format!("{side}'s ");
                let line = texts.iter().find(|text| text.starts_with(&kazan)).unwrap();
                assert!(line.contains(&pos.kazan(side).to_string()), "{line}");
            }
            // Hole numbers 1..N under and over the rows.
            for hole in 1..=n {
                let label = hole.to_string();
                assert!(texts.iter().filter(|text| **text == label).count() >= 2);
            }
            assert!(texts.iter().any(|text| text.contains("<&\"'>")));
            assert!(
                svg.contains(colour(Class::Blunder)),
                "the played hole is ringed"
            );
        }
    }

    #[test]
    fn the_graph_has_a_point_per_ply_and_a_mark_per_slip() {
        let game = game_with_tuzdiks(Variant::TOGYZ, 9);
        let mut record = Record::from_game(&game, &[("White", "A & <B>".to_string())], None);
        record.line = 1;
        let positions = game.positions();
        let moves = (0..game.moves().len())
            .map(|ply| {
                let mut mv = flagged(&positions[ply], Class::Mistake);
                mv.class = [None, Some(Class::Mistake)][ply % 2];
                mv.expectation_after = ply as f64 / game.moves().len() as f64;
                mv
            })
            .collect::<Vec<_>>();
        let marks = moves.iter().filter(|mv| mv.class.is_some()).count();
        let analysed = AnalysedGame {
            number: 3,
            record,
            game: game.clone(),
            start_expectation: 0.5,
            moves,
        };
        let svg = graph(&analysed);
        let document = parse(&svg);
        let polyline = document
            .descendants()
            .find(|node| node.has_tag_name("polyline"))
            .unwrap();
        let points = polyline.attribute("points").unwrap().split(' ').count();
        assert_eq!(points, game.moves().len() + 1);
        let circles = document.descendants().filter(|n| n.has_tag_name("circle"));
        assert_eq!(circles.count(), marks);
        assert!(svg.contains("A &amp; &lt;B&gt; (South)"));
    }
}
