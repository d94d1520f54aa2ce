//! Scoring and decoding of the learned NER layer (python/tahqiq/analysis/ner_tagger.py): the feature names of
//! every token, their weights summed a label at a time, and the Viterbi path of each type's B/I/O tagger.
//!
//! The Python module stays the specification (`shared_features`, `typed_features`, `SpanTagger.decode`); this is
//! the same computation without building ~40 Python strings a token. The weights of each token are added in the
//! Python order (shared features, then the type's own), so the sums, and hence every decision, are bit for bit
//! those of `SpanTagger.decode`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pub const BEGIN: u8 = 0;
pub const INSIDE: u8 = 1;
pub const OUTSIDE: u8 = 2;
/// The score of a start in I (never taken), as in the Python Viterbi.
pub const NEG: f64 = -1e9;

/// Neighbour offsets of the window features, in the Python order, with their name parts.
const WINDOW: [(isize, &str, &str); 4] = [
    (-2, "w-2=", "c-2="),
    (-1, "w-1=", "c-1="),
    (1, "w1=", "c1="),
    (2, "w2=", "c2="),
];
const RULE_WINDOW: [(isize, &str); 4] = [(-2, "r-2="), (-1, "r-1="), (1, "r1="), (2, "r2=")];

/// A multiply-rotate hash (as rustc's FxHash) for the feature tables: a token asks ~50 of them, and SipHash's
/// flooding resistance buys nothing here, since the tables are only built from the shipped weights.
#[derive(Default, Clone, Copy)]
pub struct FeatureHasher {
    hash: u64,
}

impl FeatureHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FeatureHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("chunks of 8")));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub type FeatureMap<V> = HashMap<String, V, BuildHasherDefault<FeatureHasher>>;

/// The weights of all the taggers: a shared feature has a row of three labels a type, a typed feature three labels.
pub struct Scorer {
    names: Vec<String>,
    types: usize,
    shared: FeatureMap<Vec<f64>>,
    typed: Vec<FeatureMap<[f64; 3]>>,
    rules: Vec<RuleWeights>,
    transitions: Vec<[[f64; 3]; 4]>,
}

/// What the scorer reads of one sentence: token keys, word classes, the rules' outermost labels (``B-PERS`` …)
/// and each type's rule labels (``B``/``I``/``O``).
pub struct Input<'a> {
    pub keys: &'a [String],
    pub classes: &'a [Vec<String>],
    pub outer: &'a [String],
    pub mine: &'a [Vec<u8>],
}

/// `outer_labels` of ner_tagger.py: the outermost rule entity over each token, ``B-TYPE``/``I-TYPE``/``O``.
pub fn outer_labels(n: usize, spans: &[(String, usize, usize)]) -> Vec<String> {
    let mut order: Vec<&(String, usize, usize)> = spans.iter().collect();
    order.sort_by_key(|s| (s.1, std::cmp::Reverse(s.2 - s.1))); // stable, as Python's sorted
    let mut out = vec![String::from("O"); n];
    for (t, i, j) in order {
        if out[*i] == "O" {
            out[*i] = format!("B-{t}");
            for label in &mut out[i + 1..*j] {
                if label == "O" {
                    *label = format!("I-{t}");
                }
            }
        }
    }
    out
}

/// `rule_labels` of ner_tagger.py: the rules' B/I/O labels of one type.
pub fn rule_labels(n: usize, spans: &[(String, usize, usize)], typ: &str) -> Vec<u8> {
    let mut out = vec![OUTSIDE; n];
    for (t, i, j) in spans {
        if t == typ && out[*i] == OUTSIDE {
            out[*i] = BEGIN;
            out[i + 1..*j].fill(INSIDE);
        }
    }
    out
}

/// The names of B, I, O in the features; code 3 is the sentence edge (``^`` before, ``$`` after).
const LABEL_NAMES: [&str; 3] = ["B", "I", "O"];
const EDGE: usize = 3;

/// A type's weights of the features that read only rule labels, by label code (no name to build at run time).
struct RuleWeights {
    own: [Option<[f64; 3]>; 3],
    window: [[Option<[f64; 3]>; 3]; 4],
    before: [[Option<[f64; 3]>; 3]; 4],
    after: [[Option<[f64; 3]>; 4]; 3],
}

impl RuleWeights {
    fn new(typed: &FeatureMap<[f64; 3]>) -> Self {
        let get = |name: String| typed.get(&name).copied();
        let edge = |l: usize, edge: &'static str| LABEL_NAMES.get(l).copied().unwrap_or(edge);
        RuleWeights {
            own: std::array::from_fn(|l| get(format!("r={}", LABEL_NAMES[l]))),
            window: std::array::from_fn(|x| {
                std::array::from_fn(|l| get(format!("{}{}", RULE_WINDOW[x].1, LABEL_NAMES[l])))
            }),
            before: std::array::from_fn(|p| {
                std::array::from_fn(|l| get(format!("r-1r={}|{}", edge(p, "^"), LABEL_NAMES[l])))
            }),
            after: std::array::from_fn(|l| {
                std::array::from_fn(|q| get(format!("rr+1={}|{}", LABEL_NAMES[l], edge(q, "$"))))
            }),
        }
    }
}

/// `_stem` of ner_tagger.py: the key without one proclitic before the article and without the article.
pub fn stem(k: &str) -> &str {
    let chars: Vec<(usize, char)> = k.char_indices().take(5).collect();
    let long = |from: usize| {
        k[chars.get(from).map_or(k.len(), |c| c.0)..]
            .chars()
            .count()
            > 4
    };
    // ال or لل at char `at`
    let article = |at: usize| (chars[at].1 == 'ا' || chars[at].1 == 'ل') && chars[at + 1].1 == 'ل';
    let mut from = 0;
    if long(0) && "وفبلك".contains(chars[0].1) && article(1) {
        from = 1;
    }
    if long(from) && article(from) {
        from += 2;
    }
    &k[chars.get(from).map_or(k.len(), |c| c.0)..]
}

/// The first `n` characters of `k` (Python's ``k[:n]``).
pub fn head(k: &str, n: usize) -> &str {
    &k[..k.char_indices().nth(n).map_or(k.len(), |c| c.0)]
}

/// The last `n` characters of `k` (Python's ``k[-n:]``).
pub fn tail(k: &str, n: usize) -> &str {
    &k[k.char_indices().rev().nth(n - 1).map_or(0, |c| c.0)..]
}

impl Scorer {
    pub fn new(
        names: Vec<String>,
        shared: HashMap<String, Vec<f64>>,
        typed: Vec<HashMap<String, [f64; 3]>>,
        transitions: Vec<[[f64; 3]; 4]>,
    ) -> Result<Self, String> {
        let types = names.len();
        let typed: Vec<FeatureMap<[f64; 3]>> =
            typed.into_iter().map(|t| t.into_iter().collect()).collect();
        if typed.len() != types {
            return Err(format!("{} typed tables for {types} types", typed.len()));
        }
        if transitions.len() != types {
            return Err(format!(
                "{} transition tables for {types} types",
                transitions.len()
            ));
        }
        if let Some((name, row)) = shared.iter().find(|(_, row)| row.len() != 3 * types) {
            return Err(format!(
                "shared feature {name:?} has {} weights, expected {}",
                row.len(),
                3 * types
            ));
        }
        Ok(Scorer {
            names,
            types,
            shared: shared.into_iter().collect(),
            rules: typed.iter().map(RuleWeights::new).collect(),
            typed,
            transitions,
        })
    }

    /// Each token's label scores, three a type side by side (the Python `decode` sums, in its order).
    pub fn emissions(&self, s: &Input<'_>) -> Vec<Vec<f64>> {
        let n = s.keys.len();
        let width = 3 * self.types;
        let mut out = Vec::with_capacity(n);
        let mut buf = String::with_capacity(64);
        let mut acc = vec![0.0f64; width];
        let (shared, typed, rules) = (&self.shared, &self.typed, &self.rules);
        let add = |buf: &str, acc: &mut Vec<f64>| {
            if let Some(row) = shared.get(buf) {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        };
        for i in 0..n {
            acc.iter_mut().for_each(|a| *a = 0.0);
            let k = s.keys[i].as_str();
            add("bias", &mut acc);
            for (prefix, value) in [
                ("w=", k),
                ("s=", stem(k)),
                ("p2=", head(k, 2)),
                ("p3=", head(k, 3)),
                ("x2=", tail(k, 2)),
                ("x3=", tail(k, 3)),
                ("o=", s.outer[i].as_str()),
            ] {
                buf.clear();
                buf.push_str(prefix);
                buf.push_str(value);
                add(&buf, &mut acc);
            }
            for (d, w, c) in WINDOW {
                let j = i as isize + d;
                if j >= 0 && (j as usize) < n {
                    let j = j as usize;
                    buf.clear();
                    buf.push_str(w);
                    buf.push_str(&s.keys[j]);
                    add(&buf, &mut acc);
                    for class in &s.classes[j] {
                        buf.clear();
                        buf.push_str(c);
                        buf.push_str(class);
                        add(&buf, &mut acc);
                    }
                } else {
                    buf.clear();
                    buf.push_str(w);
                    buf.push_str("<edge>");
                    add(&buf, &mut acc);
                }
            }
            buf.clear();
            buf.push_str("o-1=");
            buf.push_str(if i > 0 { &s.outer[i - 1] } else { "^" });
            add(&buf, &mut acc);
            buf.clear();
            buf.push_str("o+1=");
            buf.push_str(if i + 1 < n { &s.outer[i + 1] } else { "$" });
            add(&buf, &mut acc);
            for class in &s.classes[i] {
                buf.clear();
                buf.push_str("c=");
                buf.push_str(class);
                add(&buf, &mut acc);
            }
            let start = ["^".to_string()];
            let prev: &[String] = if i > 0 { &s.classes[i - 1] } else { &start };
            for p in prev {
                for class in &s.classes[i] {
                    buf.clear();
                    buf.push_str("c-1c=");
                    buf.push_str(p);
                    buf.push('|');
                    buf.push_str(class);
                    add(&buf, &mut acc);
                }
            }
            for (t, (index, rule)) in typed.iter().zip(rules).enumerate() {
                let mine = &s.mine[t];
                let cell = &mut acc[3 * t..3 * t + 3];
                let mut add_typed = |w: Option<&[f64; 3]>| {
                    if let Some(w) = w {
                        for (a, v) in cell.iter_mut().zip(w) {
                            *a += v;
                        }
                    }
                };
                let me = usize::from(mine[i]);
                add_typed(rule.own[me].as_ref());
                for (x, (d, _)) in RULE_WINDOW.iter().enumerate() {
                    let j = i as isize + d;
                    if j >= 0 && (j as usize) < n {
                        add_typed(rule.window[x][usize::from(mine[j as usize])].as_ref());
                    }
                }
                let before = if i > 0 {
                    usize::from(mine[i - 1])
                } else {
                    EDGE
                };
                add_typed(rule.before[before][me].as_ref());
                let after = if i + 1 < n {
                    usize::from(mine[i + 1])
                } else {
                    EDGE
                };
                add_typed(rule.after[me][after].as_ref());
                for class in &s.classes[i] {
                    buf.clear();
                    buf.push_str("cr=");
                    buf.push_str(class);
                    buf.push('|');
                    buf.push_str(LABEL_NAMES[me]);
                    add_typed(index.get(buf.as_str()));
                }
            }
            out.push(acc.clone());
        }
        out
    }

    /// Token spans ``[i, j)`` of every type (in the order of the types) of a sentence: its token keys, their
    /// word classes and the rules' spans ``(type, i, j)``.
    pub fn decode(
        &self,
        keys: &[String],
        classes: &[Vec<String>],
        rule_spans: &[(String, usize, usize)],
    ) -> Result<Vec<Vec<(usize, usize)>>, String> {
        let n = keys.len();
        if classes.len() != n {
            return Err(format!("{n} keys but {} class tuples", classes.len()));
        }
        if let Some(bad) = rule_spans.iter().find(|s| !(s.1 < s.2 && s.2 <= n)) {
            return Err(format!("rule span {bad:?} is not within the {n} tokens"));
        }
        let outer = outer_labels(n, rule_spans);
        let mine: Vec<Vec<u8>> = self
            .names
            .iter()
            .map(|t| rule_labels(n, rule_spans, t))
            .collect();
        Ok(self.predict(&Input {
            keys,
            classes,
            outer: &outer,
            mine: &mine,
        }))
    }

    /// Token spans ``[i, j)`` of every type, in the order of the types.
    pub fn predict(&self, s: &Input<'_>) -> Vec<Vec<(usize, usize)>> {
        let emit = self.emissions(s);
        (0..self.types)
            .map(|t| {
                let own: Vec<[f64; 3]> = emit
                    .iter()
                    .map(|row| [row[3 * t], row[3 * t + 1], row[3 * t + 2]])
                    .collect();
                spans_of(&viterbi(&self.transitions[t], &own))
            })
            .collect()
    }
}

/// The best label sequence given each token's label scores and the transitions (rows B, I, O, start): the
/// Python `SpanTagger.viterbi` step for step (I never first nor after O; ties go to the first of B, I, O).
pub fn viterbi(tr: &[[f64; 3]; 4], emit: &[[f64; 3]]) -> Vec<u8> {
    if emit.is_empty() {
        return Vec::new();
    }
    let [[bb, bi, bo], [ib, ii, io], [ob, _, oo], [sb0, _, so0]] = *tr;
    let (mut sb, mut si, mut so) = (sb0 + emit[0][0], NEG, so0 + emit[0][2]);
    let mut back: Vec<[u8; 3]> = Vec::with_capacity(emit.len());
    for e in &emit[1..] {
        let (mut vb, mut ab) = (sb + bb, BEGIN);
        if si + ib > vb {
            (vb, ab) = (si + ib, INSIDE);
        }
        if so + ob > vb {
            (vb, ab) = (so + ob, OUTSIDE);
        }
        let (mut vi, mut ai) = (sb + bi, BEGIN);
        if si + ii > vi {
            (vi, ai) = (si + ii, INSIDE);
        }
        let (mut vo, mut ao) = (sb + bo, BEGIN);
        if si + io > vo {
            (vo, ao) = (si + io, INSIDE);
        }
        if so + oo > vo {
            (vo, ao) = (so + oo, OUTSIDE);
        }
        back.push([ab, ai, ao]);
        (sb, si, so) = (vb + e[0], vi + e[1], vo + e[2]);
    }
    let score = [sb, si, so];
    let mut last = 0usize;
    for c in 1..3 {
        if score[c] > score[last] {
            last = c;
        }
    }
    let mut path = Vec::with_capacity(emit.len());
    path.push(last as u8);
    for ptr in back.iter().rev() {
        path.push(ptr[*path.last().expect("path is never empty") as usize]);
    }
    path.reverse();
    path
}

/// `spans_of` of ner_tagger.py: token spans ``[i, j)`` of a B/I/O label sequence.
pub fn spans_of(labels: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (x, &lab) in labels.iter().enumerate() {
        if lab == BEGIN || (lab == INSIDE && start.is_none()) {
            if let Some(s) = start {
                out.push((s, x));
            }
            start = Some(x);
        } else if lab == OUTSIDE {
            if let Some(s) = start.take() {
                out.push((s, x));
            }
        }
    }
    if let Some(s) = start {
        out.push((s, labels.len()));
    }
    out
}

/// The learned layer's weights, decoding a sentence in one call (``NerTagger.predict``).
#[pyclass(module = "tahqiq._native", frozen, name = "NerScorer")]
pub struct PyScorer {
    inner: Scorer,
}

#[pymethods]
impl PyScorer {
    /// `types`: the tagged types, in order; `shared`: a weight row (three labels a type) by shared feature name;
    /// `typed`: a type's own features (those reading its rule labels) and their three weights; `transitions`: a
    /// type's 4x3 table (rows B, I, O, start).
    #[new]
    fn new(
        types: Vec<String>,
        shared: HashMap<String, Vec<f64>>,
        typed: Vec<HashMap<String, [f64; 3]>>,
        transitions: Vec<[[f64; 3]; 4]>,
    ) -> PyResult<Self> {
        Scorer::new(types, shared, typed, transitions)
            .map(|inner| PyScorer { inner })
            .map_err(PyValueError::new_err)
    }

    /// Token spans ``(i, j)`` per type (the types in construction order) of one sentence: its token keys, their
    /// word classes and the rules' spans ``(type, i, j)`` of every type.
    fn predict(
        &self,
        keys: Vec<String>,
        classes: Vec<Vec<String>>,
        rule_spans: Vec<(String, usize, usize)>,
    ) -> PyResult<Vec<Vec<(usize, usize)>>> {
        self.inner
            .decode(&keys, &classes, &rule_spans)
            .map_err(PyValueError::new_err)
    }

    /// How many types the scorer decodes.
    fn __len__(&self) -> usize {
        self.inner.types
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyScorer>()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn path_score(tr: &[[f64; 3]; 4], emit: &[[f64; 3]], path: &[u8]) -> f64 {
        let mut prev = 3usize;
        let mut total = 0.0;
        for (e, &p) in emit.iter().zip(path) {
            total += tr[prev][p as usize] + e[p as usize];
            prev = p as usize;
        }
        total
    }

    fn allowed(path: &[u8]) -> bool {
        path.iter()
            .enumerate()
            .all(|(x, &p)| p != INSIDE || (x > 0 && path[x - 1] != OUTSIDE))
    }

    fn table() -> impl Strategy<Value = [[f64; 3]; 4]> {
        prop::array::uniform4(prop::array::uniform3(-3.0f64..3.0))
    }

    #[test]
    fn stem_strips_a_proclitic_and_the_article() {
        assert_eq!(stem("والرئيس"), "رئيس");
        assert_eq!(stem("كالعادة"), "عادة");
        assert_eq!(stem("وللناس"), "ناس");
        assert_eq!(stem("وبالرئيس"), "وبالرئيس"); // two proclitics: left whole, as in Python
        assert_eq!(stem("للرئيس"), "رئيس");
        assert_eq!(stem("الرئيس"), "رئيس");
        assert_eq!(stem("البيت"), "بيت");
        assert_eq!(stem("الى"), "الى"); // too short to strip
    }

    #[test]
    fn labels_follow_the_rule_spans() {
        let spans = vec![
            ("PERS".to_string(), 3, 5),
            ("OCC".to_string(), 1, 5),
            ("PERS".to_string(), 0, 1),
        ];
        assert_eq!(
            outer_labels(6, &spans),
            ["B-PERS", "B-OCC", "I-OCC", "I-OCC", "I-OCC", "O"]
        );
        assert_eq!(
            rule_labels(6, &spans, "PERS"),
            [BEGIN, OUTSIDE, OUTSIDE, BEGIN, INSIDE, OUTSIDE]
        );
        assert_eq!(head("ab", 3), "ab");
        assert_eq!(tail("abc", 2), "bc");
        assert_eq!(tail("", 2), "");
    }

    #[test]
    fn spans_of_reads_b_i_o() {
        assert_eq!(
            spans_of(&[OUTSIDE, BEGIN, INSIDE, BEGIN, OUTSIDE, INSIDE]),
            vec![(1, 3), (3, 4), (5, 6)]
        );
    }

    proptest! {
        #[test]
        fn viterbi_finds_a_best_allowed_path(
            tr in table(),
            emit in prop::collection::vec(prop::array::uniform3(-5.0f64..5.0), 0..7),
        ) {
            let path = viterbi(&tr, &emit);
            prop_assert_eq!(path.len(), emit.len());
            prop_assert!(allowed(&path));
            let got = path_score(&tr, &emit, &path);
            // every allowed path, by brute force
            let n = emit.len() as u32;
            for code in 0..3usize.pow(n) {
                let other: Vec<u8> = (0..n).map(|x| (code / 3usize.pow(x) % 3) as u8).collect();
                if allowed(&other) {
                    prop_assert!(path_score(&tr, &emit, &other) <= got + 1e-9);
                }
            }
        }

        #[test]
        fn scores_are_the_sum_of_the_features_present(
            keys in prop::collection::vec("[وفبلكالرئيسx]{0,7}", 1..6),
            weight in -2.0f64..2.0,
        ) {
            // a single known feature, the key of the first token: only that token scores, on label B of type 0
            let mut shared = HashMap::new();
            shared.insert(format!("w={}", keys[0]), vec![weight, 0.0, 0.0]);
            let scorer = Scorer::new(vec!["PERS".into()], shared, vec![HashMap::new()], vec![[[0.0; 3]; 4]]).unwrap();
            let n = keys.len();
            let classes = vec![Vec::new(); n];
            let outer = vec!["O".to_string(); n];
            let mine = vec![vec![OUTSIDE; n]];
            let emit = scorer.emissions(&Input { keys: &keys, classes: &classes, outer: &outer, mine: &mine });
            for (i, row) in emit.iter().enumerate() {
                let expect = if keys[i] == keys[0] { weight } else { 0.0 };
                prop_assert_eq!(row.clone(), vec![expect, 0.0, 0.0]);
            }
        }
    }
}
