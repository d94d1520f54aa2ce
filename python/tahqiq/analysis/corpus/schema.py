"""The dialect corpus: its schema (the field names of the Curras family), validation and loading.

A corpus is JSON Lines, one sentence per line:

    {"sentence_id": 17, "text": "بدي أروح عالبيت", "dialect": "Palestinian", "source": "tahqiq:daily-life",
     "translation": "I want to go home",
     "tokens": [
       {"token": "بدي", "coda": "بدي", "prefixes": [], "stem": "بد",
        "suffixes": [{"form": "ي", "ar": "ضمير متصل", "tag": "y/PRON_1S"}],
        "pos": "noun", "person": "1", "gender": "", "number": "s",
        "msa_lemma": "أراد", "dialect_lemma": "بد", "gloss": "want"},
       ...]}

Fields (Curras name in brackets): `token` (the raw form as written in `text`), `coda` [CODA] (conventional
orthography), `prefixes` [Prefix] and `suffixes` [Suffix] (each `{form, ar, tag}`: the clitic, its Arabic tag and
its SAMA-style tag, e.g. `{"form": "ب", "ar": "أداة مضارعة", "tag": "b/PROG_PART"}`), `stem`, `pos` [POS],
`person` [Pers] (1, 2, 3 or ""), `gender` [Gen] (m, f or ""), `number` [Num] (s, d, p or ""), `msa_lemma`
[MSALemma], `dialect_lemma` [DALemma], `gloss` [Gloss] (English). Tokens appear in `text` in order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

DIALECTS = ("Palestinian", "Jordanian", "Lebanese", "Syrian", "Egyptian", "Gulf", "Iraqi")
POS_TAGS = (
    "noun", "noun_prop", "noun_num", "adj", "adj_comp", "verb", "verb_pseudo", "adv", "pron", "pron_dem",
    "pron_rel", "pron_interrog", "prep", "conj", "conj_sub", "part", "part_neg", "part_fut", "part_prog",
    "part_voc", "part_interrog", "interj", "abbrev", "foreign", "digit", "punc",
)  # fmt: skip
PERSONS = ("1", "2", "3", "")
GENDERS = ("m", "f", "")
NUMBERS = ("s", "d", "p", "")
_TAG = re.compile(r"^[A-Za-z$&*<>|{}'`~_+0-9-]*/[A-Z][A-Z0-9_]*$")
TOKEN_FIELDS = (
    "token", "coda", "prefixes", "stem", "suffixes", "pos", "person", "gender", "number",
    "msa_lemma", "dialect_lemma", "gloss",
)  # fmt: skip
SENTENCE_FIELDS = ("sentence_id", "text", "dialect", "source", "translation", "tokens")


@dataclass(frozen=True, slots=True)
class Affix:
    form: str
    ar: str
    tag: str


@dataclass(frozen=True, slots=True)
class CorpusToken:
    token: str
    coda: str
    prefixes: tuple[Affix, ...]
    stem: str
    suffixes: tuple[Affix, ...]
    pos: str
    person: str
    gender: str
    number: str
    msa_lemma: str
    dialect_lemma: str
    gloss: str


@dataclass(frozen=True, slots=True)
class Sentence:
    sentence_id: int
    text: str
    dialect: str
    source: str
    translation: str
    tokens: tuple[CorpusToken, ...]


class CorpusError(ValueError):
    """A row that breaks the schema; the message names the line and the field."""


def _affixes(value: Any, where: str) -> tuple[Affix, ...]:
    if not isinstance(value, list):
        raise CorpusError(f"{where}: must be a list of {{form, ar, tag}} objects")
    out = []
    for i, item in enumerate(value):
        here = f"{where}[{i}]"
        if not isinstance(item, dict) or set(item) != {"form", "ar", "tag"}:
            raise CorpusError(f"{here}: must be an object with exactly form, ar and tag")
        if not all(isinstance(item[k], str) and item[k].strip() for k in ("form", "ar", "tag")):
            raise CorpusError(f"{here}: form, ar and tag must be non-empty strings")
        if not _TAG.match(item["tag"]):
            raise CorpusError(f"{here}.tag: {item['tag']!r} is not TRANSLIT/TAG such as b/PROG_PART")
        out.append(Affix(item["form"], item["ar"], item["tag"]))
    return tuple(out)


def parse_token(value: Any, where: str) -> CorpusToken:
    if not isinstance(value, dict):
        raise CorpusError(f"{where}: must be an object")
    missing = [f for f in TOKEN_FIELDS if f not in value]
    if missing:
        raise CorpusError(f"{where}: missing field(s) {', '.join(missing)}")
    extra = sorted(set(value) - set(TOKEN_FIELDS))
    if extra:
        raise CorpusError(f"{where}: unknown field(s) {', '.join(extra)}")
    for name in ("token", "coda", "stem", "pos", "person", "gender", "number", "msa_lemma", "dialect_lemma", "gloss"):
        if not isinstance(value[name], str):
            raise CorpusError(f"{where}.{name}: must be a string")
    for name in ("token", "coda", "stem", "dialect_lemma", "gloss"):
        if not value[name].strip():
            raise CorpusError(f"{where}.{name}: must not be empty")
    if value["token"] != value["token"].strip() or any(c.isspace() for c in value["token"]):
        raise CorpusError(f"{where}.token: {value['token']!r} must be one token without white space")
    for name, allowed in (("pos", POS_TAGS), ("person", PERSONS), ("gender", GENDERS), ("number", NUMBERS)):
        if value[name] not in allowed:
            raise CorpusError(f"{where}.{name}: {value[name]!r} is not one of {', '.join(map(repr, allowed))}")
    return CorpusToken(
        token=value["token"],
        coda=value["coda"],
        prefixes=_affixes(value["prefixes"], f"{where}.prefixes"),
        stem=value["stem"],
        suffixes=_affixes(value["suffixes"], f"{where}.suffixes"),
        pos=value["pos"],
        person=value["person"],
        gender=value["gender"],
        number=value["number"],
        msa_lemma=value["msa_lemma"],
        dialect_lemma=value["dialect_lemma"],
        gloss=value["gloss"],
    )


def parse_sentence(value: Any, where: str) -> Sentence:
    """One corpus row, checked field by field; CorpusError names `where` and the field."""
    if not isinstance(value, dict):
        raise CorpusError(f"{where}: must be a JSON object")
    missing = [f for f in SENTENCE_FIELDS if f not in value]
    if missing:
        raise CorpusError(f"{where}: missing field(s) {', '.join(missing)}")
    extra = sorted(set(value) - set(SENTENCE_FIELDS))
    if extra:
        raise CorpusError(f"{where}: unknown field(s) {', '.join(extra)}")
    sid = value["sentence_id"]
    if not isinstance(sid, int) or isinstance(sid, bool) or not 1 <= sid <= 2**31 - 1:
        raise CorpusError(f"{where}.sentence_id: must be a positive integer")
    for name in ("text", "dialect", "source", "translation"):
        if not isinstance(value[name], str) or not value[name].strip():
            raise CorpusError(f"{where}.{name}: must be a non-empty string")
    if value["dialect"] not in DIALECTS:
        raise CorpusError(f"{where}.dialect: {value['dialect']!r} is not one of {', '.join(DIALECTS)}")
    if not isinstance(value["tokens"], list) or not value["tokens"]:
        raise CorpusError(f"{where}.tokens: must be a non-empty list")
    tokens = tuple(parse_token(t, f"{where}.tokens[{i}]") for i, t in enumerate(value["tokens"]))
    text = value["text"]
    at = 0
    for i, t in enumerate(tokens):
        found = text.find(t.token, at)
        if found < 0:
            raise CorpusError(f"{where}.tokens[{i}].token: {t.token!r} does not occur in text after offset {at}")
        at = found + len(t.token)
    return Sentence(sid, text, value["dialect"], value["source"], value["translation"], tokens)


def read_jsonl(lines: Iterable[bytes], name: str) -> Iterator[Sentence]:
    """Sentences of a JSON Lines corpus; blank lines are skipped; errors name `name:LINE` and the field."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise CorpusError(f"{where}: not valid JSON ({exc})") from None
        yield parse_sentence(value, where)


def check_unique(sentences: Iterable[Sentence]) -> list[Sentence]:
    """All sentences, refusing a sentence_id that appears twice."""
    seen: dict[int, str] = {}
    out = []
    for s in sentences:
        if s.sentence_id in seen:
            raise CorpusError(f"sentence_id {s.sentence_id} appears twice")
        seen[s.sentence_id] = s.text
        out.append(s)
    return out


def token_dict(t: CorpusToken) -> dict[str, Any]:
    """A token in the JSON schema (the inverse of `parse_token`); also the token shape of lookup answers."""
    return {
        "token": t.token,
        "coda": t.coda,
        "prefixes": [{"form": a.form, "ar": a.ar, "tag": a.tag} for a in t.prefixes],
        "stem": t.stem,
        "suffixes": [{"form": a.form, "ar": a.ar, "tag": a.tag} for a in t.suffixes],
        "pos": t.pos,
        "person": t.person,
        "gender": t.gender,
        "number": t.number,
        "msa_lemma": t.msa_lemma,
        "dialect_lemma": t.dialect_lemma,
        "gloss": t.gloss,
    }


def sentence_fields(s: Sentence) -> dict[str, Any]:
    """A sentence's own fields, without its tokens (the `sentence` object of lookup answers builds on it)."""
    return {
        "sentence_id": s.sentence_id,
        "text": s.text,
        "dialect": s.dialect,
        "source": s.source,
        "translation": s.translation,
    }


def sentence_dict(s: Sentence) -> dict[str, Any]:
    """A sentence in the JSON Lines schema (the inverse of `parse_sentence`)."""
    return {**sentence_fields(s), "tokens": [token_dict(t) for t in s.tokens]}
