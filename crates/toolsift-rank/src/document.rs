//! [`Document`]: what is indexed, and [`DocId`]: the handle that comes back.

use std::borrow::Cow;
use std::fmt;

/// The handle of an indexed document.
///
/// Ids are handed out in insertion order, starting at 0, and are never reused: a document keeps
/// its id until it is removed, and a document added later always has a larger id. Ranking ties
/// are broken by the documents' [order](Document::order) keys (by default the insertion
/// sequence, the id itself), then by ascending id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(transparent))]
pub struct DocId(pub(crate) u32);

impl DocId {
    /// The id as a number (insertion sequence number).
    pub fn get(self) -> u32 {
        self.0
    }
}

impl fmt::Display for DocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One document to index: text per field, exact keys, an optional group and an optional
/// tie-break [order](Document::order).
///
/// Texts borrow from the caller where they can (`&str`) and own where they must (`String`).
///
/// # Example
///
/// ```
/// use toolsift_rank::Document;
/// let doc = Document::new()
///     .field("name", "create_issue")
///     .field("summary", "Create a new issue in a GitHub repository.")
///     .key("create_issue")
///     .key("mcp__github__create_issue")
///     .group("github");
/// assert_eq!(doc.group_name(), Some("github"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document<'a> {
    pub(crate) fields: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    pub(crate) keys: Vec<Cow<'a, str>>,
    pub(crate) group: Option<Cow<'a, str>>,
    pub(crate) order: Option<u64>,
}

impl<'a> Document<'a> {
    /// An empty document.
    pub fn new() -> Document<'a> {
        Document::default()
    }

    /// Adds text to the field called `name`; a field given twice gets both texts, in order.
    pub fn field(mut self, name: impl Into<Cow<'a, str>>, text: impl Into<Cow<'a, str>>) -> Self {
        self.fields.push((name.into(), text.into()));
        self
    }

    /// Adds an exact key: a query equal to it, ignoring case and the separators `_`, `-`, `.`
    /// and spaces (`createIssue`, `create-issue` and `create issue` all equal `create_issue`),
    /// ranks this document first; so does a query written as one identifier that equals it
    /// but for the number of one word (`create_issues`) or the abbreviation of a word
    /// (`create_pr` for `create_pull_request`), when no key equals the query.
    pub fn key(mut self, key: impl Into<Cow<'a, str>>) -> Self {
        self.keys.push(key.into());
        self
    }

    /// Puts the document in a group, for [`Index::replace_group`](crate::Index::replace_group).
    pub fn group(mut self, group: impl Into<Cow<'a, str>>) -> Self {
        self.group = Some(group.into());
        self
    }

    /// Sets the tie-break key: documents with equal scores rank by ascending order key, then
    /// by ascending [`DocId`]. By default a document's key is its insertion sequence (the
    /// number of its [`DocId`]), so ties follow insertion order.
    ///
    /// A host whose documents have a natural order (a catalog position) sets it, so ties keep
    /// that order even after a group is replaced and its documents get new, larger ids.
    ///
    /// ```
    /// use toolsift_rank::{Document, Index};
    /// let mut index = Index::builder().build()?;
    /// let ids = index.add([
    ///     Document::new().field("name", "list issues").order(2),
    ///     Document::new().field("name", "list issues").order(1),
    /// ])?;
    /// let hits = index.search("list issues", 2);
    /// assert_eq!(hits.hits()[0].doc(), ids[1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn order(mut self, order: u64) -> Self {
        self.order = Some(order);
        self
    }

    /// The tie-break key set with [`Document::order`], if any.
    pub fn order_key(&self) -> Option<u64> {
        self.order
    }

    /// The group the document is in, if any.
    pub fn group_name(&self) -> Option<&str> {
        self.group.as_deref()
    }
}
