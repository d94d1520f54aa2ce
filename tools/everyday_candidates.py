"""Candidates for ``ner/data/everyday.txt``: listed names and places that are also everyday Arabic words.

    python -m tools.everyday_candidates [--top 30000] > candidates.tsv

A single-word entry of the recognizer's lexicon (an installed gazetteer's place or currency, a listed first name)
is proposed when its form is among the `--top` most frequent forms of farahidi's corpus language model and
farahidi analyses it as a common word (a noun, adjective or verb, not only a proper noun). The output is for a
person to read: everyday.txt holds only what that person kept (repository tooling, never in the wheel).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tahqiq.analysis.morph_backends import FarahidiBackend
from tahqiq.analysis.ner import Recognizer
from tahqiq.arabic.keys import key


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=30_000, help="how many of the corpus's most frequent forms")
    args = parser.parse_args(argv)
    lexicon = Recognizer(learned=False).lexicon
    listed: dict[str, set[str]] = {}
    for first, entries in lexicon.gaz.items():
        for rest, typ in entries:
            if not rest and typ in ("GPE", "LOC", "CURR", "ORG"):
                listed.setdefault(first, set()).add(typ)
    for name in lexicon.first | lexicon.weak_first:
        if " " not in name:
            listed.setdefault(name, set()).add("first")
    backend = FarahidiBackend()
    forms, _hints, _lemmas, _roots = backend.corpus()
    rank: dict[str, int] = {}
    for r, form in enumerate(forms[: args.top]):
        rank.setdefault(key(form), r)
    found = 0
    for k, kinds in sorted(listed.items(), key=lambda kv: rank.get(kv[0], 10**9)):
        if k not in rank:
            continue
        pos = Counter(p for _lemma, _root, p in backend.analyze(k) if p != "noun_prop")
        if not pos:
            continue
        found += 1
        print(f"{rank[k]}\t{k}\t{','.join(sorted(kinds))}\t{','.join(p for p, _ in pos.most_common(3))}")
    print(f"{found} candidates", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
