//! The request rules' word lists: `data/words.txt`, parsed once per process.

use std::sync::LazyLock;

/// The word lists file, one `[section]` per list.
const WORDS: &str = include_str!("../data/words.txt");

macro_rules! word_lists {
    ($($field:ident),* $(,)?) => {
        /// Every list of `data/words.txt`, by section name; a list keeps the file's order.
        #[derive(Debug, Default)]
        pub(crate) struct Words {
            $(pub(crate) $field: Box<[&'static str]>,)*
            /// The `[programs]` as keys ([`crate::implied`]), in the same order.
            pub(crate) program_keys: Box<[u128]>,
        }

        impl Words {
            /// The list of section `name`, if there is one.
            fn list_mut(&mut self, name: &str) -> Option<&mut Box<[&'static str]>> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// Every section name with its list, in the order above.
            #[cfg(test)]
            pub(crate) fn lists(&self) -> Vec<(&'static str, &[&'static str])> {
                vec![$((stringify!($field), &*self.$field),)*]
            }
        }
    };
}

word_lists!(
    question_words,
    states,
    state_before,
    negations,
    negation_filler,
    query_parameters,
    operation_parameters,
    programs,
    extensions,
    domains,
    errand_cut,
    carriers,
    naming,
    saying,
    context,
    when,
    connection,
    documents,
    past,
    searching,
    subjects,
    after_subject,
    new_thing,
    determiners,
    numbers,
    lead,
    object_end,
    complement,
    particles,
    product_place,
);

/// The word lists, parsed the first time they are asked for.
pub(crate) fn lists() -> &'static Words {
    static PARSED: LazyLock<Words> = LazyLock::new(|| parse(WORDS));
    &PARSED
}

/// Parses a word lists file: `[section]` lines start a list, `#` lines are comments, every
/// other line's words (separated by white space) join the current list. Words outside a known
/// section are ignored (a unit test holds the file to the sections above).
fn parse(text: &'static str) -> Words {
    let mut words = Words::default();
    let mut current: Option<&'static str> = None;
    let mut pending: Vec<&'static str> = Vec::new();
    let finish = |words: &mut Words, name: Option<&str>, list: &mut Vec<&'static str>| {
        if let Some(slot) = name.and_then(|n| words.list_mut(n)) {
            *slot = std::mem::take(list).into_boxed_slice();
        }
        list.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            finish(&mut words, current, &mut pending);
            current = Some(name);
            continue;
        }
        pending.extend(line.split_whitespace());
    }
    finish(&mut words, current, &mut pending);
    words.program_keys =
        words.programs.iter().map(|p| crate::implied::program_key(p.as_bytes())).collect();
    words
}

#[cfg(test)]
mod tests {
    use super::{WORDS, lists};

    #[test]
    fn every_section_is_read_and_none_is_empty() {
        let sections: Vec<&str> = WORDS
            .lines()
            .filter_map(|l| l.trim().strip_prefix('[').and_then(|l| l.strip_suffix(']')))
            .collect();
        let all = lists().lists();
        let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
        let mut sorted_sections = sections.clone();
        sorted_sections.sort_unstable();
        let mut sorted_names = names.clone();
        sorted_names.sort_unstable();
        assert_eq!(sorted_sections, sorted_names, "the file's sections are the lists read");
        for (name, list) in all {
            assert!(!list.is_empty(), "[{name}] is empty");
        }
    }

    #[test]
    fn binary_searched_lists_are_sorted() {
        let w = lists();
        for (name, list) in
            [("when", &w.when), ("extensions", &w.extensions), ("programs", &w.programs)]
        {
            assert!(list.windows(2).all(|p| p[0] < p[1]), "[{name}] is not sorted");
        }
    }
}
