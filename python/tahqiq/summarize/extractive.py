"""The in-process extractive summarizer for Arabic and English: the embedded default and the edge fallback of
``POST /api/ai/summarize``.

How it chooses sentences:

1. :func:`tahqiq.text.sentences.sentence_spans` splits the text (Arabic and English punctuation, abbreviations,
   decimals, quotations, line breaks; over-long sentences are cut at clauses).
2. Each of the first :data:`MAX_RANKED_SENTENCES` sentences becomes a bag of stems: the text is lowercased and put
   through the core's normaliser (``tahqiq.arabic.keys.key``: ta marbuta and digits folded), ``tahqiq.core.scan``
   gives the words and numbers, stop words (``data/stopwords_*.txt``) are dropped, and Arabic words are light-stemmed
   (light10, ``tahqiq.arabic.clitics.light10_stem``: the conjunction و, the article and its prefixed forms, ten
   suffixes), English ones by a small suffix stripper. Later sentences are never ranked: news puts what matters
   first, and the cap bounds the time.
3. The sentences are nodes of a graph weighted by the cosine similarity of their tf-idf vectors (sublinear tf).
   Each gets its position-aware centrality (PacSum, Zheng and Lapata 2019): the similarity it has to the sentences
   after it, so that earlier sentences the rest of the text elaborates weigh more and a closing recap does not.
4. A logistic model (:data:`WEIGHTS`) turns each sentence's position (a weight for each of the first five), its
   centrality and the log of its number of content terms into the log-odds that it is one of the three sentences
   that best cover a reference summary. The weights are learned from the project's two gold sets (64 Arabic and
   English documents, :mod:`tools.train.summaries` in the repository): on news the lead is strong, so the learned
   position weights are the supervised form of a position prior; longer sentences carry more of the news. The short
   summary has its own fit, :data:`SHORT_WEIGHTS`, shrunk harder toward the lead-only model (L2 16, not 4): three
   sentences leave least room for a mistaken swap, and the gold sets put the news later than most news does.
5. The summary starts from the lead: the first k sentences get :data:`LEAD_MARGIN` extra log-odds, and sentences
   are chosen greedily on that score minus :data:`REDUNDANCY_WEIGHT` times their highest similarity to one already
   chosen. So a later sentence replaces a lead sentence only when the model is clearly surer of it, and a near-repeat
   is left out. Chosen by cross-validation (docs/design/summaries.md, "Summarizer quality"): swapping freely on the
   model's scores beat Lead-3 but fell below Lead-8 (a long summary keeps 8 of 9 to 19 sentences, so the choice is
   what to drop, and the model, trained on the best three, is not calibrated for that); with the margin the summary
   is at or above Lead-k at every length.

Everything is deterministic: ties go to the earlier sentence.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tahqiq.arabic.clitics import light10_stem
from tahqiq.arabic.keys import key
from tahqiq.core import scan
from tahqiq.text.sentences import load_word_list, sentence_spans

LENGTH_SENTENCES: dict[str, int] = {"short": 3, "medium": 5, "long": 8}
"""How many sentences each ``length`` of the request chooses."""

MAX_RANKED_SENTENCES = 250
"""Only the first this many sentences are ranked: bounds the graph (and the time) on long texts."""

EDGE_THRESHOLD = 0.3  # PacSum's beta: similarities below min + beta * (max - min) are not edges
POSITIONS = 5  # the model has a weight for each of the first this many positions (later ones share the bias)
FEATURES = ("bias", *(f"position {i + 1}" for i in range(POSITIONS)), "forward centrality", "log(1 + terms)")
"""The columns of :func:`sentence_features`, in order."""

LEAD_MARGIN = 0.9
"""Log-odds by which a later sentence must beat one of the first k to replace it (e^0.9: 2.5 times the odds)."""
REDUNDANCY_WEIGHT = 1.5
"""Log-odds a candidate loses per unit of its highest cosine similarity to a sentence already chosen."""


@dataclass(frozen=True, slots=True)
class SentenceWeights:
    """A logistic model of whether a sentence is one of the three that best cover the reference summary: log-odds =
    ``bias + position[i] (first POSITIONS sentences) + centrality * forward centrality + length * log(1 + terms)``."""

    bias: float
    position: tuple[float, ...]
    centrality: float
    length: float

    def vector(self) -> tuple[float, ...]:
        """The weights in the order of :data:`FEATURES`."""
        return (self.bias, *self.position, self.centrality, self.length)

    @classmethod
    def from_vector(cls, vector: Sequence[float]) -> SentenceWeights:
        """The weights from a sequence in the order of :data:`FEATURES` (rounded to 3 decimals, as written below)."""
        if len(vector) != len(FEATURES):
            raise ValueError(f"expected {len(FEATURES)} weights, got {len(vector)}")
        w = [round(float(x), 3) for x in vector]
        return cls(w[0], tuple(w[1 : POSITIONS + 1]), w[POSITIONS + 1], w[POSITIONS + 2])


WEIGHTS = SentenceWeights(bias=-4.112, position=(0.366, 0.592, 0.489, 0.988, 0.279), centrality=0.905, length=1.088)
"""The model of the medium and long summaries: fitted by :func:`tools.train.summaries.fit_weights` (in the
repository) on both gold sets (64 documents) with L2 4; a test checks that a refit gives these figures."""
SHORT_WEIGHTS = SentenceWeights(bias=-2.951, position=(0.233, 0.33, 0.233, 0.52, 0.073), centrality=0.65, length=0.745)
"""The model of the short summary: the same fit with L2 16, so that a later sentence needs more evidence to replace
one of the first three: chosen by cross-validation as the fit whose departures from Lead-3 lower no document's
ROUGE-1, which those of :data:`WEIGHTS` did (docs/design/summaries.md, "Summarizer quality")."""


def length_weights(length: str) -> SentenceWeights:
    """The sentence model of a summary of ``length``: :data:`SHORT_WEIGHTS` for ``"short"``, else :data:`WEIGHTS`."""
    return SHORT_WEIGHTS if length == "short" else WEIGHTS


_ARABIC_LETTER = re.compile(
    r"[\u0620-\u064a\u066e-\u06d3\u06d5\u06fa-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefc]"
)
_ARABIC_LETTER_RUN = re.compile(_ARABIC_LETTER.pattern + "+")
_NOT_LETTER_RUN = re.compile(r"[\W\d_]+")


@dataclass(frozen=True, slots=True)
class ExtractiveSummary:
    """The chosen sentences, in document order, trimmed; and the language of the text (and so of the summary)."""

    sentences: tuple[str, ...]
    language: str


def detect_language(text: str) -> str:
    """``"ar"`` when Arabic letters are more than half of the letters of ``text``, else ``"en"`` (also for text with
    no letters).

    Not :func:`tahqiq.summarize.answer.in_language`, on purpose: this picks the pipeline and the label of a summary,
    so it must name one of the two languages for any text (English is the fallback: its stop words and suffix
    stripper leave other scripts alone); that one checks an upstream's answer, so it must be able to say no (no
    letters, the other script ahead). Either in terms of the other would change answers: as ``in_language(text,
    "ar")`` this would call a mostly Cyrillic text with a few Arabic words Arabic; as ``detect_language(answer) ==
    lang`` the check would pass a Russian or a letterless answer as English."""
    if text.isascii():  # no Arabic letter can be in it; a check in C, where counting reads every character
        return "en"
    # What sub() leaves is counted by len(): the loop stays in C and builds no list of runs.
    letters = len(_NOT_LETTER_RUN.sub("", text))
    arabic = len(text) - len(_ARABIC_LETTER_RUN.sub("", text))
    return "ar" if letters and 2 * arabic > letters else "en"


def _fold(word: str) -> str:
    return key(word.lower())


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    words = load_word_list("stopwords_en.txt") + load_word_list("stopwords_ar.txt")
    return frozenset(_fold(w) for w in words)


_EN_VOWELS = frozenset("aeiouy")


@lru_cache(maxsize=1 << 16)
def stem_english(word: str) -> str:
    """A small suffix stripper for lowercase English (not Porter, and no NLTK): plurals and -ies, -ing and -ed (with
    an undoubled final consonant), -ly, -ment, -ness, -ation, -ity, then a final -e, keeping at least three letters.
    Only its consistency matters: inflected forms of one word meet at one stem."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ingly", "edly", "ing", "ed"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3 and _EN_VOWELS & set(stem):
            word = stem
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz" and word[-1] not in _EN_VOWELS:
                word = word[:-1]
            break
    for suffix, replacement in (("ational", "ate"), ("ation", "ate"), ("ments", ""), ("ment", ""), ("ness", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)] + replacement
            break
    for suffix in ("ity", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    return word


def sentence_terms(sentence: str) -> list[str]:
    """The content terms of a sentence: stems of its words that are not stop words, and its numbers."""
    stop = _stop_words()
    terms = []
    for token in scan(_fold(sentence)):
        word = token.text
        if token.kind == "number":
            terms.append(word)
        elif token.kind == "word" and word not in stop:
            stem = light10_stem(word) if _ARABIC_LETTER.match(word) else stem_english(word)
            if len(stem) >= 2:
                terms.append(stem)
    return terms


def sentence_similarity(bags: list[Counter[str]]) -> np.ndarray:
    """Cosine similarity of the sentences' tf-idf vectors (1 + log tf; smoothed idf), zero on the diagonal. Terms
    found in one sentence only change the norms, so only shared terms get a column."""
    n = len(bags)
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    idf = {term: math.log((1.0 + n) / (1.0 + count)) + 1.0 for term, count in df.items()}
    shared = {term: col for col, term in enumerate(sorted(t for t, c in df.items() if c > 1))}
    matrix = np.zeros((n, len(shared)))
    norms = np.zeros(n)
    for row, bag in enumerate(bags):
        total = 0.0
        for term, tf in bag.items():
            weight = (1.0 + math.log(tf)) * idf[term]
            total += weight * weight
            col = shared.get(term)
            if col is not None:
                matrix[row, col] = weight
        norms[row] = math.sqrt(total)
    norms[norms == 0] = 1.0
    matrix /= norms[:, None]
    sim = matrix @ matrix.T
    np.fill_diagonal(sim, 0.0)
    return sim


def forward_centrality(sim: np.ndarray) -> np.ndarray:
    """Position-aware centrality (PacSum, Zheng and Lapata 2019, on tf-idf), scaled to [0, 1]: a sentence scores the
    similarity it has with the sentences *after* it, counting only similarities above ``min + EDGE_THRESHOLD * (max -
    min)``. A news sentence that later ones elaborate is central; one that only echoes earlier ones (a closing recap)
    is not. (PacSum's weight on earlier sentences is 0 here: as a feature of the model below it did not help.)"""
    n = sim.shape[0]
    off_diagonal = sim[~np.eye(n, dtype=bool)]
    if off_diagonal.size == 0:
        return np.zeros(n)
    low, high = float(off_diagonal.min()), float(off_diagonal.max())
    edges = np.maximum(0.0, sim - (low + EDGE_THRESHOLD * (high - low)))
    forward: np.ndarray = np.triu(edges, 1).sum(axis=1)
    top = forward.max()
    return forward / top if top > 0 else forward


def sentence_features(bags: list[Counter[str]], sim: np.ndarray) -> np.ndarray:
    """One row per sentence, the columns :data:`FEATURES` names: 1 (the bias), one indicator for each of the first
    :data:`POSITIONS` positions, the forward centrality and the log of 1 + the number of content terms."""
    n = len(bags)
    features = np.zeros((n, len(FEATURES)))
    features[:, 0] = 1.0
    for position in range(min(n, POSITIONS)):
        features[position, 1 + position] = 1.0
    features[:, POSITIONS + 1] = forward_centrality(sim)
    features[:, POSITIONS + 2] = np.log1p([sum(bag.values()) for bag in bags])
    return features


def sentence_scores(features: np.ndarray, weights: SentenceWeights = WEIGHTS) -> np.ndarray:
    """The log-odds, under the model ``weights``, that each sentence belongs in a short summary."""
    scores: np.ndarray = features @ np.asarray(weights.vector())
    return scores


def choose(scores: np.ndarray, sim: np.ndarray, k: int, margin: float = LEAD_MARGIN) -> list[int]:
    """The ``k`` sentences to keep, in document order: greedily the best of ``score + margin (for the first k)
    - REDUNDANCY_WEIGHT * (the highest cosine similarity to a sentence already chosen)``. Without near-repeats this
    is Lead-k except where a later sentence's log-odds beat a lead sentence's by more than the margin; ties go to the
    earlier sentence. (Other margins than :data:`LEAD_MARGIN` are for cross-validation.)"""
    value = scores.astype(float).copy()
    value[:k] += margin
    chosen: list[int] = []
    redundancy = np.zeros(len(scores))
    for _ in range(min(k, len(scores))):
        current = value - REDUNDANCY_WEIGHT * redundancy
        current[chosen] = -np.inf
        best = int(np.argmax(current))  # argmax returns the first (earliest) of equal values
        chosen.append(best)
        redundancy = np.maximum(redundancy, sim[best])
    return sorted(chosen)


def summarize(
    text: str, length: str = "short", language: str | None = None, weights: SentenceWeights | None = None
) -> ExtractiveSummary:
    """The ``LENGTH_SENTENCES[length]`` most central sentences of ``text`` (all of them when it has no more), in
    document order. Empty or blank text gives no sentences. Raises ``ValueError`` only for an unknown ``length``.
    ``language`` is ``detect_language(text)`` when the caller has it already (it reads the whole text); ``weights``
    are the sentence model's, ``length_weights(length)`` when None (others are for cross-validation,
    :mod:`tools.train.summaries`, in the repository)."""
    if length not in LENGTH_SENTENCES:
        raise ValueError(f"length must be one of {', '.join(LENGTH_SENTENCES)}, not {length!r}")
    k = LENGTH_SENTENCES[length]
    language = language or detect_language(text)
    spans = sentence_spans(text)
    if len(spans) <= k:
        return ExtractiveSummary(tuple(text[s:e] for s, e in spans), language)
    ranked = spans[:MAX_RANKED_SENTENCES]
    bags = [Counter(sentence_terms(text[s:e])) for s, e in ranked]
    sim = sentence_similarity(bags)
    scores = sentence_scores(sentence_features(bags, sim), length_weights(length) if weights is None else weights)
    chosen = choose(scores, sim, k)
    return ExtractiveSummary(tuple(text[ranked[i][0] : ranked[i][1]] for i in chosen), language)
