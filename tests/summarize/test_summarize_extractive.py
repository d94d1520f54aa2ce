"""The in-process extractive summarizer: sentence splitting, stemming, the ranking's properties, ROUGE (checked against
the rouge-score package on English and by hand on Arabic) and the gold report. The aim (at or above Lead-k) is checked
on cross-validated figures, in tests/summarize/test_summarize_training.py."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from tahqiq.arabic.clitics import light10_stem
from tahqiq.summarize.extractive import (
    FEATURES,
    LEAD_MARGIN,
    LENGTH_SENTENCES,
    MAX_RANKED_SENTENCES,
    POSITIONS,
    REDUNDANCY_WEIGHT,
    SHORT_WEIGHTS,
    WEIGHTS,
    ExtractiveSummary,
    SentenceWeights,
    choose,
    detect_language,
    forward_centrality,
    length_weights,
    sentence_features,
    sentence_scores,
    sentence_terms,
    stem_english,
    summarize,
)
from tahqiq.text.sentences import MAX_SENTENCE_CHARS, load_word_list, sentence_spans, split_sentences

from tools import metrics
from tools.evaluate import summaries as evaluate
from tools.report import main as report_main

GOLD = Path(__file__).resolve().parents[1] / "gold" / "summaries.jsonl"


# --- sentence splitting -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # English titles and abbreviations that never end a sentence
        (
            "Mr. Smith met Dr. Jones at 5 p.m. on Friday. They spoke for an hour.",
            ["Mr. Smith met Dr. Jones at 5 p.m. on Friday.", "They spoke for an hour."],
        ),
        ("Prices rose in Jan. and fell in Feb. as expected. Then they rose.", None),
        ("Some fruit, e.g. apples, i.e. the red ones. Others too.", None),
        # U.S. runs on before a name, ends before a capitalised function word
        ("U.S. President Adams spoke. He left.", ["U.S. President Adams spoke.", "He left."]),
        (
            "Talks were held in the U.S. The result was a deal.",
            ["Talks were held in the U.S.", "The result was a deal."],
        ),
        ("J. R. Smith scored twice. The crowd cheered.", ["J. R. Smith scored twice.", "The crowd cheered."]),
        # decimals, dotted names, hyphenated acronyms
        (
            "Growth was 3.5 percent. See www.example.org for data.",
            ["Growth was 3.5 percent.", "See www.example.org for data."],
        ),
        ("The U.S.-led talks ended. Nobody won.", ["The U.S.-led talks ended.", "Nobody won."]),
        # question and exclamation marks, runs of them, closing quotes
        ('Is it true?! "Yes." He nodded.', ["Is it true?!", '"Yes."', "He nodded."]),
        # Arabic: question mark, full stop, Arabic full stop; comma and semicolon do not split
        (
            "هل وصل الوفد؟ نعم، وصل صباحا؛ وبدأ الاجتماع۔ ثم انتهى.",
            ["هل وصل الوفد؟", "نعم، وصل صباحا؛ وبدأ الاجتماع۔", "ثم انتهى."],
        ),
        # Arabic single-letter abbreviations: د. (doctor), أ. (professor), م. (engineer) run on
        ("قال د. سامي إن الوضع مستقر. وأيده أ. خالد.", ["قال د. سامي إن الوضع مستقر.", "وأيده أ. خالد."]),
        ("وحضر م. رامي الافتتاح. وغادر مبكرا.", ["وحضر م. رامي الافتتاح.", "وغادر مبكرا."]),
        # year markers after a number end the sentence
        ("تأسست الجامعة عام 1975م. وتضم اليوم عشر كليات.", ["تأسست الجامعة عام 1975م.", "وتضم اليوم عشر كليات."]),
        ("ولد الشاعر سنة 1320 هـ. ثم رحل إلى القاهرة.", ["ولد الشاعر سنة 1320 هـ.", "ثم رحل إلى القاهرة."]),
        # Arabic decimals and percentages
        ("بلغ النمو 2.7% هذا العام. وارتفعت الصادرات.", ["بلغ النمو 2.7% هذا العام.", "وارتفعت الصادرات."]),
        # a question mark straight before the next Arabic word still splits
        ("هل انتهى؟وبدأ غيره.", ["هل انتهى؟", "وبدأ غيره."]),
        # a «…» quotation is not split inside; the closing mark stays with its sentence
        ("قال الوزير: «الوضع صعب. لكننا سنعمل.» ثم غادر.", ["قال الوزير: «الوضع صعب. لكننا سنعمل.»", "ثم غادر."]),
        # line breaks: headings and paragraphs split, a hard-wrapped English line does not
        ("Headline here\nThe story begins. It goes on", ["Headline here", "The story begins.", "It goes on"]),
        ("The minister said the plan\nwould be ready soon.", ["The minister said the plan\nwould be ready soon."]),
        ("عنوان الخبر\n\nنص الخبر الأول", ["عنوان الخبر", "نص الخبر الأول"]),
        ("عنوان قصير\nبدأ الاجتماع صباحا.", ["عنوان قصير", "بدأ الاجتماع صباحا."]),
        (
            "وقال المتحدث باسم الوزارة إن الفرق الميدانية بدأت العمل في المناطق\nالمتضررة منذ الصباح.",
            ["وقال المتحدث باسم الوزارة إن الفرق الميدانية بدأت العمل في المناطق\nالمتضررة منذ الصباح."],
        ),
        ("Line one.\r\n\r\nLine two", ["Line one.", "Line two"]),
        # list numbers at the start of a line are not sentences; a number ending a sentence is
        ("1. First point\n  2. Second point", ["1. First point", "2. Second point"]),
        ("Sales rose in 2020. Then they fell.", ["Sales rose in 2020.", "Then they fell."]),
        # an ellipsis before a lowercase word stays inside the sentence
        ("He paused... and went on. Then… Silence.", ["He paused... and went on.", "Then…", "Silence."]),
        # pieces with no letter or digit are left out
        ("Done. ... — Next one.", ["Done.", "— Next one."]),
    ],
)
def test_splitter_cases(text: str, expected: list[str] | None) -> None:
    got = split_sentences(text)
    if expected is None:  # the abbreviations above must not split: exactly two sentences
        assert len(got) == 2, got
    else:
        assert got == expected


def test_text_without_sentence_punctuation_is_cut_at_clauses_then_words() -> None:
    clause = "وقال المتحدث إن الاجتماع تناول الأوضاع الاقتصادية والاجتماعية في المنطقة"
    text = "، ".join([clause] * 40)  # ~3,000 characters, commas but no full stop
    pieces = split_sentences(text)
    assert len(pieces) > 1
    assert all(len(p) <= MAX_SENTENCE_CHARS for p in pieces)
    assert all(p.endswith("،") for p in pieces[:-1])  # cut after a clause mark
    words = " ".join(["word"] * 2000)  # no punctuation at all
    pieces = split_sentences(words)
    assert all(0 < len(p) <= MAX_SENTENCE_CHARS for p in pieces)
    assert " ".join(pieces).split() == words.split()
    assert split_sentences("x" * 1200) == ["x" * 500, "x" * 500, "x" * 200]


@pytest.mark.parametrize(
    "unit",
    ["a. ", "«a. b» ", "Mr. ", "، ", "?", "\n", "1.5 ", "د. ", "x" * 30 + " ", "U.S. ", "…", "«", "“a. ”"],
)
def test_long_adversarial_text_is_linear(unit: str) -> None:
    """100 KB made of one repeated pattern (many candidate boundaries, quotations, clause marks or none): the splitter
    and the summarizer stay well within the time a request may take (a quadratic step would take minutes)."""
    text = unit * (100_000 // len(unit))
    started = time.perf_counter()
    spans = sentence_spans(text)
    summary = summarize(text, "long")
    elapsed = time.perf_counter() - started
    assert elapsed < 3.0, elapsed
    assert len(summary.sentences) == min(LENGTH_SENTENCES["long"], len(spans))


@given(st.text(max_size=600))
def test_spans_are_trimmed_ordered_slices(text: str) -> None:
    spans = sentence_spans(text)
    end = 0
    for start, stop in spans:
        assert end <= start < stop <= len(text)
        piece = text[start:stop]
        assert piece == piece.strip()
        assert any(ch.isalnum() for ch in piece)
        assert stop - start <= MAX_SENTENCE_CHARS
        end = stop


_WORDS_AR = ["الوزير", "قال", "إن", "الاقتصاد", "نما", "بنسبة", "3.5%", "د.", "م.", "عام", "2020م", "«حسنا»", "غزة"]
_WORDS_EN = ["The", "minister", "said", "Mr.", "U.S.", "growth", "was", "3.5", "percent", "e.g.", "Dr.", "in", "Jan."]
_ENDS = [".", "?", "!", "؟", "۔", ".\n", "\n\n", "،", "؛", ""]


@st.composite
def news_like(draw: st.DrawFn) -> str:
    """Text made of sentences of Arabic or English words with assorted punctuation and abbreviations."""
    words = draw(st.sampled_from([_WORDS_AR, _WORDS_EN, _WORDS_AR + _WORDS_EN]))
    sentences = draw(
        st.lists(
            st.tuples(st.lists(st.sampled_from(words), min_size=1, max_size=12), st.sampled_from(_ENDS)),
            max_size=14,
        )
    )
    return " ".join(" ".join(ws) + end for ws, end in sentences)


# --- stemming and terms -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("والمدارس", "مدارس"),  # و + article
        ("بالمدرسه", "مدرس"),  # بال + ه (ta marbuta after normalisation)
        ("للطلاب", "طلاب"),
        ("المعلمون", "معلم"),
        ("مكتباتها", "مكتب"),  # ها then ات
        ("وزير", "وزير"),  # و kept when fewer than four letters would remain after it
        ("الوزير", "وزير"),
        ("وللوزير", "وزير"),
        ("وكتبوا", "كتبوا"),
        ("في", "في"),
    ],
)
def test_arabic_light_stemmer(word: str, stem: str) -> None:
    assert light10_stem(word) == stem


def test_english_stemmer_joins_inflections() -> None:
    groups = [
        ["economy", "economies"],
        ["inflation", "inflated", "inflate"],
        ["government", "governments"],
        ["running", "runs", "run"],
        ["stopped", "stop", "stops"],
        ["rates", "rated", "rate"],
    ]
    for group in groups:
        assert len({stem_english(w) for w in group}) == 1, group
    assert stem_english("bus") == "bus"  # -us is not a plural


def test_terms_drop_stop_words_and_fold_spelling() -> None:
    assert sentence_terms("وأكد الوزيرُ أن الحكومة ستدعم المزارعين في 2024") == [
        "وزير",
        "حكوم",
        "ستدعم",
        "مزارع",
        "2024",
    ]
    assert sentence_terms("The minister said that the government would support farmers") == [
        "minister",
        "govern",
        "support",
        "farmer",
    ]
    # alef and ya variants and diacritics meet at one term
    assert sentence_terms("إلى الإمارات") == sentence_terms("الى الامارات")


def test_word_lists_state_their_licence() -> None:
    data = Path(__file__).resolve().parents[2] / "python" / "tahqiq" / "text" / "data"
    for name in ("stopwords_en.txt", "stopwords_ar.txt", "README.md"):
        assert "CC BY-SA 4.0" in (data / name).read_text(encoding="utf-8")
    assert "the" in load_word_list("stopwords_en.txt")
    assert "الذي" in load_word_list("stopwords_ar.txt")


# --- the summarizer -----------------------------------------------------------------------------------------------


def _is_subsequence(part: tuple[str, ...], whole: list[str]) -> bool:
    it = iter(whole)
    return all(any(p == w for w in it) for p in part)


@settings(max_examples=150, deadline=None)
@given(news_like(), st.sampled_from(list(LENGTH_SENTENCES)))
def test_summary_properties(text: str, length: str) -> None:
    summary = summarize(text, length)
    sentences = split_sentences(text)
    assert summary == summarize(text, length)  # deterministic
    assert _is_subsequence(summary.sentences, sentences)  # sentences of the input, in document order
    assert len(summary.sentences) == min(LENGTH_SENTENCES[length], len(sentences))
    assert summary.language == detect_language(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400), st.sampled_from(list(LENGTH_SENTENCES)))
def test_never_raises_on_arbitrary_text(text: str, length: str) -> None:
    summary = summarize(text, length)
    assert isinstance(summary, ExtractiveSummary)
    assert all(s == s.strip() and s in text for s in summary.sentences)
    assert summary.language in {"ar", "en"}


@given(st.text(max_size=300))
def test_language_detection_is_stable(text: str) -> None:
    language = detect_language(text)
    assert language in {"ar", "en"}
    assert detect_language(text + text) == language  # depends on proportions only
    assert detect_language(text + " 123 ., ؟") == language  # digits and punctuation do not count


@given(st.text(alphabet="ابتثجحخدذرزسشصضطظعغفقكلمنهوي ", min_size=1).filter(str.strip))
def test_arabic_letters_mean_arabic(text: str) -> None:
    assert detect_language(text) == "ar"
    assert detect_language(text + " " + "a" * (len(text.replace(" ", "")) + 1)) == "en"


ARABIC_LETTER_RUN = (
    r"[\u0620-\u064a\u066e-\u06d3\u06d5\u06fa-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefc]+"
)


def reference_language(text: str) -> str:
    """detect_language as first written: the lengths of every letter run and of every Arabic letter run."""
    letters = sum(map(len, re.findall(r"[^\W\d_]+", text)))
    arabic = sum(map(len, re.findall(ARABIC_LETTER_RUN, text)))
    return "ar" if letters and 2 * arabic > letters else "en"


# Arabic letters, marks, digits and the presentation forms' symbols, Latin, digits, punctuation, emoji.
_MIXED_ALPHABET = "ابتثجحخدذرزسشصضطظعغفقكلمنهويىةءأإآـًٌٍَُِّْ٠١٢٣٤٥٦٧٨٩،؛؟ﷺ﴾﴿ﷲﻻabcxyzÉéß123 .,!-_\n🙂"
_MIXED = st.text(alphabet=st.sampled_from(_MIXED_ALPHABET)) | st.text(max_size=200)


@given(_MIXED)
def test_language_detection_matches_its_reference(text: str) -> None:
    assert detect_language(text) == reference_language(text)


def test_language_of_mixed_and_empty_text() -> None:
    assert detect_language("") == "en"
    assert detect_language("2024 !!") == "en"
    assert detect_language("قال الوزير إن Reuters نشرت الخبر") == "ar"
    assert detect_language("The word سلام means peace") == "en"


@pytest.mark.parametrize("text", ["", "   ", "\n\t\n", "... —"])
def test_blank_text_gives_no_sentences(text: str) -> None:
    assert summarize(text).sentences == ()


def test_short_text_is_returned_whole() -> None:
    text = "The port reopened on Monday. Ships queued outside."
    assert summarize(text, "short").sentences == ("The port reopened on Monday.", "Ships queued outside.")


def test_unknown_length_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="short, medium, long"):
        summarize("A text. Another.", "tiny")


def test_near_repeats_are_left_out() -> None:
    fact = "The central bank raised its main interest rate to 27 percent to fight inflation."
    text = " ".join(
        [
            fact,
            fact.replace("raised", "lifted"),
            "The decision surprised traders in Cairo, who had expected the bank to hold the interest rate.",
            "Inflation reached 35 percent in February, the highest level in the bank's records.",
            "Exporters welcomed a stronger pound but importers warned of higher costs for goods.",
            "The bank will meet again in six weeks to review the rate.",
        ]
    )
    chosen = summarize(text, "short").sentences
    assert fact in chosen
    assert fact.replace("raised", "lifted") not in chosen


def test_a_closing_recap_loses_to_the_sentence_it_repeats() -> None:
    """Position-aware centrality: the late sentence that only echoes an early one is not chosen over it."""
    text = (
        "On a cold morning, farmers gathered in the village square. "
        "The ministry announced a new irrigation fund of ten million dollars for olive farmers in the north. "
        "Officials said the irrigation fund would pay for wells and pipes. "
        "Farmers said olive yields had fallen for three years. "
        "The weather turned warmer by noon. "
        "In short, the ministry's irrigation fund gives olive farmers ten million dollars."
    )
    chosen = summarize(text, "short").sentences
    assert (
        "The ministry announced a new irrigation fund of ten million dollars for olive farmers in the north." in chosen
    )
    assert not any(s.startswith("In short") for s in chosen)


def test_forward_centrality_counts_only_later_sentences() -> None:
    n = 8
    sim = np.zeros((n, n))
    sim[1, n - 1] = sim[n - 1, 1] = 0.8  # the last sentence echoes the second
    sim[2, 3] = sim[3, 2] = 0.2  # below the edge threshold (0.3 of the way from 0 to 0.8)
    centrality = forward_centrality(sim)
    assert centrality[1] == pytest.approx(1.0)  # scaled to 1
    assert centrality[n - 1] == 0.0 and centrality[2] == 0.0
    assert forward_centrality(np.zeros((n, n))).tolist() == [0.0] * n
    assert forward_centrality(np.zeros((1, 1))).tolist() == [0.0]


def test_features_and_scores() -> None:
    bags = [Counter({"a": 2, "b": 1}), Counter({"a": 1}), Counter(), *[Counter({"c": 1})] * (POSITIONS + 1)]
    sim = np.zeros((len(bags), len(bags)))
    sim[0, 1] = sim[1, 0] = 0.5
    features = sentence_features(bags, sim)
    assert features.shape == (len(bags), len(FEATURES))
    assert features[:, 0].tolist() == [1.0] * len(bags)
    positions = features[:, 1 : POSITIONS + 1]
    assert positions[:POSITIONS].tolist() == np.eye(POSITIONS).tolist()  # one indicator per early position
    assert positions[POSITIONS:].sum() == 0.0  # later sentences share the bias
    assert features[:, POSITIONS + 1].tolist() == forward_centrality(sim).tolist()
    assert features[:3, POSITIONS + 2].tolist() == pytest.approx([np.log(4), np.log(2), 0.0])
    weights = SentenceWeights(-1.0, (0.5, 0.25, 0.0, 0.0, 0.0), 2.0, 0.5)
    scores = sentence_scores(features, weights)
    assert scores[0] == pytest.approx(-1.0 + 0.5 + 2.0 * 1.0 + 0.5 * np.log(4))
    assert scores[-1] == pytest.approx(-1.0 + 0.5 * np.log(2))
    assert SentenceWeights.from_vector(weights.vector()) == weights
    with pytest.raises(ValueError, match="expected 8 weights"):
        SentenceWeights.from_vector([1.0, 2.0])


def test_a_later_sentence_replaces_a_lead_sentence_only_beyond_the_margin() -> None:
    sim = np.zeros((6, 6))
    lead = np.array([1.0, 0.5, 0.0, -1.0, -1.0, -1.0])
    below = lead.copy()
    below[4] = LEAD_MARGIN - 0.01  # better than sentence 3 (0.0), by less than the margin
    assert choose(below, sim, 3) == [0, 1, 2]
    above = lead.copy()
    above[4] = LEAD_MARGIN + 0.01
    assert choose(above, sim, 3) == [0, 1, 4]
    # the margin is for the first k sentences, whatever k is
    assert choose(above, sim, 5) == [0, 1, 2, 3, 4]
    assert choose(np.zeros(6), sim, 2) == [0, 1]  # ties go to the earlier sentence


def test_a_near_repeat_loses_its_place_to_redundancy() -> None:
    scores = np.array([1.0, 0.9, 0.5, -0.5])
    sim = np.zeros((4, 4))
    assert choose(scores, sim, 2) == [0, 1]
    sim[0, 1] = sim[1, 0] = 0.99  # a near-repeat of the first: it loses REDUNDANCY_WEIGHT * 0.99 of its log-odds
    assert 0.9 + LEAD_MARGIN - REDUNDANCY_WEIGHT * 0.99 < 0.5  # and so falls below the third (outside the lead)
    assert choose(scores, sim, 2) == [0, 2]


def test_the_summary_follows_the_weights() -> None:
    """The same text, two models: one that favours long sentences picks the long one from the end of the text."""
    text = (
        "Rain fell. The port reopened. Ships queued outside. Traders waited. "
        "Officials said the reopened port would handle grain, fuel and container ships from Alexandria, Beirut "
        "and Izmir under a new schedule agreed with shipping companies and the customs authority."
    )
    flat = SentenceWeights(0.0, (0.0,) * POSITIONS, 0.0, 0.0)
    by_length = SentenceWeights(0.0, (0.0,) * POSITIONS, 0.0, 10.0)
    assert summarize(text, "short", weights=flat).sentences == tuple(split_sentences(text)[:3])
    assert split_sentences(text)[-1] in summarize(text, "short", weights=by_length).sentences
    for length in LENGTH_SENTENCES:
        assert summarize(text, length) == summarize(text, length, weights=length_weights(length))


def test_the_short_summary_has_its_own_more_cautious_model() -> None:
    """Short summaries use SHORT_WEIGHTS (fitted with the larger L2: README.md, "Summarizer quality"), the others
    WEIGHTS. Here the fourth sentence is longer than the third (10 content terms to 5) and the two models disagree:
    WEIGHTS' log-odds put it more than the margin ahead, SHORT_WEIGHTS' do not, and the short summary keeps
    Lead-3."""
    assert length_weights("short") == SHORT_WEIGHTS
    assert length_weights("medium") == length_weights("long") == WEIGHTS
    # shrunk toward the lead-only model: every weight but the bias is smaller
    assert all(abs(a) < abs(b) for a, b in zip(SHORT_WEIGHTS.vector()[1:], WEIGHTS.vector()[1:], strict=True))
    text = (
        "Regional ministers approved emergency grain subsidies, fuel vouchers, bakery loans and port repairs. "
        "Farmers, millers, truckers and exporters welcomed Thursday's package cautiously. "
        "Opposition critics objected loudly during parliament. "
        "Auditors estimated eleven million dinars would cover wheat, barley, diesel costs. "
        "Nobody resigned. Markets stayed calm."
    )
    sentences = split_sentences(text)
    assert summarize(text, "short").sentences == tuple(sentences[:3])
    assert summarize(text, "short", weights=WEIGHTS).sentences == (sentences[0], sentences[1], sentences[3])


def test_only_the_first_sentences_are_ranked() -> None:
    filler = [f"Item {i} of the list was recorded by clerk number {i}." for i in range(MAX_RANKED_SENTENCES + 50)]
    late = "Olive harvest olive oil olive presses olive farmers olive prices olive trees."
    text = " ".join(filler + [late] * 5)
    chosen = summarize(text, "long").sentences
    positions = [split_sentences(text).index(s) for s in chosen]
    assert len(chosen) == LENGTH_SENTENCES["long"]
    assert max(positions) < MAX_RANKED_SENTENCES


# --- ROUGE --------------------------------------------------------------------------------------------------------

_EN_VOCAB = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "bank", "rate", "rose", "3.5", "percent", "in", "May"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_EN_VOCAB), max_size=30),
    st.lists(st.sampled_from(_EN_VOCAB), max_size=30),
    st.sampled_from([" ", ", ", " - ", ". "]),
)
def test_rouge_matches_rouge_score_on_english(candidate: list[str], reference: list[str], sep: str) -> None:
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    c, r = sep.join(candidate), sep.join(reference)
    theirs = scorer.score(r, c)  # rouge-score takes (target, prediction)
    ours = metrics.rouge(c, r)
    for metric in metrics.METRICS:
        assert ours[metric].precision == pytest.approx(theirs[metric].precision, abs=1e-12)
        assert ours[metric].recall == pytest.approx(theirs[metric].recall, abs=1e-12)
        assert ours[metric].fmeasure == pytest.approx(theirs[metric].fmeasure, abs=1e-12)


def test_rouge_matches_rouge_score_on_the_gold_english_references() -> None:
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    rows = [row for row in evaluate.load_gold(GOLD) if row["lang"] == "en"]
    for row in rows:
        candidate = " ".join(summarize(row["text"]).sentences)
        theirs = scorer.score(row["reference"], candidate)
        ours = metrics.rouge(candidate, row["reference"])
        for metric in metrics.METRICS:
            assert ours[metric].fmeasure == pytest.approx(theirs[metric].fmeasure, abs=1e-12), (row["id"], metric)


def test_rouge_on_arabic_by_hand() -> None:
    # tokens after normalisation: [ذهب, الولد, الي, المدرسة] and [ذهب, الولد, الي, المدرسة, صباحا]
    scores = metrics.rouge("ذهب الولد إلى المدرسة", "ذَهَبَ الولدُ الى المدرسة صباحاً.")
    assert scores["rouge1"].precision == 1.0 and scores["rouge1"].recall == 4 / 5
    assert scores["rouge1"].fmeasure == pytest.approx(2 * 1.0 * 0.8 / 1.8)
    assert scores["rouge2"].precision == 1.0 and scores["rouge2"].recall == 3 / 4
    assert scores["rougeL"].recall == 4 / 5
    # word order: same words, reversed -> ROUGE-1 perfect, no shared bigram, LCS of one word
    scores = metrics.rouge("الوزير وصل غزة", "غزة وصل الوزير")
    assert scores["rouge1"].fmeasure == 1.0
    assert scores["rouge2"].fmeasure == 0.0
    assert scores["rougeL"].fmeasure == pytest.approx(1 / 3)
    # clipped counts: a repeated word counts as often as the reference has it
    scores = metrics.rouge("غزة غزة غزة", "غزة مدينة")
    assert scores["rouge1"].precision == pytest.approx(1 / 3) and scores["rouge1"].recall == 0.5
    # rouge-score's own tokenizer drops Arabic letters: the reason for metrics.tokenize
    assert rouge_scorer.RougeScorer(["rouge1"]).score("غزة", "غزة")["rouge1"].fmeasure == 0.0
    assert metrics.rouge("", "غزة")["rouge1"] == metrics.Score(0.0, 0.0, 0.0)


def test_lcs_length() -> None:
    assert metrics.lcs_length("abcbdab", "bdcaba") == 4
    assert metrics.lcs_length([], ["a"]) == 0


# --- the gold set and the report ----------------------------------------------------------------------------------


def test_gold_set_shape() -> None:
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines()]
    assert len({row["id"] for row in rows}) == len(rows) >= 30
    for lang in ("ar", "en"):
        docs = [row for row in rows if row["lang"] == lang]
        assert len(docs) >= 15
        for row in docs:
            assert set(row) == {"id", "lang", "title", "text", "reference"}
            assert 6 <= len(split_sentences(row["text"])) <= 20, row["id"]
            assert detect_language(row["text"]) == lang
            assert 2 <= len(split_sentences(row["reference"])) <= 4, row["id"]
            # the reference is an abstract: none of its sentences is copied from the text
            assert not set(split_sentences(row["reference"])) & set(split_sentences(row["text"])), row["id"]


def test_report_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_main(["summaries", "--gold", str(GOLD), "--length", "medium", "--verbose"]) == 0
    out = capsys.readouterr().out
    rows = evaluate.load_gold(GOLD)
    assert "Lead-5" in out and "lead-5" in out
    assert f"all ({len(rows)} documents)" in out
    for lang in ("ar", "en"):
        assert f"{lang} ({sum(row['lang'] == lang for row in rows)} documents)" in out
    for row in rows:
        assert f"{row['id']} [{row['lang']}]" in out
    assert report_main(["summaries", "--gold", str(GOLD.with_name("missing.jsonl"))]) == 2
