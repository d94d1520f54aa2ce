//! The dialect glossary's per-request work in one native call: scan the text, normalise each word, and map it to
//! corpus forms by exact form, normalised form, dialect clitics stripped, and fuzzy similarity.
//!
//! The rules are those of `tahqiq.analysis.dialect` (its module docstring); Python only turns the answers
//! (per word: offsets, normalised form, and `(form index, match type, score)` triples) into JSON.
//!
//! Fuzzy matching is [`crate::fuzzy::Index`]. The answer is defined with one fuzzy search per word, the best
//! `top_k + TIE_BREAK_CANDIDATES` forms scoring at least `min(threshold, 0.5)` ("H"): its scores both offer fuzzy
//! matches and order the exact, normalised and clitic matches among themselves (a form outside H counts 0).
//! [`Glossary::match_word`] gives the same answer from a narrower search, since the part of H at or above any
//! cut-off `t >= min(threshold, 0.5)` is exactly the best `top_k + TIE_BREAK_CANDIDATES` forms at or above `t`:
//! - with no exact, normalised or clitic match, only fuzzy matches at or above `threshold` can be answered, and
//!   only the best `top_k` of them;
//! - otherwise the fuzzy matches that can get in are among the best `top_k + (matches found)` at or above
//!   `threshold` (or, when the matches found already fill `top_k`, at or above the `top_k`-th one's score);
//!   a matched form missing from those is looked up in H's part at or above its own similarity, but only when
//!   its place can change the answer: when it ties in score and type with another match, and fewer than
//!   `top_k` matches are sure to come before it.

use std::borrow::Cow;
use std::cell::RefCell;
use std::hash::Hasher;
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use crate::fuzzy::{collect_strs, FxHasher, FxMap, Hit, Index, Lexicon, Query};
use crate::normalize::{normalize_str, NormalizeOptions};
use crate::scan::{scan_str, TokenKind};

/// Shortest stem left after stripping clitics, in characters.
pub const MIN_STEM: usize = 2;
/// Fuzzy candidates beyond `top_k` whose similarity also orders the other matches.
pub const TIE_BREAK_CANDIDATES: usize = 8;
/// Score of a clitic match: below the exact and normalised matches, above most fuzzy ones.
pub const CLITIC_SCORE: f64 = 0.95;

/// Proclitic slots of the dialects in normalised spelling (ى→ي, ة→ه); one choice or none per slot, in order.
const PROCLITIC_SLOTS: [&[Affix]; 4] = [
    &[affix("و"), affix("ف")], // conjunctions
    &[affix("ما")],            // attached negation
    &[
        affix("رح"),
        affix("ح"),
        affix("ه"),
        affix("ب"),
        affix("د"),
        affix("ع"),
        affix("م"),
        affix("ل"),
        affix("ك"),
    ], // future, progressive, prepositions
    &[affix("ال")],            // article
];
const ENCLITICS: [Affix; 21] = [
    affix("ش"),
    affix("هم"),
    affix("هن"),
    affix("ها"),
    affix("كم"),
    affix("كو"),
    affix("كي"),
    affix("نا"),
    affix("ني"),
    affix("ك"),
    affix("ه"),
    affix("و"),
    affix("ي"),
    affix("لهم"),
    affix("لكم"),
    affix("لنا"),
    affix("لها"),
    affix("لك"),
    affix("له"),
    affix("لي"),
    affix("لو"),
];
const NEGATION_SUFFIX: Affix = affix("ش");

/// A clitic as one machine word, so that testing a word for it is a mask and a compare, not a call to
/// `memcmp` (the glossary tests a word for some fifty of them).
#[derive(Clone, Copy)]
struct Affix {
    /// Its UTF-8 bytes, little-endian, the rest zero.
    word: u64,
    /// Its length in bytes (1 to 8) and in characters.
    len: usize,
    chars: usize,
}

const fn affix(s: &str) -> Affix {
    let b = s.as_bytes();
    assert!(!b.is_empty() && b.len() <= 8);
    let (mut word, mut chars, mut i) = (0u64, 0, 0);
    while i < b.len() {
        word |= (b[i] as u64) << (8 * i);
        chars += (b[i] & 0xC0 != 0x80) as usize;
        i += 1;
    }
    Affix {
        word,
        len: b.len(),
        chars,
    }
}

/// The first eight bytes of `s` as a little-endian word, zero-padded.
#[inline]
fn head_word(s: &[u8]) -> u64 {
    if let Some(head) = s.first_chunk::<8>() {
        return u64::from_le_bytes(*head);
    }
    s.iter()
        .enumerate()
        .fold(0, |w, (i, &b)| w | (b as u64) << (8 * i))
}

/// The last eight bytes of `s` as a little-endian word (its last byte the highest), zero-padded below.
#[inline]
fn tail_word(s: &[u8]) -> u64 {
    if let Some(tail) = s.last_chunk::<8>() {
        return u64::from_le_bytes(*tail);
    }
    let pad = 8 - s.len();
    s.iter()
        .enumerate()
        .fold(0, |w, (i, &b)| w | (b as u64) << (8 * (pad + i)))
}

impl Affix {
    /// Whether `s`, whose first eight bytes are `head` ([`head_word`]), starts with this affix.
    #[inline]
    fn starts(self, s: &[u8], head: u64) -> bool {
        let mask = if self.len == 8 {
            !0
        } else {
            (1u64 << (8 * self.len)) - 1
        };
        s.len() >= self.len && head & mask == self.word
    }

    /// Whether `s`, whose last eight bytes are `tail` ([`tail_word`]), ends with this affix.
    #[inline]
    fn ends(self, s: &[u8], tail: u64) -> bool {
        s.len() >= self.len && tail >> (8 * (8 - self.len)) == self.word
    }
}

/// The match types, in order of preference at equal score; their codes are the Python-side indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum MatchType {
    Exact = 0,
    Normalized = 1,
    Clitic = 2,
    Fuzzy = 3,
}

/// The one normalised form of the glossary: the default options plus ta marbuta and digits folded.
pub const MATCH_FORM: NormalizeOptions = NormalizeOptions {
    diacritics: true,
    tatweel: true,
    alef: true,
    ya: true,
    ta_marbuta: true,
    digits: true,
    punctuation: false,
};

pub fn match_form(text: &str) -> Cow<'_, str> {
    normalize_str(text, &MATCH_FORM)
}

/// Every way to take dialect proclitics and enclitics off a normalised word, leaving at least [`MIN_STEM`]
/// characters (and, before an enclitic, ت read back as ta marbuta, normalised ه); the word itself is not
/// included. Ordered by how much was stripped (least first), then by the stem.
pub fn strip_clitics(form: &str) -> Vec<String> {
    let mut stems: Vec<(usize, String)> = Vec::new();
    for_each_stem(form, &mut StemScratch::default(), |stem, stripped| {
        if !stems.iter().any(|(_, s)| s == stem) {
            stems.push((stripped, stem.to_owned()));
        }
    });
    // The stripped length is the same however a stem was reached (it is the form's length less the stem's).
    stems.sort_unstable();
    stems.into_iter().map(|(_, s)| s).collect()
}

/// Buffers of [`for_each_stem`], kept from word to word of a text.
#[derive(Default)]
struct StemScratch {
    /// Proclitics that can come off, as (bytes, chars) from the start.
    prefixes: Vec<(usize, usize)>,
    /// Enclitics that can come off, as (bytes, chars) from the end.
    suffixes: Vec<(usize, usize)>,
    /// A stem with its ta marbuta read back.
    marbuta: String,
}

/// Calls `visit(stem, characters stripped)` for each way to strip clitics off `form`, in the order of
/// [`strip_clitics`] before its sort, a stem perhaps more than once: the glossary only looks each up, so it
/// needs neither order nor uniqueness, and this way nothing is allocated per word.
fn for_each_stem(form: &str, scratch: &mut StemScratch, mut visit: impl FnMut(&str, usize)) {
    let StemScratch {
        prefixes,
        suffixes,
        marbuta,
    } = scratch;
    // Prefixes and suffixes are slices of `form`: kept as byte lengths (and char counts), nothing is built.
    let bytes = form.as_bytes();
    prefixes.clear();
    prefixes.push((0, 0));
    for slot in PROCLITIC_SLOTS {
        for k in 0..prefixes.len() {
            let (at, chars) = prefixes[k];
            let rest = &bytes[at..];
            let head = head_word(rest);
            for clitic in slot {
                if clitic.starts(rest, head) {
                    prefixes.push((at + clitic.len, chars + clitic.chars));
                }
            }
        }
    }
    suffixes.clear();
    suffixes.push((0, 0));
    let tail = tail_word(bytes);
    for e in ENCLITICS {
        if e.ends(bytes, tail) {
            suffixes.push((e.len, e.chars));
        }
    }
    if NEGATION_SUFFIX.ends(bytes, tail) {
        let rest = &bytes[..bytes.len() - NEGATION_SUFFIX.len];
        let tail = tail_word(rest);
        for e in ENCLITICS.iter().filter(|e| e.word != NEGATION_SUFFIX.word) {
            if e.ends(rest, tail) {
                suffixes.push((e.len + NEGATION_SUFFIX.len, e.chars + NEGATION_SUFFIX.chars));
            }
        }
    }
    let form_chars = form.chars().count();
    for &(p_bytes, p_chars) in prefixes.iter() {
        for &(s_bytes, s_chars) in suffixes.iter() {
            if p_bytes + s_bytes == 0 || form_chars < p_chars + s_chars + MIN_STEM {
                continue;
            }
            let stem = &form[p_bytes..form.len() - s_bytes];
            visit(stem, p_chars + s_chars);
            // سيارتي → سيارة: ta marbuta is written ت before an enclitic.
            if s_bytes > 0 {
                if let Some(base) = stem.strip_suffix('ت') {
                    marbuta.clear();
                    marbuta.push_str(base);
                    marbuta.push('ه');
                    visit(marbuta, p_chars + s_chars);
                }
            }
        }
    }
}

/// The buffers of a lookup, kept from word to word and, per thread, from request to request: sized for the
/// index once, they are not allocated, grown and zeroed again by every request.
struct Scratch {
    query: Query,
    stems: StemScratch,
    matches: MatchScratch,
}

/// The working lists of [`Glossary::match_word_in`], kept from word to word so that a word allocates only
/// its answer (and, rarely, a tie-resolving search's).
#[derive(Default)]
struct MatchScratch {
    found: Vec<Match>,
    candidates: Vec<Match>,
    hits: Vec<Hit>,
    scores: Vec<f64>,
    similarity: Vec<Option<f64>>,
    unsure: Vec<(usize, f64)>,
    ranked: Vec<(Match, f64)>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            query: Query::empty(),
            stems: StemScratch::default(),
            matches: MatchScratch::default(),
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's [`Scratch`] (fresh buffers should it be in use already).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let fresh = Scratch::new;
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => f(slot.get_or_insert_with(fresh)),
        Err(_) => f(&mut fresh()),
    })
}

/// One match of a word: the form's index, how it matched and its score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Match {
    pub index: u32,
    pub kind: MatchType,
    pub score: f64,
}

/// One word of the text and its matches, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct WordMatches<'a> {
    pub text: &'a str,
    pub start: usize,
    pub end: usize,
    pub normalized: Cow<'a, str>,
    pub matches: Vec<Match>,
}

/// The glossary index: the corpus forms by form, by normalised form (and CODA), by normalised stem, and fuzzily.
pub struct Glossary {
    /// Forms by their spelling in the corpus.
    by_raw: RawTable,
    /// Forms by a normalised string: those whose form or CODA it is, then those whose stem it is.
    by_key: FormTable,
    keys: Vec<String>,
    index: Arc<Index>,
}

/// Form indexes by a string key, in two lists per key, laid out for few cache lines per lookup (the glossary
/// does a dozen per word, and between requests its index may have left the cache): a probe table of
/// (hash tag, record offset) pairs, and one arena of records `[key bytes, first list length, second list
/// length, key bytes padded to whole u32s, first list, second list]`, so that a hit reads one table slot and
/// one stretch of the arena. Most keys looked up (stems of clitic splits) are absent: a one-bit-per-hash filter,
/// a few KB that stay cached, answers most of those without touching the table.
pub struct FormTable {
    /// Power-of-two open-addressing table; `EMPTY_SLOT` marks a free slot.
    slots: Vec<(u32, u32)>,
    arena: Vec<u32>,
    /// Bit `filter_bit(h)` is set for the hash `h` of every key (a power-of-two number of bits, 8 or more per key).
    filter: Vec<u64>,
}

/// A key's two lists of form indexes.
type FormLists = (Vec<u32>, Vec<u32>);

const EMPTY_SLOT: u32 = u32::MAX;
const RECORD_HEADER: usize = 3;

#[inline]
fn key_hash(key: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(key);
    h.write_usize(key.len());
    // Fx leaves the low bits weak; fold the high ones in before masking.
    let v = h.finish();
    v ^ (v >> 29)
}

impl FormTable {
    /// The table of `lists`: each key with its two lists of form indexes.
    fn new(lists: Vec<(String, FormLists)>) -> FormTable {
        // At most two thirds full: the probes stay short, and the table small enough that the lookups of a
        // request share its cache lines (a cold request pays a miss for every line it touches).
        let capacity = (lists.len() * 3 / 2 + 1).next_power_of_two().max(8);
        let mut slots = vec![(0u32, EMPTY_SLOT); capacity];
        let mut filter = vec![0u64; (lists.len() * 8).next_power_of_two().max(64) / 64];
        let mut arena: Vec<u32> = Vec::new();
        for (key, (first, second)) in lists {
            let offset = u32::try_from(arena.len()).expect("glossary table under 16 GiB");
            let bytes = key.as_bytes();
            arena.extend([bytes.len() as u32, first.len() as u32, second.len() as u32]);
            arena.extend(bytes.chunks(4).map(|c| {
                let mut word = [0u8; 4];
                word[..c.len()].copy_from_slice(c);
                u32::from_ne_bytes(word)
            }));
            arena.extend(first);
            arena.extend(second);
            let h = key_hash(bytes);
            let mut i = h as usize & (capacity - 1);
            while slots[i].1 != EMPTY_SLOT {
                i = (i + 1) & (capacity - 1);
            }
            slots[i] = ((h >> 32) as u32, offset);
            let bit = Self::filter_bit(h, filter.len());
            filter[bit / 64] |= 1 << (bit % 64);
        }
        slots.shrink_to_fit();
        arena.shrink_to_fit();
        FormTable {
            slots,
            arena,
            filter,
        }
    }

    /// The filter bit of hash `h` in a filter of `words` u64s (bits apart from the slot's low bits).
    #[inline]
    fn filter_bit(h: u64, words: usize) -> usize {
        (h >> 40) as usize & (words * 64 - 1)
    }

    /// The two lists of `key`, if it has any.
    #[inline]
    pub fn get(&self, key: &str) -> Option<(&[u32], &[u32])> {
        let key = key.as_bytes();
        let h = key_hash(key);
        let bit = Self::filter_bit(h, self.filter.len());
        if self.filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
        let tag = (h >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let (slot_tag, offset) = self.slots[i];
            if offset == EMPTY_SLOT {
                return None;
            }
            let at = offset as usize;
            if slot_tag == tag && self.arena[at] as usize == key.len() {
                let words = key.len().div_ceil(4);
                let stored = &self.arena[at + RECORD_HEADER..at + RECORD_HEADER + words];
                let same = key
                    .chunks(4)
                    .zip(stored)
                    .all(|(c, &w)| c == &w.to_ne_bytes()[..c.len()]);
                if same {
                    let first = at + RECORD_HEADER + words;
                    let second = first + self.arena[at + 1] as usize;
                    let end = second + self.arena[at + 2] as usize;
                    return Some((&self.arena[first..second], &self.arena[second..end]));
                }
            }
            i = (i + 1) & mask;
        }
    }
}

/// Forms by their spelling: a [`FormTable`] with one list per key.
struct RawTable(FormTable);

impl RawTable {
    #[inline]
    fn get(&self, key: &str) -> Option<&[u32]> {
        self.0.get(key).map(|(first, _)| first)
    }
}

/// Matches found so far for one word: few, so a vector searched linearly.
struct Found(Vec<Match>);

impl Found {
    /// Keeps the better of the old and new match of a form: higher score, then the preferred type.
    #[inline]
    fn offer(&mut self, index: u32, kind: MatchType, score: f64, threshold: f64) {
        if score < threshold {
            return;
        }
        match self.0.iter_mut().find(|m| m.index == index) {
            None => self.0.push(Match { index, kind, score }),
            Some(old) => {
                if score > old.score || (score == old.score && kind < old.kind) {
                    old.kind = kind;
                    old.score = score;
                }
            }
        }
    }
}

impl Glossary {
    /// `forms[i]`, `codas[i]` and `stems[i]` describe form i as annotated in the corpus.
    pub fn new(forms: &[&str], codas: &[&str], stems: &[&str]) -> Glossary {
        let mut by_raw: FxMap<String, Vec<u32>> = FxMap::default();
        let mut by_key: FxMap<String, (Vec<u32>, Vec<u32>)> = FxMap::default();
        let mut keys = Vec::with_capacity(forms.len());
        for (i, ((&form, &coda), &stem)) in forms.iter().zip(codas).zip(stems).enumerate() {
            let i = i as u32;
            by_raw.entry(form.to_owned()).or_default().push(i);
            let key = match_form(form).into_owned();
            let coda = match_form(coda);
            by_key.entry(key.clone()).or_default().0.push(i);
            if coda != key.as_str() {
                by_key.entry(coda.into_owned()).or_default().0.push(i);
            }
            let stem = match_form(stem);
            if stem.chars().count() >= MIN_STEM {
                by_key.entry(stem.into_owned()).or_default().1.push(i);
            }
            keys.push(key);
        }
        let borrowed: Vec<&str> = keys.iter().map(String::as_str).collect();
        let index = Arc::new(Index::new(&borrowed));
        Glossary {
            by_raw: RawTable(FormTable::new(
                by_raw
                    .into_iter()
                    .map(|(k, v)| (k, (v, Vec::new())))
                    .collect(),
            )),
            by_key: FormTable::new(by_key.into_iter().collect()),
            keys,
            index,
        }
    }

    /// The matches of one word (`raw` as written, `norm` its normalised form), best first, at most `top_k`.
    pub fn match_word(&self, raw: &str, norm: &str, top_k: usize, threshold: f64) -> Vec<Match> {
        self.match_word_in(&mut Scratch::new(), raw, norm, top_k, threshold)
    }

    /// [`Glossary::match_word`] preparing the fuzzy query in `query`'s buffers (word after word of a text).
    fn match_word_in(
        &self,
        scratch: &mut Scratch,
        raw: &str,
        norm: &str,
        top_k: usize,
        threshold: f64,
    ) -> Vec<Match> {
        let Scratch {
            query,
            stems,
            matches: bufs,
        } = scratch;
        let mut found = Found(std::mem::take(&mut bufs.found));
        found.0.clear();
        for &i in self.by_raw.get(raw).into_iter().flatten() {
            found.offer(i, MatchType::Exact, 1.0, threshold);
        }
        for &i in self
            .by_key
            .get(norm)
            .into_iter()
            .flat_map(|(by_norm, _)| by_norm)
        {
            found.offer(i, MatchType::Normalized, 1.0, threshold);
        }
        if found.0.len() < top_k {
            for_each_stem(norm, stems, |stem, _| {
                if let Some((by_norm, by_stem)) = self.by_key.get(stem) {
                    for &i in by_norm.iter().chain(by_stem) {
                        found.offer(i, MatchType::Clitic, CLITIC_SCORE, threshold);
                    }
                }
            });
        }
        self.index.prepare_again(query, norm.chars());
        let query = &*query;
        if found.0.is_empty() {
            // Only fuzzy matches, ranked as the search ranks them.
            bufs.found = found.0;
            let hits = self.index.search_prepared(query, top_k, threshold);
            return hits
                .into_iter()
                .map(|h| Match {
                    index: h.index,
                    kind: MatchType::Fuzzy,
                    score: h.score,
                })
                .collect();
        }
        let floor = threshold.min(0.5);
        let in_h = top_k + TIE_BREAK_CANDIDATES;
        // Fuzzy matches below the top_k-th of these can no longer get in.
        let bar = if found.0.len() < top_k {
            threshold
        } else {
            let scores = &mut bufs.scores;
            scores.clear();
            scores.extend(found.0.iter().map(|m| m.score));
            scores.sort_unstable_by(|a, b| b.total_cmp(a));
            scores[top_k - 1].max(threshold)
        };
        // Among the best `top_k + found` fuzzy hits are the best `top_k` that are not matches already.
        let limit = (top_k + found.0.len()).min(in_h);
        let hits = &mut bufs.hits;
        self.index.search_prepared_into(query, limit, bar, hits);
        // The similarity of each match found so far: its score in H, if it is in H (see the module docs).
        let similarity = &mut bufs.similarity;
        similarity.clear();
        // A similarity only orders matches of equal score and type, and only ones that can still be answered.
        let place_matters = |m: &Match| {
            let (mut tied, mut before) = (0, 0);
            for o in &found.0 {
                tied += usize::from(o.score == m.score && o.kind == m.kind);
                before += usize::from(o.score > m.score || (o.score == m.score && o.kind < m.kind));
            }
            tied > 1 && before < top_k
        };
        // Forms found but not in `hits` whose place in H is unknown, most similar first.
        let unsure = &mut bufs.unsure;
        unsure.clear();
        for (k, m) in found.0.iter().enumerate() {
            let known = hits.iter().find(|h| h.index == m.index).map(|h| h.score);
            if known.is_none() && place_matters(m) {
                let s = self.index.score_entry(query, m.index);
                if s >= floor {
                    unsure.push((k, s));
                }
            }
            similarity.push(known);
        }
        unsure.sort_unstable_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then(found.0[a.0].index.cmp(&found.0[b.0].index))
        });
        let mut complete: Option<(f64, Vec<Hit>)> = None;
        for &(k, s) in unsure.iter() {
            let m = found.0[k];
            // Matches sure to come first whatever this one's similarity (at most `s`): once they fill top_k,
            // its place no longer matters (and a lower similarity only moves it further down).
            let before = found
                .0
                .iter()
                .zip(similarity.iter())
                .filter(|&(o, o_sim)| {
                    o.score > m.score
                        || (o.score == m.score && o.kind < m.kind)
                        || (o.score == m.score
                            && o.kind == m.kind
                            && o_sim.is_some_and(|x| x > s || (x == s && o.index < m.index)))
                })
                .count();
            if before >= top_k {
                continue;
            }
            // Whether it is in H: H's part at or above its own similarity holds it (the search stops early once
            // it cannot).
            if let Some((cutoff, part)) = &complete {
                if *cutoff == s {
                    // The last search was complete at this very cut-off: it holds H's part at or above it.
                    similarity[k] = part.iter().find(|h| h.index == m.index).map(|h| h.score);
                    continue;
                }
            }
            let this = Hit {
                index: m.index,
                score: s,
            };
            let deeper = self.index.search_until(query, in_h, s, Some(this));
            similarity[k] = deeper.iter().find(|h| h.index == m.index).map(|h| h.score);
            // Found means not stopped early, so the search was complete.
            complete = similarity[k].map(|_| (s, deeper));
        }
        let ranked = &mut bufs.ranked;
        ranked.clear();
        let candidates = &mut bufs.candidates;
        std::mem::swap(candidates, &mut found.0);
        found.0.clear();
        for (m, sim) in candidates.iter().zip(similarity.iter()) {
            found.0.push(*m);
            if let Some(s) = *sim {
                // A form in H is also offered as a fuzzy match (better only when its score is higher).
                found.offer(m.index, MatchType::Fuzzy, s, threshold);
            }
        }
        for h in hits.iter() {
            found.offer(h.index, MatchType::Fuzzy, h.score, threshold);
        }
        for &m in found.0.iter() {
            let sim = match candidates.iter().position(|c| c.index == m.index) {
                Some(k) => similarity[k].unwrap_or(0.0),
                None => m.score,
            };
            ranked.push((m, sim));
        }
        ranked.sort_unstable_by(|(a, sa), (b, sb)| {
            b.score
                .total_cmp(&a.score)
                .then(a.kind.cmp(&b.kind))
                .then(sb.total_cmp(sa))
                .then(a.index.cmp(&b.index))
        });
        ranked.truncate(top_k);
        bufs.found = found.0;
        ranked.iter().map(|&(m, _)| m).collect()
    }

    /// Every word and number of `text` (as `tahqiq.core.scan` finds them) with its matches.
    pub fn lookup<'a>(&self, text: &'a str, top_k: usize, threshold: f64) -> Vec<WordMatches<'a>> {
        with_scratch(|scratch| self.lookup_in(scratch, text, top_k, threshold))
    }

    fn lookup_in<'a>(
        &self,
        scratch: &mut Scratch,
        text: &'a str,
        top_k: usize,
        threshold: f64,
    ) -> Vec<WordMatches<'a>> {
        let tokens = scan_str(text);
        // Room for every token at once: a filtered iterator would grow the list (and copy it) word by word.
        let mut words = Vec::with_capacity(tokens.len());
        for t in tokens {
            if !matches!(t.span.kind, TokenKind::Word | TokenKind::Number) {
                continue;
            }
            let normalized = match_form(t.text);
            let matches = self.match_word_in(scratch, t.text, &normalized, top_k, threshold);
            words.push(WordMatches {
                text: t.text,
                start: t.span.start,
                end: t.span.end,
                normalized,
                matches,
            });
        }
        words
    }
}

/// The pre-serialised parts of each form's match object: `head` is its JSON up to and including `"score":`,
/// `refs` the JSON array of its references. A match is `head score ,"match_type":"…","refs":refs }`.
pub struct JsonParts {
    /// Each form's head and refs side by side, form after form: a match's bytes are one stretch of memory,
    /// not two allocations reached through a table of pointers (the cache misses of a cold request).
    bytes: Vec<u8>,
    /// Per form: where its head starts in `bytes`, the head's length and the refs' length (refs follow it).
    spans: Vec<(u32, u32, u32)>,
}

impl JsonParts {
    /// The parts of form i: `heads[i]` and `refs[i]`.
    pub fn new(heads: &[Vec<u8>], refs: &[Vec<u8>]) -> JsonParts {
        let total = heads.iter().chain(refs).map(Vec::len).sum();
        let mut bytes = Vec::with_capacity(total);
        let spans = heads
            .iter()
            .zip(refs)
            .map(|(head, refs)| {
                let start = u32::try_from(bytes.len()).expect("glossary JSON under 4 GiB");
                bytes.extend_from_slice(head);
                bytes.extend_from_slice(refs);
                (start, head.len() as u32, refs.len() as u32)
            })
            .collect();
        JsonParts { bytes, spans }
    }

    /// How many forms the parts describe.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The head and the refs of form `index`.
    #[inline]
    fn parts(&self, index: u32) -> (&[u8], &[u8]) {
        let (start, head, refs) = self.spans[index as usize];
        let (start, head, refs) = (start as usize, head as usize, refs as usize);
        (
            &self.bytes[start..start + head],
            &self.bytes[start + head..start + head + refs],
        )
    }
}

const TYPE_NAMES: [&str; 4] = ["exact", "normalized", "clitic", "fuzzy"];

/// Appends `s` as a JSON string, escaped as orjson escapes it (`"`, `\\` and control characters only).
pub fn write_json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            0x00..=0x1f => 0,
            _ => continue,
        };
        out.extend_from_slice(&bytes[from..i]);
        if short == 0 {
            out.extend_from_slice(format!("\\u{b:04x}").as_bytes());
        } else {
            out.extend_from_slice(&[b'\\', short]);
        }
        from = i + 1;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

/// Appends a finite float as orjson writes it: the shortest round-trip digits, `1.0` for integers, and an
/// exponent below 1e-5 (`1e-6`, `1.5e-7`) or from 1e16 on (`1e+16`).
pub fn write_json_float(out: &mut Vec<u8>, v: f64) {
    // The scores of exact, normalised and clitic matches: most of those written.
    if v == 1.0 {
        out.extend_from_slice(b"1.0");
        return;
    }
    if v == CLITIC_SCORE {
        out.extend_from_slice(b"0.95");
        return;
    }
    let mut buf = ryu_js::Buffer::new();
    let js = buf.format_finite(v);
    let (sign, digits) = js.strip_prefix('-').map_or(("", js), |d| ("-", d));
    // ECMAScript writes -0 as "0".
    let sign = if v == 0.0 && v.is_sign_negative() {
        "-"
    } else {
        sign
    };
    out.extend_from_slice(sign.as_bytes());
    if let Some(fraction) = digits.strip_prefix("0.00000") {
        // ECMAScript keeps 1e-6 <= |v| < 1e-5 in positional form; orjson does not.
        let zeros = fraction.len() - fraction.trim_start_matches('0').len();
        let significant = &fraction[zeros..];
        out.extend_from_slice(&significant.as_bytes()[..1]);
        if significant.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&significant.as_bytes()[1..]);
        }
        out.extend_from_slice(format!("e-{}", zeros + 6).as_bytes());
    } else if digits.contains(['.', 'e']) {
        out.extend_from_slice(digits.as_bytes());
    } else if digits.len() > 16 {
        // ECMAScript writes integers below 1e21 in full; orjson uses an exponent from 1e16.
        let trimmed = digits.trim_end_matches('0');
        out.extend_from_slice(&trimmed.as_bytes()[..1]);
        if trimmed.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&trimmed.as_bytes()[1..]);
        }
        out.extend_from_slice(format!("e+{}", digits.len() - 1).as_bytes());
    } else {
        out.extend_from_slice(digits.as_bytes());
        out.extend_from_slice(b".0");
    }
}

/// A [`WordRow`] as it comes from Python.
type OwnedWordRow = (usize, usize, String, String, Vec<(u32, u8, f64)>);

/// One word to render: offsets, token, normalised form and its matches.
pub type WordRow<'a> = (usize, usize, &'a str, &'a str, &'a [Match]);

impl JsonParts {
    /// The glossary's `tokens` array, byte for byte as `orjson.dumps` writes the Python objects.
    pub fn render<'a>(
        &self,
        words: impl Iterator<Item = WordRow<'a>> + Clone,
        include_offsets: bool,
    ) -> Vec<u8> {
        // Room for all of it up front: the match objects are most of the answer.
        let size: usize = words
            .clone()
            .map(|(_, _, token, normalized, matches)| {
                64 + 2 * (token.len() + normalized.len())
                    + matches
                        .iter()
                        .map(|m| {
                            let (_, head, refs) = self.spans[m.index as usize];
                            64 + head as usize + refs as usize
                        })
                        .sum::<usize>()
            })
            .sum();
        let mut out = Vec::with_capacity(size + 2);
        out.push(b'[');
        for (w, (start, end, token, normalized, matches)) in words.enumerate() {
            if w > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"token\":");
            write_json_str(&mut out, token);
            out.extend_from_slice(b",\"normalized\":");
            write_json_str(&mut out, normalized);
            if include_offsets {
                out.extend_from_slice(format!(",\"start\":{start},\"end\":{end}").as_bytes());
            }
            out.extend_from_slice(b",\"matches\":[");
            for (k, m) in matches.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                let (head, refs) = self.parts(m.index);
                out.extend_from_slice(head);
                write_json_float(&mut out, m.score);
                out.extend_from_slice(b",\"match_type\":\"");
                out.extend_from_slice(TYPE_NAMES[m.kind as usize].as_bytes());
                out.extend_from_slice(b"\",\"refs\":");
                out.extend_from_slice(refs);
                out.push(b'}');
            }
            out.extend_from_slice(b"]}");
        }
        out.push(b']');
        out
    }
}

/// Below this many bytes of text `GlossaryIndex.lookup` keeps the GIL: handing it over would cost more.
const DETACH_MIN_BYTES: usize = 512;

/// The dialect glossary's index of corpus forms; see `tahqiq.analysis.dialect`.
///
/// `GlossaryIndex(forms, codas, stems)`: form i of the corpus as written, its CODA spelling and its stem.
#[pyclass(module = "tahqiq._native", frozen)]
pub struct GlossaryIndex {
    glossary: Glossary,
    json: Option<JsonParts>,
}

#[pymethods]
impl GlossaryIndex {
    /// Names of the match types, indexed by their codes in `lookup` answers.
    #[classattr]
    const MATCH_TYPES: (&'static str, &'static str, &'static str, &'static str) =
        ("exact", "normalized", "clitic", "fuzzy");
    /// Score of a clitic match.
    #[classattr]
    const CLITIC_SCORE: f64 = CLITIC_SCORE;
    /// Fuzzy candidates beyond `top_k` whose similarity orders exact, normalised and clitic matches.
    #[classattr]
    const TIE_BREAK_CANDIDATES: usize = TIE_BREAK_CANDIDATES;

    #[new]
    #[pyo3(signature = (forms, codas, stems, *, heads=None, refs=None))]
    fn py_new(
        forms: &Bound<'_, PyAny>,
        codas: &Bound<'_, PyAny>,
        stems: &Bound<'_, PyAny>,
        heads: Option<Vec<Vec<u8>>>,
        refs: Option<Vec<Vec<u8>>>,
    ) -> PyResult<Self> {
        let forms = collect_strs(forms, "forms")?;
        let codas = collect_strs(codas, "codas")?;
        let stems = collect_strs(stems, "stems")?;
        if codas.len() != forms.len() || stems.len() != forms.len() {
            return Err(PyValueError::new_err(format!(
                "forms, codas and stems must have the same length, got {}, {} and {}",
                forms.len(),
                codas.len(),
                stems.len()
            )));
        }
        fn borrow<'a>(v: &'a [Bound<'_, PyString>]) -> PyResult<Vec<&'a str>> {
            v.iter().map(|s| s.to_str()).collect()
        }
        let json = match (heads, refs) {
            (None, None) => None,
            (Some(heads), Some(refs))
                if heads.len() == forms.len() && refs.len() == forms.len() =>
            {
                Some(JsonParts::new(&heads, &refs))
            }
            _ => {
                return Err(PyValueError::new_err(
                    "heads and refs go together, one item per form",
                ))
            }
        };
        Ok(GlossaryIndex {
            glossary: Glossary::new(&borrow(&forms)?, &borrow(&codas)?, &borrow(&stems)?),
            json,
        })
    }

    fn __len__(&self) -> usize {
        self.glossary.keys.len()
    }

    /// The normalised form of each corpus form, in index order (what fuzzy matching compares).
    #[getter]
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.glossary.keys)
    }

    /// A `Lexicon` over `keys`, sharing this index's fuzzy search.
    #[getter]
    fn lexicon(&self) -> Lexicon {
        Lexicon::from_index(Arc::clone(&self.glossary.index))
    }

    /// lookup(text, top_k=3, threshold=0.65)
    /// --
    ///
    /// For each word and number of `text` (as `scan` finds them): `(start, end, token, normalized, matches)`,
    /// where `matches` holds at most `top_k` `(form index, match type, score)` triples scoring at least
    /// `threshold`, best first; match types 0 exact, 1 normalized, 2 clitic, 3 fuzzy.
    #[pyo3(signature = (text, top_k=3, threshold=0.65))]
    fn lookup<'py>(
        &self,
        text: &Bound<'py, PyString>,
        top_k: isize,
        threshold: f64,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = text.py();
        let words = self.words(text, top_k, threshold)?;
        let rows = words
            .into_iter()
            .map(|w| {
                let token = PyString::new(py, w.text);
                let normalized = match &w.normalized {
                    Cow::Borrowed(_) => token.clone(),
                    Cow::Owned(s) => PyString::new(py, s),
                };
                let matches = PyList::new(
                    py,
                    w.matches.iter().map(|m| (m.index, m.kind as u8, m.score)),
                )?;
                PyTuple::new(
                    py,
                    [
                        w.start.into_pyobject(py)?.into_any(),
                        w.end.into_pyobject(py)?.into_any(),
                        token.into_any(),
                        normalized.into_any(),
                        matches.into_any(),
                    ],
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, rows)
    }

    /// lookup_json(text, top_k=3, threshold=0.65, include_offsets=False)
    /// --
    ///
    /// The glossary's `tokens` for `text` as JSON bytes: each row `lookup` gives, as the objects
    /// `{token, normalized, start, end (with include_offsets), matches: [...]}` whose match objects are the
    /// index's `heads` and `refs` around the score and type. Needs an index built with `heads` and `refs`.
    #[pyo3(signature = (text, top_k=3, threshold=0.65, include_offsets=false))]
    fn lookup_json<'py>(
        &self,
        text: &Bound<'py, PyString>,
        top_k: isize,
        threshold: f64,
        include_offsets: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let json = self.json_parts()?;
        let words = self.words(text, top_k, threshold)?;
        let rows = words.iter().map(|w| {
            (
                w.start,
                w.end,
                w.text,
                w.normalized.as_ref(),
                w.matches.as_slice(),
            )
        });
        Ok(PyBytes::new(text.py(), &json.render(rows, include_offsets)))
    }

    /// render_json(words, include_offsets=False)
    /// --
    ///
    /// `lookup_json` for rows of the `lookup` shape computed elsewhere (the same JSON assembly).
    #[pyo3(signature = (words, include_offsets=false))]
    fn render_json<'py>(
        &self,
        py: Python<'py>,
        words: Vec<OwnedWordRow>,
        include_offsets: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let json = self.json_parts()?;
        const KINDS: [MatchType; 4] = [
            MatchType::Exact,
            MatchType::Normalized,
            MatchType::Clitic,
            MatchType::Fuzzy,
        ];
        let mut matches: Vec<Vec<Match>> = Vec::with_capacity(words.len());
        for (_, _, _, _, found) in &words {
            let mut row = Vec::with_capacity(found.len());
            for &(index, code, score) in found {
                if index as usize >= json.len()
                    || code as usize >= KINDS.len()
                    || !score.is_finite()
                {
                    return Err(PyValueError::new_err(format!(
                        "match ({index}, {code}, {score}) names no form, type or finite score of this index"
                    )));
                }
                row.push(Match {
                    index,
                    kind: KINDS[code as usize],
                    score,
                });
            }
            matches.push(row);
        }
        let rows = words
            .iter()
            .zip(&matches)
            .map(|((a, b, t, n, _), m)| (*a, *b, t.as_str(), n.as_str(), m.as_slice()));
        Ok(PyBytes::new(py, &json.render(rows, include_offsets)))
    }
}

impl GlossaryIndex {
    fn json_parts(&self) -> PyResult<&JsonParts> {
        self.json.as_ref().ok_or_else(|| {
            PyValueError::new_err(
                "this GlossaryIndex was built without heads and refs, so it cannot write JSON",
            )
        })
    }

    /// Checks the arguments and runs the lookup, without the GIL for long texts.
    fn words<'a>(
        &self,
        text: &'a Bound<'_, PyString>,
        top_k: isize,
        threshold: f64,
    ) -> PyResult<Vec<WordMatches<'a>>> {
        let top_k = crate::fuzzy::check_args(top_k, threshold)?;
        let source = text.to_str()?;
        Ok(if source.len() >= DETACH_MIN_BYTES {
            text.py()
                .detach(|| self.glossary.lookup(source, top_k, threshold))
        } else {
            self.glossary.lookup(source, top_k, threshold)
        })
    }
}

/// strip_clitics(form)
/// --
///
/// Every way to take dialect proclitics and enclitics off a normalised word, leaving at least two letters
/// (before an enclitic, ت is also read back as ta marbuta, normalised ه); the word itself is not included.
/// Ordered by how much was stripped (least first), then by the stem.
#[pyfunction(name = "strip_clitics")]
fn py_strip_clitics(form: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let form = form.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "form must be str, not {}",
            form.get_type().name().map_or("?".into(), |n| n.to_string())
        ))
    })?;
    Ok(strip_clitics(form.to_str()?))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GlossaryIndex>()?;
    m.add_function(wrap_pyfunction!(py_strip_clitics, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn clitics_come_off_both_sides() {
        let stems = strip_clitics("وبحكيلك");
        assert_eq!(stems[..2], ["بحكيلك", "وبحكيل"]);
        assert!(stems.contains(&"بحكي".to_owned()));
        // ت before an enclitic is also read back as ta marbuta (normalised ه).
        assert!(strip_clitics("سيارتي").contains(&"سياره".to_owned()));
        assert!(strip_clitics("وبه")
            .iter()
            .all(|s| s.chars().count() >= MIN_STEM));
        assert!(!strip_clitics("وكتب").contains(&"وكتب".to_owned())); // never the word itself
    }

    #[test]
    fn json_numbers_and_strings_as_orjson_writes_them() {
        let float = |v: f64| {
            let mut out = Vec::new();
            write_json_float(&mut out, v);
            String::from_utf8(out).unwrap()
        };
        for (v, want) in [
            (1.0, "1.0"),
            (0.95, "0.95"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (2e-5, "0.00002"),
            (1e-6, "1e-6"),
            (1.5e-7, "1.5e-7"),
            (1e16, "1e+16"),
            (1.234e17, "1.234e+17"),
            (1e21, "1e+21"),
            (12345.0, "12345.0"),
        ] {
            assert_eq!(float(v), want, "{v}");
        }
        let mut out = Vec::new();
        write_json_str(&mut out, "a\"b\\c\n\u{1}د");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"b\\\\c\\n\\u0001د\""
        );
    }

    #[test]
    fn json_parts_keep_each_forms_head_and_refs() {
        let heads = vec![
            b"{\"a\":1,\"score\":".to_vec(),
            Vec::new(),
            b"{\"score\":".to_vec(),
        ];
        let refs = vec![b"[]".to_vec(), b"[1]".to_vec(), Vec::new()];
        let parts = JsonParts::new(&heads, &refs);
        assert_eq!(parts.len(), 3);
        for i in 0..3 {
            assert_eq!(parts.parts(i as u32), (&heads[i][..], &refs[i][..]));
        }
    }

    proptest! {
        #[test]
        fn form_table_finds_its_keys_and_only_them(
            keys in proptest::collection::hash_map("[بتيكلمنa-c]{0,6}", (proptest::collection::vec(0u32..99, 0..4), proptest::collection::vec(0u32..99, 0..3)), 0..300),
            others in proptest::collection::vec("[بتيكلمنa-d]{0,7}", 0..100),
        ) {
            let table = FormTable::new(keys.clone().into_iter().collect());
            for (key, (first, second)) in &keys {
                prop_assert_eq!(table.get(key), Some((&first[..], &second[..])));
            }
            for other in others.iter().filter(|o| !keys.contains_key(*o)) {
                prop_assert_eq!(table.get(other), None);
            }
        }

        #[test]
        fn affix_words_test_as_str_methods_do(
            form in "(و|ف|ما|رح|ال|ل|ك|ش)?[بتيكلمنهواشحرد]{0,9}(هم|لهم|ها|ش|ي|نيش)?",
        ) {
            let bytes = form.as_bytes();
            let (head, tail) = (head_word(bytes), tail_word(bytes));
            for a in PROCLITIC_SLOTS.iter().flat_map(|slot| slot.iter()).chain(&ENCLITICS) {
                let text = &a.word.to_le_bytes()[..a.len];
                let text = std::str::from_utf8(text).unwrap();
                prop_assert_eq!(a.chars, text.chars().count());
                prop_assert_eq!(a.starts(bytes, head), form.starts_with(text), "{} starts {}", form, text);
                prop_assert_eq!(a.ends(bytes, tail), form.ends_with(text), "{} ends {}", form, text);
            }
        }
    }

    /// The answer as first defined: the whole fuzzy search H, no narrowing.
    fn reference(g: &Glossary, raw: &str, norm: &str, top_k: usize, threshold: f64) -> Vec<Match> {
        let mut found = Found(Vec::new());
        for &i in g.by_raw.get(raw).into_iter().flatten() {
            found.offer(i, MatchType::Exact, 1.0, threshold);
        }
        for &i in g.by_key.get(norm).into_iter().flat_map(|(n, _)| n) {
            found.offer(i, MatchType::Normalized, 1.0, threshold);
        }
        if found.0.len() < top_k {
            for stem in strip_clitics(norm) {
                if let Some((n, s)) = g.by_key.get(&stem) {
                    for &i in n.iter().chain(s) {
                        found.offer(i, MatchType::Clitic, CLITIC_SCORE, threshold);
                    }
                }
            }
        }
        let h = g
            .index
            .search(norm, top_k + TIE_BREAK_CANDIDATES, threshold.min(0.5));
        for hit in &h {
            found.offer(hit.index, MatchType::Fuzzy, hit.score, threshold);
        }
        let sim = |i: u32| h.iter().find(|x| x.index == i).map_or(0.0, |x| x.score);
        let mut all = found.0;
        all.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.kind.cmp(&b.kind))
                .then(sim(b.index).total_cmp(&sim(a.index)))
                .then(a.index.cmp(&b.index))
        });
        all.truncate(top_k);
        all
    }

    proptest! {
        #[test]
        fn narrowed_search_gives_the_reference_answer(
            forms in proptest::collection::vec(("(و|ب|ال)?[بتيكلمنهوا]{1,5}(ي|ك|ها|ت)?", "[بتيكلمنهوا]{2,4}"), 1..80),
            word in "(و|ف)?(ب|ل|ال)?[بتيكلمنهوا]{1,5}(ي|ك|ها|تي)?",
            top_k in 1usize..6,
            threshold in prop_oneof![Just(0.0), Just(0.5), Just(0.65), Just(0.95), Just(1.0), 0.0f64..=1.0],
        ) {
            let texts: Vec<&str> = forms.iter().map(|(f, _)| f.as_str()).collect();
            let stems: Vec<&str> = forms.iter().map(|(_, s)| s.as_str()).collect();
            let g = Glossary::new(&texts, &texts, &stems);
            let norm = match_form(&word);
            prop_assert_eq!(g.match_word(&word, &norm, top_k, threshold), reference(&g, &word, &norm, top_k, threshold));
        }

        #[test]
        fn scratch_reused_word_after_word_gives_the_reference_answers(
            forms in proptest::collection::vec(("(و|ب|ال)?[بتيكلمنهوا]{1,5}(ي|ك|ها|ت)?", "[بتيكلمنهوا]{2,4}"), 1..80),
            words in proptest::collection::vec("(و|ف)?(ب|ل|ال)?[بتيكلمنهوا]{1,5}(ي|ك|ها|تي)?", 1..8),
            top_k in 1usize..6,
            threshold in prop_oneof![Just(0.0), Just(0.5), Just(0.65), 0.0f64..=1.0],
        ) {
            let texts: Vec<&str> = forms.iter().map(|(f, _)| f.as_str()).collect();
            let stems: Vec<&str> = forms.iter().map(|(_, s)| s.as_str()).collect();
            let g = Glossary::new(&texts, &texts, &stems);
            // One scratch for all the words, as `lookup` uses it: nothing a word leaves behind changes the next.
            let mut scratch = Scratch::new();
            for word in &words {
                let norm = match_form(word);
                prop_assert_eq!(g.match_word_in(&mut scratch, word, &norm, top_k, threshold), reference(&g, word, &norm, top_k, threshold));
            }
        }
    }
}
