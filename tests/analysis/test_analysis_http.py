"""Area C over HTTP on a real server: GET and POST forms, parameter errors, the 400 and the 404 with suggestion."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.analysis.test_dialect import SENTENCES
from tests.support.server import ServerProcess, server_env

CORPUS = "http-test"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("analysis")
    corpus_file = tmp / "corpus.jsonl"
    corpus_file.write_text("\n".join(json.dumps(s, ensure_ascii=False) for s in SENTENCES) + "\n", encoding="utf-8")
    env = server_env(
        f"sqlite:///{tmp / 'db.sqlite'}", TAHQIQ_DATA_DIR=str(tmp / "data"), TAHQIQ_ANALYSIS_MAX_CHARS="200"
    )
    proc = ServerProcess(env, wait_for_analysis=True)
    proc.cli("corpus", "import", str(corpus_file), "--format", "jsonl", "--name", CORPUS)
    with proc:
        yield proc


def get(server: ServerProcess, path: str, **params: Any) -> httpx.Response:
    return httpx.get(server.url + path, params=params, timeout=10)


def post(server: ServerProcess, path: str, body: Any) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.post(server.url + path, content=content, headers={"content-type": "application/json"}, timeout=10)


def problem(response: httpx.Response, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = dict(response.json())
    assert body["type"].endswith(f"/problems/{slug}") and body["status"] == status
    assert body["instance"] == response.request.url.path
    return body


def test_lookup_get_and_post(server: ServerProcess) -> None:
    by_id = get(server, "/dialect/corpus", sentence_id=2, source=CORPUS).json()
    assert by_id["match_type"] == "id" and by_id["match_score"] == 1.0
    assert by_id["sentence"] == {
        "sentence_id": 2,
        "text": SENTENCES[1]["text"],
        "dialect": "Palestinian",
        "source": "test",
        "translation": SENTENCES[1]["translation"],
        "corpus": CORPUS,
    }
    assert by_id["tokens"] == SENTENCES[1]["tokens"]
    posted = post(server, "/dialect/corpus", {"text": "امي بتحكي مع جارتنا كل يوم", "source": CORPUS}).json()
    assert posted["match_type"] == "exact" and posted["sentence"]["sentence_id"] == 2
    substring = get(server, "/dialect/corpus", text="بتحكي مع جارتنا كل يوم", source=CORPUS)
    assert substring.json()["match_type"] == "substring"


def test_post_does_not_fall_back_and_404_carries_a_suggestion(server: ServerProcess) -> None:
    body = problem(
        post(server, "/dialect/corpus", {"text": "بتحكي مع جارتنا كل يوم", "source": CORPUS}), 404, "no-match"
    )
    assert body["suggestion"]["sentence_id"] == 2 and 0 < body["suggestion"]["score"] < 1
    body = problem(get(server, "/dialect/corpus", text="قطار سريع جدا", similarity_threshold=0.99), 404, "no-match")
    assert set(body["suggestion"]) == {"sentence_id", "text", "score", "corpus"}


def test_conflicting_parameters_are_400(server: ServerProcess) -> None:
    body = problem(
        get(server, "/dialect/corpus", sentence_id=1, text=SENTENCES[1]["text"], source=CORPUS), 400, "bad-request"
    )
    assert "different" in body["detail"]


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/dialect/corpus", {}, "sentence_id"),
        ("/dialect/corpus", {"sentence_id": "abc"}, "sentence_id"),
        ("/dialect/corpus", {"sentence_id": 1, "source": "nope"}, "source"),
        ("/dialect/corpus", {"text": "x" * 201}, "text"),
        ("/dialect/corpus/glossary", {}, "text"),
        ("/dialect/corpus/glossary", {"text": "بدي", "top_k": 0}, "top_k"),
        ("/dialect/corpus/glossary", {"text": "بدي", "top_k": "2.5"}, "top_k"),
        ("/dialect/corpus/glossary", {"text": "بدي", "similarity_threshold": 1.5}, "similarity_threshold"),
        ("/dialect/corpus/glossary", {"text": "بدي", "similarity_threshold": "nan"}, "similarity_threshold"),
        ("/dialect/corpus/glossary", {"text": "بدي", "include_offsets": "yes"}, "include_offsets"),
        ("/dialect/corpus/glossary", {"text": "بدي", "topk": 2}, "topk"),
        ("/dialect/corpus/glossary", {"text": "   "}, "text"),
    ],
)
def test_bad_parameters_are_422_naming_the_field(
    server: ServerProcess, path: str, params: dict[str, Any], field: str
) -> None:
    body = problem(get(server, path, **params), 422, "validation-error")
    assert field in body["errors"], body
    if not (field == "top_k" and params.get("top_k") == "2.5"):  # "2.5" is only wrong as a query string
        body = problem(post(server, path, params), 422, "validation-error")
        assert field in body["errors"], body


def test_post_needs_json_types_and_a_json_object(server: ServerProcess) -> None:
    body = problem(
        post(server, "/dialect/corpus/glossary", {"text": "بدي", "include_offsets": "true"}), 422, "validation-error"
    )
    assert "include_offsets" in body["errors"]
    problem(post(server, "/dialect/corpus/glossary", b"{not json"), 422, "validation-error")
    problem(post(server, "/dialect/corpus/glossary", [1, 2]), 422, "validation-error")


def test_glossary_get_and_post_agree(server: ServerProcess) -> None:
    text = "وبدي أروح، هلا!"
    got = get(server, "/dialect/corpus/glossary", text=text, include_offsets="1", top_k=2, source=CORPUS).json()
    posted = post(
        server, "/dialect/corpus/glossary", {"text": text, "include_offsets": True, "top_k": 2, "source": CORPUS}
    ).json()
    assert got == posted
    tokens = got["tokens"]
    assert [t["token"] for t in tokens] == ["وبدي", "أروح", "هلا"]
    assert [text[t["start"] : t["end"]] for t in tokens] == ["وبدي", "أروح", "هلا"]
    assert tokens[0]["matches"][0]["match_type"] == "clitic" and tokens[0]["matches"][0]["form"] == "بدي"
    assert tokens[2]["matches"][0]["form"] == "هلأ"
    assert all(len(t["matches"]) <= 2 for t in tokens)


def test_health_reports_the_corpora(server: ServerProcess) -> None:
    for path in ("/health", "/healthz"):
        health = get(server, path).json()
        assert health["status"] == "ok" and health["interface_version"] == "1.0.0"
        assert health["analysis"]["corpora"][CORPUS]["sentences"] == len(SENTENCES)


def test_app_key_can_be_required(tmp_path: Path) -> None:
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite'}", TAHQIQ_DATA_DIR=str(tmp_path), TAHQIQ_REQUIRE_APP_KEY="1")
    with ServerProcess(env, wait_for_analysis=True) as locked:
        app = locked.cli("apps", "create", "--name", "reader", "--json")
        problem(get(locked, "/dialect/corpus/glossary", text="بدي"), 401, "unauthorized")
        ok = httpx.get(
            locked.url + "/dialect/corpus/glossary",
            params={"text": "بدي"},
            headers={"X-Service-App-Key": app["app_key"]},
            timeout=10,
        )
        assert ok.status_code == 200
        assert get(locked, "/health").status_code == 200  # health stays open


def test_morph_get_and_post_with_lemma_links(server: ServerProcess) -> None:
    text = "أعلنت الحكومة خطة جديدة"
    got = get(server, "/morph", text=text, include_lemma="true").json()
    posted = post(server, "/morph", {"text": text, "include_lemma": True, "task": "full", "flag": 1}).json()
    assert got == posted
    assert got["task"] == "full" and got["language"] == "MSA"
    assert [t["token"] for t in got["tokens"]] == text.split()
    for token in got["tokens"]:
        assert set(token) >= {"token", "lemma", "lemma_id", "root", "pos", "frequency", "lemma_url", "lemma_forms"}
        assert token["lemma_url"] == f"{server.url}/lexicon/lemmas/{token['lemma_id']}"
        entry = httpx.get(token["lemma_url"], timeout=10).json()
        assert entry["lemma_id"] == token["lemma_id"] and entry["lemma"] == token["lemma"]
    verb = got["tokens"][0]
    assert verb["root"] == "ع ل ن" and verb["pos"] == "verb"


@pytest.mark.parametrize(
    ("task", "keys"),
    [("lemmatization", {"token", "lemma", "lemma_id"}), ("pos", {"token", "pos"}), ("root", {"token", "root"})],
)
def test_morph_tasks_give_their_subsets(server: ServerProcess, task: str, keys: set[str]) -> None:
    tokens = get(server, "/morph", text="الكتاب مفيد", task=task).json()["tokens"]
    assert [set(t) for t in tokens] == [keys, keys]


def test_morph_all_analyses_and_errors(server: ServerProcess) -> None:
    [token] = get(server, "/morph", text="علم", flag="*").json()["tokens"]
    assert len(token["analyses"]) >= 2 and {"lemma", "root", "pos"} <= set(token["analyses"][0])
    for params, field in (
        ({"text": "علم", "task": "stem"}, "task"),
        ({"text": "علم", "flag": "2"}, "flag"),
        ({"text": "علم", "language": "EGY"}, "language"),
        ({"text": ""}, "text"),
        ({"text": "x" * 201}, "text"),
    ):
        body = problem(get(server, "/morph", **params), 422, "validation-error")
        assert field in body["errors"], (params, body)
    problem(get(server, "/lexicon/lemmas/000000000000"), 404, "not-found")


NEWS = "زار وزير الخارجية الأردني أيمن الصفدي جامعة بيرزيت في 15 أيار 2024 وتبرع بمبلغ 20 ألف دولار"


def test_ner_nested_flat_and_offsets(server: ServerProcess) -> None:
    got = get(server, "/ner", text=NEWS, include_offsets="true").json()
    posted = post(server, "/ner", {"text": NEWS, "include_offsets": True}).json()
    assert got == posted
    assert all(NEWS[t["start"] : t["end"]] == t["token"] for t in got["tokens"])
    spans = {(e["type"], e["text"]) for e in got["entities"]}
    assert ("ORG", "جامعة بيرزيت") in spans and ("GPE", "بيرزيت") in spans
    assert any(e["type"] == "DATE" for e in got["entities"]) and any(e["type"] == "MONEY" for e in got["entities"])
    birzeit = next(t for t in got["tokens"] if t["token"] == "بيرزيت")
    assert birzeit["tags"][:2] == ["I-ORG", "B-GPE"]  # outermost first
    flat = get(server, "/ner", text=NEWS, mode="flat").json()
    assert all(len(t["tags"]) == 1 for t in flat["tokens"]) and "start" not in flat["tokens"][0]


@pytest.mark.parametrize("text", ["hello world", "👍🏽 🇵🇸", "\u064e\u064f", "١٢٣ — ؟؟", "a" * 200])
def test_odd_input_is_a_sensible_answer(server: ServerProcess, text: str) -> None:
    for path in ("/ner", "/wsd", "/re", "/morph", "/dialect/corpus/glossary"):
        response = get(server, path, text=text)
        assert response.status_code == 200, (path, text, response.text)


def test_wsd_senses_and_their_pages(server: ServerProcess) -> None:
    text = "فتح الموظف حسابا في البنك لإيداع راتبه الشهري"
    tokens = post(server, "/wsd", {"text": text, "include_gloss": True}).json()["tokens"]
    assert [t["token"] for t in tokens] == text.split()
    bank = next(t for t in tokens if t["token"] == "البنك")
    assert bank["sense_id"] and bank["gloss"] and bank["sense_url"].endswith(f"/lexicon/senses/{bank['sense_id']}")
    page = httpx.get(bank["sense_url"], timeout=10).json()
    assert page["sense_id"] == bank["sense_id"]
    without = get(server, "/wsd", text=text).json()["tokens"]
    assert all("gloss" not in t for t in without)
    problem(get(server, "/lexicon/senses/nope"), 404, "not-found")


def test_relations_respect_domain_and_range(server: ServerProcess) -> None:
    gold = Path(__file__).parents[1] / "gold" / "relation_inventory.json"
    inventory = {p["predicate"]: p for p in json.loads(gold.read_text(encoding="utf-8"))}
    text = "أسس رجل الأعمال سمير خوري شركة الأفق للبرمجيات في رام الله عام 2010"
    relations = post(server, "/re", {"text": text}).json()["relations"]
    assert relations, "a founder relation should be found"
    for r in relations:
        p = inventory[r["predicate"]]
        assert r["subject"]["type"] in p["domain"] and r["object"]["type"] in p["range"]
        assert text[r["subject"]["start"] : r["subject"]["end"]] == r["subject"]["text"]
        assert 0 < r["confidence"] <= 1
    for path in ("/ner", "/wsd", "/re"):
        problem(get(server, path), 422, "validation-error")
        problem(get(server, path, text="x", bogus=1), 422, "validation-error")


def test_ner_reads_the_sentence_as_morphology_does(server: ServerProcess) -> None:
    # طالب opens the clause as the verb "demanded" (issue 20): the service lets no entity start there
    body = get(server, "/ner", text="طالب نواب البرلمان بالتحقيق").json()
    assert all(e["start"] != 0 for e in body["entities"]), body["entities"]
    assert get(server, "/morph", text="طالب نواب البرلمان بالتحقيق").json()["tokens"][0]["pos"] == "verb"
