//! Which characters belong to the Han, Hiragana, Katakana and Hangul scripts.
//!
//! These scripts are written without spaces between words, so the analyzer does not look for
//! words in them: a run of such characters (grapheme clusters, to be exact) is emitted as
//! overlapping bigrams, and a run of one as that single character. A run ends at any separator
//! and at any character of another script, so `使用GitHub搜索` gives `使用`, `github`, `搜索`.

/// Whether `c` is a Han, Hiragana, Katakana or Hangul character (including the iteration marks
/// and the halfwidth and compatibility forms).
#[inline]
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF          // Hangul Jamo
        | 0x3005..=0x3007        // 々 〆 〇
        | 0x3021..=0x3029        // Hangzhou numerals
        | 0x3031..=0x3035        // kana repeat marks
        | 0x3038..=0x303C
        | 0x3040..=0x30FF        // Hiragana, Katakana
        | 0x3130..=0x318F        // Hangul Compatibility Jamo
        | 0x31F0..=0x31FF        // Katakana Phonetic Extensions
        | 0x3400..=0x4DBF        // CJK Extension A
        | 0x4E00..=0x9FFF        // CJK Unified Ideographs
        | 0xA960..=0xA97F        // Hangul Jamo Extended-A
        | 0xAC00..=0xD7FF        // Hangul Syllables, Jamo Extended-B
        | 0xF900..=0xFAFF        // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F        // Halfwidth Katakana
        | 0xFFA0..=0xFFDC        // Halfwidth Hangul
        | 0x1B000..=0x1B16F      // Kana Supplement, Extended-A, Small Kana
        | 0x20000..=0x323AF      // CJK Extensions B–H, Compatibility Supplement
    )
}
