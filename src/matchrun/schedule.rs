//! Which games a match or tournament plays, in a fixed order that every process computes
//! alike: the game number alone gives the two engines, the colours, the opening and the
//! colour-swapped pair the game belongs to. That is what lets `--resume` skip the games a
//! PGN holds and a cluster driver hand out pairs by number.

/// How the encounters are formed from the engines.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePlan {
    /// The game number, from 0 (the PGN's Round tag is one more).
    pub index: u64,
    /// The encounter (index into [`Schedule::encounters`]).
    pub encounter: usize,
    /// The colour-swapped pair the game belongs to, numbered over the whole schedule (with
    /// `--noswap` every game is its own).
    pub pair: u64,
    /// Engines `[South, North]`.
    pub seats: [usize; 2],
    /// Whether the encounter's first engine plays South.
    pub first_is_south: bool,
    /// The opening, as an index into the book.
    pub opening: usize,
}

/// The schedule.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The pairs of engines that meet, `(first, second)`.
    pub encounters: Vec<(usize, usize)>,
    /// Rounds: every encounter is played once per round.
    pub rounds: u64,
    /// Games per encounter per round (`u64::MAX`: unbounded, one encounter only).
    pub games: u64,
    /// Games come in colour-swapped pairs on one opening.
    pub paired: bool,
    /// The book's order (indices into the book).
    pub order: Vec<usize>,
    /// The first position of `order` used.
    pub start: usize,
}

impl Schedule {
    /// The encounters of `engines` engines.
    ///
    /// ```
    /// use tuzdik::matchrun::schedule::{Schedule, Tournament};
    /// assert_eq!(Schedule::encounters_of(3, Tournament::Gauntlet), vec![(0, 1), (0, 2)]);
    /// assert_eq!(Schedule::encounters_of(3, Tournament::RoundRobin).len(), 3);
    /// ```
    pub fn encounters_of(engines: usize, tournament: Tournament) -> Vec<(usize, usize)> {
        match tournament {
            Tournament::Gauntlet => (1..engines).map(|i| (0, i)).collect(),
            Tournament::RoundRobin => (0..engines)
                .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
                .collect(),
        }
    }

    /// Games in the whole schedule (`None` when unbounded).
    pub fn total(&self) -> Option<u64> {
        if self.games == u64::MAX {
            return None;
        }
        (self.encounters.len() as u64)
            .checked_mul(self.games)?
            .checked_mul(self.rounds)
    }

    /// The game numbered `index` (below [`total`](Self::total)).
    pub fn plan(&self, index: u64) -> GamePlan {
        let (round, encounter, k) = if self.games == u64::MAX {
            (0, 0, index)
        } else {
            let per_round = self.encounters.len() as u64 * self.games;
            (
                index / per_round,
                ((index % per_round) / self.games) as usize,
                index % self.games,
            )
        };
        let block = round * self.encounters.len() as u64 + encounter as u64;
        let (pair, first_is_south) = if self.paired {
            let pairs_per_block = self.games.div_ceil(2);
            (block * pairs_per_block + k / 2, k % 2 == 0)
        } else {
            (block * self.games + k, true)
        };
        let (a, b) = self.encounters[encounter];
        let seats = if first_is_south { [a, b] } else { [b, a] };
        let opening = self.order[((self.start as u64 + pair) % self.order.len() as u64) as usize];
        GamePlan {
            index,
            encounter,
            pair,
            seats,
            first_is_south,
            opening,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn schedule(engines: usize, tournament: Tournament, rounds: u64, games: u64) -> Schedule {
        Schedule {
            encounters: Schedule::encounters_of(engines, tournament),
            rounds,
            games,
            paired: true,
            order: (0..7).collect(),
            start: 0,
        }
    }

    #[test]
    fn two_engines_keep_todays_order() {
        let s = schedule(2, Tournament::RoundRobin, 1, 6);
        let plans: Vec<_> = (0..6).map(|i| s.plan(i)).collect();
        assert_eq!(plans[0].seats, [0, 1]);
        assert_eq!(plans[1].seats, [1, 0]);
        assert_eq!(
            plans.iter().map(|p| p.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 2, 2]
        );
        let unbounded = schedule(2, Tournament::RoundRobin, 1, u64::MAX);
        assert_eq!(unbounded.total(), None);
        assert_eq!(unbounded.plan(5), s.plan(5));
    }

    proptest! {
        /// Every pair is one encounter on one opening with the colours swapped, and every
        /// engine of a round robin plays every other equally often.
        #[test]
        fn pairs_stay_whole(engines in 2usize..6, rounds in 1u64..4, half in 1u64..4,
                            gauntlet in any::<bool>()) {
            let tournament = if gauntlet { Tournament::Gauntlet } else { Tournament::RoundRobin };
            let s = schedule(engines, tournament, rounds, 2 * half);
            let total = s.total().unwrap();
            let mut meetings = std::collections::HashMap::new();
            for i in (0..total).step_by(2) {
                let (a, b) = (s.plan(i), s.plan(i + 1));
                prop_assert_eq!(a.pair, b.pair);
                prop_assert_eq!(a.opening, b.opening);
                prop_assert_eq!(a.seats, [b.seats[1], b.seats[0]]);
                let mut key = a.seats;
                key.sort();
                *meetings.entry(key).or_insert(0u64) += 2;
            }
            prop_assert_eq!(meetings.len(), s.encounters.len());
            prop_assert!(meetings.values().all(|&n| n == 2 * half * rounds));
        }
    }
}
