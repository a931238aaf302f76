//! The scoring model of docs/ranking.md, one function per part: a field's length
//! normalisation, BM25's saturation, the inverse document frequency, and one query term's
//! score. Indexing, search, the merged lists and `explain` all call these, so a score is the
//! same bits whichever path computed it.

/// `w / (1 − b + b · len / avg)`: the factor that turns a field's tf into its share of the
/// pseudo-frequency. The one place this is computed, for indexing and
/// [`Index::explain`](crate::Index::explain) alike.
#[inline]
pub(crate) fn field_norm(b: f32, len: f32, avg: f32) -> f32 {
    if avg > 0.0 { 1.0 - b + b * len / avg } else { 1.0 }
}

/// BM25's saturation of a pseudo-frequency, `sat(x) = x (k1 + 1) / (x + k1)`: one `f32`
/// expression everywhere, so a score is the same bits whether `sat(x)` was computed now or
/// kept in a merged list.
#[inline(always)]
pub(crate) fn saturate(x: f32, k1: f32) -> f32 {
    x * (k1 + 1.0) / (x + k1)
}

/// BM25 inverse document frequency, always positive.
pub(crate) fn idf(n: usize, df: u32) -> f32 {
    let n = n as f64;
    let df = f64::from(df).min(n);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

/// One query term's score in a document: `qw · idf · sat(x)`.
#[inline]
pub(crate) fn term_score(weight: f32, idf: f32, x: f32, k1: f32) -> f32 {
    if x <= 0.0 {
        return 0.0;
    }
    weight * idf * saturate(x, k1)
}
