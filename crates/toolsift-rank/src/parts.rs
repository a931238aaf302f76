//! A large batch of documents analyzed in parts, on threads.
//!
//! Analysis (splitting, folding, stemming, the memos, staging each document's postings) is
//! most of an update's work and needs nothing from the other documents of the batch but
//! the term ids of their words. So the parts run [`Job::run`] side by side (through
//! [`parallel_map`]), against the index's vocabulary as it was before the batch, read only: a
//! word the vocabulary has gets its id, a word it lacks gets a provisional id past the
//! vocabulary's end, from the part's own table of new words ([`PartWords`]). Then, on the calling thread, each part's new words are
//! interned into the vocabulary in order, part after part, and the part's postings are
//! renumbered to the ids they got.
//!
//! One thread interns a word when it first meets it, and its documents in order; the parts
//! meet the same words in the same order, part after part, so every word gets the id one
//! thread gives it, and the staged postings are the same, bit for bit (the field lengths and
//! frequencies are per document, and each document is analyzed whole by one part).

use crate::document::Document;
use crate::postings::shift_code;
use crate::staging::{Job, Staged, Terms};
use crate::vocab::{StrTable, Vocab};
use toolsift_text::parallel_map;

/// A part has at least this many documents. Starting a thread costs about 100 µs here and
/// the thread starts about 200 µs later, with empty buffers and memos: a replacement of one
/// server's 98 tools (59 KB) took as long in two parts as on one thread (720 to 780 µs
/// against 720 to 730), so only builds and other large batches are split. (Unit tests split
/// small batches, to test the parts.)
#[cfg(not(test))]
const PART_MIN_DOCS: usize = 256;
#[cfg(test)]
const PART_MIN_DOCS: usize = 4;

/// A part has at least this many bytes of text.
#[cfg(not(test))]
const PART_MIN_BYTES: usize = 256 << 10;
#[cfg(test)]
const PART_MIN_BYTES: usize = 64;

/// Batches are split only while the vocabulary and the batch stay far below the `u32` ids
/// and string offsets, so that interning a part's words cannot fail (one thread would drop
/// a word it cannot intern before counting it in its document's field length).
const MAX_USED: usize = 1 << 30;

/// Where the parts of `docs` (`bytes` of text in all) start: one part (`[0]`) unless the
/// batch is large enough for several, at most `threads`
/// ([`Config::parallelism`](crate::Config::parallelism)), each of at least [`PART_MIN_DOCS`]
/// documents and [`PART_MIN_BYTES`] bytes, of about equal text. `used` is
/// the larger of the vocabulary's word count and its string bytes: a batch that could bring
/// it near [`MAX_USED`] is one part (its new words, and their bytes, are counted as at most 4
/// per byte of text: folding and CJK bigrams make a few bytes more than they read).
pub(crate) fn split(
    docs: &[Document<'_>],
    bytes: usize,
    threads: usize,
    used: usize,
) -> Vec<usize> {
    let n = threads.min(docs.len() / PART_MIN_DOCS).min(bytes / PART_MIN_BYTES).max(1);
    if n == 1 || used.saturating_add(bytes.saturating_mul(4)) >= MAX_USED {
        return vec![0];
    }
    let mut starts = vec![0];
    let mut seen = 0;
    for (i, doc) in docs.iter().enumerate() {
        // Part `k` starts at the first document past `k / n` of the text.
        if seen * n >= bytes * starts.len() && i >= starts.last().map_or(0, |&s| s) + PART_MIN_DOCS
        {
            starts.push(i);
            if starts.len() == n {
                break;
            }
        }
        seen += doc.fields.iter().map(|(_, text)| text.len()).sum::<usize>();
    }
    starts
}

/// The words of one part that the vocabulary lacked, with provisional ids `base + i` in the
/// order the part met them.
#[derive(Default)]
struct NewWords {
    base: u32,
    words: StrTable,
    /// The stem of each new word, in one string.
    stems: String,
    /// End offset of each new word's stem in `stems`.
    stem_ends: Vec<u32>,
}

impl NewWords {
    /// The new words with their stems, in order.
    fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let stems = self.stem_ends.iter().scan(0, |start, &end| {
            let stem = self.stems.get(*start as usize..end as usize).unwrap_or_default();
            *start = end;
            Some(stem)
        });
        (0..self.words.len() as u32).map(|i| self.words.get(i)).zip(stems)
    }
}

/// The term ids of one part: the vocabulary's, read only, then the part's [`NewWords`].
struct PartWords<'v> {
    vocab: &'v Vocab,
    new: NewWords,
}

impl Terms for PartWords<'_> {
    #[inline]
    fn id(&mut self, word: &str, stem: &str) -> Option<u32> {
        if let Some(t) = self.vocab.words.find(word) {
            return Some(t);
        }
        let new = &mut self.new;
        if let Some(i) = new.words.find(word) {
            return new.base.checked_add(i);
        }
        // Every check first, so that a word that does not fit leaves the tables as they were.
        let end = u32::try_from(new.stems.len() + stem.len()).ok()?;
        let id = new.base.checked_add(u32::try_from(new.words.len()).ok()?)?;
        new.words.push(word)?;
        new.stems.push_str(stem);
        new.stem_ends.push(end);
        Some(id)
    }
}

/// What one part staged, and the words it found new.
struct PartOut {
    new: NewWords,
    staged: Staged,
}

/// Analyzes `docs` in the parts that start at `starts` (as [`split`] gives them), on up to one
/// thread a part ([`parallel_map`]), and returns what one [`Job::run`] over all of them
/// stages, with the new words interned into `vocab` in the order it would.
pub(crate) fn run(
    job: &Job<'_>,
    vocab: &mut Vocab,
    starts: &[usize],
    docs: &[Document<'_>],
    fields: &[usize],
    first: u32,
    lens: &mut [f32],
) -> Staged {
    let nf = job.nf;
    // Each part's documents, field indices, first ordinal and field lengths.
    let mut pieces = Vec::with_capacity(starts.len());
    let (mut fields, mut lens) = (fields, lens);
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(docs.len());
        let part = docs.get(start..end).unwrap_or_default();
        let nfields = part.iter().map(|d| d.fields.len()).sum::<usize>().min(fields.len());
        let (part_fields, rest) = fields.split_at(nfields);
        fields = rest;
        let cut = (part.len() * nf).min(lens.len());
        let (part_lens, rest) = std::mem::take(&mut lens).split_at_mut(cut);
        lens = rest;
        pieces.push((part, part_fields, first + start as u32, part_lens));
    }
    let shared: &Vocab = vocab;
    let base = u32::try_from(shared.words.len()).unwrap_or(u32::MAX);
    let analyze = |(part, part_fields, part_first, part_lens): (
        &[Document<'_>],
        &[usize],
        u32,
        &mut [f32],
    )| {
        let mut words = PartWords { vocab: shared, new: NewWords { base, ..NewWords::default() } };
        let bytes = part.iter().flat_map(|d| &d.fields).map(|(_, text)| text.len()).sum();
        let mut staged = Staged::for_bytes(bytes);
        job.run(&mut words, part, part_fields, part_first, part_lens, &mut staged);
        PartOut { new: words.new, staged }
    };
    let threads = pieces.len();
    let outs = parallel_map(pieces, threads, analyze);
    merge(vocab, outs)
}

/// Interns each part's new words into `vocab`, part after part, and returns the parts' staged
/// postings one after the other, renumbered to the ids the words got.
///
/// The first part's new words are interned first, in the order it met them, so they get the
/// ids it gave them: its arrays are kept as they are, and the others' appended to them.
fn merge(vocab: &mut Vocab, outs: Vec<PartOut>) -> Staged {
    let total: usize = outs.iter().map(|o| o.staged.term.len()).sum();
    let mut staged = Staged::default();
    for (k, PartOut { new, staged: part }) in outs.into_iter().enumerate() {
        let base = new.base;
        let ids: Vec<Option<u32>> = new.iter().map(|(w, s)| vocab.intern(w, s)).collect();
        let provisional = ids.iter().zip(base..).all(|(&id, p)| id == Some(p));
        if k == 0 && provisional {
            staged = part;
            let more = total - staged.term.len();
            staged.term.reserve_exact(more);
            staged.doc.reserve_exact(more);
            staged.code.reserve_exact(more);
            continue;
        }
        let shift = staged.extra.len();
        let Staged { term, doc, code, extra, .. } = part;
        for ((t, d), c) in term.into_iter().zip(doc).zip(code) {
            let t = match t.checked_sub(base) {
                Some(i) => ids.get(i as usize).copied().flatten(),
                None => Some(t),
            };
            // `split` leaves room for every id, so a word always gets one; a posting whose
            // word did not would be dropped, as one thread drops its tokens.
            if let Some(t) = t {
                staged.term.push(t);
                staged.doc.push(d);
                staged.code.push(shift_code(c, shift));
            }
        }
        staged.extra.extend_from_slice(&extra);
    }
    staged
}
