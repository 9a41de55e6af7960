//! Zeroed memory for the transposition table, on 2 MiB pages where the system allows.
//!
//! A table probe lands on a random address of a table many times larger than the processor's
//! address-translation cache covers with 4 KiB pages, so nearly every probe also walks the
//! page tables. With 2 MiB pages a 64 MiB table needs 32 translations instead of 16384. On
//! Linux, transparent huge pages are commonly enabled only on request (`madvise` mode), so
//! the buffer is aligned to 2 MiB and asked for them before its first byte is touched.
//! Elsewhere, or when the request is refused, it is ordinary memory.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// The size of a large page, and the alignment of buffers at least that large.
const LARGE_PAGE: usize = 2 << 20;

/// Types whose all-zero bit pattern is a valid value (atomics of integers, arrays of them).
///
/// # Safety
/// Implement only for types for which zeroed memory is a valid, initialised value.
pub unsafe trait Zeroable: Sized {}

/// A fixed-length slice of zero-initialised `T`, allocated for large pages.
pub struct ZeroedBuffer<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the buffer owns its elements like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for ZeroedBuffer<T> {}
// SAFETY: shared access hands out only `&[T]`, as `Box<[T]>` does.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedBuffer<T> {}

/// A buffer could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {bytes} bytes")]
pub struct AllocError {
    /// The size asked for.
    pub bytes: usize,
}

impl<T: Zeroable> ZeroedBuffer<T> {
    /// `len` zeroed elements (at least one). Every page is written once here, so that page
    /// faults happen now and not during a search.
    pub fn new(len: usize) -> Result<ZeroedBuffer<T>, AllocError> {
        let len = len.max(1);
        let size = std::mem::size_of::<T>().max(1);
        let bytes = len
            .checked_mul(size)
            .ok_or(AllocError { bytes: usize::MAX })?;
        let align = if bytes >= LARGE_PAGE {
            LARGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let layout = Layout::from_size_align(bytes, align).map_err(|_| AllocError { bytes })?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let ptr = NonNull::new(raw.cast::<T>()).ok_or(AllocError { bytes })?;
        if align == LARGE_PAGE {
            advise_large_pages(raw, bytes);
        }
        // SAFETY: `raw` is valid for `bytes` bytes of writes, and zeroed memory is a valid `T`.
        unsafe { std::ptr::write_bytes(raw, 0, bytes) };
        Ok(ZeroedBuffer { ptr, len, layout })
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedBuffer<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points at `len` initialised elements owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: the elements need no drop (zeroable plain data), and the memory was
        // allocated with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// Asks Linux for transparent huge pages on `bytes` bytes from `start` (2 MiB aligned). A
/// refusal only costs speed, so it is ignored.
#[cfg(target_os = "linux")]
fn advise_large_pages(start: *mut u8, bytes: usize) {
    // SAFETY: the range is memory this process has just allocated; madvise only changes how
    // the kernel backs it.
    let _ = unsafe { libc::madvise(start.cast(), bytes, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_large_pages(_start: *mut u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    // SAFETY: an atomic integer is valid when zeroed.
    unsafe impl Zeroable for AtomicU64 {}

    #[test]
    fn buffers_start_zeroed_and_hold_writes() {
        for len in [1, 3, 1000, (4 << 20) / 8 + 5] {
            let buffer = ZeroedBuffer::<AtomicU64>::new(len).unwrap();
            assert_eq!(buffer.len(), len);
            assert!(buffer.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            buffer[len - 1].store(7, Ordering::Relaxed);
            assert_eq!(buffer[len - 1].load(Ordering::Relaxed), 7);
        }
    }

    #[test]
    fn large_buffers_are_aligned_for_large_pages() {
        let buffer = ZeroedBuffer::<AtomicU64>::new(LARGE_PAGE / 8).unwrap();
        assert_eq!(buffer.as_ptr() as usize % LARGE_PAGE, 0);
    }

    #[test]
    fn an_impossible_size_is_an_error() {
        assert!(ZeroedBuffer::<AtomicU64>::new(usize::MAX / 4).is_err());
    }
}
