"""The dialect glossary as first written in Python: the slow, obviously right reference that the native
`GlossaryIndex.lookup` is tested against.

It does the whole fuzzy search the answer is defined by (the best `top_k + 8` forms at `min(threshold, 0.5)`, by
`rapidfuzz.process.extract` with `fuzz.ratio`), with no shortcut; clitics are stripped by the Python rules below,
which the Rust port must agree with.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from rapidfuzz import fuzz, process
from tahqiq.core import normalize, scan

TIE_BREAK_CANDIDATES = 8
CLITIC_SCORE = 0.95
MIN_STEM = 2
TYPE_RANK = {"exact": 0, "normalized": 1, "clitic": 2, "fuzzy": 3}

PROCLITIC_SLOTS: tuple[tuple[str, ...], ...] = (
    ("و", "ف"),
    ("ما",),
    ("رح", "ح", "ه", "ب", "د", "ع", "م", "ل", "ك"),
    ("ال",),
)
ENCLITICS: tuple[str, ...] = (
    "ش",
    "هم", "هن", "ها", "كم", "كو", "كي", "نا", "ني", "ك", "ه", "و", "ي",
    "لهم", "لكم", "لنا", "لها", "لك", "له", "لي", "لو",
)  # fmt: skip
SUFFIXES = ("", *ENCLITICS, *(e + "ش" for e in ENCLITICS if e != "ش"))


def match_form(text: str) -> str:
    return normalize(text, ta_marbuta=True, digits=True)


def matching_prefixes(form: str) -> list[str]:
    found = [""]
    for slot in PROCLITIC_SLOTS:
        found += [p + c for p in found for c in slot if form.startswith(p + c)]
    return found


def strip_clitics(form: str) -> tuple[str, ...]:
    suffixes = [s for s in SUFFIXES if form.endswith(s)]
    out: dict[str, int] = {}
    for p in matching_prefixes(form):
        for s in suffixes:
            if (p or s) and len(form) - len(p) - len(s) >= MIN_STEM:
                stem = form[len(p) : len(form) - len(s)]
                out.setdefault(stem, len(p) + len(s))
                if s and stem.endswith("ت"):
                    out.setdefault(stem[:-1] + "ه", len(p) + len(s))
    return tuple(sorted(out, key=lambda stem: (out[stem], stem)))


class ReferenceGlossary:
    """Forms `forms[i]` with CODA `codas[i]` and stem `stems[i]`; answers in the native `lookup` shape."""

    def __init__(self, forms: Sequence[str], codas: Sequence[str], stems: Sequence[str]) -> None:
        self.by_raw: dict[str, list[int]] = defaultdict(list)
        self.by_norm: dict[str, list[int]] = defaultdict(list)
        self.by_stem: dict[str, list[int]] = defaultdict(list)
        self.keys = [match_form(f) for f in forms]
        for i, (form, coda, stem) in enumerate(zip(forms, codas, stems, strict=True)):
            self.by_raw[form].append(i)
            for variant in {self.keys[i], match_form(coda)}:
                self.by_norm[variant].append(i)
            if len(match_form(stem)) >= MIN_STEM:
                self.by_stem[match_form(stem)].append(i)

    def matches(self, raw: str, norm: str, top_k: int, threshold: float) -> list[tuple[int, str, float]]:
        found: dict[int, tuple[str, float]] = {}

        def offer(i: int, match_type: str, score: float) -> None:
            if score < threshold:
                return
            old = found.get(i)
            if old is None or (score, -TYPE_RANK[match_type]) > (old[1], -TYPE_RANK[old[0]]):
                found[i] = (match_type, score)

        for i in self.by_raw.get(raw, ()):
            offer(i, "exact", 1.0)
        for i in self.by_norm.get(norm, ()):
            offer(i, "normalized", 1.0)
        if len(found) < top_k:
            for stem in strip_clitics(norm):
                for i in itertools.chain(self.by_norm.get(stem, ()), self.by_stem.get(stem, ())):
                    offer(i, "clitic", CLITIC_SCORE)
        extracted = process.extract(
            norm,
            self.keys,
            scorer=fuzz.ratio,
            limit=top_k + TIE_BREAK_CANDIDATES,
            score_cutoff=min(threshold, 0.5) * 100,
        )
        fuzzy_hits = [(i, score / 100) for _, score, i in extracted]
        similarity = dict(fuzzy_hits)
        for i, score in fuzzy_hits:
            offer(i, "fuzzy", score)
        ranked = sorted(
            found.items(), key=lambda kv: (-kv[1][1], TYPE_RANK[kv[1][0]], -similarity.get(kv[0], 0.0), kv[0])
        )
        return [(i, match_type, score) for i, (match_type, score) in ranked[:top_k]]

    def lookup(
        self, text: str, top_k: int = 3, threshold: float = 0.65
    ) -> list[tuple[int, int, str, str, list[tuple[int, int, float]]]]:
        out = []
        for t in scan(text):
            if t.kind not in ("word", "number"):
                continue
            norm = match_form(t.text)
            found = self.matches(t.text, norm, top_k, threshold)
            codes = [(i, TYPE_RANK[match_type], score) for i, match_type, score in found]
            out.append((t.start, t.end, t.text, norm, codes))
        return out


class ReferenceAnswers:
    """The glossary's `tokens` as the first Python version answered them, for corpora of `Sentence`s (the shipped
    corpus first, then the others by name): one entry per form and dialect lemma with up to five references."""

    def __init__(self, corpora: dict[str, list[Any]]) -> None:
        entries: dict[tuple[str, str], dict[str, Any]] = {}
        for name in sorted(corpora, key=lambda n: (n != "tahqiq", n)):
            for s in corpora[name]:
                for i, t in enumerate(s.tokens):
                    if t.pos == "punc":
                        continue
                    entry = entries.setdefault((t.token, t.dialect_lemma), {"token": t, "refs": []})
                    if len(entry["refs"]) < 5:
                        entry["refs"].append({"sentence_id": s.sentence_id, "token_index": i, "corpus": name})
        self.rows = rows = list(entries.values())
        self.glossary = ReferenceGlossary(
            [e["token"].token for e in rows], [e["token"].coda for e in rows], [e["token"].stem for e in rows]
        )

    def __call__(
        self, text: str, top_k: int = 3, threshold: float = 0.65, include_offsets: bool = False
    ) -> list[dict[str, Any]]:
        out = []
        for start, end, token, norm, found in self.glossary.lookup(text, top_k, threshold):
            row: dict[str, Any] = {"token": token, "normalized": norm}
            if include_offsets:
                row["start"], row["end"] = start, end
            row["matches"] = []
            for i, code, score in found:
                t = self.rows[i]["token"]
                row["matches"].append(
                    {
                        "form": t.token,
                        "coda": t.coda,
                        "msa_lemma": t.msa_lemma,
                        "dialect_lemma": t.dialect_lemma,
                        "gloss": t.gloss,
                        "pos": t.pos,
                        "score": score,
                        "match_type": list(TYPE_RANK)[code],
                        "refs": self.rows[i]["refs"],
                    }
                )
            out.append(row)
        return out
