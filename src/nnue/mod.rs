//! A small, efficiently updatable neural evaluation (NNUE) for Toguz Kumalak: its inputs, its
//! quantised integer inference with SIMD, its file format, the training data format
//! ([`data`]), self-play data generation ([`datagen`]) and the trainer ([`train`]).
//!
//! The search evaluates Toguz Kumalak ([`supports`]) with the net built into the binary
//! ([`embedded`]) unless another one, or none (the hand-crafted evaluation), is set
//! ([`crate::Engine::set_network`], the protocol's `EvalFile`); see `docs/nnue.md`.
//!
//! The net: for each perspective (South's view, North's view) an accumulator of [`HIDDEN`]
//! sums over the active inputs ([`features`]); the side to move's accumulator and then the
//! opponent's, clipped to `0..=QA` (clipped ReLU), feed one output neuron.
//!
//! ```
//! use tuzdik::nnue::{Network, Accumulator};
//! use tuzdik::{Position, Variant};
//! let net = Network::seeded(7);
//! let pos = Position::start(Variant::TOGYZ);
//! let acc = Accumulator::refresh(&net, &pos);
//! assert_eq!(net.evaluate(&acc, &pos), net.evaluate_position(&pos));
//! ```

pub mod data;
pub mod datagen;
pub mod simd;
pub mod train;

use std::path::Path;

use thiserror::Error;

use crate::position::{Position, Side};
use crate::rng::SplitMix;
use crate::variant::Variant;

/// Holes in a row (Toguz Kumalak).
pub const HOLES: usize = 9;
/// Count buckets of a hole: counts 0..=15 each have their own, then 16–19, 20–24, 25–31, 32+.
pub const COUNT_BUCKETS: usize = 20;
/// Kazan buckets: `min(kazan, 81) / 4` (82 stones win).
pub const KAZAN_BUCKETS: usize = 21;
/// Input count: (hole, count bucket) for both rows, tuzdik positions for both players, kazan
/// buckets for both players.
pub const INPUTS: usize = 2 * HOLES * COUNT_BUCKETS + 2 * HOLES + 2 * KAZAN_BUCKETS;
/// Accumulator width of one perspective.
pub const HIDDEN: usize = 256;
/// Slots of a position's input set: one per hole, one per tuzdik, one per kazan. Each slot
/// holds at most one active input, which makes the incremental update a slot-wise diff.
pub const SLOTS: usize = 2 * HOLES + 2 + 2;
/// Quantisation of the accumulator (first layer weights and biases): 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 256;
/// Output units per stone-hundredth: `eval_cp = logit * EVAL_SCALE`.
pub const EVAL_SCALE: i32 = 400;
/// Net file magic.
pub const MAGIC: [u8; 4] = *b"TZNN";
/// Net file version.
pub const VERSION: u32 = 1;
/// Bytes of a net file's header.
pub const HEADER_BYTES: usize = 4 + 4 * 6 + 8;
/// Float weights are clipped to this during training, so the quantised sums cannot overflow.
pub const WEIGHT_CLIP: f32 = 1.98;

/// [`count_bucket`] of every count, for the search's updates.
static COUNT_BUCKET: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut count = 0;
    while count < 256 {
        table[count] = count_bucket(count as u8) as u8;
        count += 1;
    }
    table
};

/// The count bucket of a hole holding `count` stones.
pub const fn count_bucket(count: u8) -> usize {
    match count {
        0..=15 => count as usize,
        16..=19 => 16,
        20..=24 => 17,
        25..=31 => 18,
        _ => 19,
    }
}

/// The ring index (South's holes 0..9, North's 9..18) of `view`'s hole slot `slot` (0..18:
/// its own row first).
#[inline(always)]
fn ring_index(view: Side, slot: usize) -> usize {
    let index = slot + HOLES * view.index();
    if index >= 2 * HOLES {
        index - 2 * HOLES
    } else {
        index
    }
}

/// The ring indices of `pos`'s tuzdik holes (bit r).
#[inline(always)]
fn tuzdik_ring_mask(pos: &Position) -> u32 {
    let mut mask = 0;
    for owner in Side::BOTH {
        if let Some(hole) = pos.tuzdik(owner) {
            // A tuzdik lies on its owner's opponent's row.
            mask |= 1 << (HOLES * owner.opponent().index() + usize::from(hole) - 1);
        }
    }
    mask
}

/// [`slot_input`] for the search's updates: a hole slot's input from the ring and the
/// tuzdik holes worked out once per update.
#[inline(always)]
fn fast_slot_input(
    pos: &Position,
    ring: &[u8],
    tuzdiks: u32,
    view: Side,
    slot: usize,
) -> Option<u16> {
    if slot >= 2 * HOLES {
        return slot_input(pos, view, slot);
    }
    let index = ring_index(view, slot);
    if tuzdiks >> index & 1 != 0 {
        return None;
    }
    Some((slot * COUNT_BUCKETS) as u16 + u16::from(COUNT_BUCKET[usize::from(ring[index])]))
}

/// The active input of one slot of `pos` seen by `view`, or `None` (a tuzdik hole's count
/// slot, a tuzdik not made). See [`features`] for the slots.
#[inline]
pub fn slot_input(pos: &Position, view: Side, slot: usize) -> Option<u16> {
    let side_of = |index: usize| if index == 0 { view } else { view.opponent() };
    if slot < 2 * HOLES {
        let side = side_of(slot / HOLES);
        let hole = slot % HOLES;
        if pos.is_tuzdik(side, hole + 1) {
            return None;
        }
        let count = pos.ring()[ring_index(view, slot)];
        return Some((slot * COUNT_BUCKETS + count_bucket(count)) as u16);
    }
    let tuzdik_base = 2 * HOLES * COUNT_BUCKETS;
    if slot < 2 * HOLES + 2 {
        let index = slot - 2 * HOLES;
        let hole = pos.tuzdik(side_of(index))?;
        return Some((tuzdik_base + index * HOLES + usize::from(hole) - 1) as u16);
    }
    let index = slot - 2 * HOLES - 2;
    let kazan_base = tuzdik_base + 2 * HOLES;
    let bucket = pos.kazan(side_of(index)).min(81) as usize / 4;
    Some((kazan_base + index * KAZAN_BUCKETS + bucket) as u16)
}

/// The active inputs of `pos` seen by `view`, slot by slot (`None`: the slot is empty, as a
/// tuzdik hole's count slot or a missing tuzdik).
///
/// Slots 0..9 are `view`'s own holes 1..9, 9..18 the opponent's, 18 the tuzdik `view` owns,
/// 19 the opponent's, 20 `view`'s kazan, 21 the opponent's.
pub fn features(pos: &Position, view: Side) -> [Option<u16>; SLOTS] {
    std::array::from_fn(|slot| slot_input(pos, view, slot))
}

/// Why a net file was refused.
#[derive(Debug, Error)]
pub enum NetError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// Not a net file at all.
    #[error("not a tuzdik net file (its first bytes are not 'TZNN')")]
    Magic,
    /// A directory, a device or a pipe: nothing is read from it.
    #[error("{path} is not a regular file")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// A net of another version of the format.
    #[error("net file version {found}, this build reads version {VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// A net of another shape.
    #[error(
        "net shape {found_inputs}x{found_hidden} (QA {found_qa}, QB {found_qb}), this build needs {INPUTS}x{HIDDEN} (QA {QA}, QB {QB})"
    )]
    Shape {
        /// Inputs in the file.
        found_inputs: u32,
        /// Accumulator width in the file.
        found_hidden: u32,
        /// QA in the file.
        found_qa: u32,
        /// QB in the file.
        found_qb: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error("net file has {found} bytes, its shape needs {expected}")]
    Length {
        /// Bytes in the file.
        found: usize,
        /// Bytes the shape needs.
        expected: usize,
    },
    /// The weights do not match the header's hash: a damaged file.
    #[error("net file hash {found:016x} does not match its weights' hash {computed:016x}")]
    Hash {
        /// The hash in the header.
        found: u64,
        /// The hash of the weights read.
        computed: u64,
    },
}

/// A quantised net, ready for inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First layer weights, `INPUTS` rows of `HIDDEN`, scaled by `QA`.
    pub input_weights: Vec<i16>,
    /// First layer biases, scaled by `QA`.
    pub input_bias: Vec<i16>,
    /// Output weights: the side to move's `HIDDEN` then the opponent's, scaled by `QB`.
    pub output_weights: Vec<i16>,
    /// Output bias, scaled by `QA * QB`.
    pub output_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN}, hash {:016x})", self.hash())
    }
}

/// FNV-1a, 64 bits: small, fixed, enough to tell a damaged or different file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

impl Network {
    /// A net of small random weights (for tests and benchmarks; it plays nothing well).
    pub fn seeded(seed: u64) -> Network {
        let mut rng = SplitMix::new(seed);
        let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
        Network {
            input_weights: (0..INPUTS * HIDDEN).map(|_| small(200) as i16).collect(),
            input_bias: (0..HIDDEN).map(|_| small(100) as i16).collect(),
            output_weights: (0..2 * HIDDEN).map(|_| small(127) as i16).collect(),
            output_bias: small(10_000) as i32,
        }
    }

    /// The weights in file order (little-endian): what the hash covers.
    fn payload(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity((INPUTS * HIDDEN + 3 * HIDDEN) * 2 + 4);
        for value in self
            .input_weights
            .iter()
            .chain(&self.input_bias)
            .chain(&self.output_weights)
        {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        bytes
    }

    /// The net's hash (of its weights), as printed and stored in the file header.
    pub fn hash(&self) -> u64 {
        fnv1a(&self.payload())
    }

    /// The net as a file: header (magic, version, inputs, hidden, QA, QB, eval scale, hash)
    /// then the weights, all little-endian. See `docs/nnue.md`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
        bytes.extend_from_slice(&MAGIC);
        for field in [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            EVAL_SCALE as u32,
        ] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// Reads a net from its file bytes, checking magic, version, shape, length and hash.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 4 || bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(NetError::Length {
                found: bytes.len(),
                expected: HEADER_BYTES,
            });
        }
        let word = |i: usize| {
            let at = 4 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if word(0) != VERSION {
            return Err(NetError::Version { found: word(0) });
        }
        let (inputs, hidden, qa, qb) = (word(1), word(2), word(3), word(4));
        if (inputs, hidden, qa, qb) != (INPUTS as u32, HIDDEN as u32, QA as u32, QB as u32) {
            return Err(NetError::Shape {
                found_inputs: inputs,
                found_hidden: hidden,
                found_qa: qa,
                found_qb: qb,
            });
        }
        let expected = Network::FILE_BYTES;
        if bytes.len() != expected {
            return Err(NetError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let mut hash_bytes = [0u8; 8];
        hash_bytes.copy_from_slice(&bytes[HEADER_BYTES - 8..HEADER_BYTES]);
        let found = u64::from_le_bytes(hash_bytes);
        let payload = &bytes[HEADER_BYTES..];
        let computed = fnv1a(payload);
        if found != computed {
            return Err(NetError::Hash { found, computed });
        }
        let mut values = payload
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let input_weights = values.by_ref().take(INPUTS * HIDDEN).collect();
        let input_bias = values.by_ref().take(HIDDEN).collect();
        let output_weights = values.by_ref().take(2 * HIDDEN).collect();
        let tail = &payload[payload.len() - 4..];
        let output_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Ok(Network {
            input_weights,
            input_bias,
            output_weights,
            output_bias,
        })
    }

    /// The length of a net file of this build's shape.
    pub const FILE_BYTES: usize = HEADER_BYTES + (INPUTS * HIDDEN + 3 * HIDDEN) * 2 + 4;

    /// Reads a net file. Only a regular file is read, and only when it is not far larger
    /// than a net: a device or a huge file is refused before anything is read.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let io = |source| NetError::Io {
            path: path.display().to_string(),
            source,
        };
        let metadata = std::fs::metadata(path).map_err(io)?;
        if !metadata.is_file() {
            return Err(NetError::NotAFile {
                path: path.display().to_string(),
            });
        }
        if metadata.len() > 4 * Network::FILE_BYTES as u64 {
            return Err(NetError::Length {
                found: usize::try_from(metadata.len()).unwrap_or(usize::MAX),
                expected: Network::FILE_BYTES,
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        Network::from_bytes(&bytes)
    }

    /// Writes a net file.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| NetError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// The first layer weights of one input.
    #[inline(always)]
    fn row(&self, input: u16) -> &[i16] {
        let start = usize::from(input) * HIDDEN;
        &self.input_weights[start..start + HIDDEN]
    }

    /// The evaluation of `pos` (its side to move's view, in 1/100 stone) from its accumulator.
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        self.evaluate_with(acc, pos, simd::best())
    }

    /// [`evaluate`](Self::evaluate) on a chosen instruction set (the tests compare them).
    pub fn evaluate_with(&self, acc: &Accumulator, pos: &Position, path: simd::Path) -> i32 {
        let us = pos.side_to_move().index();
        let raw = simd::crelu_dot(&acc.values[us], &self.output_weights[..HIDDEN], path)
            + simd::crelu_dot(&acc.values[1 - us], &self.output_weights[HIDDEN..], path)
            + self.output_bias;
        (i64::from(raw) * i64::from(EVAL_SCALE) / i64::from(QA * QB)) as i32
    }

    /// Evaluates a position from scratch.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::refresh(self, pos), pos)
    }
}

/// The first layer's sums for both perspectives (`values[side.index()]`), kept in step with a
/// position.
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub struct Accumulator {
    /// South's view, then North's.
    pub values: [[i16; HIDDEN]; 2],
    /// The active input of every slot for each view: what the next update undoes.
    pub slots: [[Option<u16>; SLOTS]; 2],
    /// The position the sums are for: the next update recomputes only the slots whose holes,
    /// kazans or tuzdiks differ from it.
    pub position: Position,
}

impl Accumulator {
    /// Computes both sums from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        Accumulator::refresh_with(net, pos, simd::best())
    }

    /// [`refresh`](Self::refresh) on a chosen instruction set.
    pub fn refresh_with(net: &Network, pos: &Position, path: simd::Path) -> Accumulator {
        debug_assert_eq!(pos.variant().holes_per_side(), HOLES);
        let mut acc = Accumulator {
            values: [[0; HIDDEN]; 2],
            slots: [features(pos, Side::South), features(pos, Side::North)],
            position: *pos,
        };
        for view in 0..2 {
            acc.values[view].copy_from_slice(&net.input_bias);
            for input in acc.slots[view].iter().flatten() {
                simd::add_assign(&mut acc.values[view], net.row(*input), path);
            }
        }
        acc
    }

    /// Brings the sums to `pos` by undoing and redoing only the slots whose input changed (a
    /// sowing leaves most holes' count buckets as they were). Returns the slots changed.
    pub fn update(&mut self, net: &Network, pos: &Position) -> usize {
        self.update_with(net, pos, simd::best())
    }

    /// [`update`](Self::update) on a chosen instruction set.
    pub fn update_with(&mut self, net: &Network, pos: &Position, path: simd::Path) -> usize {
        let dirty = dirty_slots(&self.position, pos);
        let mut changed = 0;
        for (view, side) in Side::BOTH.into_iter().enumerate() {
            let mut dirty = dirty[view];
            while dirty != 0 {
                let slot = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let old = self.slots[view][slot];
                let new = slot_input(pos, side, slot);
                if old == new {
                    continue;
                }
                changed += 1;
                if let Some(input) = old {
                    simd::sub_assign(&mut self.values[view], net.row(input), path);
                }
                if let Some(input) = new {
                    simd::add_assign(&mut self.values[view], net.row(input), path);
                }
                self.slots[view][slot] = new;
            }
        }
        self.position = *pos;
        changed
    }

    /// Makes this the accumulator of `pos` from `parent`, the accumulator of another
    /// position (the search's parent node): the same sums as `parent` cloned and
    /// [`update`](Self::update)d, in one pass over each view's sums that copies them and
    /// subtracts and adds every changed row at once (AVX2 keeps each lane in a register
    /// meanwhile). Returns the slots changed.
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, pos: &Position) -> usize {
        self.update_from_with(parent, net, pos, simd::best())
    }

    /// [`update_from`](Self::update_from) on a chosen instruction set.
    pub fn update_from_with(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        pos: &Position,
        path: simd::Path,
    ) -> usize {
        let dirty = dirty_slots(&parent.position, pos);
        let (ring, tuzdiks) = (pos.ring_n::<HOLES>(), tuzdik_ring_mask(pos));
        let mut changed = 0;
        for (view, side) in Side::BOTH.into_iter().enumerate() {
            self.slots[view] = parent.slots[view];
            let mut removed = [0u16; SLOTS];
            let mut added = [0u16; SLOTS];
            let (mut removals, mut additions) = (0, 0);
            let mut dirty = dirty[view];
            while dirty != 0 {
                let slot = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let old = parent.slots[view][slot];
                let new = fast_slot_input(pos, ring, tuzdiks, side, slot);
                if old == new {
                    continue;
                }
                changed += 1;
                if let Some(input) = old {
                    removed[removals] = input;
                    removals += 1;
                }
                if let Some(input) = new {
                    added[additions] = input;
                    additions += 1;
                }
                self.slots[view][slot] = new;
            }
            simd::copy_sub_add(
                &mut self.values[view],
                &parent.values[view],
                &net.input_weights,
                &removed[..removals],
                &added[..additions],
                path,
            );
        }
        self.position = *pos;
        changed
    }
}

/// For each view (South's, North's), the slots whose input may differ between `before` and
/// `pos` (bit `slot`): the holes whose counts changed (all of them when a tuzdik changed,
/// which empties a count slot), the tuzdiks, the kazans that changed.
#[inline]
fn dirty_slots(before: &Position, pos: &Position) -> [u32; 2] {
    let (old, new) = (before.ring_n::<HOLES>(), pos.ring_n::<HOLES>());
    // Ring indices whose count changed (bit r): South's slots are its ring indices.
    let mut holes = 0u32;
    for r in 0..2 * HOLES {
        holes |= u32::from(old[r] != new[r]) << r;
    }
    let mut tuzdiks = 0;
    if Side::BOTH
        .into_iter()
        .any(|side| before.tuzdik(side) != pos.tuzdik(side))
    {
        holes = (1 << (2 * HOLES)) - 1;
        tuzdiks = 0b11 << (2 * HOLES);
    }
    let kazan = |side: Side| u32::from(before.kazan(side) != pos.kazan(side));
    let kazans =
        |own: Side| kazan(own) << (2 * HOLES + 2) | kazan(own.opponent()) << (2 * HOLES + 3);
    // North's slot s is ring index (s + 9) % 18: the ring's bits rotated by a row.
    let north_holes = (holes >> HOLES | holes << HOLES) & ((1 << (2 * HOLES)) - 1);
    [
        holes | tuzdiks | kazans(Side::South),
        north_holes | tuzdiks | kazans(Side::North),
    ]
}

/// The net file built into the binary (`nets/default.nnue`).
pub const EMBEDDED_BYTES: &[u8] = include_bytes!("../../nets/default.nnue");

/// The net built into the binary, the search's default evaluation of Toguz Kumalak; read once.
///
/// ```
/// let net = tuzdik::nnue::embedded();
/// assert_eq!(format!("{:016x}", net.hash()), "7a4c3adbe4af9ad9");
/// assert_eq!(tuzdik::Engine::new().network().map(|n| n.hash()), Some(net.hash()));
/// ```
pub fn embedded() -> std::sync::Arc<Network> {
    static EMBEDDED: std::sync::OnceLock<std::sync::Arc<Network>> = std::sync::OnceLock::new();
    EMBEDDED
        .get_or_init(|| match Network::from_bytes(EMBEDDED_BYTES) {
            Ok(network) => std::sync::Arc::new(network),
            // The file is checked when the crate's tests run; a damaged build is a bug.
            Err(error) => panic!("the embedded net (nets/default.nnue) is unreadable: {error}"),
        })
        .clone()
}

/// Whether the search evaluates positions of `variant` with a net: Toguz Kumalak under the
/// standard rules, the games the nets learn from. Its switches (another sowing or capture
/// rule) keep the hand-crafted evaluation, as the other families do.
///
/// ```
/// use tuzdik::Variant;
/// assert!(tuzdik::nnue::supports(Variant::TOGYZ));
/// assert!(!tuzdik::nnue::supports("kozdatu".parse().unwrap()));
/// assert!(!tuzdik::nnue::supports("togyz sowing=skip-origin".parse().unwrap()));
/// ```
pub fn supports(variant: Variant) -> bool {
    variant == Variant::TOGYZ
}

#[cfg(test)]
mod tests;
