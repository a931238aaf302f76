//! `for_each_edit`: every word at distance 1, each once, and nothing for other words;
//! `within_one_edit`: exactly the pairs at distance 0 or 1.

use proptest::prelude::*;
use toolsift_text::{for_each_edit, within_one_edit};

/// Optimal-string-alignment distance (Damerau–Levenshtein with adjacent swaps), small inputs.
fn distance(a: &[u8], b: &[u8]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

fn edits(word: &str, min_len: usize) -> Vec<String> {
    let mut out = Vec::new();
    for_each_edit(word, min_len, |w| out.push(w.to_owned()));
    out
}

#[test]
fn typos_of_a_word_reach_it() {
    for (typo, word) in [("reposetory", "repository"), ("isuue", "issue"), ("craete", "create")] {
        let found = edits(typo, 5).contains(&word.to_owned());
        assert_eq!(found, distance(typo.as_bytes(), word.as_bytes()) == 1, "{typo} → {word}");
    }
    assert!(edits("pul_request", 5).is_empty(), "not a lowercase ASCII word");
    assert!(edits("Issue", 5).is_empty());
    assert!(edits("日本語です", 1).is_empty());
    assert!(edits("", 0).is_empty());
    // A word of n letters has at most 54 n + 25 variants.
    assert!(edits("abcdefg", 5).len() <= 54 * 7 + 25);
}

#[test]
fn within_one_edit_cases() {
    for (a, b, want) in [
        ("issue", "issue", true),
        ("isue", "issue", true),
        ("issue", "isue", true),
        ("isseu", "issue", true),
        ("ossue", "issue", true),
        ("issuex", "issue", true),
        ("siuse", "issue", false),
        ("isuee", "issue", false),
        ("is", "issue", false),
        ("", "a", true),
        ("", "", true),
        ("ab", "ba", true),
        ("abc", "cba", false),
        ("café", "cafe", false),
    ] {
        assert_eq!(within_one_edit(a, b), want, "{a} ~ {b}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// `within_one_edit` is the distance-at-most-1 test, symmetric, and holds for exactly the
    /// variants `for_each_edit` emits.
    #[test]
    fn within_one_edit_is_distance_at_most_one(a in "[abc]{0,6}", b in "[abc]{0,6}") {
        let d = distance(a.as_bytes(), b.as_bytes());
        prop_assert_eq!(within_one_edit(&a, &b), d <= 1, "{} ~ {}", a, b);
        prop_assert_eq!(within_one_edit(&a, &b), within_one_edit(&b, &a));
        if !a.is_empty() {
            prop_assert_eq!(edits(&a, 1).contains(&b), d == 1, "{} → {}", a, b);
        }
    }

    /// Every variant is at distance exactly 1, comes once, and the count is the size of the
    /// distance-1 neighbourhood over `a`–`z` (checked against a brute-force search on short
    /// words over a small alphabet).
    #[test]
    fn variants_are_the_distance_one_neighbourhood(word in "[abc]{1,5}") {
        let got = edits(&word, 1);
        let mut sorted = got.clone();
        sorted.sort();
        sorted.dedup();
        prop_assert_eq!(sorted.len(), got.len(), "duplicates in {:?}", got);
        for w in &got {
            prop_assert_eq!(distance(word.as_bytes(), w.as_bytes()), 1, "{} → {}", word, w);
        }
        // Brute force over words of length n-1..=n+1 from the alphabet {a, b, c, d}: every one
        // at distance 1 is emitted.
        let alphabet = b"abcd";
        let n = word.len();
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=n + 1 {
            let mut next = Vec::new();
            for w in all.iter().filter(|w| w.len() == len - 1) {
                for &c in alphabet {
                    let mut v = w.clone();
                    v.push(c);
                    next.push(v);
                }
            }
            all.extend(next);
        }
        for cand in all.iter().filter(|c| c.len() + 1 >= n && c.len() <= n + 1) {
            if distance(word.as_bytes(), cand) == 1 {
                let s = String::from_utf8(cand.clone()).unwrap_or_default();
                prop_assert!(got.contains(&s), "{} missing {}", word, s);
            }
        }
    }
}
