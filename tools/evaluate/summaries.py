"""ROUGE of the extractive summarizer against the project's reference summaries, next to Lead-k.

    tahqiq report summaries [--gold PATH ...] [--length short|medium|long|all] [--verbose]
                            [--cv [--sweep L2:MARGIN,...]]
    (also python -m tools.report summaries ...; run from the repository root)

Without ``--gold`` both gold sets are scored, each under its own heading: tests/gold/summaries.jsonl and
tests/gold/summaries_heldout.jsonl (held out until it had been looked at once; now, like the first, a set the
summarizer's weights are fitted on, so the figures on either are not a measurement). ``--length all`` prints one
table of F1 for every set, length and language instead of the detailed lines. ``--cv`` prints the cross-validated
figures instead (:mod:`tools.train.summaries`): the weights refitted without the documents they are scored on,
by set (with two or more sets) and in 8 folds, with each scheme's worst fold. ``--cv --sweep 4:0.9,16:0.9`` prints
the short summary cross-validated with each of those ridge penalties and lead margins instead (what its settings
were chosen on: :func:`tools.train.summaries.short_sweep`).

Scoring conventions:

- Tokens: the text is lowercased and put through :func:`tahqiq.core.normalize` (Arabic diacritics, tatweel, alef and
  ya forms folded), then split on everything that is not a letter or a digit. On ASCII English this is exactly the
  default tokenizer of the ``rouge-score`` package (no stemming), which the tests check; unlike it, Arabic letters are
  kept (``rouge-score`` scores Arabic as 0). No stemming, no stop-word removal.
- ROUGE-1 and ROUGE-2: clipped n-gram overlap; ROUGE-L: longest common subsequence over the whole summary (not split
  into sentences: ``rougeL``, not ``rougeLsum``). Precision, recall and F1 per document; the report averages them
  over the documents (macro), per language and overall.
- Lead-k: the first k sentences of the same splitter, k = the sentences the summarizer chose for that ``length``.

Repository tooling, never in the wheel (it reads tests/gold). The ROUGE scores themselves are in
:mod:`tools.metrics` and the command line in :mod:`tools.report`, so that this module and the training
(:mod:`tools.train.summaries`), which scores folds with it, import each other in one direction only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tahqiq.summarize.extractive import LENGTH_SENTENCES, SentenceWeights, summarize
from tahqiq.text.sentences import split_sentences

from tools.metrics import METRICS, Score, rouge

DEFAULT_GOLD = Path("tests/gold/summaries.jsonl")
HELDOUT_GOLD = Path("tests/gold/summaries_heldout.jsonl")
GOLD_SETS: dict[str, Path] = {"tuning set 1": DEFAULT_GOLD, "tuning set 2": HELDOUT_GOLD}
"""The sets scored when no ``--gold`` is given, by label: the summarizer's weights are fitted on both."""


def load_gold(path: Path) -> list[dict[str, str]]:
    """The gold documents: one JSON object a line with id, lang, title, text and reference."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def _mean(scores: list[dict[str, Score]]) -> dict[str, Score]:
    n = len(scores) or 1
    return {
        m: Score(
            sum(s[m].precision for s in scores) / n,
            sum(s[m].recall for s in scores) / n,
            sum(s[m].fmeasure for s in scores) / n,
        )
        for m in METRICS
    }


def score_documents(
    rows: list[dict[str, str]], length: str, weights: SentenceWeights | None = None
) -> list[dict[str, Any]]:
    """ROUGE of the summarizer (with ``weights``, the length's own when None) and of Lead-k on each gold document:
    ``[{id, lang, detected, summarizer, lead, chosen, positions, sentences}]``."""
    documents: list[dict[str, Any]] = []
    for row in rows:
        summary = summarize(row["text"], length, weights=weights)
        sentences = split_sentences(row["text"])
        lead = sentences[: LENGTH_SENTENCES[length]]
        documents.append(
            {
                "id": row["id"],
                "lang": row["lang"],
                "detected": summary.language,
                "summarizer": rouge(" ".join(summary.sentences), row["reference"]),
                "lead": rouge(" ".join(lead), row["reference"]),
                "chosen": list(summary.sentences),
                "positions": [sentences.index(s) + 1 for s in summary.sentences],
                "sentences": len(sentences),
            }
        )
    return documents


def by_language(documents: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Macro means of :func:`score_documents`' scores: ``{lang|"all": {n, summarizer: {metric: Score}, lead: ...}}``."""
    groups = {"all": documents} | {
        lang: [d for d in documents if d["lang"] == lang] for lang in sorted({d["lang"] for d in documents})
    }
    return {
        name: {
            "n": len(docs),
            "summarizer": _mean([d["summarizer"] for d in docs]),
            "lead": _mean([d["lead"] for d in docs]),
        }
        for name, docs in groups.items()
    }


def summaries_report(gold_path: Path, length: str = "short") -> dict[str, Any]:
    """ROUGE of the summarizer and of Lead-k per document and averaged: ``{documents: [{id, lang, summarizer,
    lead, chosen, positions, sentences}], by_lang: {lang|"all": {n, summarizer: {metric: Score}, lead: ...}}}``."""
    documents = score_documents(load_gold(gold_path), length)
    return {"documents": documents, "by_lang": by_language(documents)}


def wins_and_losses(documents: list[dict[str, Any]], metric: str = "rouge1") -> tuple[int, int]:
    """How many documents of a :func:`summaries_report` the summarizer scores above and below Lead-k on ``metric``
    (F1): the mean alone hides whether a difference is broad or comes from a few documents."""
    differences = [d["summarizer"][metric].fmeasure - d["lead"][metric].fmeasure for d in documents]
    return sum(x > 0 for x in differences), sum(x < 0 for x in differences)


def _line(name: str, scores: dict[str, Score]) -> str:
    cells = "  ".join(
        f"{m} {100 * s.fmeasure:5.1f} (P {100 * s.precision:5.1f} R {100 * s.recall:5.1f})" for m, s in scores.items()
    )
    return f"    {name:<11}{cells}"


def print_detail(label: str, gold: Path, length: str, verbose: bool) -> None:
    k = LENGTH_SENTENCES[length]
    result = summaries_report(gold, length)
    print(f"{label}: ROUGE F1 (P, R) x100 of the extractive summarizer and Lead-{k} on {gold}, length {length}")
    for name, group in result["by_lang"].items():
        print(f"  {name} ({group['n']} documents)")
        print(_line("summarizer", group["summarizer"]))
        print(_line(f"lead-{k}", group["lead"]))
        docs = [d for d in result["documents"] if name in ("all", d["lang"])]
        higher, lower = wins_and_losses(docs)
        print(f"    ROUGE-1 F1 of the summarizer above lead-{k} on {higher} documents, below on {lower}")
    if verbose:
        for d in result["documents"]:
            s = "/".join(f"{100 * d['summarizer'][m].fmeasure:.1f}" for m in METRICS)
            lead = "/".join(f"{100 * d['lead'][m].fmeasure:.1f}" for m in METRICS)
            where = ", ".join(map(str, d["positions"]))
            print(f"  {d['id']} [{d['lang']}] summarizer {s}  lead {lead}  (sentences {where} of {d['sentences']})")
            for position, sentence in zip(d["positions"], d["chosen"], strict=True):
                print(f"    {position:>3}. {sentence[:110]}")


def summaries_table(gold_sets: dict[str, Path]) -> list[str]:
    """One Markdown table of ROUGE-1/2/L F1 x100, summarizer and Lead-k, for every set, length and language."""
    lines = [
        "| set | length | lang | docs | summarizer R1 / R2 / RL | Lead-k R1 / R2 / RL |",
        "|---|---|---|---|---|---|",
    ]
    for label, gold in gold_sets.items():
        for length, k in LENGTH_SENTENCES.items():
            for name, group in summaries_report(gold, length)["by_lang"].items():
                ours, lead = (
                    " / ".join(f"{100 * group[side][m].fmeasure:.1f}" for m in METRICS)
                    for side in ("summarizer", "lead")
                )
                lines.append(f"| {label} | {length} | {name} | {group['n']} | {ours} | Lead-{k} {lead} |")
    return lines
