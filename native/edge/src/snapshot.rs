//! What Wizer snapshots is every non-zero byte of linear memory. Building the engine leaves garbage
//! behind: freed blocks (the parsed configuration document, grown vectors' old buffers) and deep
//! stack frames. While `begin`..`end` runs, the allocator zeroes what is freed, and `end` zeroes the
//! stack below the caller, so the snapshot holds the engine's live data and little else.
use crate::allocator;

/// Stack bytes scrubbed by `end` (the stack is 64 KiB; initialization runs a few frames deep).
const SCRUB_BYTES: usize = 48 * 1024;

pub fn begin() {
    allocator::scrub(true);
}

pub fn end() {
    allocator::scrub(false);
    scrub_stack();
}

/// Zeroes a frame-sized region below the caller: the frames initialization used and left behind.
#[inline(never)]
fn scrub_stack() {
    let mut frame = [0u8; SCRUB_BYTES];
    for b in frame.iter_mut() {
        // SAFETY: a byte of this live local array; volatile so the zeroing is not optimised away.
        unsafe { std::ptr::write_volatile(b, 0) };
    }
}
