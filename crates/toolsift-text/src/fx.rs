//! [`FxBuild`]: a fast hash for the crate's lookup tables of short words.

use std::hash::{BuildHasher, Hasher};

/// A fast hash for short keys (FxHash's multiply-rotate over 8-byte words, with the chunk
/// memo's multiplier). The tables that use it are only looked up, never iterated, so their
/// order cannot reach any output.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FxBuild;

/// The hasher of [`FxBuild`].
pub(crate) struct Fx(u64);

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(crate::memo::K);
    }
}

impl BuildHasher for FxBuild {
    type Hasher = Fx;

    fn build_hasher(&self) -> Fx {
        Fx(0)
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(word));
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
