//! `cargo xtask eval --typos SEED`: the same datasets with one typo in every query, to measure
//! how ranking and abstention hold up when an agent (or its user) misspells a word.
//!
//! In each query one word of at least five ASCII letters, picked at random, gets one edit at
//! a random inner position (never its first or last letter): a letter deleted, a letter
//! inserted, a letter replaced, or two neighbours swapped. Queries without such a word are
//! left out. The labels stay as they are; each kept query gets the tag `typo`, and the dataset
//! is renamed `<name>-typo`. The random choices come from SplitMix64 seeded by the seed and the
//! query id, so a query's typo does not depend on the other queries, and a seed gives the same
//! dataset on every machine.

use crate::dataset::{Dataset, Query};

/// SplitMix64: a tiny, well-mixed generator; enough to pick positions and letters.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, id: &str) -> Rng {
        // FNV-1a of the id, mixed with the seed.
        let h = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        Rng(h ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `ds` with one typo per query (see the module documentation).
pub(crate) fn with_typos(ds: &Dataset, seed: u64) -> Dataset {
    let mut out = ds.clone();
    out.name = format!("{}-typo", ds.name);
    // Reports name what was evaluated: the dataset, and the seed that changed its queries.
    out.content_hash = format!("{}+typos{seed}", ds.content_hash);
    out.queries = ds.queries.iter().filter_map(|q| misspell(q, seed)).collect();
    out
}

fn misspell(q: &Query, seed: u64) -> Option<Query> {
    let mut rng = Rng::new(seed, &q.id);
    // Byte ranges of the runs of ASCII letters of five or more.
    let bytes = q.text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i - start >= 5 {
            words.push((start, i));
        }
        i = i.max(start + 1);
    }
    let &(start, end) = words.get(rng.below(words.len().max(1)))?;
    let mut word: Vec<u8> = bytes[start..end].to_vec();
    let original = word.clone();
    // An inner position: not the first letter, and the edit leaves the last letter alone.
    let at = 1 + rng.below(word.len() - 2);
    let letter = b'a' + rng.below(26) as u8;
    match rng.below(4) {
        0 => {
            word.remove(at);
        }
        1 => word.insert(at, letter),
        2 => {
            word[at] = if word[at].eq_ignore_ascii_case(&letter) {
                b'a' + (letter - b'a' + 1) % 26
            } else {
                letter
            }
        }
        _ => {
            // Swapping at the last inner position would move the last letter.
            let at = at.min(word.len() - 3);
            word.swap(at, at + 1);
        }
    }
    if word.eq_ignore_ascii_case(&original) {
        // Swapping two equal letters changes nothing: drop a letter instead.
        word.remove(at);
    }
    let mut text = String::with_capacity(q.text.len() + 1);
    text.push_str(&q.text[..start]);
    text.push_str(std::str::from_utf8(&word).ok()?);
    text.push_str(&q.text[end..]);
    let mut tags = q.tags.clone();
    tags.push("typo".to_owned());
    Some(Query {
        id: q.id.clone(),
        text,
        relevant: q.relevant.clone(),
        tags,
        group: q.group.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn query(id: &str, text: &str) -> Query {
        Query {
            id: id.into(),
            text: text.into(),
            relevant: BTreeMap::new(),
            tags: Vec::new(),
            group: None,
        }
    }

    #[test]
    fn one_inner_edit_in_one_long_word() {
        for (id, text) in [("a", "open a pull request"), ("b", "list repositories"), ("c", "slack")]
        {
            for seed in 0..50 {
                let q = misspell(&query(id, text), seed).expect("has a long word");
                assert_ne!(q.text, text);
                assert_eq!(q.tags, ["typo"]);
                // Exactly one word changed, its first and last letters kept.
                let (old, new): (Vec<&str>, Vec<&str>) =
                    (text.split(' ').collect(), q.text.split(' ').collect());
                assert_eq!(old.len(), new.len());
                let changed: Vec<(&&str, &&str)> =
                    old.iter().zip(&new).filter(|(a, b)| a != b).collect();
                assert_eq!(changed.len(), 1, "{text} → {}", q.text);
                let (a, b) = changed[0];
                assert_eq!(a.as_bytes()[0], b.as_bytes()[0]);
                assert_eq!(a.as_bytes().last(), b.as_bytes().last());
                assert!(toolsift::text::within_one_edit(a, b), "{a} → {b}");
                // The same seed and id give the same typo.
                assert_eq!(misspell(&query(id, text), seed).map(|q| q.text), Some(q.text));
            }
        }
        assert!(misspell(&query("d", "list pods"), 1).is_none(), "no word of five letters");
    }
}
