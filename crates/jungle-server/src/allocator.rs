//! The server binary's allocator: mimalloc for everything but very large blocks, which are
//! mapped from the kernel and given back to it when freed.
//!
//! Why the split: a password hash works in 19 MiB (Argon2id, OWASP's parameters), and the
//! server makes one at start (the decoy that unknown usernames are checked against) and one per
//! sign-in. mimalloc keeps a freed block that large resident in its arena until something
//! triggers a purge, which a server at rest never does: measured, a fresh server sat at 37.7 MB
//! instead of 18 MB, every start (docs/benchmarks.md, "A server at rest"). Blocks this large
//! are rare and short-lived, so a system call each way costs nothing that matters.

use std::alloc::{GlobalAlloc, Layout};
use std::ptr;

use mimalloc::MiMalloc;

/// Blocks at least this large are mapped on their own.
pub const DIRECT: usize = 4 << 20;

pub struct Allocator;

/// Whether a block of this layout is mapped on its own. Larger alignments than a page (which a
/// mapping has) stay with mimalloc.
fn direct(layout: Layout) -> bool {
    layout.size() >= DIRECT && layout.align() <= 4096
}

// SAFETY: every block is freed by the allocator that made it: `direct` depends only on the
// layout, which the caller passes unchanged to `dealloc` (and as the old layout to `realloc`).
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if direct(layout) {
            map(layout.size())
        } else {
            unsafe { MiMalloc.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if direct(layout) {
            // A fresh anonymous mapping reads as zeros.
            map(layout.size())
        } else {
            unsafe { MiMalloc.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if direct(layout) {
            unsafe { libc::munmap(block.cast(), layout.size()) };
        } else {
            unsafe { MiMalloc.dealloc(block, layout) }
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY (of the layout): the caller guarantees `new_size`, rounded up to the
        // alignment, does not overflow.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if !direct(layout) && !direct(new_layout) {
            return unsafe { MiMalloc.realloc(block, layout, new_size) };
        }
        // Into, out of or between mappings: a new block, the contents, the old one freed.
        let moved = unsafe { self.alloc(new_layout) };
        if !moved.is_null() {
            unsafe {
                ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
        }
        moved
    }
}

/// A private anonymous mapping of `size` bytes, or null when the kernel refuses.
fn map(size: usize) -> *mut u8 {
    // SAFETY: a new mapping at an address the kernel chooses touches no existing memory.
    let mapped = unsafe {
        libc::mmap(
            ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if mapped == libc::MAP_FAILED {
        ptr::null_mut()
    } else {
        mapped.cast()
    }
}

/// How often at most a runtime thread about to sleep gives back what it freed: rarely enough
/// that a busy server does not fault the same pages back in (once a second cost about 10% more
/// CPU a move, most of it in the kernel), often enough to be back at rest within a minute.
const COLLECT_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Called by each runtime thread as it goes to sleep: at most once a [`COLLECT_EVERY`], the
/// pages this thread's heap has left free go back to the kernel. mimalloc does that on its
/// own only as the thread allocates again, which an idle server's threads seldom do: after
/// 2,000 connections stalled half-way through their requests and closed, a server kept 8 MB
/// it no longer used until the next burst of work (docs/benchmarks.md, issue 49's soak).
pub fn collect_when_idle() {
    use std::cell::Cell;
    use std::time::Instant;
    thread_local! {
        static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
    }
    let now = Instant::now();
    let due = LAST.with(|last| match last.get() {
        Some(at) if now.duration_since(at) < COLLECT_EVERY => false,
        _ => {
            last.set(Some(now));
            true
        }
    });
    if due {
        // SAFETY: mi_collect only walks this thread's own heap; no pointer is passed.
        unsafe { libmimalloc_sys::mi_collect(false) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The tests here one at a time: one reads the process's resident memory.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    /// Kilobytes of this process's anonymous resident memory.
    #[cfg(target_os = "linux")]
    fn resident_anon_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("RssAnon:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("RssAnon in /proc/self/status")
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_block_goes_back_to_the_kernel_when_freed() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let layout = Layout::from_size_align(32 << 20, 64).unwrap();
        let before = resident_anon_kib();
        unsafe {
            let block = Allocator.alloc(layout);
            assert!(!block.is_null());
            ptr::write_bytes(block, 7, layout.size());
            let touched = resident_anon_kib();
            assert!(touched >= before + 30 * 1024, "{before} → {touched} KiB");
            Allocator.dealloc(block, layout);
        }
        let after = resident_anon_kib();
        assert!(
            after < before + 2 * 1024,
            "{before} → {after} KiB after the free"
        );
    }

    #[test]
    fn contents_survive_growing_and_shrinking_across_the_threshold() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let small = Layout::from_size_align(1000, 8).unwrap();
        unsafe {
            let block = Allocator.alloc(small);
            for i in 0..small.size() {
                *block.add(i) = (i % 251) as u8;
            }
            let grown = Allocator.realloc(block, small, DIRECT * 2);
            assert!(!grown.is_null());
            for i in 0..small.size() {
                assert_eq!(*grown.add(i), (i % 251) as u8);
            }
            *grown.add(DIRECT * 2 - 1) = 9;
            let large = Layout::from_size_align(DIRECT * 2, 8).unwrap();
            let shrunk = Allocator.realloc(grown, large, 500);
            assert!(!shrunk.is_null());
            for i in 0..500 {
                assert_eq!(*shrunk.add(i), (i % 251) as u8);
            }
            Allocator.dealloc(shrunk, Layout::from_size_align(500, 8).unwrap());
        }
    }

    #[test]
    fn a_large_zeroed_block_reads_as_zeros() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let layout = Layout::from_size_align(DIRECT, 4096).unwrap();
        unsafe {
            let block = Allocator.alloc_zeroed(layout);
            assert!(!block.is_null());
            assert!((0..layout.size()).step_by(4093).all(|i| *block.add(i) == 0));
            Allocator.dealloc(block, layout);
        }
    }

    #[test]
    fn alignments_above_a_page_stay_with_mimalloc() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let layout = Layout::from_size_align(DIRECT, 1 << 16).unwrap();
        assert!(!direct(layout));
        unsafe {
            let block = Allocator.alloc(layout);
            assert!(!block.is_null());
            assert_eq!(block as usize % (1 << 16), 0);
            Allocator.dealloc(block, layout);
        }
    }
}
