//! The board as text, for people: `tuzdik play` and the protocol's `d` draw it alike.

use crate::game::Game;
use crate::position::Side;

/// The board for a player: the opponent's row on top (read right to left, as it faces
/// them), their own row below numbered 1..N from the left, the kazans beside each row, the
/// hole the last move was played from in `[ ]` and where its last stone fell in `( )`. Each
/// row is labelled with its player's name from `names` (by side) and side, or the side alone
/// for an empty name.
///
/// ```
/// use tuzdik::{Game, Side, Variant};
/// let mut game = Game::new(Variant::TOGYZ);
/// game.play_text("87(10)").unwrap();
/// let lines = tuzdik::diagram::board(&game, Side::South, ["You", ""]);
/// assert_eq!(lines[0], "  North");
/// assert!(lines[3].contains("(  0)")); // North's hole 7, where the last stone fell
/// assert!(lines[5].contains("[  1]")); // South's hole 8, played from
/// assert_eq!(lines[8], "  You (South)");
/// ```
pub fn board(game: &Game, bottom: Side, names: [&str; 2]) -> Vec<String> {
    let pos = game.position();
    let n = pos.variant().holes_per_side();
    let top = bottom.opponent();
    let last = game.moves().last().copied().and_then(|mv| {
        let before = game.positions()[game.positions().len() - 2];
        let mover = before.side_to_move();
        let effect = before.effect_of(mv);
        mv.source()
            .map(|from| (before, mv, mover, usize::from(from), effect))
    });
    let cell = |side: Side, hole: usize| -> String {
        let inner = if pos.is_tuzdik(side, hole) {
            " X ".to_string()
        } else {
            format!("{:>3}", pos.stones(side, hole))
        };
        match last {
            Some((_, _, mover, from, _)) if mover == side && from == hole => format!("[{inner}]"),
            Some((_, _, _, _, effect))
                if effect.landing_side == side && usize::from(effect.landing_hole) == hole =>
            {
                format!("({inner})")
            }
            _ => format!(" {inner} "),
        }
    };
    // Mangala IV has no kazans: the fields hold what each player has captured.
    let store = if pos.variant().is_mangala() {
        "captured"
    } else {
        "kazan"
    };
    let border = format!("   +{}", "-----+".repeat(n));
    let top_holes: Vec<usize> = (1..=n).rev().collect();
    let bottom_holes: Vec<usize> = (1..=n).collect();
    let numbers = |holes: &[usize]| -> String {
        let text: String = holes.iter().map(|h| format!("{h:>4}  ")).collect();
        format!("   {}", text.trim_end())
    };
    let row = |side: Side, holes: &[usize]| -> String {
        let cells: String = holes.iter().map(|&h| cell(side, h) + "|").collect();
        format!("   |{cells}   {store} {:>3}", pos.kazan(side))
    };
    let label = |side: Side| match names[side.index()] {
        "" => format!("  {side}"),
        name => format!("  {name} ({side})"),
    };
    let mut lines = vec![
        label(top),
        numbers(&top_holes),
        border.clone(),
        row(top, &top_holes),
        border.clone(),
        row(bottom, &bottom_holes),
        border,
        numbers(&bottom_holes),
        label(bottom),
    ];
    for owner in Side::BOTH {
        if let Some(hole) = pos.tuzdik(owner) {
            lines.push(format!(
                "  Tuzdik (X): {owner} owns {}'s hole {hole}; its stones go to {owner}'s kazan.",
                owner.opponent()
            ));
        }
    }
    if let Some((before, mv, mover, from, effect)) = last {
        let mut text = format!(
            "  Last move: {mover} played hole {from} ({}): the last stone fell in {}'s hole {}",
            before.record_notation(mv),
            effect.landing_side,
            effect.landing_hole
        );
        if effect.made_tuzdik {
            text.push_str(", which became a tuzdik");
        } else if effect.captured > 0 {
            text.push_str(&format!(", capturing {}", effect.captured));
        }
        lines.push(text + ".");
        lines.push("  [ ] = played from, ( ) = where the last stone fell".to_string());
    }
    lines
}
