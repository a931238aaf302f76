//! The chunk memo: the tokens of recently analyzed chunks, per thread, so that a chunk seen
//! before costs a hash lookup instead of splitting, folding, stopword lookups and stemming.
//!
//! A *chunk* is a run of non-whitespace (`getIssue`, `repository.`, `{owner}/{repo}`). Its
//! tokens depend only on its bytes and on the analyzer's configuration, never on the text
//! around it, and tool catalogs repeat the same chunks constantly (parameter names,
//! `the repository`, `ID of the issue`). An entry holds the chunk's tokens with their positions
//! relative to the chunk and the number of positions the chunk takes; replaying it gives
//! exactly the tokens analysis would give.
//!
//! Entries are keyed by the chunk's bytes *and* the analyzer's identity ([`Memo::replay`]
//! takes an owner id that is unique per [`build`](crate::AnalyzerBuilder::build)), so two
//! analyzers with different stemmers or stopwords never see each other's entries; clones of
//! one analyzer share theirs. The memo is bounded (32,768 entries, 65,536 tokens, 512 KiB of
//! words and stems, 512 KiB of keys, a table of at most 65,536 slots: about 3 MiB per thread
//! at most): when it is full it is emptied and fills again. It is only ever probed, never
//! iterated, so its layout cannot reach any output.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use crate::token::Origin;

/// The longest chunk (in bytes) the memo keeps; longer chunks (URLs, long paths) rarely
/// repeat.
pub(crate) const MAX_KEY: usize = 48;

/// [`MAX_KEY`] in 8-byte words.
const KEY_WORDS: usize = MAX_KEY / 8;

/// At most this many entries; the memo is emptied when one more would not fit.
const MAX_ENTRIES: usize = 1 << 15;

/// At most this many bytes of words and stems.
const MAX_BYTES: usize = 1 << 19;

/// At most this many tokens over all entries.
const MAX_TOKENS: usize = 1 << 16;

/// At most this many key words over all entries.
const MAX_KEY_WORDS: usize = 1 << 16;

/// The table starts with this many slots and doubles while entries exceed half of it.
const MIN_SLOTS: usize = 1 << 10;

/// A chunk as the memo sees it: its bytes in little-endian 8-byte words (the last one
/// zero-padded) and their running hash.
///
/// [`Scratch::next_chunk`](crate::split::Scratch::next_chunk) fills the key while it looks
/// for the end of an ASCII chunk, so a memo hit reads the chunk's bytes only once.
#[derive(Clone, Default)]
pub(crate) struct ChunkKey {
    /// The first [`KEY_WORDS`] words of the chunk.
    words: [u64; KEY_WORDS],
    /// How many words were added (more than [`KEY_WORDS`] for a long chunk).
    count: usize,
    /// The hash of the words added so far.
    hash: FxHasher,
    /// Whether the key holds all of the chunk's bytes; when not, [`ChunkKey::complete`]
    /// computes it from the chunk.
    pub(crate) ready: bool,
}

impl ChunkKey {
    /// Starts an empty key.
    #[inline]
    pub(crate) fn reset(&mut self) {
        self.count = 0;
        self.hash = FxHasher::default();
        self.ready = false;
    }

    /// Adds the next word of the chunk (zero-padded if it is the last and partial).
    #[inline]
    pub(crate) fn push(&mut self, word: u64) {
        if let Some(slot) = self.words.get_mut(self.count) {
            *slot = word;
        }
        self.count += 1;
        self.hash.write_u64(word);
    }

    /// Makes the key of `chunk` from scratch (when the scan could not build it on the way).
    pub(crate) fn complete(&mut self, chunk: &[u8]) {
        self.reset();
        for group in chunk.chunks(8) {
            let mut word = [0; 8];
            word[..group.len()].copy_from_slice(group);
            self.push(u64::from_le_bytes(word));
        }
        self.ready = true;
    }

    /// The words of a chunk of `len` bytes (`None` if it is longer than [`MAX_KEY`]).
    #[inline]
    fn words(&self, len: usize) -> Option<&[u64]> {
        self.words.get(..len.div_ceil(8))
    }

    /// The hash of a chunk of `len` bytes for analyzer `owner`: rustc-hash's `FxHasher` over
    /// its words, its length and the owner. The table's slot index takes its low bits, the
    /// slot's tag its high ones.
    #[inline]
    fn finish(&self, len: usize, owner: u64) -> u64 {
        let mut h = self.hash.clone();
        h.write_usize(len);
        h.write_u64(owner);
        h.finish()
    }
}

/// One slot of the open-addressing table.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The upper half of the entry's hash, to skip most mismatches without touching the entry.
    tag: u32,
    /// The entry index plus one; `0` marks an empty slot.
    entry: u32,
}

/// One memoized chunk.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The id of the analyzer that made the entry.
    owner: u64,
    /// The full hash, kept to place the entry again when the table grows.
    hash: u64,
    /// Index of the chunk's first word in [`Memo::keys`].
    key: u32,
    /// Length of the chunk in bytes (at most [`MAX_KEY`]).
    len: u8,
    /// Positions the chunk takes (its whole words and bigrams, dropped stopwords included).
    positions: u8,
    /// Index of the first token in [`Memo::tokens`].
    first: u32,
    /// Index one past the last token.
    last: u32,
}

/// One memoized token: ranges of [`Memo::bytes`] for its word and stem.
#[derive(Debug, Clone, Copy)]
struct MemoToken {
    /// Start of the word.
    word: u32,
    /// Start of the stem (the start of the word when the stem is a prefix of its word, as
    /// light stems usually are: they share the word's bytes).
    stem: u32,
    /// Length of the word.
    word_len: u8,
    /// Length of the stem.
    stem_len: u8,
    /// Where the token came from.
    origin: Origin,
    /// Position relative to the chunk's first position.
    offset: u8,
}

/// The chunk memo of one thread.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    /// Open-addressing table (linear probing); empty until the first insert, then a power of
    /// two at least twice the number of entries.
    slots: Vec<Slot>,
    /// The entries, in insertion order.
    entries: Vec<Entry>,
    /// The keys of all entries ([`ChunkKey`] words).
    keys: Vec<u64>,
    /// The tokens of all entries, each entry's tokens contiguous.
    tokens: Vec<MemoToken>,
    /// Words and stems.
    bytes: String,
}

/// A chunk being recorded after a miss.
#[derive(Debug)]
pub(crate) struct Recording {
    /// The final hash of the chunk.
    hash: u64,
    /// Length of the chunk in bytes.
    len: u8,
    /// Index of the chunk's key in [`Memo::keys`].
    key: usize,
    /// Length of [`Memo::bytes`] before the recording, to undo it.
    bytes_start: usize,
    /// Length of [`Memo::tokens`] before the recording.
    tokens_start: usize,
    /// Whether every token fitted; an entry is only kept if so.
    ok: bool,
}

impl Memo {
    /// Replays the entry for the chunk of `len` bytes with `key` made by analyzer `owner`, if
    /// there is one: calls `emit(word, stem, origin, offset)` for each of its tokens and
    /// returns the positions the chunk takes.
    #[inline]
    pub(crate) fn replay(
        &self,
        owner: u64,
        key: &ChunkKey,
        len: usize,
        mut emit: impl FnMut(&str, &str, Origin, u32),
    ) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let words = key.words(len)?;
        let hash = key.finish(len, owner);
        let mask = self.slots.len() - 1;
        let tag = (hash >> 32) as u32;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot.entry == 0 {
                return None;
            }
            if slot.tag == tag {
                let e = &self.entries[slot.entry as usize - 1];
                let at = e.key as usize;
                // Compared word by word: a slice comparison would call `memcmp`.
                let same = |stored: &[u64]| stored.iter().zip(words).all(|(a, b)| a == b);
                if usize::from(e.len) == len
                    && e.owner == owner
                    && self.keys.get(at..at + words.len()).is_some_and(same)
                {
                    for t in &self.tokens[e.first as usize..e.last as usize] {
                        let word = t.word as usize;
                        let stem = t.stem as usize;
                        emit(
                            &self.bytes[word..word + usize::from(t.word_len)],
                            &self.bytes[stem..stem + usize::from(t.stem_len)],
                            t.origin,
                            u32::from(t.offset),
                        );
                    }
                    return Some(u32::from(e.positions));
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Starts recording the tokens of the chunk of `len` bytes with `key` for analyzer
    /// `owner`, which [`Memo::replay`] did not find; empties the memo first if it is full.
    pub(crate) fn start(&mut self, owner: u64, key: &ChunkKey, len: usize) -> Recording {
        if self.entries.len() >= MAX_ENTRIES
            || self.bytes.len() + 4 * MAX_KEY > MAX_BYTES
            || self.tokens.len() + MAX_KEY > MAX_TOKENS
            || self.keys.len() + KEY_WORDS > MAX_KEY_WORDS
        {
            self.clear();
        }
        let at = self.keys.len();
        let words = key.words(len);
        self.keys.extend_from_slice(words.unwrap_or_default());
        Recording {
            hash: key.finish(len, owner),
            len: u8::try_from(len).unwrap_or(0),
            key: at,
            bytes_start: self.bytes.len(),
            tokens_start: self.tokens.len(),
            ok: words.is_some(),
        }
    }

    /// Records one token of the chunk being recorded.
    #[inline]
    pub(crate) fn record(
        &mut self,
        rec: &mut Recording,
        word: &str,
        stem: &str,
        origin: Origin,
        offset: u32,
    ) {
        let (Ok(word_len), Ok(stem_len), Ok(offset)) =
            (u8::try_from(word.len()), u8::try_from(stem.len()), u8::try_from(offset))
        else {
            rec.ok = false;
            return;
        };
        if !rec.ok
            || self.bytes.len() + word.len() + stem.len() > MAX_BYTES
            || self.tokens.len() >= MAX_TOKENS
        {
            rec.ok = false;
            return;
        }
        let word_at = self.bytes.len();
        self.bytes.push_str(word);
        let stem_at = if word.as_bytes().starts_with(stem.as_bytes()) {
            word_at
        } else {
            let at = self.bytes.len();
            self.bytes.push_str(stem);
            at
        };
        self.tokens.push(MemoToken {
            word: word_at as u32,
            stem: stem_at as u32,
            word_len,
            stem_len,
            origin,
            offset,
        });
    }

    /// Finishes a recording for analyzer `owner`: keeps the entry if every token fitted,
    /// else undoes it.
    pub(crate) fn finish(&mut self, rec: Recording, owner: u64, positions: u32) {
        let (Ok(positions), true) = (u8::try_from(positions), rec.ok) else {
            self.keys.truncate(rec.key);
            self.bytes.truncate(rec.bytes_start);
            self.tokens.truncate(rec.tokens_start);
            return;
        };
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        self.entries.push(Entry {
            owner,
            hash: rec.hash,
            key: rec.key as u32,
            len: rec.len,
            positions,
            first: rec.tokens_start as u32,
            last: self.tokens.len() as u32,
        });
        let entry = self.entries.len() as u32;
        self.place(rec.hash, entry);
    }

    /// Puts entry number `entry` (index plus one) with `hash` into the table.
    fn place(&mut self, hash: u64, entry: u32) {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i].entry != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = Slot { tag: (hash >> 32) as u32, entry };
    }

    /// Doubles the table (or makes the first one) and places every entry again.
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).max(MIN_SLOTS);
        self.slots = vec![Slot::default(); len];
        for n in 0..self.entries.len() {
            let hash = self.entries[n].hash;
            self.place(hash, n as u32 + 1);
        }
    }

    /// Forgets every entry, keeping the table's memory.
    fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.entries.clear();
        self.keys.clear();
        self.tokens.clear();
        self.bytes.clear();
    }
}
