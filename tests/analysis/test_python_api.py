"""`tahqiq.analysis.Analyzer` answers exactly what the HTTP routes answer (issue 21): one code path, compared over a
real server for the texts of the development gold sets, with the same errors, shared between threads and loaded
once per process."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tahqiq.analysis import AnalysisError, Analyzer

from tests.support.server import CACHE_DIR, ServerProcess, analysis_server

GOLD = Path(__file__).resolve().parents[1] / "gold"


def _texts(name: str, field: str, every: int) -> list[str]:
    rows = [json.loads(line) for line in (GOLD / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row[field] for row in rows[::every]]


# development sets only: everyday prose, news, word senses and the three dialects' glossary contexts
EVERYDAY = _texts("ner_everyday_dev.jsonl", "text", 6)
NEWS = _texts("ner_dev.jsonl", "text", 4)
SENSES = _texts("wsd.jsonl", "text", 5)
DIALECT = [t for name in ("egi", "levantine", "palestinian") for t in _texts(f"glossary_{name}.jsonl", "context", 5)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with analysis_server(tmp_path_factory.mktemp("api"), TAHQIQ_LOG_LEVEL="info") as proc:
        yield proc


@pytest.fixture(scope="module")
def analyzer(server: ServerProcess) -> Analyzer:
    return Analyzer(cache_dir=CACHE_DIR, base_url=server.url)


def _http(server: ServerProcess, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(server.url + path, json=body, timeout=60)


@pytest.mark.parametrize(
    ("path", "method", "options"),
    [
        ("/ner", "ner", {"mode": "nested", "include_offsets": True}),
        ("/ner", "ner", {"mode": "flat", "include_offsets": False}),
        ("/re", "relations", {}),
        ("/morph", "morph", {"task": "full", "flag": "1", "include_lemma": True}),
        ("/morph", "morph", {"task": "root", "flag": "*", "include_lemma": False}),
        ("/wsd", "wsd", {"include_gloss": True}),
    ],
)
def test_every_text_gets_the_routes_answer(
    server: ServerProcess, analyzer: Analyzer, path: str, method: str, options: dict[str, Any]
) -> None:
    texts = EVERYDAY + NEWS + (SENSES if method == "wsd" else [])
    assert len(texts) >= 50
    for text in texts:
        answer = _http(server, path, {"text": text, **options})
        assert answer.status_code == 200, answer.text
        assert getattr(analyzer, method)(text, **options) == answer.json(), (path, text)


def test_the_glossary_and_the_lookup_get_the_routes_answer(server: ServerProcess, analyzer: Analyzer) -> None:
    for text in DIALECT:
        http = _http(server, "/dialect/corpus/glossary", {"text": text, "top_k": 2, "include_offsets": True})
        assert analyzer.glossary(text, top_k=2, include_offsets=True) == http.json(), text
    for sentence_id in (1, 2, 3, 50):
        http = _http(server, "/dialect/corpus", {"sentence_id": sentence_id})
        assert analyzer.lookup(sentence_id) == http.json()
    lemma_id = analyzer.morph("كتب الطالب الدرس")["tokens"][0]["lemma_id"]
    assert analyzer.lemma(lemma_id) == httpx.get(f"{server.url}/lexicon/lemmas/{lemma_id}", timeout=30).json()


def test_bad_input_raises_the_routes_problem(server: ServerProcess, analyzer: Analyzer) -> None:
    http = _http(server, "/morph", {"text": "كتب", "task": "stems", "flag": "2"}).json()
    with pytest.raises(AnalysisError) as raised:
        analyzer.morph("كتب", task="stems", flag="2")  # type: ignore[arg-type]
    assert (raised.value.status, raised.value.errors, raised.value.detail) == (422, http["errors"], http["detail"])
    assert isinstance(raised.value, ValueError)
    with pytest.raises(AnalysisError) as raised:
        analyzer.ner("")
    assert raised.value.errors.keys() == {"text"}
    http = _http(
        server, "/dialect/corpus", {"text": "هذه جملة لا يعرفها أي معجم من معاجم اللهجات", "similarity_threshold": 0.99}
    )
    with pytest.raises(AnalysisError) as raised:
        analyzer.lookup(text="هذه جملة لا يعرفها أي معجم من معاجم اللهجات", threshold=0.99)
    assert raised.value.status == http.status_code == 404
    assert raised.value.extra["suggestion"] == http.json()["suggestion"]


def test_analyzers_share_the_data_and_threads_share_an_analyzer(analyzer: Analyzer) -> None:
    twin = Analyzer(cache_dir=CACHE_DIR, base_url=analyzer.base_url)
    assert twin._service() is analyzer._service()  # loaded once per process
    expected = {text: analyzer.ner(text) for text in NEWS[:8]}
    got: dict[str, Any] = {}
    errors: list[BaseException] = []

    def work(texts: list[str]) -> None:
        try:
            for text in texts * 3:
                got[text] = twin.ner(text)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(NEWS[i:8:2],)) for i in range(2)]
    threads += [threading.Thread(target=lambda: [analyzer.wsd(t) for t in SENSES[:6]])]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    assert got == expected
