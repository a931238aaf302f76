//! Exact keys: normalization and the sorted key table.

use std::collections::BTreeMap;

/// Whether `c` is one of the key separators, which are all treated alike.
fn is_separator(c: char) -> bool {
    matches!(c, '_' | '-' | '.') || c.is_whitespace()
}

/// Normalizes a key or a query for exact-key lookup into `out` (cleared first).
///
/// Lowercases; every run of separators (`_ - .` and whitespace) becomes one `_`; leading and
/// trailing separators are dropped. So `Create-Issue`, `create__issue` and ` create issue ` all
/// normalize to `create_issue`.
pub(crate) fn normalize_key_into(key: &str, out: &mut String) {
    out.clear();
    let mut pending_sep = false;
    for c in key.chars() {
        if is_separator(c) {
            pending_sep = !out.is_empty();
            continue;
        }
        if pending_sep {
            out.push('_');
            pending_sep = false;
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
}

/// Normalizes one key (see [`normalize_key_into`]).
pub(crate) fn normalize_key(key: &str) -> String {
    let mut s = String::with_capacity(key.len());
    normalize_key_into(key, &mut s);
    s
}

/// Normalized key → documents (by id, ascending) carrying it.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyTable {
    pub(crate) map: BTreeMap<Box<str>, Vec<u32>>,
}

impl KeyTable {
    /// Adds `key` for document `id` (ids arrive in ascending order).
    pub(crate) fn insert(&mut self, key: &str, id: u32) {
        let norm = normalize_key(key);
        if norm.is_empty() {
            return;
        }
        let ids = self.map.entry(norm.into_boxed_str()).or_default();
        if ids.last() != Some(&id) {
            ids.push(id);
        }
    }

    /// Drops every key of the documents for which `removed` says true.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(u32) -> bool) {
        self.map.retain(|_, ids| {
            ids.retain(|&id| keep(id));
            !ids.is_empty()
        });
    }

    /// The documents whose key equals the normalized query.
    pub(crate) fn get(&self, normalized: &str) -> &[u32] {
        self.map.get(normalized).map_or(&[], |v| v.as_slice())
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.map.iter().map(|(k, v)| k.len() + v.capacity() * 4 + 64).sum()
    }
}
