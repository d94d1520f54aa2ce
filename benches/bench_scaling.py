"""How each analysis operation's time grows with the text: /re, /ner, /wsd, /morph and the glossary, in process, on
news text from 500 to 10,000 characters (the service's limit).

The text is the relation development sets' news sentences joined (never a blind set), cut at each length. Each
operation first runs once on the whole text, so that the times are of warm data (the analyser's memo, the sense
signatures): what a running service spends, not its first look at a word. Each point is the median of the repeats.

Linear means the time for 10,000 characters is at most 1.5 times the time for the same text cut into twenty
pieces of 500 characters, each analysed on its own (the anchor, timed in the same run): a cost that grows faster than
the text would make the whole far dearer than its pieces, whatever the content. The rows give the ratio (pieces /
whole; at least 0.67 is linear). /re has a second aim: under 1 s at 10,000 characters.
The curves are drawn, each divided by its time at 10,000 characters, in benches/scaling.svg. The cold cost (words
the machine's analyser has not read yet) is measured once, beside the curves, on other text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tahqiq.analysis.corpus.dialect import DialectIndex
from tahqiq.analysis.corpus.importer import shipped_corpus
from tahqiq.analysis.params import Params
from tahqiq.analysis.service import AnalysisService

from benches import harness

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold"
CACHE = ROOT / "var" / "cache"
SVG = Path(__file__).with_name("scaling.svg")
LENGTHS = (500, 1000, 2000, 4000, 6000, 8000, 10_000)
QUICK_LENGTHS = (500, 2000, 10_000)
LINEAR_SLACK = 1.5


def news_text() -> str:
    lines = []
    for name in ("relations_dev_news.jsonl", "relations_dev_news2.jsonl"):
        lines += (GOLD / name).read_text(encoding="utf-8").splitlines()
    return " ".join(json.loads(line)["text"] for line in lines if line.strip())


def operations(service: AnalysisService) -> dict[str, Callable[[str], Any]]:
    def params(text: str) -> Params:
        return Params({"text": text}, False, {"text"})

    return {
        "re": lambda text: service.re(params(text)),
        "ner": lambda text: service.ner(params(text)),
        "wsd": lambda text: service.wsd(params(text), lambda sense_id: sense_id),
        "morph": lambda text: service.morph(params(text), lambda lemma_id: lemma_id),
        "glossary": lambda text: service.glossary(params(text)),
    }


def svg(curves: dict[str, list[tuple[int, float]]]) -> str:
    """Each curve divided by its last point, against length; the dashed line is proportional growth."""
    width, height, pad = 640, 400, 50
    longest = max(n for points in curves.values() for n, _ in points)

    def xy(n: int, share: float) -> str:
        return f"{pad + n / longest * (width - 2 * pad):.1f},{height - pad - share * (height - 2 * pad):.1f}"

    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        'font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="black"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="black"/>',
        f'<polyline points="{xy(0, 0)} {xy(longest, 1)}" fill="none" stroke="grey" stroke-dasharray="4"/>',
        f'<text x="{width / 2}" y="{height - 15}" text-anchor="middle">characters</text>',
        f'<text x="15" y="{height / 2}" transform="rotate(-90 15 {height / 2})" text-anchor="middle">'
        "time / time at the longest</text>",
        f'<text x="{width / 2}" y="25" text-anchor="middle">analysis time against text length (in process)</text>',
    ]
    for n in (0, longest // 2, longest):
        x, y = xy(n, 0).split(",")
        parts.append(f'<text x="{x}" y="{float(y) + 16}" text-anchor="middle">{n:,}</text>')
    for share in (0.0, 0.5, 1.0):
        x, y = xy(0, share).split(",")
        parts.append(f'<text x="{float(x) - 6}" y="{float(y) + 4}" text-anchor="end">{share:g}</text>')
    for k, (name, points) in enumerate(curves.items()):
        last = points[-1][1] or 1.0
        line = " ".join(xy(n, t / last) for n, t in points)
        colour = colours[k % len(colours)]
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{pad + 10}" y="{pad + 15 * (k + 1)}" fill="{colour}">{name}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def run(ctx: harness.Context) -> list[harness.Row]:
    service = AnalysisService(DialectIndex({"tahqiq": shipped_corpus()}), str(CACHE), max(LENGTHS))
    service.prepare()
    text = news_text()
    assert len(text) >= max(LENGTHS), "the news development sets are shorter than the longest length"
    lengths = QUICK_LENGTHS if ctx.quick else LENGTHS
    repeats = 1 if ctx.quick else 5
    curves: dict[str, list[tuple[int, float]]] = {}
    rows = []
    for name, op in operations(service).items():
        op(text[: max(lengths)])  # warm: the analyser's memo and the sense signatures of these words
        points = [(n, harness.median_time(lambda n=n, op=op: op(text[:n]), repeats=repeats)) for n in lengths]
        curves[name] = points
        at = dict(points)
        whole = text[:10_000]
        pieces = [whole[k : k + 500] for k in range(0, len(whole), 500)]
        apart = harness.median_time(lambda op=op, pieces=pieces: [op(piece) for piece in pieces], repeats=repeats)
        rows.append(
            harness.Row(
                "scaling",
                f"{name}, 10,000 characters",
                at[10_000],
                apart,
                "the same text as twenty 500-character pieces, each on its own",
                unit="text",
                target=f"linear (ratio >= {1 / LINEAR_SLACK:.2f})" + ("; < 1 s" if name == "re" else ""),
                met=at[10_000] <= LINEAR_SLACK * apart and (name != "re" or at[10_000] < 1.0),
                notes="; ".join(f"{n:,}: {ms(t)}" for n, t in points),
            )
        )
    if not ctx.quick:
        SVG.write_text(svg(curves), encoding="utf-8")
        rows += cold(service)
    ctx.notes.append(f"scaling: news text from the relation development sets; {repeats} repeats per point")
    return rows


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def cold(warm: AnalysisService) -> list[harness.Row]:
    """The first look at 10,000 characters of other news (the NER development gold) by a new service: every word
    new to its analyser's memo and every sense new to its signatures."""
    lines = (GOLD / "ner_msa.jsonl").read_text(encoding="utf-8").splitlines()
    text = " ".join(json.loads(line)["text"] for line in lines if line.strip())[:10_000]
    rows = []
    for name in ("morph", "wsd"):
        service = AnalysisService(warm.dialects, str(CACHE), 10_000)
        service.prepare()
        op = operations(service)[name]
        first = harness.median_time(lambda op=op: op(text), repeats=1)
        again = harness.median_time(lambda op=op: op(text), repeats=3)
        rows.append(
            harness.Row(
                "scaling",
                f"{name}, 10,000 characters, first look (cold)",
                first,
                again,
                "the same text again (warm)",
                unit="text",
                notes="the analyser reads each word new to the process once (about 5 ms a word)",
            )
        )
    return rows
