//! Fuzzy search over a fixed vocabulary, scored exactly like `rapidfuzz.fuzz.ratio(query, entry) / 100`.
//!
//! The score is the normalized Indel similarity on code points: `1 - indel / (len q + len e)`, where
//! `indel = len q + len e - 2 * lcs`. It is computed with the same floating-point steps as rapidfuzz
//! (`(1 - d / L) * 100`, then `/ 100`) so that scores compare equal, not merely close.
//!
//! Why it is fast (rapidfuzz scans and scores every entry):
//! - entries are grouped by length and stored contiguously as dense symbol ids;
//! - a length group is skipped when even a perfect overlap could not reach the cut-off;
//! - each entry carries a 64-bit mask of the symbol buckets it contains; the number of buckets an entry has
//!   that the query lacks (and vice versa) bounds the LCS from above, so a popcount rejects almost every entry;
//! - survivors get the exact LCS by Hyyrö's bit-parallel algorithm, 64 query characters per machine word;
//! - groups are visited nearest-length first, so the top-k fills early and the cut-off rises with it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;

/// Symbol id given to query characters that occur in no entry: they can never be part of an LCS.
const UNSEEN: u32 = u32::MAX;
/// Symbols are bucketed into 64 mask bits; the 63 most frequent symbols get a bit of their own.
const SHARED_BUCKET: u32 = 63;
/// Survivors of the filter whose LCS is computed together (see [`Index::lcs_lanes`]).
const LCS_LANES: usize = 4;
/// Below this many queries `search_many` stays on the calling thread (it still releases the GIL).
const PARALLEL_MIN_QUERIES: usize = 16;

/// The Firefox hash: the keys are code points and corpus words, so DoS-resistant hashing buys nothing here.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last));
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Entries of one length, stored side by side.
struct LengthGroup {
    len: usize,
    /// Original entry indices, ascending.
    ids: Vec<u32>,
    /// Bucket presence mask per entry.
    masks: Vec<u64>,
    /// Buckets per entry (the popcount of its mask).
    pops: Vec<u8>,
    /// Position of the group's first entry among all entries in group order (see `Query::common`).
    offset: usize,
    /// `len` symbol ids per entry, entry after entry.
    symbols: Symbols,
}

/// The symbol ids of a group's entries: a byte each when the index has at most 256 symbols (Arabic after
/// normalisation has some forty), so that the entries the filter lets through are four times denser in memory
/// and a cold request touches fewer cache lines to read them.
enum Symbols {
    Narrow(Vec<u8>),
    Wide(Vec<u32>),
}

/// A symbol id as stored.
trait Symbol: Copy {
    fn id(self) -> usize;
}

impl Symbol for u8 {
    #[inline(always)]
    fn id(self) -> usize {
        self as usize
    }
}

impl Symbol for u32 {
    #[inline(always)]
    fn id(self) -> usize {
        self as usize
    }
}

impl Symbols {
    /// `ids` (all below `alphabet`) in the narrowest form that holds them.
    fn new(ids: Vec<u32>, alphabet: usize) -> Symbols {
        if alphabet <= 256 {
            Symbols::Narrow(ids.into_iter().map(|s| s as u8).collect())
        } else {
            Symbols::Wide(ids)
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            Symbols::Narrow(s) => s.capacity(),
            Symbols::Wide(s) => s.capacity() * 4,
        }
    }

    /// [`Index::lcs`] of the query and entry `j` (of `lb` symbols).
    #[inline(always)]
    fn lcs(&self, query: &Query, lb: usize, j: usize) -> usize {
        match self {
            Symbols::Narrow(s) => Index::lcs(query, &s[j * lb..(j + 1) * lb]),
            Symbols::Wide(s) => Index::lcs(query, &s[j * lb..(j + 1) * lb]),
        }
    }

    /// [`Index::lcs_lanes`] of the query and `entries` (of `lb` symbols each).
    #[inline(always)]
    fn lcs_lanes(&self, query: &Query, lb: usize, entries: &[u32]) -> [usize; LCS_LANES] {
        match self {
            Symbols::Narrow(s) => Index::lcs_lanes(query, s, lb, entries),
            Symbols::Wide(s) => Index::lcs_lanes(query, s, lb, entries),
        }
    }
}

/// A query prepared for scoring: symbol ids, its bucket mask and its bit-parallel match vectors.
pub struct Query {
    len: usize,
    mask: u64,
    blocks: usize,
    /// `pm[sym * blocks + b]`: bit i of block b is set when query char 64*b+i has symbol `sym`.
    pm: Vec<u64>,
    /// Buckets each entry shares with the query, entries in group order: computed once per query and group
    /// (when a search first visits the group), so that each search's filter only compares bytes.
    common: RefCell<Vec<u8>>,
    /// Which groups `common` holds already.
    common_done: RefCell<Vec<bool>>,
    /// Scratch space of the searches: positions that pass the filter.
    survivors: RefCell<Vec<u32>>,
    /// Scratch space of `prepare_again`: the query's symbol ids.
    symbols: Vec<u32>,
}

impl Query {
    /// A query with nothing prepared yet, whose buffers [`Index::prepare_again`] fills.
    pub fn empty() -> Query {
        Query {
            len: 0,
            mask: 0,
            blocks: 1,
            pm: Vec::new(),
            common: RefCell::new(Vec::new()),
            common_done: RefCell::new(Vec::new()),
            survivors: RefCell::new(Vec::new()),
            symbols: Vec::new(),
        }
    }
}

/// The search index behind `Lexicon`. Plain Rust, so it can be searched from many threads at once.
pub struct Index {
    len: usize,
    alphabet: FxMap<char, u32>,
    groups: Vec<LengthGroup>,
    /// Where each entry lives: (group, position in the group).
    places: Vec<(u32, u32)>,
}

/// One candidate result: its score and entry index. Ordered best first, then by lower index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub index: u32,
    pub score: f64,
}

/// `rapidfuzz.fuzz.ratio / 100` for strings whose lengths sum to `total` and whose LCS is `lcs`, computed.
#[inline]
const fn score_computed(total: usize, lcs: usize) -> f64 {
    let sim = if total == 0 {
        1.0
    } else {
        1.0 - (total - 2 * lcs) as f64 / total as f64
    };
    sim * 100.0 / 100.0
}

/// Largest length sum whose scores are looked up rather than divided: it covers words (a division costs
/// more than the rest of a score), while the table stays small (33 KB) and only its used rows get cached.
const TABLE_TOTAL: usize = 128;

/// Where the row of each `total` starts in `SCORES`: a row holds the scores of LCS `0..=total / 2`.
const ROW_START: [usize; TABLE_TOTAL + 2] = {
    let mut rows = [0usize; TABLE_TOTAL + 2];
    let mut t = 0;
    while t <= TABLE_TOTAL {
        rows[t + 1] = rows[t] + t / 2 + 1;
        t += 1;
    }
    rows
};

/// `score_computed(total, lcs)` for every `total <= TABLE_TOTAL` and `lcs <= total / 2`, row after row.
/// Const evaluation rounds IEEE operations exactly as the CPU does, so the values are the same bits.
static SCORES: [f64; ROW_START[TABLE_TOTAL + 1]] = {
    let mut table = [0.0f64; ROW_START[TABLE_TOTAL + 1]];
    let mut t = 0;
    while t <= TABLE_TOTAL {
        let mut k = 0;
        while k <= t / 2 {
            table[ROW_START[t] + k] = score_computed(t, k);
            k += 1;
        }
        t += 1;
    }
    table
};

/// The scores of LCS `0..=most` for strings of `total` characters, when the table holds them.
#[inline]
fn score_row(total: usize, most: usize) -> Option<&'static [f64]> {
    // An LCS is at most the shorter string, so `most <= total / 2` whenever it comes from two strings.
    if total <= TABLE_TOTAL && most <= total / 2 {
        Some(&SCORES[ROW_START[total]..=ROW_START[total] + most])
    } else {
        None
    }
}

/// `rapidfuzz.fuzz.ratio / 100` for strings whose lengths sum to `total` and whose LCS is `lcs`.
#[inline]
fn score(total: usize, lcs: usize) -> f64 {
    match score_row(total, lcs) {
        Some(row) => row[lcs],
        None => score_computed(total, lcs),
    }
}

/// The smallest LCS in `0..=most` whose score reaches `bar` for strings of `total` characters, if any.
#[inline]
fn min_lcs(total: usize, most: usize, bar: f64) -> Option<usize> {
    match score_row(total, most) {
        // Scores never fall as the LCS grows (subtraction and division round monotonically): from the
        // real-number answer, a step or none settles it, where a binary search would mispredict its way there.
        Some(row) => {
            let mut k = lcs_estimate(total, most, bar);
            while k > 0 && row[k - 1] >= bar {
                k -= 1;
            }
            while k <= most && row[k] < bar {
                k += 1;
            }
            (k <= most).then_some(k)
        }
        None => min_lcs_computed(total, most, bar),
    }
}

/// The real-number LCS reaching `bar`, truncated into `0..=most` (no `ceil`: the baseline target calls libm for
/// it); [`min_lcs`] settles the rest.
#[inline]
fn lcs_estimate(total: usize, most: usize, bar: f64) -> usize {
    let estimate = bar * total as f64 / 2.0;
    if estimate.is_finite() && estimate > 0.0 {
        (estimate as usize).min(most)
    } else {
        0
    }
}

/// [`min_lcs`] without the table. Starts from the real-number answer and settles it with the score itself,
/// so that the rounding is exactly the score's.
#[inline]
fn min_lcs_computed(total: usize, most: usize, bar: f64) -> Option<usize> {
    let mut k = lcs_estimate(total, most, bar);
    while k > 0 && score_computed(total, k - 1) >= bar {
        k -= 1;
    }
    while k <= most && score_computed(total, k) < bar {
        k += 1;
    }
    (k <= most).then_some(k)
}

#[inline]
fn bucket(sym: u32) -> u64 {
    1u64 << sym.min(SHARED_BUCKET)
}

impl Index {
    /// Builds the index. Symbols are numbered by descending frequency so that the common ones own mask bits.
    pub fn new(entries: &[&str]) -> Index {
        let mut counts: FxMap<char, u64> = FxMap::default();
        for entry in entries {
            for c in entry.chars() {
                *counts.entry(c).or_insert(0) += 1;
            }
        }
        let mut by_freq: Vec<(char, u64)> = counts.into_iter().collect();
        by_freq.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let alphabet: FxMap<char, u32> = by_freq
            .iter()
            .enumerate()
            .map(|(i, &(c, _))| (c, i as u32))
            .collect();

        let mut groups: Vec<LengthGroup> = Vec::new();
        let mut group_of_len: FxMap<usize, usize> = FxMap::default();
        for (index, entry) in entries.iter().enumerate() {
            let len = entry.chars().count();
            let g = *group_of_len.entry(len).or_insert_with(|| {
                groups.push(LengthGroup {
                    len,
                    ids: Vec::new(),
                    masks: Vec::new(),
                    pops: Vec::new(),
                    offset: 0,
                    symbols: Symbols::Wide(Vec::new()),
                });
                groups.len() - 1
            });
            let group = &mut groups[g];
            let Symbols::Wide(symbols) = &mut group.symbols else {
                unreachable!("groups are narrowed once all are built")
            };
            let mut mask = 0u64;
            for c in entry.chars() {
                let sym = alphabet[&c];
                mask |= bucket(sym);
                symbols.push(sym);
            }
            group.ids.push(index as u32);
            group.masks.push(mask);
            group.pops.push(mask.count_ones() as u8);
        }
        groups.sort_unstable_by_key(|g| g.len);
        let mut places = vec![(0u32, 0u32); entries.len()];
        let mut offset = 0;
        for (gi, g) in groups.iter_mut().enumerate() {
            g.offset = offset;
            offset += g.ids.len();
            g.pops.shrink_to_fit();
            g.ids.shrink_to_fit();
            g.masks.shrink_to_fit();
            if let Symbols::Wide(symbols) = &mut g.symbols {
                g.symbols = Symbols::new(std::mem::take(symbols), alphabet.len());
            }
            for (j, &id) in g.ids.iter().enumerate() {
                places[id as usize] = (gi as u32, j as u32);
            }
        }
        Index {
            len: entries.len(),
            alphabet,
            groups,
            places,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Heap bytes held by the index (entries, masks, ids, alphabet), for the memory-per-entry report.
    pub fn memory_bytes(&self) -> usize {
        let groups: usize = self
            .groups
            .iter()
            .map(|g| {
                std::mem::size_of::<LengthGroup>()
                    + g.ids.capacity() * 4
                    + g.masks.capacity() * 8
                    + g.pops.capacity()
                    + g.symbols.memory_bytes()
            })
            .sum();
        let alphabet = self.alphabet.capacity() * (std::mem::size_of::<(char, u32)>() + 1);
        std::mem::size_of::<Index>() + groups + alphabet + self.places.capacity() * 8
    }

    /// Prepares `query` once for any number of searches and scorings.
    pub fn prepare(&self, query: &str) -> Query {
        self.prepare_chars(query.chars())
    }

    /// [`Index::prepare`] for a query given as chars.
    pub fn prepare_chars(&self, query: impl Iterator<Item = char>) -> Query {
        let mut q = Query::empty();
        self.prepare_again(&mut q, query);
        q
    }

    /// Prepares another query in the buffers of `q` (word after word, without allocating each time).
    pub fn prepare_again(&self, q: &mut Query, query: impl Iterator<Item = char>) {
        q.symbols.clear();
        q.symbols
            .extend(query.map(|c| self.alphabet.get(&c).copied().unwrap_or(UNSEEN)));
        q.len = q.symbols.len();
        q.blocks = q.len.div_ceil(64).max(1);
        q.pm.clear();
        q.pm.resize(self.alphabet.len() * q.blocks, 0);
        q.mask = 0;
        for (i, &sym) in q.symbols.iter().enumerate() {
            if sym == UNSEEN {
                continue;
            }
            q.mask |= bucket(sym);
            q.pm[sym as usize * q.blocks + i / 64] |= 1u64 << (i % 64);
        }
        let common = q.common.get_mut();
        if common.len() != self.len {
            common.resize(self.len, 0);
        }
        let done = q.common_done.get_mut();
        done.clear();
        done.resize(self.groups.len(), false);
    }

    /// Length of the longest common subsequence of the query and one entry (Hyyrö 2004, bit-parallel).
    #[inline(always)]
    fn lcs<S: Symbol>(query: &Query, entry: &[S]) -> usize {
        if query.blocks == 1 {
            let mut v = !0u64;
            for &sym in entry {
                let m = query.pm[sym.id()];
                let u = v & m;
                v = v.wrapping_add(u) | (v.wrapping_sub(u));
            }
            let valid = if query.len == 64 {
                !0u64
            } else {
                (1u64 << query.len) - 1
            };
            return (!v & valid).count_ones() as usize;
        }
        let mut v = vec![!0u64; query.blocks];
        for &sym in entry {
            let row = &query.pm[sym.id() * query.blocks..(sym.id() + 1) * query.blocks];
            let mut carry = 0u64;
            for (vb, &m) in v.iter_mut().zip(row) {
                let u = *vb & m;
                let (sum, c1) = vb.overflowing_add(u);
                let (sum, c2) = sum.overflowing_add(carry);
                carry = (c1 | c2) as u64;
                *vb = sum | (vb.wrapping_sub(u));
            }
        }
        let mut lcs = 0usize;
        for (b, vb) in v.iter().enumerate() {
            let bits = (query.len - 64 * b).min(64);
            let valid = if bits == 64 {
                !0u64
            } else {
                (1u64 << bits) - 1
            };
            lcs += (!vb & valid).count_ones() as usize;
        }
        lcs
    }

    /// The score of entry `index` against a prepared query (`rapidfuzz.fuzz.ratio / 100`).
    pub fn score_entry(&self, q: &Query, index: u32) -> f64 {
        let (g, j) = self.places[index as usize];
        let group = &self.groups[g as usize];
        let lb = group.len;
        score(q.len + lb, group.symbols.lcs(q, lb, j as usize))
    }

    /// Best `top_k` entries scoring at least `threshold`, best first, ties by lower index.
    pub fn search(&self, query: &str, top_k: usize, threshold: f64) -> Vec<Hit> {
        self.search_prepared(&self.prepare(query), top_k, threshold)
    }

    /// [`Index::search`] for a prepared query.
    pub fn search_prepared(&self, q: &Query, top_k: usize, threshold: f64) -> Vec<Hit> {
        self.search_until(q, top_k, threshold, None)
    }

    /// [`Index::search_prepared`] that may stop early once `stop` is sure not to be among the results: it then
    /// returns the results found so far, which lack `stop` as the full answer would.
    pub fn search_until(
        &self,
        q: &Query,
        top_k: usize,
        threshold: f64,
        stop: Option<Hit>,
    ) -> Vec<Hit> {
        self.search_in(q, top_k, threshold, stop, Vec::new())
    }

    /// [`Index::search_prepared`] into `out` (replacing what it held), reusing its memory from search to search.
    pub fn search_prepared_into(
        &self,
        q: &Query,
        top_k: usize,
        threshold: f64,
        out: &mut Vec<Hit>,
    ) {
        *out = self.search_in(q, top_k, threshold, None, std::mem::take(out));
    }

    /// [`Index::search_until`] whose answer is built in the memory of `hits`.
    fn search_in(
        &self,
        q: &Query,
        top_k: usize,
        threshold: f64,
        stop: Option<Hit>,
        hits: Vec<Hit>,
    ) -> Vec<Hit> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU has just been checked for the `popcnt` instruction.
                return unsafe { self.search_popcnt(q, top_k, threshold, stop, hits) };
            }
        }
        self.search_body(q, top_k, threshold, stop, hits)
    }

    /// The search compiled with the `popcnt` instruction, which the baseline x86-64 target lacks: counting
    /// bits is the inner step of both the mask filter and the LCS.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn search_popcnt(
        &self,
        q: &Query,
        top_k: usize,
        threshold: f64,
        stop: Option<Hit>,
        hits: Vec<Hit>,
    ) -> Vec<Hit> {
        self.search_body(q, top_k, threshold, stop, hits)
    }

    #[inline(always)]
    fn search_body(
        &self,
        q: &Query,
        top_k: usize,
        threshold: f64,
        stop: Option<Hit>,
        hits: Vec<Hit>,
    ) -> Vec<Hit> {
        let mut top = TopK::new(top_k.min(self.len), hits);
        if top.capacity == 0 {
            return top.into_sorted();
        }
        // Nearest lengths first (shorter first at equal distance): they hold the best scores, which then raise
        // the bar for the rest. The groups ascend by length, so walk outwards from the query's length.
        let mut above = self.groups.partition_point(|g| g.len < q.len);
        let mut below = above;
        let mut survivors = q.survivors.borrow_mut();
        while below > 0 || above < self.groups.len() {
            let take_below = above == self.groups.len()
                || (below > 0
                    && q.len - self.groups[below - 1].len <= self.groups[above].len - q.len);
            let g = if take_below {
                below -= 1;
                below
            } else {
                above += 1;
                above - 1
            };
            let group = &self.groups[g];
            let lb = group.len;
            let total = q.len + lb;
            if stop.is_some_and(|s| top.excludes(s)) {
                break;
            }
            let bar = top.bar(threshold);
            // Smallest LCS whose score reaches the bar; none means the whole group is out of reach.
            let Some(need) = min_lcs(total, q.len.min(lb), bar) else {
                // Out of reach by length alone: so is every group further out on this side (a longer length
                // gap only lowers the best possible score, and the bar never falls).
                if take_below {
                    below = 0;
                } else {
                    above = self.groups.len();
                }
                continue;
            };
            if need == 0 {
                // Everything in the group qualifies (only possible at a threshold of 0 or with empty strings).
                for (j, &id) in group.ids.iter().enumerate() {
                    let lcs = group.symbols.lcs(q, lb, j);
                    top.offer(id, score(total, lcs), threshold);
                }
                continue;
            }
            // An entry bucket missing from the query costs at least one entry char; likewise the other way.
            let entry_slack = (lb - need).min(255) as u8;
            let query_slack = q.len - need;
            let buckets = q.mask.count_ones() as usize;
            let shared_at_least = buckets.saturating_sub(query_slack) as u8;
            let n = group.ids.len();
            let mut common = q.common.borrow_mut();
            let common = &mut common[group.offset..group.offset + n];
            let done = &mut q.common_done.borrow_mut()[g];
            if !*done {
                common_buckets(&group.masks, q.mask, common);
                *done = true;
            }
            survivors.clear();
            filter_common(
                common,
                &group.pops,
                shared_at_least,
                entry_slack,
                &mut survivors,
            );
            // LCS_LANES survivors at a time (need is the group's), then offered one by one in order as before.
            for chunk in survivors.chunks(LCS_LANES) {
                let lcs = group.symbols.lcs_lanes(q, lb, chunk);
                for (&j, &lcs) in chunk.iter().zip(&lcs) {
                    if lcs >= need {
                        top.offer(group.ids[j as usize], score(total, lcs), threshold);
                        if stop.is_some_and(|s| top.excludes(s)) {
                            return top.into_sorted();
                        }
                    }
                }
            }
        }
        top.into_sorted()
    }

    /// [`Index::lcs`] of the query and up to [`LCS_LANES`] entries of `lb` symbols each (entry j is
    /// `symbols[j * lb..(j + 1) * lb]`), in lockstep: each entry's steps depend on its previous one, so one
    /// entry at a time leaves the CPU waiting, while the lanes' steps are independent and overlap.
    /// Lanes past `entries.len()` repeat its first entry.
    #[inline(always)]
    fn lcs_lanes<S: Symbol>(
        query: &Query,
        symbols: &[S],
        lb: usize,
        entries: &[u32],
    ) -> [usize; LCS_LANES] {
        let entry = |k: usize| {
            let j = entries.get(k).copied().unwrap_or(entries[0]) as usize;
            &symbols[j * lb..(j + 1) * lb]
        };
        if query.blocks != 1 {
            return std::array::from_fn(|k| Self::lcs(query, entry(k)));
        }
        let lanes: [&[S]; LCS_LANES] = std::array::from_fn(entry);
        let mut v = [!0u64; LCS_LANES];
        for i in 0..lb {
            for (vk, lane) in v.iter_mut().zip(&lanes) {
                let u = *vk & query.pm[lane[i].id()];
                *vk = vk.wrapping_add(u) | vk.wrapping_sub(u);
            }
        }
        let valid = if query.len == 64 {
            !0u64
        } else {
            (1u64 << query.len) - 1
        };
        v.map(|vk| (!vk & valid).count_ones() as usize)
    }
}

/// `common[j]`: the buckets of `masks[j]` that `qmask` has too.
fn common_buckets(masks: &[u64], qmask: u64, common: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512vpopcntdq")
            && std::is_x86_feature_detected!("avx512f")
        {
            // SAFETY: the CPU has just been checked for these instructions.
            unsafe { common_buckets_avx512(masks, qmask, common) };
            return;
        }
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: as above.
            unsafe { common_buckets_popcnt(masks, qmask, common) };
            return;
        }
    }
    common_buckets_portable(masks, qmask, common);
}

#[inline(always)]
fn common_buckets_portable(masks: &[u64], qmask: u64, common: &mut [u8]) {
    for (c, &m) in common.iter_mut().zip(masks) {
        *c = (m & qmask).count_ones() as u8;
    }
}

/// Compiled for AVX-512 so that the popcounts vectorise.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
unsafe fn common_buckets_avx512(masks: &[u64], qmask: u64, common: &mut [u8]) {
    common_buckets_portable(masks, qmask, common)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn common_buckets_popcnt(masks: &[u64], qmask: u64, common: &mut [u8]) {
    common_buckets_portable(masks, qmask, common)
}

/// Positions of the entries whose buckets leave room for the needed overlap: sharing at least
/// `shared_at_least` of the query's buckets (the query misses at most its slack), and having at most
/// `entry_slack` buckets the query lacks.
#[inline]
fn filter_common(
    common: &[u8],
    pops: &[u8],
    shared_at_least: u8,
    entry_slack: u8,
    out: &mut Vec<u32>,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU has just been checked for these instructions.
            unsafe { filter_common_avx512(common, pops, shared_at_least, entry_slack, out) };
            return;
        }
    }
    filter_common_portable(common, pops, shared_at_least, entry_slack, out);
}

#[inline(always)]
fn entry_passes(common: u8, pop: u8, shared_at_least: u8, entry_slack: u8) -> bool {
    (common >= shared_at_least) & (common.saturating_add(entry_slack) >= pop)
}

fn filter_common_portable(
    common: &[u8],
    pops: &[u8],
    shared_at_least: u8,
    entry_slack: u8,
    out: &mut Vec<u32>,
) {
    for (j, (&c, &p)) in common.iter().zip(pops).enumerate() {
        if entry_passes(c, p, shared_at_least, entry_slack) {
            out.push(j as u32);
        }
    }
}

/// 64 entries per instruction (the last few by a masked load): the compares give the verdicts as bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn filter_common_avx512(
    common: &[u8],
    pops: &[u8],
    shared_at_least: u8,
    entry_slack: u8,
    out: &mut Vec<u32>,
) {
    use std::arch::x86_64::{
        _mm512_adds_epu8, _mm512_cmpge_epu8_mask, _mm512_maskz_loadu_epi8, _mm512_set1_epi8,
    };
    const BLOCK: usize = 64;
    let at_least = _mm512_set1_epi8(shared_at_least as i8);
    let slack = _mm512_set1_epi8(entry_slack as i8);
    let n = common.len().min(pops.len());
    let mut start = 0;
    while start < n {
        let lanes = (n - start).min(BLOCK);
        let present: u64 = if lanes == BLOCK {
            !0
        } else {
            (1u64 << lanes) - 1
        };
        // SAFETY: only the `lanes` present bytes are read; the loads need no alignment.
        let (c, p) = unsafe {
            (
                _mm512_maskz_loadu_epi8(present, common.as_ptr().add(start).cast::<i8>()),
                _mm512_maskz_loadu_epi8(present, pops.as_ptr().add(start).cast::<i8>()),
            )
        };
        let mut bits = _mm512_cmpge_epu8_mask(c, at_least)
            & _mm512_cmpge_epu8_mask(_mm512_adds_epu8(c, slack), p)
            & present;
        while bits != 0 {
            out.push((start as u32) + bits.trailing_zeros());
            bits &= bits - 1;
        }
        start += BLOCK;
    }
}

/// The best hits so far, kept sorted best first; small, so insertion by shifting is cheapest.
struct TopK {
    capacity: usize,
    hits: Vec<Hit>,
}

impl TopK {
    /// An empty list in the memory of `hits` (whatever it held is dropped).
    fn new(capacity: usize, mut hits: Vec<Hit>) -> TopK {
        hits.clear();
        hits.reserve(capacity.min(1024));
        TopK { capacity, hits }
    }

    /// Whether `hit` can no longer get in: the list is full of better hits (it only gets better).
    #[inline]
    fn excludes(&self, hit: Hit) -> bool {
        self.hits.len() == self.capacity && Self::better(self.hits[self.capacity - 1], hit)
    }

    #[inline]
    fn better(a: Hit, b: Hit) -> bool {
        a.score > b.score || (a.score == b.score && a.index < b.index)
    }

    /// The score a new hit must reach to have a chance: the threshold, or the worst kept score once full.
    #[inline]
    fn bar(&self, threshold: f64) -> f64 {
        if self.hits.len() == self.capacity {
            self.hits[self.capacity - 1].score.max(threshold)
        } else {
            threshold
        }
    }

    #[inline]
    fn offer(&mut self, index: u32, score: f64, threshold: f64) {
        if score < threshold {
            return;
        }
        let hit = Hit { index, score };
        if self.hits.len() == self.capacity {
            if !Self::better(hit, self.hits[self.capacity - 1]) {
                return;
            }
            self.hits.pop();
        }
        let at = self.hits.partition_point(|&h| Self::better(h, hit));
        self.hits.insert(at, hit);
    }

    fn into_sorted(self) -> Vec<Hit> {
        self.hits
    }
}

/// The argument checks shared by every search entry point (Lexicon and GlossaryIndex).
pub(crate) fn check_args(top_k: isize, threshold: f64) -> PyResult<usize> {
    if top_k < 1 {
        return Err(PyValueError::new_err(format!(
            "top_k must be at least 1, got {top_k}"
        )));
    }
    if !(0.0..=1.0).contains(&threshold) {
        return Err(PyValueError::new_err(format!(
            "threshold must be between 0 and 1, got {threshold}"
        )));
    }
    Ok(top_k as usize)
}

fn to_pairs(hits: Vec<Hit>) -> Vec<(usize, f64)> {
    hits.into_iter()
        .map(|h| (h.index as usize, h.score))
        .collect()
}

/// Collects a Python sequence (or any iterable) of `str` as borrowed `&str`s, naming the first bad item.
pub(crate) fn collect_strs<'py>(
    items: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Vec<Bound<'py, PyString>>> {
    if items.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a sequence of str, not a single str"
        )));
    }
    let mut out = Vec::with_capacity(items.len().unwrap_or(0));
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        match item.cast_into::<PyString>() {
            Ok(s) => out.push(s),
            Err(e) => {
                return Err(PyTypeError::new_err(format!(
                    "{what}[{i}] must be str, not {}",
                    e.into_inner().get_type().name()?
                )))
            }
        }
    }
    Ok(out)
}

/// An index of strings for fuzzy search.
///
/// `Lexicon(entries)` takes a sequence of `str` (duplicates and empty strings are allowed; results refer
/// to entries by their position). The score of an entry is exactly
/// `rapidfuzz.fuzz.ratio(query, entry) / 100`, the normalized Indel similarity on the strings as given:
/// normalise both sides first (`tahqiq.core.normalize`) when that is what you mean.
#[pyclass(module = "tahqiq._native", frozen)]
pub struct Lexicon {
    index: Arc<Index>,
}

impl Lexicon {
    /// A Lexicon over an index another object also holds (the glossary's).
    pub(crate) fn from_index(index: Arc<Index>) -> Lexicon {
        Lexicon { index }
    }
}

#[pymethods]
impl Lexicon {
    #[new]
    fn py_new(entries: &Bound<'_, PyAny>) -> PyResult<Self> {
        let strings = collect_strs(entries, "entries")?;
        let borrowed: Vec<&str> = strings
            .iter()
            .map(|s| s.to_str())
            .collect::<PyResult<_>>()?;
        let py = entries.py();
        Ok(Lexicon {
            index: Arc::new(py.detach(|| Index::new(&borrowed))),
        })
    }

    fn __len__(&self) -> usize {
        self.index.len()
    }

    fn __repr__(&self) -> String {
        format!("Lexicon(<{} entries>)", self.index.len())
    }

    /// search(query, top_k=3, threshold=0.65)
    /// --
    ///
    /// The `top_k` entries most similar to `query` whose score is at least `threshold`, as
    /// `(entry index, score)` pairs, best first, ties by lower index. Raises ValueError when `top_k < 1`
    /// or `threshold` is outside [0, 1].
    #[pyo3(signature = (query, top_k=3, threshold=0.65))]
    fn search(
        &self,
        py: Python<'_>,
        query: &str,
        top_k: isize,
        threshold: f64,
    ) -> PyResult<Vec<(usize, f64)>> {
        let top_k = check_args(top_k, threshold)?;
        // Short queries are answered faster than the GIL could be handed over and back.
        let hits = if query.len() > 256 {
            py.detach(|| self.index.search(query, top_k, threshold))
        } else {
            self.index.search(query, top_k, threshold)
        };
        Ok(to_pairs(hits))
    }

    /// search_many(queries, top_k=3, threshold=0.65)
    /// --
    ///
    /// `search` for each query, in order. Releases the GIL and spreads the queries over every core.
    #[pyo3(signature = (queries, top_k=3, threshold=0.65))]
    fn search_many(
        &self,
        queries: &Bound<'_, PyAny>,
        top_k: isize,
        threshold: f64,
    ) -> PyResult<Vec<Vec<(usize, f64)>>> {
        let top_k = check_args(top_k, threshold)?;
        let strings = collect_strs(queries, "queries")?;
        let borrowed: Vec<&str> = strings
            .iter()
            .map(|s| s.to_str())
            .collect::<PyResult<_>>()?;
        let index = &self.index;
        let results: Vec<Vec<Hit>> = queries.py().detach(|| {
            if borrowed.len() < PARALLEL_MIN_QUERIES {
                // A few queries finish before the thread pool would have handed them out.
                borrowed
                    .iter()
                    .map(|q| index.search(q, top_k, threshold))
                    .collect()
            } else {
                borrowed
                    .par_iter()
                    .with_min_len(4)
                    .map(|q| index.search(q, top_k, threshold))
                    .collect()
            }
        });
        Ok(results.into_iter().map(to_pairs).collect())
    }

    /// Heap bytes held by the index, for capacity planning (`memory_bytes() / len(lexicon)` per entry).
    fn memory_bytes(&self) -> usize {
        self.index.memory_bytes()
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Lexicon>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Textbook O(n·m) LCS: the reference the bit-parallel one is checked against.
    fn lcs_dp(a: &[char], b: &[char]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        for &x in a {
            let mut cur = vec![0usize; b.len() + 1];
            for (j, &y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    cur[j].max(prev[j + 1])
                };
            }
            prev = cur;
        }
        prev[b.len()]
    }

    /// Brute force: score every entry, keep those at or above the threshold, sort, truncate.
    fn brute(entries: &[&str], query: &str, top_k: usize, threshold: f64) -> Vec<Hit> {
        let q: Vec<char> = query.chars().collect();
        let mut hits: Vec<Hit> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let e: Vec<char> = e.chars().collect();
                Hit {
                    index: i as u32,
                    score: score(q.len() + e.len(), lcs_dp(&q, &e)),
                }
            })
            .filter(|h| h.score >= threshold)
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index)));
        hits.truncate(top_k);
        hits
    }

    #[test]
    fn score_matches_rapidfuzz_examples() {
        // rapidfuzz.fuzz.ratio("this is a test", "this is a test!") == 96.55172413793103
        let idx = Index::new(&["this is a test!"]);
        let hits = idx.search("this is a test", 1, 0.0);
        assert_eq!(hits[0].score, 96.55172413793103 / 100.0);
        // fuzz.ratio("", "") == 100; fuzz.ratio("a", "") == 0
        let idx = Index::new(&["", "a"]);
        assert_eq!(
            idx.search("", 3, 0.0),
            vec![
                Hit {
                    index: 0,
                    score: 1.0
                },
                Hit {
                    index: 1,
                    score: 0.0
                }
            ]
        );
    }

    #[test]
    fn arabic_and_ties() {
        let entries = ["كتاب", "كتب", "كاتب", "مكتبة", "كتاب", "قلم"];
        let idx = Index::new(&entries);
        // A few symbols: the entries keep a byte per symbol.
        assert!(idx
            .groups
            .iter()
            .all(|g| matches!(g.symbols, Symbols::Narrow(_))));
        let hits = idx.search("كتابي", 3, 0.65);
        assert_eq!(hits, brute(&entries, "كتابي", 3, 0.65));
        // The two identical entries tie; the lower index comes first.
        assert_eq!(hits[0].index, 0);
        assert_eq!(hits[1].index, 4);
    }

    #[test]
    fn long_queries_use_several_blocks() {
        let long_a: String = "abcdefghij".repeat(15);
        let long_b: String = "abcdefghiX".repeat(15);
        let entries = [long_a.as_str(), long_b.as_str(), "abc"];
        let idx = Index::new(&entries);
        assert_eq!(
            idx.search(&long_a, 3, 0.0),
            brute(&entries, &long_a, 3, 0.0)
        );
    }

    #[test]
    fn unseen_query_characters_never_match() {
        let idx = Index::new(&["abc"]);
        assert_eq!(idx.search("xyz", 3, 0.0)[0].score, 0.0);
        assert!(idx.search("xyz", 3, 0.01).is_empty());
    }

    #[test]
    fn many_symbols_share_the_last_bucket() {
        // More than 64 distinct symbols: the shared bucket must not make the filter reject true matches.
        let words: Vec<String> = (0..200u32)
            .map(|i| {
                (0..5)
                    .map(|k| char::from_u32(0x4E00 + (i * 7 + k * 13) % 300).unwrap())
                    .collect()
            })
            .collect();
        let entries: Vec<&str> = words.iter().map(String::as_str).collect();
        let idx = Index::new(&entries);
        // More than a byte's worth of symbols, too: the entries keep u32 ids.
        assert!(idx.alphabet.len() > 256);
        assert!(idx
            .groups
            .iter()
            .all(|g| matches!(g.symbols, Symbols::Wide(_))));
        for w in &entries {
            assert_eq!(idx.search(w, 5, 0.3), brute(&entries, w, 5, 0.3));
        }
    }

    /// Every score in the table has the bits of the computed one (at runtime, on this CPU).
    #[test]
    fn score_table_equals_division() {
        for total in 0..=TABLE_TOTAL + 3 {
            for lcs in 0..=total / 2 {
                assert_eq!(
                    score(total, lcs).to_bits(),
                    score_computed(std::hint::black_box(total), lcs).to_bits(),
                    "total {total}, lcs {lcs}"
                );
            }
        }
    }

    /// Every bar between two neighbouring scores, and the scores themselves, finds the same LCS either way.
    #[test]
    fn min_lcs_table_equals_computed_at_every_score() {
        for total in 0..=TABLE_TOTAL + 3 {
            for most in 0..=total / 2 {
                for lcs in 0..=total / 2 {
                    let s = score_computed(std::hint::black_box(total), lcs);
                    for bar in [
                        s,
                        f64::from_bits(s.to_bits() + 1),
                        f64::from_bits(s.to_bits().saturating_sub(1)),
                    ] {
                        assert_eq!(
                            min_lcs(total, most, bar),
                            min_lcs_computed(total, most, bar),
                            "total {total}, most {most}, bar {bar}"
                        );
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn bit_parallel_lcs_is_exact(a in "[abcdé]{0,150}", b in "[abcdé]{0,40}") {
            let idx = Index::new(&[b.as_str()]);
            let q = idx.prepare(&a);
            let syms: Vec<u32> = b.chars().map(|c| idx.alphabet[&c]).collect();
            let ac: Vec<char> = a.chars().collect();
            let bc: Vec<char> = b.chars().collect();
            prop_assert_eq!(Index::lcs(&q, &syms), lcs_dp(&ac, &bc));
        }

        #[test]
        fn lcs_in_lanes_equals_one_at_a_time(
            entries in proptest::collection::vec("[abcdé]{6}", 1..12),
            query in prop_oneof!["[abcdéz]{0,64}", "[abcdé]{65,130}"],
            picks in proptest::collection::vec(0usize..12, 1..=LCS_LANES),
        ) {
            let refs: Vec<&str> = entries.iter().map(String::as_str).collect();
            let idx = Index::new(&refs);
            let q = idx.prepare(&query);
            let symbols: Vec<u32> = entries.iter().flat_map(|e| e.chars().map(|c| idx.alphabet[&c])).collect();
            let picks: Vec<u32> = picks.iter().map(|&p| (p % entries.len()) as u32).collect();
            let narrow: Vec<u8> = symbols.iter().map(|&s| s as u8).collect();
            let lanes = Index::lcs_lanes(&q, &symbols, 6, &picks);
            prop_assert_eq!(lanes, Index::lcs_lanes(&q, &narrow, 6, &picks));
            for (k, &lcs) in lanes.iter().enumerate() {
                let j = picks.get(k).copied().unwrap_or(picks[0]) as usize;
                prop_assert_eq!(lcs, Index::lcs(&q, &symbols[j * 6..(j + 1) * 6]));
            }
        }

        #[test]
        fn min_lcs_is_the_first_reaching_the_bar(total in 0usize..200, most in 0usize..100, bar in prop_oneof![0.0f64..=1.0, Just(0.5), Just(0.65), Just(1.0)]) {
            // An LCS is at most the shorter string: never more than half of the total.
            let most = most.min(total / 2);
            prop_assert_eq!(min_lcs(total, most, bar), (0..=most).find(|&k| score(total, k) >= bar));
            prop_assert_eq!(min_lcs(total, most, bar), min_lcs_computed(total, most, bar));
        }

        #[test]
        fn min_lcs_table_equals_computed_at_any_bar(total in 0usize..200, most in 0usize..100, bar in any::<f64>()) {
            let most = most.min(total / 2);
            prop_assert_eq!(min_lcs(total, most, bar), min_lcs_computed(total, most, bar));
        }

        #[test]
        fn large_groups_equal_brute_force(
            // Hundreds of entries of one or two lengths: the filter's 64-entry blocks and their tails.
            entries in proptest::collection::vec("[abcdeé]{4,5}", 60..400),
            query in "[abcdeéz]{2,7}",
            top_k in 1usize..12,
            threshold in prop_oneof![Just(0.5), Just(0.65), 0.0f64..=1.0],
        ) {
            let refs: Vec<&str> = entries.iter().map(String::as_str).collect();
            let idx = Index::new(&refs);
            let q = idx.prepare(&query);
            // The same prepared query twice: its shared-bucket counts are reused by the second search.
            prop_assert_eq!(idx.search_prepared(&q, top_k, threshold), brute(&refs, &query, top_k, threshold));
            prop_assert_eq!(idx.search_prepared(&q, top_k + 3, threshold / 2.0), brute(&refs, &query, top_k + 3, threshold / 2.0));
        }

        #[test]
        fn stopping_early_keeps_what_is_sure(
            entries in proptest::collection::vec("[abcde]{2,6}", 1..200),
            query in "[abcde]{2,6}",
            pick in 0usize..200,
        ) {
            let refs: Vec<&str> = entries.iter().map(String::as_str).collect();
            let idx = Index::new(&refs);
            let q = idx.prepare(&query);
            let index = (pick % refs.len()) as u32;
            let score = idx.score_entry(&q, index);
            let full = idx.search_prepared(&q, 5, score);
            let stopped = idx.search_until(&q, 5, score, Some(Hit { index, score }));
            // Present in the stopped answer exactly when present in the full one, and then both are equal.
            let in_full = full.iter().any(|h| h.index == index);
            prop_assert_eq!(stopped.iter().any(|h| h.index == index), in_full);
            if in_full {
                prop_assert_eq!(stopped, full);
            }
        }

        #[test]
        fn search_equals_brute_force(
            entries in proptest::collection::vec("[اأبتثجحكلمنهوي a-c]{0,9}", 0..60),
            query in "[اأبتثجحكلمنهوي a-cz]{0,10}",
            top_k in 1usize..6,
            threshold in prop_oneof![Just(0.0), Just(0.65), Just(1.0), 0.0f64..=1.0],
        ) {
            let refs: Vec<&str> = entries.iter().map(String::as_str).collect();
            let idx = Index::new(&refs);
            prop_assert_eq!(idx.search(&query, top_k, threshold), brute(&refs, &query, top_k, threshold));
        }
    }
}
