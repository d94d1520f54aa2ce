"""Unit tests of the summarization parts: the circuit breaker (injected clock), the answer check, request
parsing, Retry-After reading, the rate-limit bucket and the new settings."""

from __future__ import annotations

import email.utils
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tahqiq.config import Settings, SettingsError
from tahqiq.http1 import retry_after_seconds
from tahqiq.problems import Problem
from tahqiq.summarize import answer
from tahqiq.summarize.breaker import BreakerOpen, BreakerState, CircuitBreaker
from tahqiq.summarize.extractive import detect_language
from tahqiq.summarize.service import parse_request, rate_bucket
from tahqiq.summarize.upstream import Completion, parse_completion


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# Breaker ----------------------------------------------------------------------------------------------------


def test_breaker_state_machine() -> None:
    clock = Clock()
    b = CircuitBreaker("gw", failures=3, reset_s=10, clock=clock)
    for _ in range(2):
        b.acquire()
        b.failed()
    assert b.state is BreakerState.CLOSED
    b.acquire()
    b.failed()
    assert b.state is BreakerState.OPEN
    clock.now += 2.5
    with pytest.raises(BreakerOpen) as refused:
        b.acquire()
    assert refused.value.retry_after_s == 8  # ceil(10 - 2.5)
    clock.now += 7.5
    assert b.state is BreakerState.HALF_OPEN
    b.acquire()  # the one trial
    with pytest.raises(BreakerOpen):
        b.acquire()  # a second caller while the trial runs
    b.failed()  # the trial failed: open again for a whole reset time
    assert b.state is BreakerState.OPEN and b.remaining_s() == 10
    clock.now += 10
    b.acquire()
    b.succeeded()
    assert b.state is BreakerState.CLOSED
    b.acquire()
    b.acquire()  # closed: no limit on concurrent calls


def test_abandoned_trial_lets_another_through() -> None:
    clock = Clock()
    b = CircuitBreaker("gw", failures=1, reset_s=1, clock=clock)
    b.acquire()
    b.failed()
    clock.now += 1
    b.acquire()
    b.abandoned()
    b.acquire()
    assert b.state is BreakerState.HALF_OPEN


class ReferenceBreaker:
    """The documented behaviour, written the obvious way."""

    def __init__(self, failures: int, reset_s: float) -> None:
        self.failures, self.reset_s = failures, reset_s
        self.run = 0
        self.opened: float | None = None
        self.trial = False

    def allowed(self, now: float) -> bool:
        if self.opened is None:
            return True
        if now - self.opened < self.reset_s or self.trial:
            return False
        self.trial = True
        return True

    def outcome(self, ok: bool, now: float) -> None:
        if ok:
            self.run, self.opened, self.trial = 0, None, False
            return
        self.run += 1
        if self.trial or self.run >= self.failures:
            self.opened = now
        self.trial = False


@given(
    failures=st.integers(1, 4),
    steps=st.lists(st.tuples(st.floats(0, 3), st.booleans()), max_size=40),
)
def test_breaker_matches_the_reference(failures: int, steps: list[tuple[float, bool]]) -> None:
    clock = Clock()
    ours = CircuitBreaker("x", failures=failures, reset_s=2, clock=clock)
    ref = ReferenceBreaker(failures, 2)
    for advance, ok in steps:
        clock.now += advance
        expected = ref.allowed(clock.now)
        try:
            ours.acquire()
            allowed = True
        except BreakerOpen as refused:
            allowed = False
            assert refused.retry_after_s >= 1
        assert allowed == expected
        if allowed:
            ours.succeeded() if ok else ours.failed()
            ref.outcome(ok, clock.now)


# Answer check -----------------------------------------------------------------------------------------------

sentence = st.text(st.sampled_from("abcdefghij KLMNOP"), min_size=1, max_size=30).filter(
    lambda s: any(c.isalpha() for c in s)
)


@given(st.lists(sentence, min_size=1, max_size=8), st.sampled_from(["-", "*", "•", "1.", "2)"]))
def test_bullets_are_parsed_back(items: list[str], marker: str) -> None:
    content = "\n".join(f"{marker} {item}" for item in items)
    checked = answer.check(content, "en", "bullets")
    assert checked.bullets == tuple(item.strip() for item in items)
    assert checked.summary == "\n".join(f"- {item.strip()}" for item in items)


def test_paragraph_is_kept_and_joined() -> None:
    checked = answer.check("  The plan passed.\nIt starts in May, -5 degrees or not.  ", "en", "paragraph")
    assert checked.summary == "The plan passed. It starts in May, -5 degrees or not." and checked.bullets is None
    assert answer.check("1.5 million people voted.", "en", "paragraph").summary == "1.5 million people voted."


@pytest.mark.parametrize(
    ("content", "lang", "fmt", "why"),
    [
        ("", "en", "paragraph", "empty"),
        ("\n \n", "en", "bullets", "empty"),
        ("-\n- ", "en", "bullets", "empty"),
        ("Summary:\n-\n-", "en", "paragraph", "empty"),
        ("The council met.", "ar", "paragraph", "not in Arabic"),
        ("- اجتمع المجلس", "en", "bullets", "not in English"),
        ("12345 678.", "en", "paragraph", "not in English"),
    ],
)
def test_bad_answers_are_refused(content: str, lang: str, fmt: str, why: str) -> None:
    with pytest.raises(answer.BadAnswer, match=why):
        answer.check(content, lang, fmt)


@pytest.mark.parametrize(
    ("content", "fmt", "summary", "bullets"),
    [
        ("No list here. None at all.", "bullets", "- No list here.\n- None at all.", ("No list here.", "None at all.")),
        ("Summary:\n- one", "bullets", "- one", ("one",)),
        ("- one\n- two", "paragraph", "one. two.", None),
        ("1. only item", "paragraph", "only item.", None),
        ("Points:\n* first!\n2) second…", "paragraph", "first! second…", None),
        ("The plan passed.\n- 5 of 7 voted.", "paragraph", "The plan passed. - 5 of 7 voted.", None),
    ],
)
def test_the_other_format_is_reshaped(content: str, fmt: str, summary: str, bullets: tuple[str, ...] | None) -> None:
    checked = answer.check(content, "en", fmt)
    assert (checked.summary, checked.bullets) == (summary, bullets)


@given(st.lists(sentence.map(str.strip).filter(bool), min_size=1, max_size=6))
def test_a_list_joined_as_a_paragraph_keeps_every_item_in_order(items: list[str]) -> None:
    content = "\n".join(f"- {item}" for item in items)
    summary = answer.check(content, "en", "paragraph").summary
    position = 0
    for item in items:
        position = summary.index(item, position) + len(item)
    assert "- " not in summary


def reference_in_language(text: str, lang: str) -> bool:
    """in_language without the ASCII shortcut: the letters, then the Arabic-script and the Latin ones counted."""
    letters = re.sub(r"[\W\d_]+", "", text)
    arabic = len(re.findall("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]", letters))
    latin = len(re.findall("[\u0000-\u024f\u1e00-\u1eff]", letters))
    return arabic > latin if lang == "ar" else latin > arabic


_MIXED = st.text(alphabet=st.sampled_from("ابتسلام abcXYZ éß 123 .,-_\n🙂")) | st.text(max_size=100)


@given(_MIXED, st.sampled_from(["ar", "en"]))
def test_language_check_matches_its_reference(text: str, lang: str) -> None:
    assert answer.in_language(text, lang) == reference_in_language(text, lang)


def test_language_is_decided_by_the_dominant_letters() -> None:
    assert answer.in_language("قال رئيس NATO إن الاجتماع انتهى", "ar")
    assert answer.in_language("The word سلام means peace in Arabic", "en")
    assert not answer.in_language("The word سلام means peace", "ar")


@pytest.mark.parametrize(
    ("text", "detected", "passes_as"),
    [
        ("12345 678.", "en", set()),  # no letters: detection must still name a language, the check must refuse
        ("Привет мир, как дела", "en", set()),  # another script: English by default, but not an English answer
        ("Привет мир как дела сегодня друзья مرحبا", "en", {"ar"}),  # Arabic ahead of Latin, not half the letters
        ("The word سلام means peace", "en", {"en"}),
        ("قال رئيس NATO إن الاجتماع انتهى", "ar", {"ar"}),
    ],
)
def test_the_two_language_rules_differ_where_their_purposes_do(text: str, detected: str, passes_as: set[str]) -> None:
    """detect_language (the summarizer's pipeline and label) names a language for any text; in_language (the check
    of an upstream's answer) can refuse; one rule for both would change one of them (README.md, docstrings)."""
    assert detect_language(text) == detected
    assert {lang for lang in ("ar", "en") if answer.in_language(text, lang)} == passes_as


def test_prompt_names_language_length_and_format() -> None:
    system, user = answer.messages("نص", "ar", 5, "bullets")
    assert user == {"role": "user", "content": "نص"}
    assert "Arabic" in system["content"] and "5 bullet points" in system["content"]
    system, _ = answer.messages("text", "en", 3, "paragraph")
    assert "English" in system["content"] and "3 sentences" in system["content"]


def test_completion_parsing() -> None:
    good = b'{"model": "m-1", "choices": [{"message": {"role": "assistant", "content": "Hi."}}]}'
    assert parse_completion(good, "fallback") == Completion("Hi.", "m-1")
    assert parse_completion(b'{"choices": [{"message": {"content": "Hi."}}]}', "fb") == Completion("Hi.", "fb")
    for bad in (b"", b"[]", b'{"choices": {}}', b'{"choices": [{"message": {"content": 3}}]}', b"\xff"):
        assert parse_completion(bad, "fb") is None


def test_retry_after_values() -> None:
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None
    date = email.utils.formatdate(1_000_030, usegmt=True)
    assert retry_after_seconds(date, now=1_000_000) == pytest.approx(30)


# Request parsing, buckets, settings --------------------------------------------------------------------------


def test_request_defaults() -> None:
    request = parse_request("application/json", b'{"text": "hello"}', 100)
    assert (request.target_lang, request.length, request.format) == (None, "short", "paragraph")


def test_request_errors_name_fields() -> None:
    with pytest.raises(Problem) as raised:
        parse_request("application/json", b'{"text": "abc", "length": "huge", "x": 1}', 2)
    assert raised.value.status == 422 and set(raised.value.errors or {}) == {"text", "length", "x"}


def test_bucket_never_holds_the_key() -> None:
    bucket = rate_bucket("svc_app_secret_value", "10.0.0.1")
    assert "svc_app_secret_value" not in bucket and len(bucket.rsplit(":", 1)[1]) == 64
    assert rate_bucket(None, "10.0.0.1") != rate_bucket("", "10.0.0.2")
    assert rate_bucket("a", "1") == rate_bucket("a", "2")  # the key, not the address, when a key is sent


def test_summarize_settings() -> None:
    s = Settings.from_env(
        {
            "TAHQIQ_GATEWAY_URL": "http://gw.local:4000/v1",
            "TAHQIQ_GATEWAY_MODEL": "alias",
            "TAHQIQ_GATEWAY_KEY": "sk-gateway-secret",
            "TAHQIQ_GATEWAY_ENABLED": "false",
            "TAHQIQ_SUMMARIZE_RATE": "5/10s",
            "TAHQIQ_UPSTREAM_TIMEOUT_S": "2.5",
        }
    )
    assert s.gateway_enabled is False and s.summarize_rate.limit == 5 and s.upstream_timeout_s == 2.5
    assert "sk-gateway-secret" not in repr(s)
    assert Settings.from_env(s.to_env()) == s
    assert "summarize" in Settings().areas


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"TAHQIQ_GATEWAY_URL": "gw.local/v1", "TAHQIQ_GATEWAY_MODEL": "m"}, "TAHQIQ_GATEWAY_URL"),
        ({"TAHQIQ_PROVIDER_URL": "https://api.vendor.example/v1"}, "TAHQIQ_PROVIDER_MODEL"),
        ({"TAHQIQ_UPSTREAM_TIMEOUT_S": "0"}, "TAHQIQ_UPSTREAM_TIMEOUT_S"),
        ({"TAHQIQ_UPSTREAM_TIMEOUT_S": "nan"}, "TAHQIQ_UPSTREAM_TIMEOUT_S"),
        ({"TAHQIQ_RETRY_MAX_WAIT_S": "-1"}, "TAHQIQ_RETRY_MAX_WAIT_S"),
        ({"TAHQIQ_BREAKER_FAILURES": "0"}, "TAHQIQ_BREAKER_FAILURES"),
        ({"TAHQIQ_BREAKER_RESET_S": "soon"}, "TAHQIQ_BREAKER_RESET_S"),
        ({"TAHQIQ_SUMMARIZE_RATE": "30 per minute"}, "TAHQIQ_SUMMARIZE_RATE"),
        ({"TAHQIQ_SUMMARIZE_MAX_CHARS": "0"}, "TAHQIQ_SUMMARIZE_MAX_CHARS"),
        ({"TAHQIQ_GATEWAY_ENABLED": "maybe"}, "TAHQIQ_GATEWAY_ENABLED"),
    ],
)
def test_bad_summarize_settings_are_named(environ: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(environ)
    assert any(p.startswith(named) for p in raised.value.problems), raised.value.problems
