//! Scoring of the POS tagger that chooses `/morph`'s analysis in context (python/tahqiq/analysis/pos_tagger.py).
//!
//! The Python module stays the specification (`features`, `PosTagger.tag_reference`); this builds the same
//! feature names without ~30 Python strings a word and adds their weight rows in the same order, so the scores,
//! and hence every decision, are bit for bit the Python ones.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::ner_tagger::{head, tail, FeatureMap};

/// The tag "before" the first word, as `START` in Python.
const START: &str = "^";
/// Articles (with the proclitic before them) that `stem` strips, longest first, as `ARTICLE_PREFIXES` of
/// tahqiq.arabic.clitics.
const ARTICLE_PREFIXES: [&str; 6] = ["وال", "فال", "بال", "كال", "لل", "ال"];

/// One word as the tagger sees it (`Word` in Python, with its reading set already joined).
pub struct Word {
    pub key: String,
    pub reading_set: String,
    pub top_reading: String,
    pub lemma: String,
    pub clause_start: bool,
}

fn edge() -> Word {
    Word {
        key: "<s>".into(),
        reading_set: "<s>".into(),
        top_reading: "<s>".into(),
        lemma: "<s>".into(),
        clause_start: true,
    }
}

/// `_stem`: the key without a leading article, and whether it had one.
pub fn stem(key: &str) -> (&str, bool) {
    let chars = key.chars().count();
    for prefix in ARTICLE_PREFIXES {
        if let Some(rest) = key.strip_prefix(prefix) {
            if chars > prefix.chars().count() + 1 {
                return (rest, true);
            }
        }
    }
    (key, false)
}

/// `_predicate`: the first later word of the clause with no article whose top reading is a noun or adjective,
/// ``acc`` when it ends in alef, else ``nom``; ``none`` when there is none.
pub fn predicate(words: &[Word], i: usize) -> &'static str {
    for w in &words[i + 1..] {
        if w.clause_start {
            break;
        }
        if (w.top_reading == "noun" || w.top_reading == "adj") && !stem(&w.key).1 {
            return if w.key.ends_with('ا') { "acc" } else { "nom" };
        }
    }
    "none"
}

fn python_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// `features` of pos_tagger.py, in its order.
pub fn features(words: &[Word], i: usize, prev: &str, prev2: &str) -> Vec<String> {
    let edge = edge();
    let w = &words[i];
    let k = w.key.as_str();
    let before = if i > 0 { &words[i - 1] } else { &edge };
    let after = words.get(i + 1).unwrap_or(&edge);
    let after2 = words.get(i + 2).unwrap_or(&edge);
    let rs = w.reading_set.as_str();
    let mut out = vec![
        "bias".to_string(),
        format!("w={k}"),
        format!("l={}", w.lemma),
        format!("p1={}", head(k, 1)),
        format!("p2={}", head(k, 2)),
        format!("s1={}", tail(k, 1)),
        format!("s2={}", tail(k, 2)),
        format!("s3={}", tail(k, 3)),
        format!("rs={rs}"),
        format!("r0={}", w.top_reading),
        format!("t1={prev}"),
        format!("t2={prev2},{prev}"),
        format!("t1rs={prev},{rs}"),
        format!("w-1={}", before.key),
        format!("rs-1={}", before.reading_set),
        format!("w+1={}", after.key),
        format!("rs+1={}", after.reading_set),
        format!("rs+1rs={},{rs}", after.reading_set),
        format!("p2+1={}", head(&after.key, 2)),
        format!("rs+2={}", after2.reading_set),
    ];
    let (st, definite) = stem(k);
    let before_definite = stem(&before.key).1;
    let after_definite = stem(&after.key).1;
    out.extend([
        format!("st={st}"),
        format!("sp1={}", head(st, 1)),
        format!("ss1={}", tail(st, 1)),
        format!("ss2={}", tail(st, 2)),
        format!("sl={}", st.chars().count().min(7)),
        format!(
            "d={},d-1={},t1={prev}",
            python_bool(definite),
            python_bool(before_definite)
        ),
        format!("d={},rs={rs}", python_bool(definite)),
        format!("d+1={},rs={rs}", python_bool(after_definite)),
        format!("t1w={prev},{k}"),
    ]);
    if w.clause_start {
        out.push(format!("cs,rs={rs}"));
        out.push(format!("cs,w={k}"));
        out.push(format!("cs,d+1={},rs={rs}", python_bool(after_definite)));
        out.push(format!(
            "cs,d+1={},d+2={},rs={rs}",
            python_bool(after_definite),
            python_bool(stem(&after2.key).1)
        ));
        out.push(format!("cs,pred={},rs={rs}", predicate(words, i)));
    }
    if after.clause_start {
        out.push("ce".to_string());
    }
    out
}

/// The weights: a row of tag scores a feature name.
pub struct Scorer {
    tags: Vec<String>,
    weights: FeatureMap<Vec<f64>>,
}

impl Scorer {
    pub fn new(tags: Vec<String>, weights: HashMap<String, Vec<f64>>) -> Result<Self, String> {
        if let Some((name, row)) = weights.iter().find(|(_, row)| row.len() != tags.len()) {
            return Err(format!(
                "feature {name:?} has {} weights, expected one a tag ({})",
                row.len(),
                tags.len()
            ));
        }
        Ok(Scorer {
            tags,
            weights: weights.into_iter().collect(),
        })
    }

    /// Each word's tag scores, decoded greedily left to right (the best tag, first on ties, feeds the next word).
    pub fn tag(&self, words: &[Word]) -> Vec<Vec<f64>> {
        let mut out = Vec::with_capacity(words.len());
        let (mut prev, mut prev2) = (START, START);
        for i in 0..words.len() {
            let mut total = vec![0.0_f64; self.tags.len()];
            for name in features(words, i, prev, prev2) {
                if let Some(row) = self.weights.get(&name) {
                    for (t, w) in total.iter_mut().zip(row) {
                        *t += w;
                    }
                }
            }
            let best = argmax(&total);
            prev2 = prev;
            prev = &self.tags[best];
            out.push(total);
        }
        out
    }
}

/// The index of the largest score, the first one on ties (Python's `max` over the indices).
pub fn argmax(scores: &[f64]) -> usize {
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if *s > scores[best] {
            best = i;
        }
    }
    best
}

/// The POS tagger's weights (``PosTagger`` in Python), scoring a text's words in one call.
#[pyclass(module = "tahqiq._native", frozen, name = "PosScorer")]
pub struct PyScorer {
    inner: Scorer,
}

#[pymethods]
impl PyScorer {
    /// `tags`: the tag names in score order; `weights`: a row of scores (one a tag) by feature name.
    #[new]
    fn new(tags: Vec<String>, weights: HashMap<String, Vec<f64>>) -> PyResult<Self> {
        Scorer::new(tags, weights)
            .map(|inner| PyScorer { inner })
            .map_err(PyValueError::new_err)
    }

    /// Tag scores of each word: the words as ``(key, reading set, top reading, lemma key, clause start)``.
    fn tag(&self, words: Vec<(String, String, String, String, bool)>) -> Vec<Vec<f64>> {
        let words: Vec<Word> = words
            .into_iter()
            .map(
                |(key, reading_set, top_reading, lemma, clause_start)| Word {
                    key,
                    reading_set,
                    top_reading,
                    lemma,
                    clause_start,
                },
            )
            .collect();
        self.inner.tag(&words)
    }

    fn __len__(&self) -> usize {
        self.inner.weights.len()
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

    fn word(key: &str, rs: &str) -> Word {
        Word {
            key: key.into(),
            reading_set: rs.into(),
            top_reading: rs.split('|').next().unwrap_or("").into(),
            lemma: key.into(),
            clause_start: false,
        }
    }

    #[test]
    fn stem_strips_the_article_and_its_proclitic() {
        assert_eq!(stem("الكتاب"), ("كتاب", true));
        assert_eq!(stem("بالقلم"), ("قلم", true));
        assert_eq!(stem("للطلاب"), ("طلاب", true));
        assert_eq!(stem("كتب"), ("كتب", false));
        assert_eq!(stem("الي"), ("الي", false)); // too short to be article + word
    }

    #[test]
    fn slices_count_characters_not_bytes() {
        assert_eq!(head("كتب", 2), "كت");
        assert_eq!(tail("كتب", 2), "تب");
        assert_eq!(tail("ب", 3), "ب");
        assert_eq!(head("", 1), "");
        assert_eq!(tail("", 1), "");
    }

    #[test]
    fn features_read_the_neighbours_and_the_edges() {
        let words = vec![word("كتب", "noun|verb"), word("الطلاب", "noun")];
        let f = features(&words, 0, START, START);
        assert!(f.contains(&"w+1=الطلاب".to_string()));
        assert!(f.contains(&"w-1=<s>".to_string()));
        assert!(f.contains(&"d+1=True,rs=noun|verb".to_string()));
        let last = features(&words, 1, "verb", START);
        assert!(last.contains(&"ce".to_string())); // the text's end closes the clause
        assert!(last.contains(&"d=True,d-1=False,t1=verb".to_string()));
    }

    #[test]
    fn the_predicate_is_the_first_bare_nominal_of_the_clause() {
        let mut words = vec![
            word("شرب", "noun|verb"),
            word("الماء", "noun"),
            word("مفيد", "adj"),
        ];
        assert_eq!(predicate(&words, 0), "nom");
        words[2] = word("طويلا", "adj");
        assert_eq!(predicate(&words, 0), "acc");
        words[2].clause_start = true; // a new clause: nothing of this one
        assert_eq!(predicate(&words, 0), "none");
    }

    #[test]
    fn a_row_of_the_wrong_width_is_refused() {
        let mut w = HashMap::new();
        w.insert("bias".to_string(), vec![1.0]);
        assert!(Scorer::new(vec!["noun".into(), "verb".into()], w).is_err());
    }

    proptest! {
        #[test]
        fn scores_are_the_sums_of_the_weights_of_the_features_present(
            bias in -5.0f64..5.0, w_verb in -5.0f64..5.0, keys in prop::collection::vec("[كتبال]{1,6}", 1..6),
        ) {
            let tags = vec!["noun".to_string(), "verb".to_string()];
            let mut weights = HashMap::new();
            weights.insert("bias".to_string(), vec![bias, 0.0]);
            weights.insert("rs=verb".to_string(), vec![0.0, w_verb]);
            let scorer = Scorer::new(tags, weights).unwrap();
            let words: Vec<Word> = keys.iter().map(|k| word(k, "verb")).collect();
            for s in scorer.tag(&words) {
                prop_assert_eq!(s, vec![bias, w_verb]);
            }
            prop_assert_eq!(argmax(&[bias, w_verb]), usize::from(w_verb > bias));
        }
    }
}
