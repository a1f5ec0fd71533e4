//! A counting global allocator for the workspace's allocation tests: a test that uses this
//! crate (a path-only dev-dependency, which `cargo package` drops, so the published crates
//! need nothing outside their directories) gets it as its process's global allocator.
//! It forwards to the system allocator and counts allocations and reallocations, both per
//! thread (tests run in parallel threads, so a test reads its own thread's count) and for the
//! whole process (for tests that must also see worker threads; they run alone, without the
//! test harness).
#![allow(unsafe_code)] // A global allocator is unsafe to implement; this one only counts and forwards.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The allocator: counts, then forwards to [`System`].
pub struct Counting;

thread_local! {
    /// Allocations made by the current thread.
    static THREAD_ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made by every thread of the process.
static PROCESS_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn count() {
    THREAD_ALLOCATIONS.with(|c| c.set(c.get() + 1));
    PROCESS_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
}

/// The number of allocations and reallocations the current thread has made.
pub fn thread_allocations() -> usize {
    THREAD_ALLOCATIONS.with(Cell::get)
}

/// The number of allocations and reallocations every thread of the process has made.
pub fn process_allocations() -> usize {
    PROCESS_ALLOCATIONS.load(Ordering::SeqCst)
}

// SAFETY: every method forwards to the system allocator unchanged, so `Counting` keeps
// `GlobalAlloc`'s contract exactly as `System` does; counting touches no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` was allocated by this allocator with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;
