"""Build and check the everyday NER sets: the blind test set ner_everyday and the development sets ner_everyday_dev,
ner_everyday_dev2, ner_everyday_dev3, ner_everyday_dev4, ner_everyday_dev5, ner_everyday_dev6, ner_everyday_dev7,
ner_everyday_dev8, ner_everyday_dev9, ner_everyday_dev10, ner_everyday_dev11, ner_everyday_dev12,
ner_everyday_dev13, ner_everyday_dev14, ner_everyday_dev15, ner_everyday_dev16 and
ner_everyday_dev17.

Each set is everyday Modern Standard Arabic where named entities are rare (stories, how-to texts, classroom texts,
opinion pieces and letters; in ner_everyday_dev4 messages, diary entries, notices and dialogues). It measures false
positives on everyday words that are also names or places, and what is found among the few real entities. Licence:
CC BY-SA 4.0, written for tahqiq by its authors.

- ner_everyday (tests/gold/src/ner_everyday.txt -> tests/gold/ner_everyday.jsonl) was written blind: its author
  read only the conventions of docs/design/ner.md, the gold-file notes of docs/quality.md and the line formats of
  the older sets, never the recognizer, its data or its tests, and never ran the system on these sentences. It
  measures; it must never be used to tune.
- ner_everyday_dev (tests/gold/src/ner_everyday_dev.txt -> tests/gold/ner_everyday_dev.jsonl) is a development
  set of other texts, annotated with the test set's decisions (its author read the test set's header, never its
  sentences; its own header says what else was read and what it decided): it may be read and tuned on.
- ner_everyday_dev2 (tests/gold/src/ner_everyday_dev2.txt -> tests/gold/ner_everyday_dev2.jsonl) is a second
  development set of other texts, bound by the decisions of both headers above (its author read those headers,
  never their sentences; its own header says what else was read and what it added): it may be read and tuned on.
- ner_everyday_dev3 (tests/gold/src/ner_everyday_dev3.txt -> tests/gold/ner_everyday_dev3.jsonl) is a third
  development set of other texts and other trap words, bound by the decisions of the three headers above (its author
  read those headers, never their sentences; its own header says what else was read and what it added): it may be
  read and tuned on.
- ner_everyday_dev4 (tests/gold/src/ner_everyday_dev4.txt -> tests/gold/ner_everyday_dev4.jsonl) is a fourth
  development set in four other genres (personal messages, diary entries, notices and product descriptions,
  dialogues) with other trap words, bound by the decisions of the four headers above (its author read those headers,
  never their sentences; its own header says what else was read and what it added): it may be read and tuned on.
- ner_everyday_dev5 (tests/gold/src/ner_everyday_dev5.txt -> tests/gold/ner_everyday_dev5.jsonl) is a fifth
  development set in nine other kinds of text users type (social-media posts, a neighbourhood WhatsApp group, reviews,
  pupils' essays, health and fitness advice, travel diaries, app and device instructions, children's stories, sports
  chats; filed under the eight genres below) with other trap words, bound by the decisions of the five headers above
  (its author read those headers, never their sentences; its own header says what else was read and what it added):
  it may be read and tuned on.
- ner_everyday_dev6 (tests/gold/src/ner_everyday_dev6.txt -> tests/gold/ner_everyday_dev6.jsonl) is a sixth
  development set in the test set's four genres (stories, how-to texts, classroom texts, opinion pieces and letters)
  on other topics, with other trap words, bound by the decisions of the six headers above (its author read those
  headers, never their sentences; its own header says what else was read and what it added): it may be read and tuned
  on.
- ner_everyday_dev7 (tests/gold/src/ner_everyday_dev7.txt -> tests/gold/ner_everyday_dev7.jsonl) is a seventh
  development set in the test set's four genres on other topics, with other trap words (names, towns, months and
  currencies written as everyday words), bound by the decisions of the seven headers above (its author read those
  headers, never their sentences; its own header says what else was read and what it added): it is meant to be
  measured out of sample first, then it may be read and tuned on.
- ner_everyday_dev8 (tests/gold/src/ner_everyday_dev8.txt -> tests/gold/ner_everyday_dev8.jsonl) is an eighth
  development set in the test set's four genres on other topics, with other trap words (names, towns, organisations,
  posts and events written as everyday words), bound by the decisions of the eight headers above (its author read
  those headers, never their sentences; its own header says what else was read and what it added): it is meant to be
  measured out of sample first, then it may be read and tuned on.
- ner_everyday_dev9 (tests/gold/src/ner_everyday_dev9.txt -> tests/gold/ner_everyday_dev9.jsonl) is a ninth
  development set in the test set's four genres, written blind on the test set's own twenty-five topics with other
  texts, towns and characters, bound by the decisions of the nine headers above (its author read the test set's
  header and dev8's, whose binding paragraph carries the older ones, never their sentences; its own header says what
  else was read and what it added): it is meant to be measured out of sample first, then it may be read and tuned on.
- ner_everyday_dev10 (tests/gold/src/ner_everyday_dev10.txt -> tests/gold/ner_everyday_dev10.jsonl) is a tenth
  development set in the test set's four genres, written blind on the test set's own topics with other texts, towns
  (of Iraq, Yemen, the Gulf, Sudan and Upper Egypt and the Delta) and characters, bound by the decisions of the ten
  headers above (its author read the test set's header and dev9's, whose binding paragraph carries the older ones,
  never their sentences; its own header says what else was read and what it added): it is meant to be measured out
  of sample first, then it may be read and tuned on.
- ner_everyday_dev11 (tests/gold/src/ner_everyday_dev11.txt -> tests/gold/ner_everyday_dev11.jsonl) is an eleventh
  development set in the test set's four genres, written blind on the test set's own topics with other texts, towns
  (in Libya, Algeria, Mauritania, Morocco, Palestine and Jordan) and characters, written beside dev10 and bound by
  the decisions of the ten headers before dev10's (its author read the test set's header and dev9's, whose binding
  paragraph carries the older ones, never their sentences; its own header says what else was read and what it
  added): it is meant to be measured out of sample first, then it may be read and tuned on.
- ner_everyday_dev12 (tests/gold/src/ner_everyday_dev12.txt -> tests/gold/ner_everyday_dev12.jsonl) is a twelfth
  development set in the test set's four genres, written blind on the test set's own topics with other texts, towns
  (in Syria and Lebanon) and characters, bound by the decisions of the twelve headers above (its author read the test
  set's header and those of dev9, dev10 and dev11, whose binding paragraphs carry the older ones, never their
  sentences; its own header says what else was read and what it added): it is meant to be measured out of sample
  first, then it may be read and tuned on.
- ner_everyday_dev13 (tests/gold/src/ner_everyday_dev13.txt -> tests/gold/ner_everyday_dev13.jsonl) is a thirteenth
  development set in the test set's four genres, written blind on the test set's own topics with other texts, towns
  (in Saudi Arabia, Kuwait, Bahrain, Qatar, the Emirates and Tunisia) and characters, written beside dev12 and bound
  by the decisions of the test set's header and of the development sets' headers (its author read the test set's
  header and the headers of dev9, whose binding paragraph carries the older ones, dev10 and dev11, never their
  sentences; its own header says what else was read and what it added): it is meant to be measured out of sample
  first, then it may be read and tuned on.
- ner_everyday_dev14 (tests/gold/src/ner_everyday_dev14.txt -> tests/gold/ner_everyday_dev14.jsonl) is a fourteenth
  development set in the test set's four genres, written blind on the test set's own topics with other texts, towns
  (in the Delta, the canal cities and Upper Egypt, and in Jordan), characters whose first names are also everyday
  words, and classroom texts set in primary schools, bound by the decisions of the test set's header and of the
  development sets' headers (its author read the test set's header and the headers of dev9 to dev13, whose binding
  paragraphs carry the older ones, never their sentences; its own header says what else was read and what it added):
  it is meant to be measured out of sample first, then it may be read and tuned on.
- ner_everyday_dev15 (tests/gold/src/ner_everyday_dev15.txt -> tests/gold/ner_everyday_dev15.jsonl) is a fifteenth
  development set in the test set's four genres, written blind on the test set's own topics with other texts, towns
  (in Morocco, Algeria, Oman and Sudan) and characters, in a plainer voice (short sentences, dialogue lines and quoted
  words, numbers as words and as digits), bound by the decisions of the test set's header and of the development
  sets' headers (its author read the test set's header and the headers of dev9 to dev13, whose binding paragraphs
  carry the older ones, never their sentences; its own header says what else was read and what it added): it is
  meant to be measured out of sample first, then it may be read and tuned on.
- ner_everyday_dev16 (tests/gold/src/ner_everyday_dev16.txt -> tests/gold/ner_everyday_dev16.jsonl) is a sixteenth
  development set in the test set's four genres, written blind on the test set's own topics and, unlike the earlier
  twins, in the test set's own four towns (Jerash, Alexandria, Fez and Irbid, with their villages and quarters) with
  other texts and characters, bound by the decisions of the test set's header and of the development sets' headers
  (its author read the test set's header and the headers of dev9 to dev15, whose binding paragraphs carry the older
  ones, never their sentences; its own header says what else was read and what it added): it is meant to be
  measured out of sample first, then it may be read and tuned on.
- ner_everyday_dev17 (tests/gold/src/ner_everyday_dev17.txt -> tests/gold/ner_everyday_dev17.jsonl) is a seventeenth
  development set in the test set's four genres, written blind on the test set's own topics with other texts, towns
  (in Palestine, Jordan, Syria and Iraq, some reading as words: سحاب، دوما، تدمر، حديثة، الحلة) and characters, in a
  textbook voice (school readers and newspapers' family pages; classroom texts with model sentences, fill-in
  exercises and marks; letters with full signatures, dates and addresses), bound by the decisions of the test set's
  header and of the development sets' headers (its author read the test set's header and the headers of dev9 to
  dev15, whose binding paragraphs carry the older ones, never their sentences; its own header says what else was
  read and what it added): it is meant to be measured out of sample first, then it may be read and tuned on.

Source format (tests/gold/src/<set>.txt):

- a line starting with `#` is a comment; `# genre: story|howto|classroom|opinion|message|diary|notice|dialogue`
  sets the genre (the jsonl `topic`) of the sentences after it (the first four for the first four sets, the last
  four for ner_everyday_dev4);
- blocks are separated by blank lines; the first line of a block is the sentence, then one entity a line:
  `TYPE entity text`, with an optional `#n` suffix picking the n-th token-aligned occurrence (default 1st);
  entities are listed outermost first, nested ones after the entity holding them.

Offsets are code points and must fall on token boundaries of the scanner (tests/support/reference_text.py
`scan_ref`, the pure-Python twin of tahqiq.core.scan).

    python scripts/ner_everyday_gold.py build [SET]    # src -> jsonl, then check
    python scripts/ner_everyday_gold.py check [SET]    # check the jsonl against the source and the scanner
    python scripts/ner_everyday_gold.py stats [SET]    # tokens and entities per genre and per type

SET is ner_everyday (the default), ner_everyday_dev, ner_everyday_dev2, ner_everyday_dev3, ner_everyday_dev4,
ner_everyday_dev5, ner_everyday_dev6, ner_everyday_dev7, ner_everyday_dev8, ner_everyday_dev9, ner_everyday_dev10,
ner_everyday_dev11, ner_everyday_dev12, ner_everyday_dev13, ner_everyday_dev14, ner_everyday_dev15 or
ner_everyday_dev16 or ner_everyday_dev17.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold"
SETS = {
    name: (GOLD / "src" / f"{name}.txt", GOLD / f"{name}.jsonl")
    for name in (
        "ner_everyday",
        "ner_everyday_dev",
        "ner_everyday_dev2",
        "ner_everyday_dev3",
        "ner_everyday_dev4",
        "ner_everyday_dev5",
        "ner_everyday_dev6",
        "ner_everyday_dev7",
        "ner_everyday_dev8",
        "ner_everyday_dev9",
        "ner_everyday_dev10",
        "ner_everyday_dev11",
        "ner_everyday_dev12",
        "ner_everyday_dev13",
        "ner_everyday_dev14",
        "ner_everyday_dev15",
        "ner_everyday_dev16",
        "ner_everyday_dev17",
    )
}
DEFAULT_SET = "ner_everyday"
SRC, OUT = SETS[DEFAULT_SET]

TYPES = (
    "PERS NORP OCC ORG GPE LOC FAC EVENT DATE TIME CARDINAL ORDINAL PERCENT "
    "LANGUAGE QUANTITY WEBSITE UNIT LAW MONEY PRODUCT CURR"
).split()
GENRES = ("story", "howto", "classroom", "opinion", "message", "diary", "notice", "dialogue")
ARABIC_RUN = re.compile(r"[\u0621-\u063A\u0641-\u064A\u0671-\u06D3]+")
OCCURRENCE = re.compile(r"^(.*?)\s+#(\d+)$")


def _scan():
    """`scan_ref` from tests/support/reference_text.py, loaded by path (no package import needed)."""
    path = ROOT / "tests" / "support" / "reference_text.py"
    spec = importlib.util.spec_from_file_location("_reference_text", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.scan_ref


def arabic_tokens(text: str) -> int:
    """Word tokens: runs of Arabic letters."""
    return len(ARABIC_RUN.findall(text))


def _boundaries(scan, text: str) -> tuple[set[int], set[int]]:
    toks = [t for t in scan(text) if t[3] != "space"]
    return {t[1] for t in toks}, {t[2] for t in toks}


def _locate(scan, sentence: str, surface: str, nth: int) -> int:
    starts, ends = _boundaries(scan, sentence)
    seen = 0
    pos = sentence.find(surface)
    while pos >= 0:
        if pos in starts and pos + len(surface) in ends:
            seen += 1
            if seen == nth:
                return pos
        pos = sentence.find(surface, pos + 1)
    raise ValueError(f"{surface!r} (#{nth}) not found on token boundaries in {sentence!r}")


def parse(path: Path = SRC) -> list[dict]:
    """Source -> records (id, text, topic, entities)."""
    scan = _scan()
    records: list[dict] = []
    genre = None
    block: list[str] = []

    def flush() -> None:
        if not block:
            return
        if genre is None:
            raise ValueError(f"no `# genre:` line before {block[0]!r}")
        sentence, entities = block[0], []
        for line in block[1:]:
            kind, _, rest = line.partition(" ")
            if kind not in TYPES:
                raise ValueError(f"unknown type {kind!r} in {line!r}")
            nth = 1
            m = OCCURRENCE.match(rest)
            if m:
                rest, nth = m.group(1), int(m.group(2))
            start = _locate(scan, sentence, rest, nth)
            entities.append({"type": kind, "start": start, "end": start + len(rest), "text": rest})
        records.append({"id": len(records) + 1, "text": sentence, "topic": genre, "entities": entities})
        block.clear()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#"):
            flush()
            m = re.match(r"#\s*genre:\s*(\w+)\s*$", line)
            if m:
                if m.group(1) not in GENRES:
                    raise ValueError(f"unknown genre {m.group(1)!r}")
                genre = m.group(1)
            continue
        if not line:
            flush()
            continue
        block.append(line)
    flush()
    return records


def check(records: list[dict] | None = None, src: Path = SRC, out: Path = OUT) -> list[str]:
    """Problems in the jsonl `out`: shape, slices, types, token boundaries, agreement with the source `src`."""
    scan = _scan()
    problems: list[str] = []
    lines = out.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(x) for x in lines if x.strip()]
    for i, row in enumerate(rows, 1):
        if row.get("id") != i:
            problems.append(f"line {i}: id {row.get('id')!r}")
        if row.get("topic") not in GENRES:
            problems.append(f"id {i}: topic {row.get('topic')!r}")
        text = row["text"]
        starts, ends = _boundaries(scan, text)
        spans = set()
        for e in row["entities"]:
            if e["type"] not in TYPES:
                problems.append(f"id {i}: type {e['type']!r}")
            if text[e["start"] : e["end"]] != e["text"]:
                problems.append(f"id {i}: slice {e!r}")
            if e["start"] not in starts or e["end"] not in ends:
                problems.append(f"id {i}: not on token boundaries {e!r}")
            key = (e["type"], e["start"], e["end"])
            if key in spans:
                problems.append(f"id {i}: duplicate {e!r}")
            spans.add(key)
    if records is None:
        records = parse(src)
    if records != rows:
        problems.append("jsonl differs from the source: run `build`")
    return problems


def stats(rows: list[dict]) -> str:
    tokens: Counter[str] = Counter()
    ents: Counter[str] = Counter()
    sentences: Counter[str] = Counter()
    types: Counter[str] = Counter()
    by_genre_type: dict[str, Counter[str]] = {g: Counter() for g in GENRES}
    for r in rows:
        g = r["topic"]
        sentences[g] += 1
        tokens[g] += arabic_tokens(r["text"])
        ents[g] += len(r["entities"])
        for e in r["entities"]:
            types[e["type"]] += 1
            by_genre_type[g][e["type"]] += 1
    out = []
    for g in GENRES:
        if not sentences[g]:
            continue
        per100 = 100 * ents[g] / tokens[g] if tokens[g] else 0.0
        detail = ", ".join(f"{t} {n}" for t, n in sorted(by_genre_type[g].items(), key=lambda x: (-x[1], x[0])))
        out.append(
            f"{g}: {sentences[g]} sentences, {tokens[g]} tokens, {ents[g]} entities ({per100:.2f}/100): {detail}"
        )
    total_t, total_e = sum(tokens.values()), sum(ents.values())
    out.append(f"all: {len(rows)} sentences, {total_t} tokens, {total_e} entities ({100 * total_e / total_t:.2f}/100)")
    out.append("types: " + ", ".join(f"{t} {n}" for t, n in sorted(types.items(), key=lambda x: (-x[1], x[0]))))
    return "\n".join(out)


def main(argv: list[str]) -> int:
    cmd = argv[1] if len(argv) > 1 else "check"
    name = argv[2] if len(argv) > 2 else DEFAULT_SET
    if name not in SETS:
        print(f"unknown set {name!r}: one of {', '.join(SETS)}")
        return 2
    src, out = SETS[name]
    if cmd == "build":
        records = parse(src)
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        problems = check(records, src, out)
    elif cmd == "check":
        problems = check(src=src, out=out)
    elif cmd == "stats":
        rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines() if x.strip()]
        print(stats(rows))
        return 0
    else:
        print(__doc__)
        return 2
    for p in problems:
        print(p)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
