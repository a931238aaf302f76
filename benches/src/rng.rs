//! [`SplitMix64`]: a tiny seeded random number generator, so generated inputs are the same on
//! every run and every machine without a `rand` dependency.

/// Steele, Lea and Flood's SplitMix64: a 64-bit state advanced by a constant and mixed by two
/// multiply-xorshift rounds. Statistically fine for choosing words; not for cryptography.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), by Lemire's multiply-shift (the bias is below
    /// `n / 2^64`, far too small to matter here).
    pub fn below(&mut self, n: usize) -> usize {
        let wide = u128::from(self.next_u64()) * n as u128;
        // The high half of a 64x64 product of a value below 2^64 and `n` is below `n`.
        usize::try_from(wide >> 64).unwrap_or(0)
    }

    /// A number in `lo..=hi` (`lo` when `hi < lo`).
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo).saturating_add(1))
    }

    /// A random element of `items`, `None` when it is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}
