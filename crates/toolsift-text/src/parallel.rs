//! Work spread over threads: the one way the toolsift crates do it ([`parallel_map`]).

use std::sync::{Mutex, PoisonError};

/// The cores this process may use ([`std::thread::available_parallelism`], asked once; 1 when
/// it cannot tell).
///
/// ```
/// assert!(toolsift_text::available_cores() >= 1);
/// ```
pub fn available_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
}

/// `items.into_iter().map(f).collect()`, on up to `threads` threads: the same results, in the
/// same order.
///
/// The calling thread is one of the threads; the others are scoped, so `f` may borrow, and
/// are joined before this returns. Items are handed out one at a time in their order, to
/// whichever thread is free (put the largest first). With `threads` at most 1 or fewer than
/// two items nothing is spawned; a thread that cannot be started leaves its share to the
/// others, the calling thread at least. A panic in `f` reaches the caller, as it would on one
/// thread.
///
/// ```
/// let lengths = toolsift_text::parallel_map(vec!["a", "bb", "ccc"], 2, str::len);
/// assert_eq!(lengths, [1, 2, 3]);
/// ```
pub fn parallel_map<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let queue = Mutex::new(items.into_iter().enumerate());
    let work = || {
        let mut done = Vec::new();
        loop {
            let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
            let Some((i, item)) = next else { return done };
            done.push((i, f(item)));
        }
    };
    let mut done = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map_while(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
            .collect();
        let mut done = work();
        for helper in helpers {
            match helper.join() {
                Ok(theirs) => done.extend(theirs),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::parallel_map;

    #[test]
    fn results_come_in_item_order_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let want: Vec<u64> = items.iter().map(|i| i * i).collect();
        for threads in [0, 1, 2, 3, 8, 2000] {
            assert_eq!(parallel_map(items.clone(), threads, |i| i * i), want, "{threads}");
        }
        assert!(parallel_map(Vec::<u8>::new(), 4, |i| i).is_empty());
    }

    #[test]
    fn items_may_be_borrowed_mutably() {
        let mut data = vec![0u32; 10];
        let parts: Vec<&mut [u32]> = data.chunks_mut(3).collect();
        let sums = parallel_map(parts, 4, |part| {
            part.iter_mut().for_each(|x| *x += 1);
            part.len()
        });
        assert_eq!(sums, [3, 3, 3, 1]);
        assert_eq!(data, [1; 10]);
    }

    #[test]
    fn a_panic_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            parallel_map((0..64).collect(), 4, |i: u32| assert_ne!(i, 40, "item 40"))
        });
        assert!(caught.is_err());
    }
}
