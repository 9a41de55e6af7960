//! The one small pseudo-random generator of the crate (SplitMix64): fixed, so that a seed
//! gives the same openings, samples and games on every machine and in every build. The
//! Zobrist keys are drawn from the same sequence at compile time.

/// One SplitMix64 step: the next state and the well-mixed value drawn from it.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// A SplitMix64 generator.
///
/// ```
/// use tuzdik::rng::SplitMix;
/// let (mut a, mut b) = (SplitMix::new(7), SplitMix::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = splitmix64(self.0);
        self.0 = state;
        value
    }

    /// A number in `0..bound` (`bound > 0`; 0 for a bound of 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound.max(1) as u64) as usize
    }
}
