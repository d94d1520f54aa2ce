"""The answers of the analysis operations as typed dictionaries: what `Analyzer`'s methods return and what the HTTP
routes answer, field for field (docs/api/python.md)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class NerToken(TypedDict):
    token: str
    tags: list[str]  # BIO tags, outermost entity first ("O" outside every entity)
    start: NotRequired[int]  # with include_offsets: code-point offsets into the text
    end: NotRequired[int]


class NerEntity(TypedDict):
    type: str
    text: str
    start: int
    end: int
    depth: int  # 0 outermost; an entity inside another is one deeper (flat mode: outermost only)


class NerAnswer(TypedDict):
    tokens: list[NerToken]
    entities: list[NerEntity]


class EntityRef(TypedDict):
    text: str
    type: str
    start: int
    end: int


class Relation(TypedDict):
    predicate: str
    subject: EntityRef
    object: EntityRef
    confidence: float


class RelationsAnswer(TypedDict):
    relations: list[Relation]


class MorphAnalysis(TypedDict, total=False):
    lemma: str
    lemma_id: str
    root: str
    pos: str
    frequency: int
    score: float  # flag "*": the analysis's score in context


class MorphToken(TypedDict, total=False):
    """One word: the fields of its task (``full``: lemma, lemma_id, root, pos, frequency), or with flag ``*`` its
    ``analyses``, the chosen one first; with include_lemma also lemma_url and lemma_forms."""

    token: str
    lemma: str
    lemma_id: str
    root: str
    pos: str
    frequency: int
    analyses: list[MorphAnalysis]
    lemma_url: str
    lemma_forms: list[str]


class MorphAnswer(TypedDict):
    task: Literal["full", "lemmatization", "pos", "root"]
    flag: Literal["1", "*"]
    language: Literal["MSA"]
    tokens: list[MorphToken]


class WsdToken(TypedDict):
    token: str
    lemma: str | None
    sense_id: str | None
    sense_url: str | None
    gloss: NotRequired[str | None]  # with include_gloss


class WsdAnswer(TypedDict):
    tokens: list[WsdToken]


class GlossaryAnswer(TypedDict):
    tokens: list[dict[str, object]]  # per token: its matches with diagnostics and corpus references


class LookupAnswer(TypedDict):
    match_type: Literal["id", "exact", "substring", "fuzzy"]
    match_score: float
    sentence: dict[str, object]
    tokens: list[dict[str, object]]
