//! The instance's allocator, in two phases.
//!
//! - Serving (`Phase::Arena`, from the instance's start): an instance serves one request and is
//!   then discarded, so nothing a request frees needs to be reused. Its blocks, the runtime's own
//!   start-up included, are carved in order from an arena of fresh pages past the snapshot's memory:
//!   a request writes to a few contiguous pages, each a zero page on first touch. The system
//!   allocator would instead reuse the snapshot's free blocks, scattered over its pages, and write
//!   to its own state there: every such page is a copy-on-write fault, the dearest part of a
//!   request on Viceroy (each one flushes the TLB of every core the runtime's threads run on).
//!   Blocks the arena cannot hold go to the system allocator, so a request that allocates more than
//!   `ARENA_BYTES` leaves at most that much unreused.
//! - Pre-initialization (`Phase::Scrub`, while Wizer builds the snapshot): the system allocator,
//!   zeroing what is freed, so that the snapshot holds the engine's live data and little else (see
//!   `snapshot`).
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// The arena's size: a request's allocations fit in a few pages; the rest of the arena is address
/// space that costs nothing until touched.
const ARENA_BYTES: usize = 1 << 20;
const WASM_PAGE: usize = 1 << 16;

#[derive(Clone, Copy, PartialEq)]
#[repr(u8)]
enum Phase {
    Arena = 0,
    Scrub = 1,
}

/// Written first by every entry point (`enter`), before the statics below are read, so that a
/// request's first touch of their page is a write: that fault copies the snapshot's page at once. A
/// read first would map the page, and the first write would fault a second time to copy it, a fault
/// that also flushes the TLB of every core the runtime's threads ran on. The build keeps `.data`
/// and `.bss` on one page (`layout`), so this write is that page's first touch; if it ever is not,
/// the write costs one store and nothing else changes.
static mut FIRST: u8 = 0;
static PHASE: AtomicU8 = AtomicU8::new(Phase::Arena as u8);
/// The arena's bounds and its next free byte: all 0 until the arena is taken; an arena that could
/// not be taken is the empty range at 1.
static START: AtomicUsize = AtomicUsize::new(0);
static NEXT: AtomicUsize = AtomicUsize::new(0);
static END: AtomicUsize = AtomicUsize::new(0);

fn enter() {
    // SAFETY: one thread; a byte of this module's own static, written and never read. Volatile and
    // fenced: the write stays, and stays before the reads that follow.
    unsafe { std::ptr::write_volatile(std::ptr::addr_of_mut!(FIRST), 1) };
    std::sync::atomic::compiler_fence(Ordering::SeqCst);
}

fn phase() -> Phase {
    match PHASE.load(Ordering::Relaxed) {
        1 => Phase::Scrub,
        _ => Phase::Arena,
    }
}

/// Pre-initialization begins (`on`) or ends: in between, blocks come from the system allocator and
/// freed ones are zeroed; the arena is not taken, so the snapshot holds none of it.
pub fn scrub(on: bool) {
    let p = if on { Phase::Scrub } else { Phase::Arena };
    PHASE.store(p as u8, Ordering::Relaxed);
}

/// Takes the arena at the first block asked for: pages grown past the memory the system allocator
/// holds, zero by the WebAssembly specification and never handed to it. The system allocator copes
/// with memory grown behind its back (it starts a new segment).
fn take_arena() {
    if END.load(Ordering::Relaxed) != 0 {
        return;
    }
    let (start, end) = match grow(ARENA_BYTES / WASM_PAGE) {
        Some(start) => (start, start + ARENA_BYTES),
        // Taken and empty: every block goes to the system allocator.
        None => (1, 1),
    };
    START.store(start, Ordering::Relaxed);
    NEXT.store(start, Ordering::Relaxed);
    END.store(end, Ordering::Relaxed);
}

fn grow(pages: usize) -> Option<usize> {
    match core::arch::wasm32::memory_grow(0, pages) {
        usize::MAX => None,
        old => Some(old * WASM_PAGE),
    }
}

/// A block of `layout` from the arena, or None when it has no room left.
fn bump(layout: Layout) -> Option<*mut u8> {
    take_arena();
    let next = NEXT.load(Ordering::Relaxed);
    let at = next.checked_add(layout.align() - 1)? & !(layout.align() - 1);
    let end = at.checked_add(layout.size())?;
    if end > END.load(Ordering::Relaxed) {
        return None;
    }
    NEXT.store(end, Ordering::Relaxed);
    Some(at as *mut u8)
}

fn in_arena(ptr: *mut u8) -> bool {
    let p = ptr as usize;
    p >= START.load(Ordering::Relaxed) && p < END.load(Ordering::Relaxed)
}

pub struct InstanceAllocator;

// SAFETY: a block is either the system allocator's (every call on it is forwarded with the
// caller's layout) or a range of the arena no other block overlaps: `bump` hands out each byte of
// the arena once, aligned as asked, and arena blocks are never given back to anyone.
unsafe impl GlobalAlloc for InstanceAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        enter();
        if phase() == Phase::Arena {
            if let Some(p) = bump(layout) {
                return p;
            }
        }
        // SAFETY: the caller upholds `alloc`'s contract, passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    /// Arena memory is zero until handed out, and handed out once: no zeroing to do, so no page of
    /// a large zeroed buffer is touched before it is written.
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        enter();
        if phase() == Phase::Arena {
            if let Some(p) = bump(layout) {
                return p;
            }
        }
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        enter();
        if in_arena(ptr) {
            return;
        }
        if phase() == Phase::Scrub {
            zero(ptr, layout.size());
        }
        // SAFETY: as in `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        enter();
        // SAFETY: `new_size` with `layout`'s alignment is a valid layout (realloc's contract).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if in_arena(ptr) {
            // A block shrinks where it is; the newest one also grows there when the arena has
            // room. The arena's next byte never moves back: bytes past it stay zero.
            if new_size <= layout.size() {
                return ptr;
            }
            if ptr as usize + layout.size() == NEXT.load(Ordering::Relaxed) {
                if let Some(end) = (ptr as usize).checked_add(new_size) {
                    if end <= END.load(Ordering::Relaxed) {
                        NEXT.store(end, Ordering::Relaxed);
                        return ptr;
                    }
                }
            }
        } else if phase() == Phase::Arena {
            // SAFETY: the caller upholds `realloc`'s contract, passed on unchanged.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // A block that moves: a fresh one, the bytes copied, the old one given up through
        // `dealloc` (which zeroes it while scrubbing, and keeps arena blocks).
        // SAFETY: a fresh block of `new_size` bytes; the old one is copied, then given up.
        unsafe {
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

#[global_allocator]
static ALLOCATOR: InstanceAllocator = InstanceAllocator;

/// Volatile writes: plain ones before `free` are dead stores the optimiser removes.
fn zero(ptr: *mut u8, len: usize) {
    for i in 0..len {
        // SAFETY: `ptr..ptr + len` is a live block the caller is about to free.
        unsafe { std::ptr::write_volatile(ptr.add(i), 0) };
    }
}
