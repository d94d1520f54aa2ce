# Typed interface of the compiled module `tahqiq._native` (rust/src). Checked by `mypy.stubtest` in CI.
from collections.abc import Sequence
from typing import ClassVar, Final, Literal, final

__all__ = [
    "GlossaryIndex",
    "Lexicon",
    "NerScorer",
    "PosScorer",
    "Token",
    "__version__",
    "canonical_json",
    "fingerprint",
    "normalize",
    "scan",
    "strip_clitics",
]

__version__: Final[str]

_TokenKind = Literal["word", "number", "punct", "symbol"]

def normalize(
    text: str,
    *,
    diacritics: bool = True,
    tatweel: bool = True,
    alef: bool = True,
    ya: bool = True,
    ta_marbuta: bool = False,
    digits: bool = False,
    punctuation: bool = False,
) -> str: ...

@final
class Token:
    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def kind(self) -> _TokenKind: ...
    def __new__(cls, text: str, start: int, end: int, kind: _TokenKind) -> Token: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def scan(text: str) -> list[Token]: ...

@final
class NerScorer:
    def __new__(
        cls,
        types: Sequence[str],
        shared: dict[str, list[float]],
        typed: Sequence[dict[str, list[float]]],
        transitions: Sequence[Sequence[Sequence[float]]],
    ) -> NerScorer: ...
    def __len__(self) -> int: ...
    def predict(
        self,
        keys: Sequence[str],
        classes: Sequence[Sequence[str]],
        rule_spans: Sequence[tuple[str, int, int]],
    ) -> list[list[tuple[int, int]]]: ...

@final
class PosScorer:
    def __new__(cls, tags: Sequence[str], weights: dict[str, list[float]]) -> PosScorer: ...
    def __len__(self) -> int: ...
    def tag(self, words: Sequence[tuple[str, str, str, str, bool]]) -> list[list[float]]: ...

@final
class Lexicon:
    def __new__(cls, entries: Sequence[str]) -> Lexicon: ...
    def __len__(self) -> int: ...
    def search(self, query: str, top_k: int = 3, threshold: float = 0.65) -> list[tuple[int, float]]: ...
    def search_many(
        self, queries: Sequence[str], top_k: int = 3, threshold: float = 0.65
    ) -> list[list[tuple[int, float]]]: ...
    def memory_bytes(self) -> int: ...

_GlossaryWord = tuple[int, int, str, str, list[tuple[int, int, float]]]

@final
class GlossaryIndex:
    MATCH_TYPES: ClassVar[tuple[str, str, str, str]]
    CLITIC_SCORE: ClassVar[float]
    TIE_BREAK_CANDIDATES: ClassVar[int]
    def __new__(
        cls,
        forms: Sequence[str],
        codas: Sequence[str],
        stems: Sequence[str],
        *,
        heads: Sequence[bytes] | None = None,
        refs: Sequence[bytes] | None = None,
    ) -> GlossaryIndex: ...
    def __len__(self) -> int: ...
    @property
    def keys(self) -> list[str]: ...
    @property
    def lexicon(self) -> Lexicon: ...
    def lookup(self, text: str, top_k: int = 3, threshold: float = 0.65) -> list[_GlossaryWord]: ...
    def lookup_json(
        self, text: str, top_k: int = 3, threshold: float = 0.65, include_offsets: bool = False
    ) -> bytes: ...
    def render_json(self, words: Sequence[_GlossaryWord], include_offsets: bool = False) -> bytes: ...

def strip_clitics(form: str) -> list[str]: ...
def canonical_json(body: bytes | bytearray | memoryview) -> bytes: ...
def fingerprint(body: bytes | bytearray | memoryview, *, context: str = "") -> str: ...
