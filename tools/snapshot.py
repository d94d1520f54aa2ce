"""The analysis snapshot: what the analysis answers for every text of every gold set, as one digest a text and
operation, so that a change meant to keep behaviour (a restructuring, a speed-up) can be shown to keep it exactly.

    python -m tools.snapshot            # compare with tests/gold/snapshot.json: exit 1 naming what changed
    python -m tools.snapshot --update   # write it anew, after a change meant to change answers (say so in the commit)

Each distinct text of tests/gold/*.jsonl (those with a `text` member) goes through NER (nested and flat, with
offsets), relation extraction (with the system's entities, as /re does; and with the set's own entities where it
gives them), morphology (each task with flag 1, and flag * for the full task) and WSD, in process. The digest is
the first 16 hex digits of the SHA-256 of the answer's JSON with sorted keys. Only answers are digested, never the
gold annotations, so running it is no look at a blind set.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import orjson
from tahqiq.analysis.corpus.dialect import DialectIndex
from tahqiq.analysis.corpus.importer import shipped_corpus
from tahqiq.analysis.morphology import TASKS
from tahqiq.analysis.params import Params
from tahqiq.analysis.service import AnalysisService

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold"
SNAPSHOT = GOLD / "snapshot.json"
CACHE = ROOT / "var" / "cache"


def digest(answer: Any) -> str:
    return hashlib.sha256(orjson.dumps(answer, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def gold_items() -> Iterator[tuple[str, dict[str, Any]]]:
    """``(name:line, item)`` for each line with a text, in file order."""
    for path in sorted(GOLD.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                item = json.loads(line)
                if isinstance(item.get("text"), str) and item["text"].strip():
                    yield f"{path.name}:{number}", item


def operations(service: AnalysisService) -> dict[str, Callable[[str], Any]]:
    def params(text: str, **more: Any) -> Params:
        return Params({"text": text, **more}, False, {"text", *more})

    ops: dict[str, Callable[[str], Any]] = {
        "ner": lambda t: service.ner(params(t, include_offsets=True)),
        "ner-flat": lambda t: service.ner(params(t, mode="flat", include_offsets=True)),
        "re": lambda t: service.re(params(t)),
        "wsd": lambda t: service.wsd(params(t, include_gloss=True), lambda sense_id: sense_id),
        "morph-full-all": lambda t: service.morph(params(t, flag="*"), lambda lemma_id: lemma_id),
    }
    for task in TASKS:
        ops[f"morph-{task}"] = morph_task(service, task)
    return ops


def morph_task(service: AnalysisService, task: str) -> Callable[[str], Any]:
    def run(text: str) -> Any:
        return service.morph(Params({"text": text, "task": task}, False, {"text", "task"}), lambda lemma_id: lemma_id)

    return run


Work = tuple[str, str, Any, bool]  # (where, text, the line's entities or None, whether the text is new here)


def snapshot(jobs: int = 2) -> dict[str, str]:
    """Every digest, the texts shared among ``jobs`` processes (answers do not depend on which process reads what:
    each one's memo only saves time)."""
    work: list[Work] = []
    seen: set[str] = set()
    for where, item in gold_items():
        text = item["text"]
        work.append((where, text, item.get("entities"), text not in seen))
        seen.add(text)
    if jobs <= 1:
        return digests(work)
    parts = [work[k::jobs] for k in range(jobs)]  # dealt in turn: each gets texts of every set, so both take as long
    out: dict[str, str] = {}
    with ProcessPoolExecutor(len(parts), mp_context=multiprocessing.get_context("spawn")) as pool:
        for found in pool.map(digests, parts):
            out |= found
    return out


def digests(work: list[Work]) -> dict[str, str]:
    service = AnalysisService(DialectIndex({"tahqiq": shipped_corpus()}), str(CACHE), 1_000_000)
    service.prepare()
    ops = operations(service)
    out: dict[str, str] = {}
    for where, text, entities, new in work:
        if entities:
            out[f"{where} re-given"] = digest(service.relations.extract(text, entities))
        if new:
            for name, op in ops.items():
                out[f"{where} {name}"] = digest(op(text))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="write tests/gold/snapshot.json anew")
    args = parser.parse_args(argv)
    now = snapshot()
    if args.update:
        SNAPSHOT.write_text(json.dumps(now, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(now)} digests to {SNAPSHOT.relative_to(ROOT)}")
        return 0
    changed = differences(json.loads(SNAPSHOT.read_text(encoding="utf-8")), now)
    for line in changed[:50]:
        print(line)
    print(f"{len(changed)} of {len(now)} answers differ from the snapshot" if changed else "identical")
    return 1 if changed else 0


def differences(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    keys = sorted(recorded.keys() | now.keys())
    return [
        f"{k}: {recorded.get(k, 'absent')} -> {now.get(k, 'absent')}" for k in keys if recorded.get(k) != now.get(k)
    ]


if __name__ == "__main__":
    sys.exit(main())
