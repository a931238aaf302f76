//! Exact keys: normalization and the interned key table.

use crate::vocab::StrTable;

/// Whether `c` is one of the key separators, which are all treated alike.
fn is_separator(c: char) -> bool {
    matches!(c, '_' | '-' | '.') || c.is_whitespace()
}

/// Normalizes a key or a query for exact-key lookup into `out` (cleared first).
///
/// Lowercases and drops the separators (`_ - .` and whitespace). So `Create-Issue`,
/// `create__issue`, ` create issue `, `createIssue` and `CreateIssue` all normalize to
/// `createissue`: an agent that writes a tool's name in another naming convention (camelCase
/// for a snake_case tool) still names it. Other characters stay (`github/create_issue` →
/// `github/createissue`), so a server prefix cannot run into the tool name.
pub(crate) fn normalize_key_into(key: &str, out: &mut String) {
    out.clear();
    if key.is_ascii() {
        // Bytes, through a table, 64 at a time into a buffer on the stack: every byte is
        // written and the position moves past the ones that are not separators, so the loop
        // has no branch per byte (runs copied whole, a `memcpy` call and a lowercasing pass
        // each, cost three times as much on keys this short).
        let mut buf = [0u8; 64];
        for block in key.as_bytes().chunks(64) {
            let mut n = 0;
            for &b in block {
                let m = KEY_BYTES[b as usize];
                if let Some(slot) = buf.get_mut(n) {
                    *slot = m;
                }
                n += usize::from(m != DROP);
            }
            // ASCII in, ASCII out: always valid.
            out.push_str(std::str::from_utf8(buf.get(..n).unwrap_or_default()).unwrap_or_default());
        }
        return;
    }
    for c in key.chars() {
        if is_separator(c) {
            continue;
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
}

/// What [`KEY_BYTES`] maps a separator to.
const DROP: u8 = 0xff;

/// Per ASCII byte, what a normalized key holds instead: [`DROP`] for a separator, the
/// lowercase letter for a capital, the byte itself otherwise (bytes above 127 never occur:
/// the table serves ASCII keys only).
static KEY_BYTES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = if is_ascii_separator(byte) { DROP } else { byte.to_ascii_lowercase() };
        b += 1;
    }
    table
};

/// [`is_separator`] for an ASCII byte.
#[inline]
const fn is_ascii_separator(b: u8) -> bool {
    matches!(b, b'_' | b'-' | b'.' | b' ' | b'\t'..=b'\r')
}

/// Sorts (key id, document id) pairs, `keys` bounding the key ids.
///
/// A batch adds its pairs in ascending document order, so the pairs of each key are already in
/// order: a stable counting sort by key id sorts them, in time linear in the pairs and keys,
/// where a comparison sort of the 12 k pairs of a build of `all` cost 245 instructions each.
/// A small batch among many keys (one server's update), or pairs out of order within a key,
/// take the comparison sort; the result is the same sorted list either way.
fn sort_pairs(pairs: &mut Vec<(u32, u32)>, keys: usize) {
    let by_key_then_doc = |p: &[(u32, u32)]| p.windows(2).all(|w| w[0] <= w[1]);
    if pairs.len() < 64 || pairs.len() * 4 < keys || pairs.iter().any(|&(k, _)| k as usize >= keys)
    {
        pairs.sort_unstable();
        return;
    }
    let mut start = vec![0u32; keys + 1];
    for &(k, _) in pairs.iter() {
        start[k as usize + 1] += 1;
    }
    for k in 0..keys {
        start[k + 1] += start[k];
    }
    let mut sorted = vec![(0u32, 0u32); pairs.len()];
    for &pair in pairs.iter() {
        let at = &mut start[pair.0 as usize];
        sorted[*at as usize] = pair;
        *at += 1;
    }
    if !by_key_then_doc(&sorted) {
        sorted.sort_unstable();
    }
    *pairs = sorted;
}

/// Whether `query` is written as one identifier of two words or more: no white space, and its
/// words joined by `_`, `-` or `.`, or in camelCase (`list_page`, `getIssue`, `list-users`).
/// Such a query is a tool's name as the agent remembers it.
pub(crate) fn is_identifier(query: &str) -> bool {
    let q = query.trim();
    !q.is_empty()
        && q.len() <= 128
        && q.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && (q.trim_matches(['_', '-', '.']).contains(['_', '-', '.'])
            || q.as_bytes().windows(2).any(|w| {
                (w[0].is_ascii_lowercase() || w[0].is_ascii_digit()) && w[1].is_ascii_uppercase()
            }))
}

/// The words of an identifier ([`is_identifier`]), lowercased: split at `_`, `-`, `.` and
/// where a lowercase letter or digit meets an uppercase one (`getIssueById` → `get`,
/// `issue`, `by`, `id`).
fn identifier_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in query.trim().chars() {
        if matches!(c, '_' | '-' | '.') {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The other number of an English word, as names write it: `page` ↔ `pages`, `policy` ↔
/// `policies`, `box` ↔ `boxes`, `branch` ↔ `branches`. A word that ends in `s` without being
/// a plural (`status`) gives a form no key has (`statu`), which matches nothing. Words with a
/// digit and words under three letters (`id`, `v2`) are left as they are.
fn other_numbers(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    if word.len() < 3 || word.bytes().any(|b| b.is_ascii_digit()) {
        return out;
    }
    if let Some(stem) = word.strip_suffix("ies") {
        out.push(format!("{stem}y"));
    } else if let Some(stem) = word
        .strip_suffix("es")
        .filter(|s| s.ends_with(['s', 'x', 'z']) || s.ends_with("ch") || s.ends_with("sh"))
    {
        out.push(stem.to_owned());
    } else if let Some(stem) = word.strip_suffix('s').filter(|_| !word.ends_with("ss")) {
        out.push(stem.to_owned());
    } else if let Some(stem) = word.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
    {
        out.push(format!("{stem}ies"));
    } else if word.ends_with(['s', 'x', 'z']) || word.ends_with("ch") || word.ends_with("sh") {
        out.push(format!("{word}es"));
    } else {
        out.push(format!("{word}s"));
    }
    out
}

/// Words that names write in full or shortened, as (full, short) pairs: the abbreviations
/// of programming and APIs, written from general knowledge. A multi-word full form is
/// written with spaces (`pull request`).
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("administrator", "admin"),
    ("administrators", "admins"),
    ("application", "app"),
    ("applications", "apps"),
    ("attribute", "attr"),
    ("attributes", "attrs"),
    ("authentication", "auth"),
    ("certificate", "cert"),
    ("certificates", "certs"),
    ("configuration", "config"),
    ("configurations", "configs"),
    ("credential", "cred"),
    ("credentials", "creds"),
    ("database", "db"),
    ("databases", "dbs"),
    ("definition", "def"),
    ("definitions", "defs"),
    ("dependencies", "deps"),
    ("dependency", "dep"),
    ("description", "desc"),
    ("directories", "dirs"),
    ("directory", "dir"),
    ("document", "doc"),
    ("documents", "docs"),
    ("environment", "env"),
    ("environments", "envs"),
    ("identifier", "id"),
    ("identifiers", "ids"),
    ("information", "info"),
    ("message", "msg"),
    ("messages", "msgs"),
    ("organization", "org"),
    ("organizations", "orgs"),
    ("parameter", "param"),
    ("parameters", "params"),
    ("pull request", "pr"),
    ("pull requests", "prs"),
    ("reference", "ref"),
    ("references", "refs"),
    ("repositories", "repos"),
    ("repository", "repo"),
    ("specification", "spec"),
    ("specifications", "specs"),
    ("statistics", "stats"),
    ("temporary", "temp"),
    ("utilities", "utils"),
    ("variable", "var"),
    ("variables", "vars"),
];

/// The other form of the word (or two-word phrase) of [`ABBREVIATIONS`] that starts at
/// `words[i]`, and how many words it takes there: `app` → `application`, `pull request` →
/// `pr`.
fn other_abbreviation(words: &[String], i: usize) -> Option<(&'static str, usize)> {
    let w = words.get(i)?;
    if let Some(next) = words.get(i + 1)
        && let Some(&(_, short)) = ABBREVIATIONS.iter().find(|(full, _)| {
            full.split_once(' ').is_some_and(|(a, b)| a == w.as_str() && b == next.as_str())
        })
    {
        return Some((short, 2));
    }
    ABBREVIATIONS.iter().find_map(|&(full, short)| {
        (full == w.as_str()).then_some((short, 1)).or((short == w.as_str()).then_some((full, 1)))
    })
}

/// The words of `words` with abbreviations in their other form ([`ABBREVIATIONS`]): first
/// with every one changed (`get_app_config` → `get application configuration`), then, when
/// there are several, with each one alone (`get application config`, `get app
/// configuration`), for names that abbreviate some words and not others.
fn other_abbreviations(words: &[String]) -> Vec<Vec<String>> {
    // (position, words taken, other form) of each abbreviation, left to right.
    let mut found = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match other_abbreviation(words, i) {
            Some((other, taken)) => {
                found.push((i, taken, other));
                i += taken;
            }
            None => i += 1,
        }
    }
    let with = |chosen: &[(usize, usize, &str)]| {
        let mut out = Vec::with_capacity(words.len() + 1);
        let mut i = 0;
        while let Some(w) = words.get(i) {
            match chosen.iter().find(|(at, _, _)| *at == i) {
                Some(&(_, taken, other)) => {
                    out.extend(other.split(' ').map(str::to_owned));
                    i += taken;
                }
                None => {
                    out.push(w.clone());
                    i += 1;
                }
            }
        }
        out
    };
    let mut out = Vec::new();
    if !found.is_empty() {
        out.push(with(&found));
    }
    if found.len() > 1 {
        out.extend(found.iter().map(|f| with(std::slice::from_ref(f))));
    }
    out
}

/// Normalized keys ([`normalize_key_into`]) of the identifier `query` as an agent may have
/// misremembered a tool's name, in tiers, the nearest first: with one of its words in the
/// other number ([`other_numbers`]: `listpages` for `list_page`); with abbreviations in full
/// or full words abbreviated ([`ABBREVIATIONS`], [`other_abbreviations`]: `getapplication`
/// for `get_app`); and those with one word in the other number (`listrepositories` for
/// `list_repo`).
pub(crate) fn name_variants(query: &str) -> [Vec<String>; 3] {
    let words = identifier_words(query);
    let abbreviated = other_abbreviations(&words);
    [
        number_variants(&words),
        abbreviated.iter().map(|w| w.concat()).collect(),
        abbreviated.iter().flat_map(|w| number_variants(w)).collect(),
    ]
}

/// Normalized keys of `words` (an identifier's words, lowercase) with one of them in the other
/// number ([`other_numbers`]), each word in turn: the first tier of [`name_variants`].
fn number_variants(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        for other in other_numbers(w) {
            let mut key = String::new();
            for (j, v) in words.iter().enumerate() {
                key.push_str(if i == j { &other } else { v });
            }
            out.push(key);
        }
    }
    out
}

/// Normalizes one key (see [`normalize_key_into`]).
#[cfg(test)]
pub(crate) fn normalize_key(key: &str) -> String {
    let mut s = String::with_capacity(key.len());
    normalize_key_into(key, &mut s);
    s
}

/// Normalized keys, interned, and the (key, document id) pairs, sorted.
///
/// Keys whose documents are all removed stay interned (and are reused if they return); they
/// match nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyTable {
    names: StrTable,
    /// (key id, document id), sorted and without duplicates.
    pairs: Vec<(u32, u32)>,
    /// Pairs added since the last [`KeyTable::finish`].
    pending: Vec<(u32, u32)>,
    norm: String,
}

impl KeyTable {
    /// Makes room for `additional` more keys (see [`StrTable::reserve`]); [`KeyTable::finish`]
    /// gives back what was not used.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.names.reserve(additional);
    }

    /// Adds `key` for document `id`; call [`KeyTable::finish`] before looking keys up.
    pub(crate) fn insert(&mut self, key: &str, id: u32) {
        let mut norm = std::mem::take(&mut self.norm);
        normalize_key_into(key, &mut norm);
        self.insert_normalized(&norm, id);
        self.norm = norm;
    }

    /// Adds an already normalized key for document `id`.
    fn insert_normalized(&mut self, norm: &str, id: u32) {
        if norm.is_empty() {
            return;
        }
        let k = match self.names.find(norm) {
            Some(k) => Some(k),
            None => self.names.push(norm),
        };
        if let Some(k) = k {
            self.pending.push((k, id));
        }
    }

    /// Merges the pairs added since the last call.
    pub(crate) fn finish(&mut self) {
        self.names.fit();
        if self.pending.is_empty() {
            return;
        }
        let mut new = std::mem::take(&mut self.pending);
        sort_pairs(&mut new, self.names.len());
        new.dedup();
        let old = std::mem::take(&mut self.pairs);
        let mut merged = Vec::with_capacity(old.len() + new.len());
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < new.len() {
            if old[i] <= new[j] {
                merged.push(old[i]);
                i += 1;
            } else {
                merged.push(new[j]);
                j += 1;
            }
        }
        merged.extend_from_slice(&old[i..]);
        merged.extend_from_slice(&new[j..]);
        merged.dedup();
        self.pairs = merged;
        self.names.shrink();
    }

    /// Drops every pair of the documents for which `keep` says false.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(u32) -> bool) {
        self.pairs.retain(|&(_, id)| keep(id));
    }

    /// Whether no document has a key.
    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The documents (ids, ascending) whose key equals the normalized query.
    pub(crate) fn get(&self, normalized: &str) -> impl Iterator<Item = u32> + '_ {
        let pairs = match self.names.find(normalized) {
            Some(k) => {
                let start = self.pairs.partition_point(|&(key, _)| key < k);
                let len = self.pairs[start..].partition_point(|&(key, _)| key == k);
                &self.pairs[start..start + len]
            }
            None => &[],
        };
        pairs.iter().map(|&(_, id)| id)
    }

    /// Every key with its documents, sorted by key.
    #[cfg(feature = "serde")]
    pub(crate) fn entries(&self) -> Vec<(String, Vec<u32>)> {
        let mut out: Vec<(String, Vec<u32>)> = Vec::new();
        let mut last = u32::MAX;
        for &(k, id) in &self.pairs {
            if k != last {
                out.push((self.names.get(k).to_owned(), Vec::new()));
                last = k;
            }
            if let Some(e) = out.last_mut() {
                e.1.push(id);
            }
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.names.heap_bytes() + 8 * (self.pairs.capacity() + self.pending.capacity())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_one_token_of_several_words() {
        for q in [
            "list_page",
            "getIssue",
            "list-users",
            "github.search_code",
            " create_pr ",
            "OAuth2Token",
        ] {
            assert!(is_identifier(q), "{q:?}");
        }
        for q in ["list", "list pages", "_private", "GET", "naïve_word", "", "a_b c"] {
            assert!(!is_identifier(q), "{q:?}");
        }
        assert_eq!(identifier_words("getIssueById"), ["get", "issue", "by", "id"]);
        assert_eq!(identifier_words("list__pull-Requests"), ["list", "pull", "requests"]);
        assert_eq!(identifier_words("OAuth2Token"), ["oauth2", "token"]);
    }

    #[test]
    fn one_word_in_the_other_number() {
        assert_eq!(other_numbers("page"), ["pages"]);
        assert_eq!(other_numbers("pages"), ["page"]);
        assert_eq!(other_numbers("policies"), ["policy"]);
        assert_eq!(other_numbers("policy"), ["policies"]);
        assert_eq!(other_numbers("key"), ["keys"]);
        assert_eq!(other_numbers("boxes"), ["box"]);
        assert_eq!(other_numbers("statuses"), ["status"]);
        assert_eq!(other_numbers("branch"), ["branches"]);
        assert_eq!(other_numbers("access"), ["accesses"]);
        assert!(other_numbers("id").is_empty());
        assert!(other_numbers("v2s").is_empty());
        assert_eq!(name_variants("list_page")[0], ["listspage", "listpages"]);
        assert_eq!(name_variants("getIssues")[0], ["getsissues", "getissue"]);
        assert!(
            name_variants("getIssues")[1].is_empty() && name_variants("getIssues")[2].is_empty()
        );
    }

    #[test]
    fn abbreviations_in_full_and_shortened() {
        let [number, abbreviated, both] = name_variants("get_app");
        assert_eq!(number, ["getsapp", "getapps"]);
        assert_eq!(abbreviated, ["getapplication"]);
        assert_eq!(both, ["getsapplication", "getapplications"]);
        // Several abbreviations: all changed, then each alone.
        assert_eq!(
            name_variants("add_app_to_admin_role")[1],
            [
                "addapplicationtoadministratorrole",
                "addapplicationtoadminrole",
                "addapptoadministratorrole"
            ]
        );
        assert!(name_variants("list_repositories")[1].contains(&"listrepos".to_owned()));
        assert!(name_variants("create_pr")[1].contains(&"createpullrequest".to_owned()));
        assert!(name_variants("createPullRequest")[1].contains(&"createpr".to_owned()));
        assert!(
            name_variants("getAppConfig")[1].contains(&"getapplicationconfiguration".to_owned())
        );
    }
}
