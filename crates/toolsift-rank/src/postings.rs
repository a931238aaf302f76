//! The flat postings: every (term, document) pair in three parallel arrays, in slot order.
//!
//! Slot `s` (see [`crate::vocab`]) owns postings `offsets[s]..offsets[s + 1]`, sorted by
//! document ordinal. Per posting the index stores the document (4 bytes), the BM25F
//! pseudo-frequency (4 bytes, worked out for a whole slot when a search first reads it) and
//! the per-field term frequencies, packed into one `u32` when they are integral and either in
//! one field (of the first 16) or in the first three fields with at most 1,023 each (together
//! the nearly universal case), and otherwise pointing into a side array of (field mask,
//! frequencies). Search reads only the first two arrays.

/// A tf code with this bit set points into [`Postings::extra`].
const EXTRA: u32 = 1 << 31;
/// A tf code with this bit set (and not [`EXTRA`]) holds the frequencies of fields 0, 1 and 2
/// in 10 bits each, from the lowest bits up.
const MULTI: u32 = 1 << 30;
/// Fields and the largest frequency a [`MULTI`] code holds.
const MULTI_FIELDS: usize = 3;
const MULTI_BITS: u32 = 10;
const MULTI_MAX: f32 = 1023.0;
/// A single-field code holds the field (below 16) in bits 26 to 29 and the frequency below.
const FIELD_SHIFT: u32 = 26;
const MAX_INLINE_FIELD: usize = 16;
const TF_MASK: u32 = (1 << FIELD_SHIFT) - 1;
/// The largest frequency stored inline (integers up to 2^24 are exact in `f32`).
const MAX_INLINE_TF: f32 = 16_777_216.0;

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32};

#[derive(Debug, Default)]
pub(crate) struct Postings {
    /// Start of each slot's postings, and the total at the end.
    pub(crate) offsets: Vec<usize>,
    /// Document ordinal per posting.
    pub(crate) doc: Vec<u32>,
    /// Pseudo-frequency per posting (`f32` bits), `Σ_f w_f · tf_f / (1 − b_f + b_f · len_f /
    /// avg_f)`: valid in the slots [`Postings::ensure`] has scored since the last layout.
    pf: Vec<AtomicU32>,
    /// Packed per-field term frequencies per posting.
    pub(crate) tf: Vec<u32>,
    /// Term frequencies that do not fit a packed code: a field mask, then one `f32` (as bits)
    /// per field in the mask, in field order.
    pub(crate) extra: Vec<u32>,
    /// The largest pseudo-frequency of each slot (`f32` bits), valid as `pf` is.
    max_pf: Vec<AtomicU32>,
    /// Per slot, whether its pseudo-frequencies are still to be worked out.
    stale: Vec<AtomicBool>,
    /// The field factors the pseudo-frequencies are worked out from: `nf` per document,
    /// `w_f / (1 − b_f + b_f · len_f / avg_f)`.
    factor: Vec<f32>,
    nf: usize,
}

/// A clone taken while other threads search (and score slots) is consistent: the flags are
/// read first, so a slot the clone holds as scored had its values written before they are
/// copied; a slot scored later is still to be scored in the clone.
impl Clone for Postings {
    fn clone(&self) -> Postings {
        let stale = self.stale.iter().map(|a| AtomicBool::new(a.load(Acquire))).collect();
        let copy = |v: &[AtomicU32]| v.iter().map(|a| AtomicU32::new(a.load(Relaxed))).collect();
        Postings {
            offsets: self.offsets.clone(),
            doc: self.doc.clone(),
            pf: copy(&self.pf),
            tf: self.tf.clone(),
            extra: self.extra.clone(),
            max_pf: copy(&self.max_pf),
            stale,
            factor: self.factor.clone(),
            nf: self.nf,
        }
    }
}

impl Postings {
    /// The postings of slots `start..end`.
    #[inline]
    pub(crate) fn range(&self, start: u32, end: u32) -> std::ops::Range<usize> {
        match (self.offsets.get(start as usize), self.offsets.get(end as usize)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        }
    }

    /// The position of document `d` in slot `slot`, if it has a posting there.
    #[inline]
    pub(crate) fn find(&self, slot: u32, d: u32) -> Option<usize> {
        let r = self.range(slot, slot + 1);
        let docs = &self.doc[r.clone()];
        match (docs.first(), docs.last()) {
            (Some(&first), Some(&last)) if first <= d && d <= last => {
                docs.binary_search(&d).ok().map(|i| r.start + i)
            }
            _ => None,
        }
    }

    /// The per-field frequencies of posting `i` into `row` (zeroed first).
    pub(crate) fn tf_row(&self, i: usize, row: &mut [f32]) {
        row.iter_mut().for_each(|t| *t = 0.0);
        decode(self.tf[i], &self.extra, |f, t| {
            if let Some(slot) = row.get_mut(f) {
                *slot = t;
            }
        });
    }

    /// Renumbers the documents by `remap` (old ordinal → new) in place, in one pass over the
    /// documents, and moves each slot's offset back by the postings of the documents it maps
    /// to `u32::MAX` (or does not map) before it. Those postings stay in the arrays (their
    /// document reads `u32::MAX`) while `offsets` count only the kept ones: the layout copies
    /// the kept ones out with [`OldRuns`], which skips the others, so the arrays are not
    /// compacted first and every kept posting moves once, not twice. The pseudo-frequencies
    /// are left as they were, for [`Postings::laid_out`] to reuse.
    ///
    /// Returns the dropped postings as (slot, old ordinal) pairs, in slot order, and their
    /// positions in the arrays, ascending.
    pub(crate) fn renumber(&mut self, remap: &[u32]) -> (Vec<(u32, u32)>, Vec<usize>) {
        // The dropped postings' positions (ascending) and documents: few, as an update
        // removes a group.
        let mut dropped = Vec::new();
        for (r, d) in self.doc.iter_mut().enumerate() {
            let new = remap.get(*d as usize).copied().unwrap_or(u32::MAX);
            if new == u32::MAX {
                note_dropped(&mut dropped, r, *d);
            }
            *d = new;
        }
        // Each offset moves back by the postings dropped before it; a dropped posting before
        // the start of slot `s` and not before the start of `s - 1` is in `s - 1`.
        let mut gone = Vec::with_capacity(dropped.len());
        for (slot, off) in self.offsets.iter_mut().enumerate() {
            while let Some(&(p, od)) = dropped.get(gone.len())
                && p < *off
            {
                gone.push((slot.saturating_sub(1) as u32, od));
            }
            *off -= gone.len();
        }
        (gone, dropped.into_iter().map(|(p, _)| p).collect())
    }

    /// Postings laid out as `offsets`, `doc` and `tf` (whose spilled frequencies are in
    /// `spilled`), with the field factors (`nf` per document) their pseudo-frequencies are
    /// worked out from, slot by slot, when [`Postings::ensure`] is first asked for the slot.
    /// `pf` is an allocation to reuse: its contents are not read.
    ///
    /// So an update works out no pseudo-frequency: only the slots that searches read, when
    /// they first read them.
    ///
    /// The spilled frequencies are copied in posting order into an array of their own first
    /// (seldom any), so that scoring a slot only reads.
    pub(crate) fn laid_out(
        offsets: Vec<usize>,
        doc: Vec<u32>,
        mut tf: Vec<u32>,
        mut pf: Vec<AtomicU32>,
        spilled: &[u32],
        factor: Vec<f32>,
        nf: usize,
    ) -> Postings {
        let mut extra = Vec::new();
        if !spilled.is_empty() {
            for code in &mut tf {
                *code = copy_code(*code, spilled, &mut extra);
            }
            extra.shrink_to_fit();
        }
        let n = doc.len().min(tf.len());
        pf.truncate(n);
        pf.reserve_exact(n - pf.len());
        pf.resize_with(n, AtomicU32::default);
        pf.shrink_to_fit();
        let slots = offsets.len().saturating_sub(1);
        let max_pf = (0..slots).map(|_| AtomicU32::default()).collect();
        let stale = (0..slots).map(|_| AtomicBool::new(true)).collect();
        Postings { offsets, doc, pf, tf, extra, max_pf, stale, factor, nf }
    }

    /// Works out the pseudo-frequencies and the largest of each of slots `start..end` not
    /// worked out since the postings were laid out. Every reader of [`Postings::pf`] or
    /// [`Postings::max_pf`] asks this first for the slots it reads.
    ///
    /// Safe to call from several threads at once: two that score the same slot write the
    /// same values, and a slot reads as scored only after its values are written.
    #[inline]
    pub(crate) fn ensure(&self, start: u32, end: u32) {
        for slot in start..end {
            if self.stale.get(slot as usize).is_some_and(|s| s.load(Acquire)) {
                self.score_slot(slot);
            }
        }
    }

    /// Scores every slot: for a caller that reads them all.
    #[cfg(test)]
    pub(crate) fn ensure_all(&self) {
        self.ensure(0, u32::try_from(self.stale.len()).unwrap_or(u32::MAX));
    }

    /// The pseudo-frequency of posting `i`, of a slot [`Postings::ensure`] has scored.
    #[inline]
    pub(crate) fn pf(&self, i: usize) -> f32 {
        self.pf.get(i).map_or(0.0, |p| f32::from_bits(p.load(Relaxed)))
    }

    /// The documents and pseudo-frequencies of postings `r`, of slots
    /// [`Postings::ensure`] has scored.
    #[inline]
    pub(crate) fn docs_pfs(
        &self,
        r: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (u32, f32)> + '_ {
        let docs = self.doc.get(r.clone()).unwrap_or_default();
        let pfs = self.pf.get(r).unwrap_or_default();
        docs.iter().zip(pfs).map(|(&d, p)| (d, f32::from_bits(p.load(Relaxed))))
    }

    /// The largest pseudo-frequency of slot `slot`, once [`Postings::ensure`] has scored it.
    #[inline]
    pub(crate) fn max_pf(&self, slot: u32) -> f32 {
        self.max_pf.get(slot as usize).map_or(0.0, |m| f32::from_bits(m.load(Relaxed)))
    }

    /// Scores slot `slot` (out of line: each slot is scored once per layout).
    #[inline(never)]
    fn score_slot(&self, slot: u32) {
        let r = self.range(slot, slot + 1);
        let (Some(docs), Some(codes), Some(out)) =
            (self.doc.get(r.clone()), self.tf.get(r.clone()), self.pf.get(r))
        else {
            return;
        };
        let mut max = 0f32;
        for ((&d, &code), out) in docs.iter().zip(codes).zip(out) {
            let p = pseudo_frequency(code, &self.extra, &self.factor, d as usize * self.nf);
            // Pseudo-frequencies are never NaN, so `>` keeps what `f32::max` would.
            if p > max {
                max = p;
            }
            out.store(p.to_bits(), Relaxed);
        }
        if let Some(m) = self.max_pf.get(slot as usize) {
            m.store(max.to_bits(), Relaxed);
        }
        if let Some(s) = self.stale.get(slot as usize) {
            s.store(false, Release);
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        8 * self.offsets.capacity()
            + 4 * (self.doc.capacity()
                + self.pf.capacity()
                + self.tf.capacity()
                + self.extra.capacity()
                + self.max_pf.capacity()
                + self.factor.capacity())
            + self.stale.capacity()
    }

    /// The length and capacity of the pseudo-frequency array, and the slots the per-slot
    /// arrays hold (each of them checked to hold that many).
    #[cfg(test)]
    pub(crate) fn layout_sizes(&self) -> (usize, usize, usize) {
        let slots = self.stale.len();
        assert_eq!(self.max_pf.len(), slots);
        (self.pf.len(), self.pf.capacity(), slots)
    }

    /// Whether slot `slot` is scored.
    #[cfg(test)]
    pub(crate) fn is_scored(&self, slot: u32) -> bool {
        self.stale.get(slot as usize).is_some_and(|s| !s.load(Acquire))
    }

    /// Takes the pseudo-frequency array, for [`Postings::laid_out`] to reuse.
    pub(crate) fn take_pf(&mut self) -> Vec<AtomicU32> {
        std::mem::take(&mut self.pf)
    }
}

/// The old postings, read in the kept postings' order after [`Postings::renumber`]: runs of
/// them are copied out by their positions among the kept postings, the dropped ones skipped.
pub(crate) struct OldRuns<'a> {
    doc: &'a [u32],
    tf: &'a [u32],
    /// Positions of the dropped postings in `doc` and `tf`, ascending.
    dropped: &'a [usize],
    /// Dropped postings passed.
    next: usize,
    /// Position in `doc` and `tf`.
    at: usize,
    /// Kept postings copied (or passed).
    kept: usize,
}

impl<'a> OldRuns<'a> {
    /// The postings of `old`, whose `dropped` positions are left out.
    pub(crate) fn new(old: &'a Postings, dropped: &'a [usize]) -> OldRuns<'a> {
        OldRuns { doc: &old.doc, tf: &old.tf, dropped, next: 0, at: 0, kept: 0 }
    }

    /// Appends the kept postings up to (not including) the `to`-th to `doc` and `tf`.
    pub(crate) fn copy_to(&mut self, to: usize, doc: &mut Vec<u32>, tf: &mut Vec<u32>) {
        while self.kept < to {
            let drop_at = self.dropped.get(self.next).copied().unwrap_or(usize::MAX);
            let n = drop_at.saturating_sub(self.at).min(to - self.kept);
            let run = self.at..self.at + n;
            doc.extend_from_slice(self.doc.get(run.clone()).unwrap_or_default());
            tf.extend_from_slice(self.tf.get(run).unwrap_or_default());
            self.at += n;
            self.kept += n;
            if self.at == drop_at {
                self.at += 1;
                self.next += 1;
            }
        }
    }
}

/// Records that the posting at `r`, of document `od`, was dropped: out of line, as it
/// seldom happens.
#[cold]
#[inline(never)]
fn note_dropped(dropped: &mut Vec<(usize, u32)>, r: usize, od: u32) {
    dropped.push((r, od));
}

/// Whether `t` is an integer in `1..=max` (`max` at most 2^24, where every integer is exact).
#[inline]
fn whole_in(t: f32, max: f32) -> bool {
    (1.0..=max).contains(&t) && ((t as u32) as f32).to_bits() == t.to_bits()
}

/// `t` as an integer if it is one in `0..=1023` (`+0.0` included, `-0.0` not): a frequency
/// a [`MULTI`] code holds.
#[inline]
fn small_whole(t: f32) -> Option<u32> {
    let u = t as u32;
    ((u as f32).to_bits() == t.to_bits() && u <= MULTI_MAX as u32).then_some(u)
}

/// Packs a row of per-field frequencies, spilling into `extra` when it must.
///
/// One pass over the row decides between the three forms: a single nonzero field (below 16,
/// an integer up to 2^24), the first three fields with integers up to 1,023 (zeros elsewhere),
/// or a spill.
#[inline]
pub(crate) fn encode(row: &[f32], extra: &mut Vec<u32>) -> u32 {
    if let &[a, b, c] = row
        && let (Some(a), Some(b), Some(c)) = (small_whole(a), small_whole(b), small_whole(c))
    {
        // Three fields of integers up to 1,023 (zeros included), the index's usual shape: the
        // code the general rules below give, without deciding per field.
        let nonzero = u32::from(a != 0) + u32::from(b != 0) + u32::from(c != 0);
        if nonzero == 1 {
            let field = if a != 0 {
                0
            } else if b != 0 {
                1
            } else {
                2
            };
            return (field << FIELD_SHIFT) | a | b | c;
        }
        return MULTI | a | (b << MULTI_BITS) | (c << (2 * MULTI_BITS));
    }
    encode_general(row, extra)
}

/// [`encode`] for any row: the rules themselves.
#[inline]
fn encode_general(row: &[f32], extra: &mut Vec<u32>) -> u32 {
    let mut nonzero = 0usize;
    let mut field = 0usize;
    let mut multi = MULTI;
    let mut packable = true;
    for (f, &t) in row.iter().enumerate() {
        if t != 0.0 {
            nonzero += 1;
            field = f;
            if f < MULTI_FIELDS && whole_in(t, MULTI_MAX) {
                multi |= (t as u32) << (MULTI_BITS * f as u32);
            } else {
                packable = false;
            }
        }
    }
    if nonzero == 1 && field < MAX_INLINE_FIELD && whole_in(row[field], MAX_INLINE_TF) {
        return ((field as u32) << FIELD_SHIFT) | row[field] as u32;
    }
    if packable {
        return multi;
    }
    spill(row, extra)
}

/// Spills a row into `extra`: its field mask, then its nonzero frequencies.
#[cold]
fn spill(row: &[f32], extra: &mut Vec<u32>) -> u32 {
    let at = extra.len() as u32 & !EXTRA;
    let mut mask = 0u32;
    for (f, &t) in row.iter().enumerate().take(32) {
        if t != 0.0 {
            mask |= 1 << f;
        }
    }
    extra.push(mask);
    extra.extend(row.iter().take(32).filter(|&&t| t != 0.0).map(|t| t.to_bits()));
    EXTRA | at
}

/// Calls `f(field, tf)` for each field with a nonzero frequency, in field order.
#[inline]
pub(crate) fn decode(code: u32, extra: &[u32], mut f: impl FnMut(usize, f32)) {
    if code & (EXTRA | MULTI) == 0 {
        f((code >> FIELD_SHIFT) as usize, (code & TF_MASK) as f32);
        return;
    }
    if code & EXTRA == 0 {
        for field in 0..MULTI_FIELDS {
            let t = code >> (MULTI_BITS * field as u32) & ((1 << MULTI_BITS) - 1);
            if t != 0 {
                f(field, t as f32);
            }
        }
        return;
    }
    let at = (code & !EXTRA) as usize;
    let Some(&mask) = extra.get(at) else { return };
    let mut j = at + 1;
    for field in 0..32 {
        if mask >> field & 1 == 1 {
            f(field, extra.get(j).map_or(0.0, |&b| f32::from_bits(b)));
            j += 1;
        }
    }
}

/// Copies a code's spilled frequencies from `from` to `to`, returning the new code.
#[inline]
pub(crate) fn copy_code(code: u32, from: &[u32], to: &mut Vec<u32>) -> u32 {
    if code & EXTRA == 0 { code } else { copy_spilled(code, from, to) }
}

/// [`copy_code`] for a code that spilled.
#[cold]
fn copy_spilled(code: u32, from: &[u32], to: &mut Vec<u32>) -> u32 {
    let at = (code & !EXTRA) as usize;
    let mask = from.get(at).copied().unwrap_or(0);
    let len = 1 + mask.count_ones() as usize;
    let new = to.len() as u32 & !EXTRA;
    to.extend_from_slice(from.get(at..at + len).unwrap_or(&[0]));
    EXTRA | new
}

/// A code whose spilled frequencies move `by` places further into their array.
#[inline]
pub(crate) fn shift_code(code: u32, by: usize) -> u32 {
    if code & EXTRA == 0 {
        return code;
    }
    EXTRA | ((code & !EXTRA) as usize + by) as u32 & !EXTRA
}

/// `Σ_f tf_f · factor[at + f]` over the fields with a nonzero tf, in field order: the same
/// arithmetic for every posting, whatever its history. `factor[at..]` is the document's row of
/// field factors.
#[inline]
pub(crate) fn pseudo_frequency(code: u32, extra: &[u32], factor: &[f32], at: usize) -> f32 {
    let fac = |f: usize| factor.get(at + f).copied().unwrap_or(0.0);
    if code & (EXTRA | MULTI) == 0 {
        let t = (code & TF_MASK) as f32;
        return 0.0 + t * fac((code >> FIELD_SHIFT) as usize);
    }
    let mut pf = 0.0f32;
    decode(code, extra, |f, t| pf += t * fac(f));
    pf
}

#[cfg(test)]
mod encode_tests {
    use super::{encode, encode_general};

    #[test]
    fn the_three_field_path_gives_the_codes_of_the_rules() {
        let values = [
            0.0,
            -0.0,
            1.0,
            2.0,
            0.5,
            1.5,
            3.0,
            1022.0,
            1023.0,
            1024.0,
            70_000.0,
            -1.0,
            f32::NAN,
            f32::INFINITY,
            4_294_967_296.0,
        ];
        for &a in &values {
            for &b in &values {
                for &c in &values {
                    let row = [a, b, c];
                    let (mut fast, mut general) = (Vec::new(), Vec::new());
                    let got = encode(&row, &mut fast);
                    let want = encode_general(&row, &mut general);
                    assert_eq!(got, want, "{row:?}");
                    assert_eq!(fast, general, "{row:?}");
                }
            }
        }
    }
}
