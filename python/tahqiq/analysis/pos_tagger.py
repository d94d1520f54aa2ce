"""Part of speech in context, for choosing a word's analysis (issue 20; docs/design/morphology.md, "In context").

The lexicon lists every reading of a form, ranked without context: كتب is first the noun كُتُب ("books"). A greedy
left-to-right averaged perceptron reads the sentence and gives each word a coarse POS (`POS_TAGS`, the `/morph`
labels). Its features are the word's loose key, its first and last letters, the POS set and the top reading of the
lexicon's analyses, the same for the words beside it, whether a clause starts at the word, and the two tags it gave
before. `Morphology` then keeps the best-ranked analysis of that POS (docs/design/morphology.md says how, when no
analysis has it).

The weights (data/pos_tagger.json) are trained on tests/gold/morph_train.jsonl by ``python -m tools.train.morph``
(repository tooling); the file's format is in data/README.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tahqiq.arabic.clitics import ARTICLE_PREFIXES
from tahqiq.core import PosScorer

POS_TAGS: Final = ("noun", "adj", "verb", "noun_prop", "num", "pron", "adv", "prep", "conj", "part")
START: Final = "^"  # the tag "before" the first word
DATA_FILE: Final = Path(__file__).with_name("data") / "pos_tagger.json"
FORMAT: Final = 1
# the weights are stored times 1000 (tools/train/morph.py); softmax at this temperature gives the held-out
# log-loss minimum of ``python -m tools.train.morph --cv`` (docs/design/morphology.md, "In context")
TEMPERATURE: Final = 6000.0


@dataclass(frozen=True, slots=True)
class Word:
    """What the tagger sees of one word: its loose key, the lexicon's readings and what comes before it."""

    key: str
    readings: tuple[str, ...]  # coarse POS of the lexicon's analyses, best first, distinct
    lemma: str  # loose key of the top analysis's lemma
    clause_start: bool  # the first word of the text, or after punctuation
    reading_set: str  # the readings sorted, joined by "|"

    @classmethod
    def of(cls, key: str, readings: tuple[str, ...], lemma: str, clause_start: bool) -> Word:
        return cls(key, readings, lemma, clause_start, "|".join(sorted(readings)))


_EDGE: Final = Word.of("<s>", ("<s>",), "<s>", True)


def features(words: Sequence[Word], i: int, prev: str, prev2: str) -> list[str]:
    """The feature names of word ``i``, given the two tags before it."""
    w = words[i]
    k = w.key
    before = words[i - 1] if i > 0 else _EDGE
    after = words[i + 1] if i + 1 < len(words) else _EDGE
    after2 = words[i + 2] if i + 2 < len(words) else _EDGE
    rs = w.reading_set
    out = [
        "bias",
        "w=" + k,
        "l=" + w.lemma,
        "p1=" + k[:1],
        "p2=" + k[:2],
        "s1=" + k[-1:],
        "s2=" + k[-2:],
        "s3=" + k[-3:],
        "rs=" + rs,
        "r0=" + w.readings[0],
        "t1=" + prev,
        "t2=" + prev2 + "," + prev,
        "t1rs=" + prev + "," + rs,
        "w-1=" + before.key,
        "rs-1=" + before.reading_set,
        "w+1=" + after.key,
        "rs+1=" + after.reading_set,
        "rs+1rs=" + after.reading_set + "," + rs,
        "p2+1=" + after.key[:2],
        "rs+2=" + after2.reading_set,
    ]
    stem, definite = _stem(k)
    before_definite = _stem(before.key)[1]
    out += [
        "st=" + stem,
        "sp1=" + stem[:1],
        "ss1=" + stem[-1:],
        "ss2=" + stem[-2:],
        "sl=" + str(min(len(stem), 7)),
        f"d={definite},d-1={before_definite},t1={prev}",
        f"d={definite},rs={rs}",
        f"d+1={_stem(after.key)[1]},rs={rs}",
        "t1w=" + prev + "," + k,
    ]
    if w.clause_start:
        out.append("cs,rs=" + rs)
        out.append("cs,w=" + k)
        out.append(f"cs,d+1={_stem(after.key)[1]},rs={rs}")
        out.append(f"cs,d+1={_stem(after.key)[1]},d+2={_stem(after2.key)[1]},rs={rs}")
        out.append(f"cs,pred={_predicate(words, i)},rs={rs}")
    if after.clause_start:
        out.append("ce")
    return out


def _stem(key: str) -> tuple[str, bool]:
    """The key without a leading article (and the proclitic before it), and whether it had one."""
    for prefix in ARTICLE_PREFIXES:
        if key.startswith(prefix) and len(key) > len(prefix) + 1:
            return key[len(prefix) :], True
    return key, False


def _predicate(words: Sequence[Word], i: int) -> str:
    """What may be the predicate of a nominal sentence opened by word ``i``: the first later word of its clause with
    no article whose top reading is a noun or adjective, ``acc`` when it ends in alef (an accusative, as طويلا, so
    no predicate), else ``nom`` (as مفيد in «شرب الماء مفيد»); ``none`` when the clause has no such word."""
    for j in range(i + 1, len(words)):
        w = words[j]
        if w.clause_start:
            break
        if w.readings[0] in ("noun", "adj") and not _stem(w.key)[1]:
            return "acc" if w.key.endswith("ا") else "nom"
    return "none"


class PosTagger:
    """Feature weights, one row of `POS_TAGS` scores a feature (averaged, rounded), scored by the native
    `PosScorer` (rust/src/pos_tagger.rs); `tag_reference` is its specification in Python."""

    def __init__(
        self, weights: dict[str, tuple[float, ...]], lemmas: dict[tuple[str, str], tuple[str, str]] | None = None
    ) -> None:
        self.weights = weights
        # (bare form, POS) -> (lemma, spaced root) most often annotated for it in the training corpus
        self.lemmas = lemmas or {}
        self._scorer = PosScorer(list(POS_TAGS), {name: list(row) for name, row in weights.items()})

    @classmethod
    def load(cls, path: Path = DATA_FILE) -> PosTagger:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or tuple(data.get("tags", ())) != POS_TAGS:
            raise ValueError(f"{path}: not a format-{FORMAT} POS tagger over {', '.join(POS_TAGS)}")
        lemmas: dict[tuple[str, str], tuple[str, str]] = {}
        for key, (lemma, root) in data["lemmas"].items():
            form, pos = key.split("\t", 1)
            lemmas[(form, pos)] = (lemma, root)
        return cls({name: tuple(row) for name, row in data["weights"].items()}, lemmas)

    def tag(self, words: Sequence[Word]) -> list[list[float]]:
        """The tag scores of each word, decoded greedily left to right (the best tag feeds the next word), then
        `clear_verbs` raised to the top."""
        scores = self._scorer.tag([(w.key, w.reading_set, w.readings[0], w.lemma, w.clause_start) for w in words])
        return _raise_clear_verbs(words, scores)

    def tag_reference(self, words: Sequence[Word]) -> list[list[float]]:
        """`tag` in Python: the same features, the same sums in the same order, the same decisions."""
        out: list[list[float]] = []
        prev, prev2 = START, START
        for i in range(len(words)):
            total = feature_sum(self.weights, features(words, i, prev, prev2))
            out.append(total)
            prev, prev2 = POS_TAGS[best(total)], prev
        return _raise_clear_verbs(words, out)


_FUNCTION_READINGS: Final = frozenset(("prep", "conj", "part", "pron", "adv"))
_VERB: Final = POS_TAGS.index("verb")


def clear_verbs(words: Sequence[Word]) -> list[int]:
    """The clear case of a verb-first clause: a clause's first word, with a verb reading and no article, proclitic-
    free of function readings, before a definite noun, in a clause with no nominative predicate candidate
    (`_predicate` is not ``nom``): «شرب الطفل الحليب», «حكم القاضي», «عمل المهندس طويلا», but not «شرب الماء مفيد».
    On tests/gold/morph_train.jsonl this case is a verb 217 times in 243 (docs/design/morphology.md)."""
    out = []
    for i, w in enumerate(words[:-1]):
        after = words[i + 1]
        if (
            w.clause_start
            and "verb" in w.readings
            and not _FUNCTION_READINGS.intersection(w.readings)
            and not _stem(w.key)[1]
            and _stem(after.key)[1]
            and not after.clause_start
            and _predicate(words, i) != "nom"
        ):
            out.append(i)
    return out


def _raise_clear_verbs(words: Sequence[Word], scores: list[list[float]]) -> list[list[float]]:
    for i in clear_verbs(words):
        row = scores[i]
        row[_VERB] = max(row) + 1.0
    return scores


def feature_sum(weights: Mapping[str, Sequence[float]], names: Sequence[str]) -> list[float]:
    """The tag scores of one word: the rows of its features added in order (the native scorer's order too)."""
    total = [0.0] * len(POS_TAGS)
    for name in names:
        row = weights.get(name)
        if row is not None:
            total = [a + b for a, b in zip(total, row, strict=True)]
    return total


def best(scores: Sequence[float]) -> int:
    """The index of the highest score, the first on ties."""
    return max(range(len(scores)), key=scores.__getitem__)


def probabilities(scores: Sequence[float], temperature: float | None = None) -> list[float]:
    """Softmax of one word's tag scores over `TEMPERATURE` (the ``score`` of a POS in ``flag=*`` answers)."""
    t = TEMPERATURE if temperature is None else temperature
    top = max(scores)
    exps = [math.exp((s - top) / t) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
