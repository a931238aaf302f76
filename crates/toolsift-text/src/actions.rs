//! [`Actions`]: which words of the intent lexicon's action groups read, write or delete.
//!
//! A request says what it wants done ("list", "show", "upload", "remove"), and so does a tool's
//! name (`delete-onedrive-file`, `CreateCall`). Where both say it, they should agree: a request
//! to upload a file is not answered by a tool that deletes one, nor a request to look something
//! up by a tool that changes it. The ranker's caller decides what to do with a disagreement;
//! this table only says which kind of action a word names.
//!
//! The data is `data/actions.txt`: per kind, the lexicon groups (by their first member) that
//! are actions of that kind. Every member of such a group, by the stem it is looked up by in
//! the lexicon, names that kind.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxBuildHasher;

use crate::analyzer::Analyzer;
use crate::error::{Error, ErrorKind};
use crate::lexicon::{DEFAULT_GROUPS, Member, data_lines};

/// The built-in action kinds: `kind = group, group` a line.
const DEFAULT_KINDS: &str = include_str!("../data/actions.txt");

/// The kind of action a word names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Reads without changing anything: list, get, search, count, download.
    Read,
    /// Changes something: create, update, send, move, approve, upload.
    Write,
    /// Deletes something (a write that cannot be taken back): delete, remove, purge.
    Delete,
}

impl Action {
    /// Whether the action changes something ([`Action::Write`] or [`Action::Delete`]).
    #[must_use]
    pub fn writes(self) -> bool {
        matches!(self, Action::Write | Action::Delete)
    }

    /// The kind's name as the data writes it: `read`, `write` or `delete`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Read => "read",
            Action::Write => "write",
            Action::Delete => "delete",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which stems name which [`Action`]: the members of the lexicon's action groups, by kind.
///
/// ```
/// use toolsift_text::{Action, Actions, Analyzer};
///
/// let analyzer = Analyzer::default();
/// let actions = Actions::default();
/// let of = |word: &str| actions.action(&analyzer.stem(word));
/// assert_eq!(of("fetch"), Some(Action::Read));
/// assert_eq!(of("upload"), Some(Action::Write));
/// assert_eq!(of("remove"), Some(Action::Delete));
/// assert_eq!(of("lookup"), Some(Action::Read)); // "look up", written together
/// assert_eq!(of("invoice"), None); // a thing, not an action
///
/// let custom = Actions::from_data(&analyzer, "erase, wipe\nshow, display", "delete = erase")?;
/// assert_eq!(custom.action(&analyzer.stem("wipe")), Some(Action::Delete));
/// assert_eq!(custom.action(&analyzer.stem("show")), None);
/// # Ok::<(), toolsift_text::Error>(())
/// ```
#[derive(Clone)]
pub struct Actions {
    table: Arc<HashMap<Box<str>, Action, FxBuildHasher>>,
}

impl Default for Actions {
    /// The built-in kinds of the built-in lexicon groups, under [`Analyzer::default`]; built
    /// once per process and then cloned.
    fn default() -> Self {
        static DEFAULT: OnceLock<Actions> = OnceLock::new();
        DEFAULT.get_or_init(|| Actions::with_analyzer(&Analyzer::default())).clone()
    }
}

impl fmt::Debug for Actions {
    /// A summary: the table holds hundreds of stems.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Actions").field("stems", &self.table.len()).finish()
    }
}

impl Actions {
    /// The built-in kinds (`data/actions.txt`) of the built-in lexicon groups
    /// (`data/lexicon.txt`), keyed by the stems of `analyzer`.
    #[must_use]
    pub fn with_analyzer(analyzer: &Analyzer) -> Actions {
        // The built-in data is tested to parse; an error could only leave the table empty.
        Actions::from_data(analyzer, DEFAULT_GROUPS, DEFAULT_KINDS)
            .unwrap_or_else(|_| Actions { table: Arc::new(HashMap::with_hasher(FxBuildHasher)) })
    }

    /// The kinds in `kinds` (`kind = group, group` a line, `#` starts a comment) of the groups
    /// in `groups` (the lexicon's format: members separated by commas, one group a line), keyed
    /// by `analyzer`'s stems. A group is named by its first member as written. A stem in
    /// groups of several kinds keeps the first kind listed for it.
    ///
    /// # Errors
    ///
    /// On a line of `kinds`: [`ErrorKind::MissingEquals`] without `=`,
    /// [`ErrorKind::EmptySide`] with nothing on one side, [`ErrorKind::UnknownAction`] for a
    /// kind other than `read`, `write` and `delete`, [`ErrorKind::UnknownGroup`] for a name that
    /// starts no group of `groups`.
    pub fn from_data(analyzer: &Analyzer, groups: &str, kinds: &str) -> Result<Actions, Error> {
        let mut by_head: HashMap<&str, Vec<&str>> = HashMap::new();
        for (_, line) in data_lines(groups) {
            let members: Vec<&str> =
                line.split(',').map(str::trim).filter(|m| !m.is_empty()).collect();
            if let Some(&head) = members.first() {
                by_head.entry(head).or_insert(members);
            }
        }
        let mut table = HashMap::with_hasher(FxBuildHasher);
        for (i, line) in data_lines(kinds) {
            let (kind, rest) =
                line.split_once('=').ok_or(Error::new(ErrorKind::MissingEquals, i))?;
            let action = match kind.trim() {
                "read" => Action::Read,
                "write" => Action::Write,
                "delete" => Action::Delete,
                "" => return Err(Error::new(ErrorKind::EmptySide, i)),
                _ => return Err(Error::new(ErrorKind::UnknownAction, i)),
            };
            let heads: Vec<&str> =
                rest.split(',').map(str::trim).filter(|h| !h.is_empty()).collect();
            if heads.is_empty() {
                return Err(Error::new(ErrorKind::EmptySide, i));
            }
            for head in heads {
                let members = by_head.get(head).ok_or(Error::new(ErrorKind::UnknownGroup, i))?;
                for member in members.iter().filter_map(|m| Member::of(analyzer, m)) {
                    for key in member.keys() {
                        table.entry(key.into()).or_insert(action);
                    }
                }
            }
        }
        Ok(Actions { table: Arc::new(table) })
    }

    /// The kind of action the word with stem `stem` names, if it is a member of an action
    /// group of a kind.
    #[must_use]
    pub fn action(&self, stem: &str) -> Option<Action> {
        self.table.get(stem).copied()
    }

    /// How many stems name an action.
    #[must_use]
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether no stem names an action.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(actions: &Actions, word: &str) -> Option<Action> {
        actions.action(&Analyzer::default().stem(word))
    }

    #[test]
    fn built_in_data_parses_and_names_every_kind() {
        let actions =
            Actions::from_data(&Analyzer::default(), DEFAULT_GROUPS, DEFAULT_KINDS).unwrap();
        assert!(actions.len() > 100, "{}", actions.len());
        for (word, want) in [
            ("list", Action::Read),
            ("show", Action::Read),
            ("find", Action::Read),
            ("export", Action::Read),
            ("create", Action::Write),
            ("edit", Action::Write),
            ("post", Action::Write),
            ("transfer", Action::Write),
            ("cancel", Action::Write),
            ("purge", Action::Delete),
            ("trash", Action::Delete),
        ] {
            assert_eq!(of(&actions, word), Some(want), "{word}");
        }
        // Groups of no kind, and things.
        for word in ["run", "navigate", "click", "issue", "repository", "the"] {
            assert_eq!(of(&actions, word), None, "{word}");
        }
    }

    #[test]
    fn joined_members_are_keyed_by_their_joined_stem() {
        let actions = Actions::default();
        assert_eq!(of(&actions, "lookup"), Some(Action::Read));
        assert_eq!(of(&actions, "shutdown"), Some(Action::Write));
        // The words of a phrase member are not actions on their own.
        assert_eq!(of(&actions, "look"), None);
    }

    #[test]
    fn bad_kind_lines_name_their_line() {
        let a = Analyzer::default();
        let groups = "erase, wipe\nshow, display";
        let err = |kinds: &str| Actions::from_data(&a, groups, kinds).unwrap_err();
        assert_eq!(err("# c\nread show").kind(), ErrorKind::MissingEquals);
        assert_eq!(err("# c\nread show").line(), 2);
        assert_eq!(err(" = show").kind(), ErrorKind::EmptySide);
        assert_eq!(err("read = ").kind(), ErrorKind::EmptySide);
        assert_eq!(err("peek = show").kind(), ErrorKind::UnknownAction);
        assert_eq!(err("read = display").kind(), ErrorKind::UnknownGroup);
    }

    #[test]
    fn the_first_kind_listed_for_a_stem_wins() {
        let a = Analyzer::default();
        let actions =
            Actions::from_data(&a, "show, view\nview, display", "read = show\ndelete = view")
                .unwrap();
        assert_eq!(actions.action("view"), Some(Action::Read));
        assert_eq!(actions.action("display"), Some(Action::Delete));
    }
}
