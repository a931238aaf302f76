//! [`Analyzed`]: a text analyzed once, with its terms and its chunks.
//!
//! A ranker needs a request's terms; rules that read a request (negation, quotes, clauses,
//! file names and addresses) need the words as written, punctuation included. An
//! [`Analyzed`] holds both from one pass of the [`Analyzer`]: each term, and each *chunk* (a run
//! between white space, as the analyzer splits text first) with its span in the text and the
//! range of its terms. Words a caller adds ([`Analyzed::append`]) or a chunk it replaces
//! ([`Analyzed::replace_chunk`]) are analyzed alone and spliced in; the result equals analyzing
//! the edited text from scratch, because a chunk's terms depend only on its bytes.

use std::ops::Range;

use crate::analyzer::Analyzer;
use crate::token::{Origin, Token};

/// A text analyzed once: its terms and its chunks (runs between white space).
///
/// Built by [`Analyzer::analyze_text`]. The terms are those [`Analyzer::for_each_token`] gives,
/// in the same order and with the same positions; every chunk is kept, also one whose words
/// are all stopwords or that has no word at all (`—`).
///
/// ```
/// let analyzer = toolsift_text::Analyzer::default();
/// let mut request = analyzer.analyze_text("mail bob@example.com the notes");
/// // Replace the address by the kind of thing it is, and add a word.
/// request.replace_chunk(&analyzer, 1, "email");
/// request.append(&analyzer, "send");
/// assert_eq!(request.text(), "mail email the notes send");
/// assert_eq!(request, analyzer.analyze_text("mail email the notes send"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analyzed {
    /// The id of the analyzer that made it.
    owner: u64,
    /// The text, as edited.
    text: String,
    /// The words and stems of the terms, concatenated.
    words: String,
    /// The terms, in text order.
    terms: Vec<Slot>,
    /// The chunks, in text order.
    chunks: Vec<ChunkSlot>,
    /// The positions the text takes (the next term's position if one were added).
    positions: u32,
}

/// One term: ranges of [`Analyzed::words`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Slot {
    word: Range<u32>,
    stem: Range<u32>,
    origin: Origin,
    position: u32,
}

/// One chunk: its span in the text, its terms, and the first position it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ChunkSlot {
    span: Range<usize>,
    terms: Range<usize>,
    position: u32,
}

/// A run of [`Analyzed`] text between white space, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's text, punctuation included: `'main',` or `bob@example.com`.
    pub text: &'a str,
    /// Its byte range in [`Analyzed::text`].
    pub span: Range<usize>,
    /// The indexes of its terms in [`Analyzed::tokens`] (empty when the analyzer dropped or
    /// found no word in it).
    pub terms: Range<usize>,
}

/// Converts a length to `u32`, saturating (texts and word buffers over 4 GiB are not analyzed
/// whole by any caller; the ranges then stay valid but empty).
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Analyzed {
    /// Analyzes `text` with `analyzer`.
    pub(crate) fn new(analyzer: &Analyzer, text: &str) -> Analyzed {
        let mut out = Analyzed {
            owner: analyzer.id(),
            text: String::new(),
            words: String::new(),
            terms: Vec::new(),
            chunks: Vec::new(),
            positions: 0,
        };
        out.append_piece(analyzer, text, 0, 0);
        text.clone_into(&mut out.text);
        out
    }

    /// Analyzes `piece`, placed at byte `offset` of the text with its first position at
    /// `position`, and appends its terms and chunks.
    fn append_piece(&mut self, analyzer: &Analyzer, piece: &str, offset: usize, position: u32) {
        let Analyzed { words, terms, chunks, .. } = self;
        let first = chunks.len();
        // The number of terms so far, read by the chunk callback (the term callback holds
        // the terms).
        let count = std::cell::Cell::new(terms.len());
        let end = analyzer.for_each_chunk_token(
            piece,
            |span, at| {
                let n = count.get();
                chunks.push(ChunkSlot {
                    span: span.start + offset..span.end + offset,
                    terms: n..n,
                    position: position.saturating_add(at),
                });
            },
            |t| {
                let start = to_u32(words.len());
                words.push_str(t.word);
                let word = start..to_u32(words.len());
                // A stem that is a prefix of its word shares the word's bytes.
                let stem = if t.word.starts_with(t.stem) {
                    start..start.saturating_add(to_u32(t.stem.len()))
                } else {
                    let at = to_u32(words.len());
                    words.push_str(t.stem);
                    at..to_u32(words.len())
                };
                terms.push(Slot {
                    word,
                    stem,
                    origin: t.origin,
                    position: position.saturating_add(t.position),
                });
                count.set(terms.len());
            },
        );
        // Each new chunk's terms run to the next chunk's first term.
        let mut next = terms.len();
        for c in chunks.get_mut(first..).unwrap_or_default().iter_mut().rev() {
            c.terms.end = next;
            next = c.terms.start;
        }
        self.positions = position.saturating_add(end);
    }

    /// The text, with the edits made to it.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `analyzer` (or a clone of it) made this text's terms.
    #[must_use]
    pub fn is_of(&self, analyzer: &Analyzer) -> bool {
        self.owner == analyzer.id()
    }

    /// The terms, in text order: those [`Analyzer::for_each_token`] gives for
    /// [`Analyzed::text`].
    pub fn tokens(&self) -> impl ExactSizeIterator<Item = Token<'_>> + Clone + '_ {
        self.terms.iter().map(|t| self.token(t))
    }

    /// The term at `index` of [`Analyzed::tokens`].
    #[must_use]
    pub fn token_at(&self, index: usize) -> Option<Token<'_>> {
        self.terms.get(index).map(|t| self.token(t))
    }

    /// A slot as a token.
    fn token(&self, t: &Slot) -> Token<'_> {
        let part = |r: &Range<u32>| self.words.get(r.start as usize..r.end as usize).unwrap_or("");
        Token { word: part(&t.word), stem: part(&t.stem), origin: t.origin, position: t.position }
    }

    /// The chunks (runs between white space), in text order.
    pub fn chunks(&self) -> impl ExactSizeIterator<Item = Chunk<'_>> + Clone + '_ {
        self.chunks.iter().map(|c| self.chunk_of(c))
    }

    /// The chunk at `index` of [`Analyzed::chunks`].
    #[must_use]
    pub fn chunk(&self, index: usize) -> Option<Chunk<'_>> {
        self.chunks.get(index).map(|c| self.chunk_of(c))
    }

    /// A chunk slot as a chunk.
    fn chunk_of(&self, c: &ChunkSlot) -> Chunk<'_> {
        Chunk {
            text: self.text.get(c.span.clone()).unwrap_or(""),
            span: c.span.clone(),
            terms: c.terms.clone(),
        }
    }

    /// Appends `text` after a space: the result equals analyzing the text with `" "` and
    /// `text` appended. An empty `text` changes nothing.
    pub fn append(&mut self, analyzer: &Analyzer, text: &str) {
        if text.is_empty() {
            return;
        }
        let sep = if self.text.is_empty() { "" } else { " " };
        let tail = format!("{sep}{text}");
        self.reanalyze_from(analyzer, self.chunks.len(), &tail);
    }

    /// Replaces chunk `index` by `text`: the result equals analyzing the text with that
    /// chunk's span replaced by `text`. An index past the last chunk changes nothing.
    pub fn replace_chunk(&mut self, analyzer: &Analyzer, index: usize, text: &str) {
        let Some(span) = self.chunks.get(index).map(|c| c.span.clone()) else { return };
        let mut tail = text.to_owned();
        tail.push_str(self.text.get(span.end..).unwrap_or(""));
        self.reanalyze_from(analyzer, index, &tail);
    }

    /// Replaces the text from chunk `index` on (from its end when `index` is the number of
    /// chunks) by `tail`, and analyzes `tail` in its place. A chunk's terms and the positions
    /// it takes depend only on its bytes, so the result equals analyzing the whole new text;
    /// what comes after an edit is analyzed again (a request has few words) to count its
    /// positions from the edited ones.
    fn reanalyze_from(&mut self, analyzer: &Analyzer, index: usize, tail: &str) {
        let (start, position, terms) = match self.chunks.get(index) {
            Some(c) => (c.span.start, c.position, c.terms.start),
            None => (self.text.len(), self.positions, self.terms.len()),
        };
        // Terms' words are appended in order: the dropped terms' bytes are the buffer's end.
        let words = self.terms.get(terms).map_or(self.words.len(), |t| t.word.start as usize);
        self.words.truncate(words);
        self.terms.truncate(terms);
        self.chunks.truncate(index);
        self.text.truncate(start);
        self.text.push_str(tail);
        self.append_piece(analyzer, tail, start, position);
    }
}
