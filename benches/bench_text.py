"""Benchmark of `normalize` and `scan` against their pure-Python twin (tests/support/reference_text.py).

The corpus is ~1 MB (UTF-8) of generated Arabic news-like text: words from the hunspell Arabic
dictionary (Debian package hunspell-ar, installed by benches/setup), with some
diacritics and tatweel, Arabic-Indic and ASCII numbers (٣٫٥, ١٬٠٠٠, 2024), Arabic punctuation,
Latin words and a few emoji. Nothing is downloaded. The seed is fixed, so runs are comparable.
"""

from __future__ import annotations

import random

from tahqiq.core import normalize, scan

from benches import harness
from benches.data import arabic_vocabulary
from tests.support.reference_text import normalize_ref, scan_pattern, scan_ref

LATIN_WORDS = ["COVID19", "UN", "NATO", "iPhone", "Reuters", "AFP", "CNN", "H2O", "GDP", "WHO"]
EMOJI = ["👍", "👍🏽", "🇵🇸", "❤️", "😢", "👨\u200d👩\u200d👧", "🔥"]
HARAKAT = "\u064e\u064f\u0650\u0651\u0652\u064b\u064c\u064d"
ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩"


def _arabic_number(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        return "".join(rng.choice(ARABIC_INDIC) for _ in range(rng.randint(1, 4)))
    if kind < 0.5:
        return f"{rng.choice(ARABIC_INDIC[1:])}٫{rng.choice(ARABIC_INDIC)}"
    if kind < 0.6:
        return f"{rng.choice(ARABIC_INDIC[1:])}٬{''.join(rng.choice(ARABIC_INDIC) for _ in range(3))}"
    if kind < 0.8:
        return str(rng.randint(1990, 2030))
    return f"{rng.randint(1, 99)}.{rng.randint(0, 9)}"


def _decorate(word: str, rng: random.Random) -> str:
    r = rng.random()
    if r < 0.12:  # vocalised word
        return "".join(c + (rng.choice(HARAKAT) if rng.random() < 0.6 else "") for c in word)
    if r < 0.14 and len(word) > 2:  # kashida
        i = rng.randrange(1, len(word))
        return word[:i] + "ـ" * rng.randint(1, 3) + word[i:]
    return word


def make_corpus(target_bytes: int, seed: int = 1447) -> str:
    """Generated Arabic prose of about `target_bytes` UTF-8 bytes."""
    rng = random.Random(seed)
    words = arabic_vocabulary()
    sentences: list[str] = []
    size = 0
    while size < target_bytes:
        parts: list[str] = []
        for i in range(rng.randint(6, 16)):
            r = rng.random()
            if r < 0.06:
                parts.append(_arabic_number(rng) + ("٪" if rng.random() < 0.3 else ""))
            elif r < 0.09:
                parts.append(rng.choice(LATIN_WORDS))
            elif r < 0.1:
                parts.append(rng.choice(EMOJI))
            elif r < 0.12:
                parts.append(f"«{_decorate(rng.choice(words), rng)}»")
            else:
                parts.append(_decorate(rng.choice(words), rng))
            if i and rng.random() < 0.08:
                parts[-1] += "،"
        sentence = " ".join(parts) + rng.choice(".....؟!:")
        sentences.append(sentence)
        size += len(sentence.encode("utf-8")) + 1
    return "\n".join(sentences)


def _pipeline_ours(text: str) -> list[str]:
    return [normalize(t.text) for t in scan(text)]


def _pipeline_ref(text: str) -> list[str]:
    return [normalize_ref(t[0]) for t in scan_ref(text)]


def run(ctx: harness.Context) -> list[harness.Row]:
    target = 64_000 if ctx.quick else 1_000_000
    repeats = 3 if ctx.quick else 7
    text = make_corpus(target)
    scan_pattern()  # build the twin's character classes outside the timings
    n_tokens = len(scan(text))
    assert _pipeline_ours(text) == _pipeline_ref(text), "native and twin disagree on the corpus"
    assert normalize(text) == normalize_ref(text)
    mb = len(text.encode("utf-8")) / 1e6
    size_note = f"{mb:.2f} MB UTF-8, {len(text):,} chars, {n_tokens:,} tokens"
    source = "hunspell-ar words"
    anchor = "Python twin (re + unicodedata + str.translate)"

    rows: list[harness.Row] = []
    ours, ref = harness.paired_medians(lambda: _pipeline_ours(text), lambda: _pipeline_ref(text), repeats=repeats)
    rows.append(
        harness.Row(
            group="text",
            case="scan + normalize each token",
            ours_s=ours,
            anchor_s=ref,
            anchor=anchor,
            unit=f"{mb:.2f} MB document",
            target=">= 10x",
            met=ref / ours >= 10,
            notes=f"[normalize(t.text) for t in scan(text)]; {size_note}; {source}",
        )
    )
    ours, ref = harness.paired_medians(
        lambda: scan(normalize(text)), lambda: scan_ref(normalize_ref(text)), repeats=repeats
    )
    rows.append(
        harness.Row(
            group="text",
            case="normalize document, then scan",
            ours_s=ours,
            anchor_s=ref,
            anchor=anchor,
            unit=f"{mb:.2f} MB document",
            target=">= 10x",
            met=ref / ours >= 10,
            notes="scan(normalize(text))",
        )
    )
    ours, ref = harness.paired_medians(lambda: scan(text), lambda: scan_ref(text), repeats=repeats)
    rows.append(
        harness.Row(
            group="text",
            case="scan",
            ours_s=ours,
            anchor_s=ref,
            anchor=anchor,
            unit=f"{mb:.2f} MB document",
            notes="list of Token objects vs list of tuples",
        )
    )
    ours, ref = harness.paired_medians(lambda: normalize(text), lambda: normalize_ref(text), repeats=repeats)
    rows.append(
        harness.Row(
            group="text",
            case="normalize document (defaults)",
            ours_s=ours,
            anchor_s=ref,
            anchor=anchor,
            unit=f"{mb:.2f} MB document",
        )
    )
    words = [t.text for t in scan(text)][:20_000]
    ours, ref = harness.paired_medians(
        lambda: [normalize(w) for w in words], lambda: [normalize_ref(w) for w in words], repeats=repeats
    )
    rows.append(
        harness.Row(
            group="text",
            case="normalize short tokens",
            ours_s=ours / len(words),
            anchor_s=ref / len(words),
            anchor=anchor,
            unit="token",
            notes=f"{len(words):,} tokens of the corpus, per-call cost",
        )
    )
    return rows


if __name__ == "__main__":
    for row in run(harness.Context()):
        ratio = f"{row.ratio:.1f}x" if row.ratio else "-"
        anchor_ms = (row.anchor_s or 0) * 1e3
        print(f"{row.case:32} ours {row.ours_s * 1e3:9.4f} ms  anchor {anchor_ms:9.4f} ms  {ratio} [{row.unit}]")
