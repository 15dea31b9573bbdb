//! What Wizer snapshots is every non-zero byte of linear memory. Building the engine leaves garbage
//! behind: freed blocks (the parsed configuration document, grown vectors' old buffers) and deep
//! stack frames. While `begin`..`end` runs, freed memory is zeroed, and `end` zeroes the stack
//! below the caller, so the snapshot holds the engine's live data and little else.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

/// Stack bytes scrubbed by `end` (the stack is 64 KiB; initialization runs a few frames deep).
const SCRUB_BYTES: usize = 48 * 1024;

static SCRUBBING: AtomicBool = AtomicBool::new(false);

/// The system allocator, zeroing what is freed during pre-initialization.
pub struct ZeroOnFree;

// SAFETY: every call is forwarded to `System` with the caller's layout; the only addition is
// writing zeros over a block the caller gives up, before `System` takes it back.
unsafe impl GlobalAlloc for ZeroOnFree {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if SCRUBBING.load(Ordering::Relaxed) {
            zero(ptr, layout.size());
        }
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    /// While scrubbing, a block that moves is freed here (zeroed), not inside the system's realloc
    /// where this allocator would not see it; otherwise the system's realloc may grow in place.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !SCRUBBING.load(Ordering::Relaxed) {
            // SAFETY: the caller upholds `realloc`'s contract, passed on unchanged.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: `new_size` with `layout`'s alignment is a valid layout (realloc's contract).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: a fresh block of `new_size` bytes; the old one is copied, then zeroed and freed.
        unsafe {
            let new = System.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

#[global_allocator]
static ALLOCATOR: ZeroOnFree = ZeroOnFree;

/// Volatile writes: plain ones before `free` are dead stores the optimiser removes.
fn zero(ptr: *mut u8, len: usize) {
    for i in 0..len {
        // SAFETY: `ptr..ptr + len` is a live block the caller is about to free.
        unsafe { std::ptr::write_volatile(ptr.add(i), 0) };
    }
}

pub fn begin() {
    SCRUBBING.store(true, Ordering::Relaxed);
}

pub fn end() {
    SCRUBBING.store(false, Ordering::Relaxed);
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
