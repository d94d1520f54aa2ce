"""Fingerprint benchmark: `tahqiq.core.fingerprint` / `canonical_json` against orjson on realistic bodies.

The anchor is what a Python service would write without us:
``hashlib.sha256(orjson.dumps(orjson.loads(body), option=orjson.OPT_SORT_KEYS)).hexdigest()``
(not RFC 8785: orjson sorts keys by UTF-8 and formats floats its own way, but it is the fastest
sort-and-hash in Python). Bodies are submissions of a fact-checking agent: nested arrays of result
items with Arabic and ASCII text, ints and floats, keys in insertion (unsorted) order.
"""

from __future__ import annotations

import hashlib
import json
import random

import orjson
from tahqiq.core import canonical_json, fingerprint

from benches import harness

CONTEXT = "POST /agents/access-core/submissions/judge"

_ARABIC = [
    "الخبر",
    "مضلل",
    "صحيح",
    "المصدر",
    "وزارة",
    "الصحة",
    "أعلنت",
    "اليوم",
    "عن",
    "تسجيل",
    "حالات",
    "جديدة",
    "في",
    "العاصمة",
    "بحسب",
    "بيان",
    "رسمي",
    "نُشر",
    "على",
    "الموقع",
]
_ASCII = ["claim", "source", "reuters", "verified", "context", "missing", "photo", "2019", "archive", "link"]


def _sentence(rnd: random.Random, words: list[str], n: int) -> str:
    return " ".join(rnd.choice(words) for _ in range(n))


def _item(rnd: random.Random, i: int) -> dict[str, object]:
    return {
        "id": f"res-{i:06d}",
        "rank": i,
        "score": round(rnd.random(), rnd.randint(2, 6)),
        "claim": _sentence(rnd, _ARABIC, rnd.randint(6, 14)),
        "verdict": rnd.choice(["true", "false", "misleading", "unverified"]),
        "confidence": rnd.random(),
        "evidence": [
            {
                "url": f"https://example.org/{rnd.choice(_ASCII)}/{rnd.randint(1, 10**6)}",
                "quote": _sentence(rnd, _ARABIC + _ASCII, rnd.randint(4, 10)),
                "offsets": [rnd.randint(0, 5000), rnd.randint(0, 5000)],
                "weight": round(rnd.uniform(-1, 1), 3),
            }
            for _ in range(rnd.randint(1, 3))
        ],
        "flags": {"needs_review": rnd.random() < 0.2, "lang": rnd.choice(["ar", "en"]), "note": None},
    }


def make_body(target_bytes: int, seed: int = 8785) -> bytes:
    """A submission JSON body (UTF-8, compact, unsorted keys) of about `target_bytes`."""
    rnd = random.Random(seed)
    doc: dict[str, object] = {
        "submission_id": "sub-2f9c1e",
        "agent": {"name": "access-core", "version": "1.4.2", "temperature": 0.2},
        "created_at": 1718000000,
        "results": [],
    }
    results: list[dict[str, object]] = doc["results"]  # type: ignore[assignment]
    while len(json.dumps(doc, ensure_ascii=False).encode()) < target_bytes:
        results.append(_item(rnd, len(results)))
    if len(results) > 1:
        results.pop()
    return json.dumps(doc, ensure_ascii=False).encode()


def _anchor_fingerprint(body: bytes) -> str:
    return hashlib.sha256(orjson.dumps(orjson.loads(body), option=orjson.OPT_SORT_KEYS)).hexdigest()


def _anchor_canonical(body: bytes) -> bytes:
    return orjson.dumps(orjson.loads(body), option=orjson.OPT_SORT_KEYS)


def run(ctx: harness.Context) -> list[harness.Row]:
    repeats = 5 if ctx.quick else 21
    rows: list[harness.Row] = []
    for label, size, number in (("1 KB", 1024, 2000), ("100 KB", 100 * 1024, 20)):
        body = make_body(size)
        if ctx.quick:
            number = max(1, number // 4)
        # Sanity: the anchor parses the same document.
        assert json.loads(canonical_json(body)) == orjson.loads(body)
        ours, anchor = harness.paired_medians(
            lambda body=body: fingerprint(body, context=CONTEXT),
            lambda body=body: _anchor_fingerprint(body),
            repeats=repeats,
            number=number,
        )
        row = harness.Row(
            group="fingerprint",
            case=f"fingerprint, {label} body ({len(body)} B)",
            ours_s=ours,
            anchor_s=anchor,
            anchor="sha256(orjson.dumps(orjson.loads(b), OPT_SORT_KEYS))",
            target="not slower (>= 1.0x)",
        )
        row.met = row.ratio is not None and row.ratio >= 1.0
        rows.append(row)
        ours, anchor = harness.paired_medians(
            lambda body=body: canonical_json(body),
            lambda body=body: _anchor_canonical(body),
            repeats=repeats,
            number=number,
        )
        rows.append(
            harness.Row(
                group="fingerprint",
                case=f"canonical_json, {label} body ({len(body)} B)",
                ours_s=ours,
                anchor_s=anchor,
                anchor="orjson.dumps(orjson.loads(b), OPT_SORT_KEYS)",
                notes="informational: canonicalisation alone, no hash",
            )
        )
    return rows


if __name__ == "__main__":
    for r in run(harness.Context()):
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else "-"
        anchor = f"{r.anchor_s * 1e6:9.2f} us" if r.anchor_s is not None else "-"
        print(f"{r.case:45s} ours {r.ours_s * 1e6:9.2f} us  anchor {anchor}  ratio {ratio}  met={r.met}")
