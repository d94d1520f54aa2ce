"""The project's readings of closed-class words for `/morph` (data/function_words.txt; its format is in
data/README.md, the conventions in docs/design/morphology.md, "Function words")."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from tahqiq.analysis.pos_tagger import POS_TAGS
from tahqiq.arabic.keys import bare

FUNCTION_WORDS_FILE: Final = Path(__file__).with_name("data") / "function_words.txt"
PROCLITIC_PAIRS: Final = ("", "و", "ف")
PROCLITIC_PREPOSITIONS: Final = ("", "ب", "ل", "ك")
ENCLITICS: Final = ("ه", "ها", "هما", "هم", "هن", "ك", "كما", "كم", "كن", "ي", "ني", "نا")


def function_words(path: Path = FUNCTION_WORDS_FILE) -> dict[str, list[tuple[str, str, str]]]:
    """Every written form of the function words in ``path`` (data/README.md has the format), with its proclitics
    and enclitic pronouns: bare form -> [(lemma, spaced root, pos)], best first."""
    readings: list[tuple[str, tuple[str, str, str], str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 5 or parts[4] not in ("alone", "clitic", "both") or parts[3] not in POS_TAGS:
            raise ValueError(f"{path}:{number}: expected form, lemma, root, pos, alone|clitic|both: {line!r}")
        form, lemma, root, pos, attach = parts
        readings.append((bare(form), (lemma, "" if root == "-" else root, pos), attach))
    out: dict[str, list[tuple[str, str, str]]] = {}
    for rank_pass in (0, 1):  # the forms as listed first, then their clitic forms: a listed form wins its spelling
        for stem, reading, attach in readings:
            endings = [""] if attach == "alone" else [*ENCLITICS] if attach == "clitic" else ["", *ENCLITICS]
            for pair in PROCLITIC_PAIRS:
                for prep in PROCLITIC_PREPOSITIONS:
                    for ending in endings:
                        form = pair + prep + stem + ending
                        if (form == stem) != (rank_pass == 0) or form in ("", "ه"):
                            continue
                        lst = out.setdefault(form, [])
                        if reading not in lst:
                            lst.append(reading)
    return out
