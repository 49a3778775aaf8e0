//! A long-running server gives memory back. With glibc's malloc, memory freed after a crowd
//! of connections leaves stays with the process: the threshold above which the top of the heap
//! is trimmed grows with the largest blocks freed (up to 32 MiB), and freed pages inside the
//! heaps are kept, so a server whose 200 WebSockets came and went held 3 times its warm memory
//! for good. Fixing the threshold at 128 KiB (glibc's own starting value, kept from growing)
//! and asking glibc to release its free pages a moment after connections close brings it to
//! 1.2-1.5 times (PERFORMANCE.md). Other allocators and systems are left as they are.

/// Tells the allocator to give freed memory back to the system (once a process; later calls
/// do nothing).
pub(crate) fn give_back_freed() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(set_trim_threshold);
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set_trim_threshold() {
    const TRIM_THRESHOLD: libc::c_int = 128 * 1024;
    // SAFETY: mallopt only sets a parameter of glibc's allocator; any value is valid, and a
    // refused one (it returns 0) leaves the default in place.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_trim_threshold() {}

/// Gives freed memory back a moment after connections close: glibc keeps freed pages inside
/// its heaps (only the top is trimmed), so the server asks it to release them, at most once
/// a quarter of a second, trailing a crowd's leaving.
pub(crate) fn trim_soon(scheduled: &'static std::sync::atomic::AtomicBool) {
    use std::sync::atomic::Ordering;
    if scheduled.swap(true, Ordering::AcqRel) {
        return;
    }
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        scheduled.store(false, Ordering::Release);
        let _ = tokio::task::spawn_blocking(trim).await;
    });
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: malloc_trim only returns free memory of glibc's heaps to the system; it touches
    // no memory in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}
