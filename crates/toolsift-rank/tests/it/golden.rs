//! The explain output, pinned.

use crate::index;

/// N = 2. d0: name "create issue" (len 2), summary "issues repos" (len 2);
/// d1: name "list repository" (len 2). avg name = 2, avg summary = 1.
///
/// - issue: df 1 (only d0 has the stem), idf = ln 2 = 0.6931. Exact in name: norm 1, pf 3.
///   "issues" in summary: norm = 0.25 + 0.75 * 2 / 1 = 1.75, pf = 1.5 / 1.75 = 0.8571, at 0.3.
///   x = 3.2571, sat = 3.2571 * 2.2 / 4.4571 = 1.6077, score 1.1144.
/// - repository: df 1 (d1), idf 0.6931; d0 has "repos" (stem "repo", a 4-character prefix):
///   x = 0.3 * 0.8571 = 0.2571, sat = 0.5657 / 1.4571 = 0.3882, score 0.2691.
/// - list: only in d1. zebra: nowhere.
///
/// Total 1.3835.
#[test]
fn explain_tree() {
    let (ix, ids) = index(&[
        &[("name", "create issue"), ("summary", "issues repos")],
        &[("name", "list repository")],
    ]);
    let ex = ix.explain(ids[0], "issue repository list zebra").expect("indexed");
    let want = "\
doc #0: score 1.3835 (N = 2, k1 = 1.2)
  term \"issue\": 1.1144 = weight 1 × idf 0.6931 × saturation 1.6077
    idf = ln(1 + (N - df + 0.5) / (df + 0.5)), df 1
    saturation = x (k1 + 1) / (x + k1), x = Σ relation weight × pf = 3.2571
    form \"issue\" (exact, weight 1): pf 3.0000
      name: tf 1 × w 3 / norm 1.0000 = 3.0000 (len 2, avg 2.0000, b 0.75)
    form \"issues\" (same stem, weight 0.3): pf 0.8571
      summary: tf 1 × w 1.5 / norm 1.7500 = 0.8571 (len 2, avg 1.0000, b 0.75)
  term \"repository\": 0.2691 = weight 1 × idf 0.6931 × saturation 0.3882
    idf = ln(1 + (N - df + 0.5) / (df + 0.5)), df 1
    saturation = x (k1 + 1) / (x + k1), x = Σ relation weight × pf = 0.2571
    form \"repos\" (stem prefix, weight 0.3): pf 0.8571
      summary: tf 1 × w 1.5 / norm 1.7500 = 0.8571 (len 2, avg 1.0000, b 0.75)
  term \"list\": 0 (not in this document; df 1, idf 0.6931)
  term \"zebra\": unknown (no document contains it)
";
    assert_eq!(ex.to_string(), want, "\n{ex}");
    let out = ix.search("issue repository list zebra", 10);
    let hit = out.hits().iter().find(|h| h.doc() == ids[0]).expect("d0 is a hit");
    // Bit for bit: explain repeats search's arithmetic.
    assert_eq!(ex.score.to_bits(), hit.score().to_bits());
}

#[test]
fn explain_marks_exact_keys() {
    let mut ix = crate::builder().build().expect("config");
    let ids = ix.add([crate::doc(&[("name", "zebra")]).key("zoo_keeper")]).expect("fields");
    let ex = ix.explain(ids[0], "Zoo-Keeper").expect("indexed");
    let want = "\
doc #0: score 0.0000 (N = 1, k1 = 1.2)
  exact key: the query equals one of its keys (ranked first)
  term \"zoo\": unknown (no document contains it)
  term \"keeper\": unknown (no document contains it)
";
    assert_eq!(ex.to_string(), want, "\n{ex}");
}
