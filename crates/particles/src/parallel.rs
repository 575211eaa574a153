//! Fixed-chunk parallel loops and ordered reductions: the determinism contract.
//!
//! Every parallel pass of the particle step splits its items into chunks of [`CHUNK`] items,
//! a size that does not depend on how many workers the caller has (the `workers` crate: the
//! caller and its helper threads). A loop whose chunks write
//! disjoint outputs is then trivially identical for any thread count. A reduction (the dot
//! products of conjugate gradient) first reduces each chunk on its own, left to right, and
//! then adds the chunk partials left to right on one thread: the additions happen in the same
//! order whether the chunks ran on one thread or four, so the sum is bitwise the same. Small
//! inputs (one chunk) run inline without offering work to the helpers, through the same
//! arithmetic.

use std::ops::Range;

/// Items per parallel work unit. Large enough that a chunk costs far more than claiming it,
/// small enough that a 16k-particle cloth gives 32 units to share between workers.
pub(crate) const CHUNK: usize = 512;

/// Below this many items a pass runs inline on the calling thread: a few thousand items cost
/// less than offering them to the helpers. The arithmetic is the same chunk by chunk either way.
pub(crate) const PARALLEL_MIN: usize = 8 * CHUNK;

/// Runs `body(first_index, chunk)` over `data` in chunks of [`CHUNK`].
pub(crate) fn for_chunks<T: Send>(data: &mut [T], body: impl Fn(usize, &mut [T]) + Sync + Send) {
    if data.len() < PARALLEL_MIN {
        body(0, data);
        return;
    }
    let mut chunks: Vec<&mut [T]> = data.chunks_mut(CHUNK).collect();
    workers::for_each_mut(&mut chunks, |chunk, items| body(chunk * CHUNK, items));
}

/// Runs `body(first_index, a_chunk, b_chunk)` over two equally long slices in matching chunks.
pub(crate) fn for_chunks2<A: Send, B: Send>(
    a: &mut [A],
    b: &mut [B],
    body: impl Fn(usize, &mut [A], &mut [B]) + Sync + Send,
) {
    debug_assert_eq!(a.len(), b.len());
    if a.len() < PARALLEL_MIN {
        body(0, a, b);
        return;
    }
    let mut chunks: Vec<_> = a.chunks_mut(CHUNK).zip(b.chunks_mut(CHUNK)).collect();
    workers::for_each_mut(&mut chunks, |chunk, (a, b)| body(chunk * CHUNK, a, b));
}

/// Like [`for_chunks2`], and each chunk also returns `N` partial sums, which are added in
/// chunk order.
pub(crate) fn for_chunks2_sums<A: Send, B: Send, const N: usize>(
    a: &mut [A],
    b: &mut [B],
    body: impl Fn(usize, &mut [A], &mut [B]) -> [f64; N] + Sync + Send,
) -> [f64; N] {
    debug_assert_eq!(a.len(), b.len());
    if a.len() < PARALLEL_MIN {
        let mut total = [0.0; N];
        for (chunk, (a, b)) in a.chunks_mut(CHUNK).zip(b.chunks_mut(CHUNK)).enumerate() {
            add_to(&mut total, &body(chunk * CHUNK, a, b));
        }
        return total;
    }
    let mut chunks: Vec<_> = a.chunks_mut(CHUNK).zip(b.chunks_mut(CHUNK)).collect();
    let partials = workers::map_mut(&mut chunks, |chunk, (a, b)| body(chunk * CHUNK, a, b));
    add_in_order(&partials)
}

/// Adds per-chunk partial sums left to right.
fn add_in_order<const N: usize>(partials: &[[f64; N]]) -> [f64; N] {
    let mut total = [0.0; N];
    for sums in partials {
        add_to(&mut total, sums);
    }
    total
}

/// `total += sums`, element by element.
fn add_to<const N: usize>(total: &mut [f64; N], sums: &[f64; N]) {
    for (sum, value) in total.iter_mut().zip(sums) {
        *sum += *value;
    }
}

/// `N` sums over `0..len`: `partial(range)` reduces one chunk, and the chunk results are added
/// in chunk order, so the result does not depend on the thread count.
pub(crate) fn ordered_sums<const N: usize>(
    len: usize,
    partial: impl Fn(Range<usize>) -> [f64; N] + Sync + Send,
) -> [f64; N] {
    let chunks = len.div_ceil(CHUNK);
    if len < PARALLEL_MIN {
        let mut total = [0.0; N];
        for chunk in 0..chunks {
            add_to(
                &mut total,
                &partial(chunk * CHUNK..((chunk + 1) * CHUNK).min(len)),
            );
        }
        return total;
    }
    let partials = workers::map(chunks, |chunk| {
        partial(chunk * CHUNK..((chunk + 1) * CHUNK).min(len))
    });
    add_in_order(&partials)
}

/// The per-chunk results of `f` over `0..len`, in chunk order (for gathering variable-length
/// outputs such as contact lists).
pub(crate) fn map_chunks<R: Send>(
    len: usize,
    f: impl Fn(Range<usize>) -> R + Sync + Send,
) -> Vec<R> {
    let chunks = len.div_ceil(CHUNK);
    if len < PARALLEL_MIN {
        return (0..chunks)
            .map(|chunk| f(chunk * CHUNK..((chunk + 1) * CHUNK).min(len)))
            .collect();
    }
    workers::map(chunks, |chunk| {
        f(chunk * CHUNK..((chunk + 1) * CHUNK).min(len))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum_with_threads(threads: usize, values: &[f64]) -> f64 {
        let workers = workers::Workers::new(threads).unwrap();
        workers.install(|| ordered_sums(values.len(), |r| [values[r].iter().sum::<f64>()])[0])
    }

    #[test]
    fn ordered_sum_is_bitwise_equal_for_1_to_4_threads() {
        // Values spanning many magnitudes, so that a different addition order would change bits.
        let values: Vec<f64> = (0..10_000i64)
            .map(|i| ((i * 7919 % 1000) as f64 - 500.0) * 10f64.powi((i % 13) as i32 - 6))
            .collect();
        let reference = sum_with_threads(1, &values);
        for threads in 2..=4 {
            assert_eq!(
                sum_with_threads(threads, &values).to_bits(),
                reference.to_bits()
            );
        }
        let exact: f64 = values.iter().sum();
        assert!((reference - exact).abs() <= 1e-9 * values.iter().map(|v| v.abs()).sum::<f64>());
    }

    #[test]
    fn chunks_cover_every_item_once() {
        let mut data = vec![0u32; 3 * CHUNK + 17];
        for_chunks(&mut data, |first, items| {
            for (k, item) in items.iter_mut().enumerate() {
                *item += (first + k) as u32;
            }
        });
        assert!(data.iter().enumerate().all(|(i, &v)| v == i as u32));
        let lists = map_chunks(data.len(), |r| r.len());
        assert_eq!(lists.iter().sum::<usize>(), data.len());
        assert_eq!(lists.len(), 4);
    }
}
