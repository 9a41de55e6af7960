//! The net's vector kernels: scalar, SSE2 and AVX2 versions of the same integer arithmetic,
//! so every path gives exactly the same result (the tests check it). AVX2 is used when the CPU
//! has it (detected at run time), SSE2 (every x86-64) otherwise, scalar elsewhere.

use super::{HIDDEN, QA};

/// An instruction set for the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Plain Rust, any CPU.
    Scalar,
    /// 128-bit SSE2 (the x86-64 baseline).
    Sse2,
    /// 256-bit AVX2, when the CPU has it.
    Avx2,
}

/// The paths this CPU can run, the best last.
pub fn available() -> Vec<Path> {
    let mut paths = vec![Path::Scalar];
    #[cfg(target_arch = "x86_64")]
    {
        paths.push(Path::Sse2);
        if std::arch::is_x86_feature_detected!("avx2") {
            paths.push(Path::Avx2);
        }
    }
    paths
}

/// The fastest path this CPU runs (detected once).
pub fn best() -> Path {
    static BEST: std::sync::OnceLock<Path> = std::sync::OnceLock::new();
    *BEST.get_or_init(|| *available().last().unwrap_or(&Path::Scalar))
}

/// `acc[i] += row[i]` (wrapping, as the vector adds do).
pub fn add_assign(acc: &mut [i16; HIDDEN], row: &[i16], path: Path) {
    assert_eq!(row.len(), HIDDEN);
    match path {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the path is only chosen when the CPU has the feature (see `available`);
        // the lengths are checked above.
        Path::Avx2 if std::arch::is_x86_feature_detected!("avx2") => unsafe {
            x86::add_avx2(acc, row, false)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64; the lengths are checked above.
        Path::Sse2 | Path::Avx2 => unsafe { x86::add_sse2(acc, row, false) },
        _ => {
            for (a, r) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(*r);
            }
        }
    }
}

/// `acc[i] -= row[i]` (wrapping).
pub fn sub_assign(acc: &mut [i16; HIDDEN], row: &[i16], path: Path) {
    assert_eq!(row.len(), HIDDEN);
    match path {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_assign`.
        Path::Avx2 if std::arch::is_x86_feature_detected!("avx2") => unsafe {
            x86::add_avx2(acc, row, true)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_assign`.
        Path::Sse2 | Path::Avx2 => unsafe { x86::add_sse2(acc, row, true) },
        _ => {
            for (a, r) in acc.iter_mut().zip(row) {
                *a = a.wrapping_sub(*r);
            }
        }
    }
}

/// `acc[i] = from[i] - sum(removed rows)[i] + sum(added rows)[i]` (wrapping), the rows
/// `HIDDEN`-long rows of `weights` numbered by `removed` and `added`: a copy and several row
/// updates in one pass.
pub fn copy_sub_add(
    acc: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    weights: &[i16],
    removed: &[u16],
    added: &[u16],
    path: Path,
) {
    let rows = weights.len() / HIDDEN;
    assert!(
        removed
            .iter()
            .chain(added)
            .all(|&row| usize::from(row) < rows)
    );
    match path {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_assign`; every row is within `weights` (checked above).
        Path::Avx2 if avx2() => unsafe {
            x86::copy_sub_add_avx2(acc, from, weights, removed, added)
        },
        _ => {
            let row = |input: u16| &weights[usize::from(input) * HIDDEN..][..HIDDEN];
            acc.copy_from_slice(from);
            for &input in removed {
                sub_assign(acc, row(input), path);
            }
            for &input in added {
                add_assign(acc, row(input), path);
            }
        }
    }
}

/// Whether the CPU has AVX2 (detected once).
#[inline(always)]
fn avx2() -> bool {
    best() == Path::Avx2
}

/// `sum(clamp(acc[i], 0, QA) * weights[i])` in 32 bits (it cannot overflow: trained weights are
/// at most 1.98 * QB = 507 in size, so the sum stays below 512 * 255 * 507 < 2^27).
pub fn crelu_dot(acc: &[i16; HIDDEN], weights: &[i16], path: Path) -> i32 {
    assert_eq!(weights.len(), HIDDEN);
    match path {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_assign`.
        Path::Avx2 if std::arch::is_x86_feature_detected!("avx2") => unsafe {
            x86::crelu_dot_avx2(acc, weights)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_assign`.
        Path::Sse2 | Path::Avx2 => unsafe { x86::crelu_dot_sse2(acc, weights) },
        _ => acc
            .iter()
            .zip(weights)
            .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
            .fold(0i32, i32::wrapping_add),
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{HIDDEN, QA};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_avx2(acc: &mut [i16; HIDDEN], row: &[i16], subtract: bool) {
        for chunk in 0..HIDDEN / 16 {
            // SAFETY: chunk * 16 + 16 <= HIDDEN == row.len(); unaligned loads and stores.
            unsafe {
                let a = acc.as_mut_ptr().add(chunk * 16) as *mut __m256i;
                let r = _mm256_loadu_si256(row.as_ptr().add(chunk * 16) as *const __m256i);
                let value = _mm256_loadu_si256(a);
                let sum = if subtract {
                    _mm256_sub_epi16(value, r)
                } else {
                    _mm256_add_epi16(value, r)
                };
                _mm256_storeu_si256(a, sum);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn copy_sub_add_avx2(
        acc: &mut [i16; HIDDEN],
        from: &[i16; HIDDEN],
        weights: &[i16],
        removed: &[u16],
        added: &[u16],
    ) {
        // The 16 lanes of 16 sums stay in the 16 registers while every row goes by.
        const LANES: usize = HIDDEN / 16;
        let mut sums = [_mm256_setzero_si256(); LANES];
        // SAFETY: every row starts at `input * HIDDEN` with `input` below the row count (the
        // caller checks), so every offset is within `weights`, and below HIDDEN within
        // `acc` and `from`; unaligned loads and stores.
        unsafe {
            for (lane, sum) in sums.iter_mut().enumerate() {
                *sum = _mm256_loadu_si256(from.as_ptr().add(lane * 16) as *const __m256i);
            }
            for &input in removed {
                let row = weights.as_ptr().add(usize::from(input) * HIDDEN);
                for (lane, sum) in sums.iter_mut().enumerate() {
                    let r = _mm256_loadu_si256(row.add(lane * 16) as *const __m256i);
                    *sum = _mm256_sub_epi16(*sum, r);
                }
            }
            for &input in added {
                let row = weights.as_ptr().add(usize::from(input) * HIDDEN);
                for (lane, sum) in sums.iter_mut().enumerate() {
                    let r = _mm256_loadu_si256(row.add(lane * 16) as *const __m256i);
                    *sum = _mm256_add_epi16(*sum, r);
                }
            }
            for (lane, sum) in sums.iter().enumerate() {
                _mm256_storeu_si256(acc.as_mut_ptr().add(lane * 16) as *mut __m256i, *sum);
            }
        }
    }

    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn add_sse2(acc: &mut [i16; HIDDEN], row: &[i16], subtract: bool) {
        for chunk in 0..HIDDEN / 8 {
            // SAFETY: chunk * 8 + 8 <= HIDDEN == row.len(); unaligned loads and stores.
            unsafe {
                let a = acc.as_mut_ptr().add(chunk * 8) as *mut __m128i;
                let r = _mm_loadu_si128(row.as_ptr().add(chunk * 8) as *const __m128i);
                let value = _mm_loadu_si128(a);
                let sum = if subtract {
                    _mm_sub_epi16(value, r)
                } else {
                    _mm_add_epi16(value, r)
                };
                _mm_storeu_si128(a, sum);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn crelu_dot_avx2(acc: &[i16; HIDDEN], weights: &[i16]) -> i32 {
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for chunk in 0..HIDDEN / 16 {
            // SAFETY: chunk * 16 + 16 <= HIDDEN == weights.len(); unaligned loads.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(chunk * 16) as *const __m256i);
                let w = _mm256_loadu_si256(weights.as_ptr().add(chunk * 16) as *const __m256i);
                let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), ceiling);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, w));
            }
        }
        let mut lanes = [0i32; 8];
        // SAFETY: lanes holds 8 i32, 32 bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
        lanes.iter().fold(0i32, |s, &l| s.wrapping_add(l))
    }

    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn crelu_dot_sse2(acc: &[i16; HIDDEN], weights: &[i16]) -> i32 {
        let zero = _mm_setzero_si128();
        let ceiling = _mm_set1_epi16(QA as i16);
        let mut sum = _mm_setzero_si128();
        for chunk in 0..HIDDEN / 8 {
            // SAFETY: chunk * 8 + 8 <= HIDDEN == weights.len(); unaligned loads.
            unsafe {
                let a = _mm_loadu_si128(acc.as_ptr().add(chunk * 8) as *const __m128i);
                let w = _mm_loadu_si128(weights.as_ptr().add(chunk * 8) as *const __m128i);
                let clipped = _mm_min_epi16(_mm_max_epi16(a, zero), ceiling);
                sum = _mm_add_epi32(sum, _mm_madd_epi16(clipped, w));
            }
        }
        let mut lanes = [0i32; 4];
        // SAFETY: lanes holds 4 i32, 16 bytes.
        unsafe { _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, sum) };
        lanes.iter().fold(0i32, |s, &l| s.wrapping_add(l))
    }
}
