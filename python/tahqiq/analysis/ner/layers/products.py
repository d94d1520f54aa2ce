"""Products: quoted names after a product noun, a maker and its model, a product cue and its model."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    BARE_MODEL_NOUNS,
    COMPANY_HEADS,
    CONTENT_STOP,
    LATIN_SUFFIX,
    MODEL_CODE,
    MODEL_NOUNS,
    MODEL_SUFFIX,
    MODEL_WORDS,
    PRODUCT_CUES,
    PRODUCT_HEADS,
    PRODUCT_NOUN_FORMS,
    QUOTE_CLOSE,
    QUOTE_OPEN,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading, Span
from tahqiq.analysis.ner.words import bare_name, plain_word
from tahqiq.core import Token


def product_cue(lex: Lexicon, keys: list[str], q: int) -> tuple[int, bool, bool]:
    """A product cue at token q: (end of the cue, whether it belongs to the product's name, whether it is a
    strong cue); end 0 when none. من طراز is strong; نظام التشغيل and لقاح belong to the name (docs/design/ner.md)."""
    heads = lex.heads(keys[q])
    if keys[q] in MODEL_WORDS:
        return q + 1, False, True
    if "نظام" in heads and q + 1 < len(keys) and keys[q + 1] == "التشغيل":
        return q + 2, True, False
    if heads & MODEL_NOUNS:
        return q + 1, bool(heads & {"لقاح"}), False
    return 0, False, False


def model_word(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """A word of a model's name no list knows (أيونيك, أكنجي, زد فولد): not definite, no function word, head,
    place, nisba or verb; two letters count (زد)."""
    k = keys[j]
    return (
        toks[j].kind == "word"
        and len(k) >= 2
        and not k.startswith(("ال", "و"))
        and ((len(k) == 2 and k not in lex.stop) or plain_word(lex, keys, toks, j))
        and not lex.verb_like(keys, j)
    )


def models(lex: Lexicon, doc: Reading) -> None:
    """Products by cue and model (docs/design/ner.md): after من طراز, a product noun (its possessive, up to two definite
    words of its own: سيارتها الكهربائية أيونيك 9, هاتفها القابل للطي غالاكسي زد فولد 6), a maker (ORG inside),
    a listed line, words no list knows, a model number (787-9) and model words (ألترا, برو)."""
    keys, toks, heads_of, spans, base_at = doc.keys, doc.toks, doc.heads_of, doc.spans, doc.base_at
    n = len(keys)
    products = [s for s in spans if s.type == "PRODUCT"]
    for q in range(n - 1):
        if not heads_of[q] & PRODUCT_CUES or toks[q].kind != "word":
            continue  # one set test for most words
        a, joins, strong = product_cue(lex, keys, q)
        if not a:
            continue
        skipped = 0
        while a < n and skipped < 2 and toks[a].kind == "word" and keys[a].startswith("ال"):
            if keys[a] in CONTENT_STOP or lex.trigger_at(keys, a) or any(o.i == a for o in products):
                break
            if keys[a] == "القابل" and a + 1 < n and keys[a + 1].startswith("لل"):
                a += 1  # القابل للطي
            a += 1
            skipped += 1
        b = a
        maker = [o for o in base_at.get(b, []) if o.type == "ORG"]
        if maker:
            b = max(o.j for o in maker)
        line = [o for o in products if o.i == b]
        if line:
            b = max(o.j for o in line)
        words = 0
        numbered_line = bool(line) and toks[b - 1].kind == "number"  # بوينغ 737 ماكس: only model words follow
        while b < n and words < 3 and not numbered_line and model_word(lex, keys, toks, b):
            if (
                keys[b][:1] in "بلفك"
                and len(keys[b]) > 2
                and keys[b] not in MODEL_SUFFIX
                and not (b == a and (strong or joins))
            ):
                break  # a phrase, not a name: سايبرترك بسبب خلل, هاتفها الجديد بسعر 300 دولار
            b += 1
            words += 1
        numbered = False
        while b < n:
            if toks[b].kind == "number" or MODEL_CODE.match(toks[b].text):
                if any(o.type in ("CURR", "UNIT") for o in base_at.get(b + 1, [])):
                    break  # 300 دولار is a price, not a model number
                b += 1
                numbered = True
            elif (
                b + 1 < n
                and toks[b].text == "-"
                and toks[b - 1].kind == "number"
                and toks[b + 1].kind == "number"
                and toks[b - 1].end == toks[b].start == toks[b + 1].start - 1
            ):
                b += 2  # بوينغ 787-9, بوينغ 737-800
            else:
                break
        if numbered or words or line:
            while b < n and keys[b] in MODEL_SUFFIX:
                b += 1
        named = bool(maker or line or words)
        # شاحنة سايبرترك, مسبار جوس, عقار ليكانيماب: a bare noun right before one word no list knows that
        # reads as no adjective (no ة, ي, ا ending) names the model
        bare = (
            words == 1
            and a == q + 1
            and not maker
            and keys[q] in BARE_MODEL_NOUNS
            and bare_name(lex, keys, toks, a)
            and not any(o.i <= a < o.j for o in spans)
        )
        if not named or not (strong or joins or numbered or bare or (maker and words) or (line and b > line[0].j)):
            continue
        # a line right after its noun keeps the noun (هاتف آيفون 16), as the maker-and-model rule does
        lined = bool(line) and a == q + 1 and keys[q] in PRODUCT_HEADS
        spans.append(Span("PRODUCT", q if joins or lined else a, b, 0))


def quoted_names(lex: Lexicon, doc: Reading) -> None:
    """A quoted name after a product noun: تطبيق «بال باي», رواية «ظلال المفاتيح»; after a company noun, an
    organisation: شركة «كريم», مجموعة «أو سي بي», شركتها التابعة «سلوشنز»."""
    toks, keys, n, add = doc.toks, doc.keys, doc.n, doc.add
    for q, t in enumerate(toks):
        if t.text not in QUOTE_OPEN or q == 0:
            continue
        before = {st for st, _p in lex.stems(keys[q - 1])}
        if q > 1 and keys[q - 1] in ("التابعه", "الناشئه"):
            before |= {st for st, _p in lex.stems(keys[q - 2])}
        typ = "PRODUCT" if before & PRODUCT_HEADS else "ORG" if before & COMPANY_HEADS else ""
        back = q - 1
        while not typ and back > 0 and q - back < 3 and toks[back].kind == "word" and keys[back].startswith("ال"):
            back -= 1  # a product noun, its possessive or its complement and nisba before the quote: روايتها
            # «سيدات القمر», الفيلم السوداني «وداعا جوليا», سفينة الأبحاث الألمانية «ميتيور»
            if lex.heads(keys[back]) & PRODUCT_NOUN_FORMS:
                typ = "PRODUCT"
        if not typ and lex.heads(keys[q - 1]) & PRODUCT_NOUN_FORMS:
            typ = "PRODUCT"
        if typ:
            e = q + 1
            while e < n and e - q <= 7 and toks[e].text not in QUOTE_CLOSE:
                e += 1
            if q + 1 < e < n and toks[e].text in QUOTE_CLOSE:
                add(typ, q + 1, e, 0)


def maker_and_model(lex: Lexicon, doc: Reading) -> None:
    """A product named by its maker or line and its model (إيرباص A350, بوينغ 787, هاتف آيفون 16)."""
    toks, keys, n, spans, add = doc.toks, doc.keys, doc.n, doc.spans, doc.add
    for sp in [s for s in spans if s.type in ("ORG", "PRODUCT") and s.j - s.i == 1]:
        e = sp.j
        while e < n and e - sp.j < 2 and (toks[e].kind == "number" or MODEL_CODE.match(toks[e].text)):
            e += 1
        if e > sp.j and (sp.type == "PRODUCT" or MODEL_CODE.match(toks[sp.j].text) or toks[sp.j].kind == "number"):
            # the product noun belongs to a line's name (هاتف آيفون 16), not to a maker's (طائرة إيرباص A350)
            lined = sp.type == "PRODUCT" and sp.i > 0 and keys[sp.i - 1] in PRODUCT_HEADS
            start = sp.i - 1 if lined else sp.i
            add("PRODUCT", start, e, 0)


def model_letters(lex: Lexicon, doc: Reading) -> None:
    """A letter written onto the model number stays in the product: بوينغ 777X, بوينغ 737MAX."""
    toks, n, spans = doc.toks, doc.n, doc.spans
    for sp in [s for s in spans if s.type == "PRODUCT"]:
        e = sp.j
        if e < n and toks[e - 1].kind == "number" and toks[e].start == toks[e - 1].end:
            if LATIN_SUFFIX.match(toks[e].text):
                sp.j = e + 1


def maker_and_unlisted_model(lex: Lexicon, doc: Reading) -> None:
    """After a product noun, a maker takes the model's name no list knows, as it takes a model code (سيارة تويوتا
    لاندكروزر → تويوتا لاندكروزر ⊃ ORG تويوتا, as طائرة إيرباص A350)."""
    toks, keys, n, spans, base_at, add = doc.toks, doc.keys, doc.n, doc.spans, doc.base_at, doc.add
    for sp in [s for s in spans if s.type == "ORG" and s.j - s.i == 1 and 0 < s.i and s.j < n]:
        if keys[sp.i - 1] not in PRODUCT_HEADS or keys[sp.i - 1].startswith("ال"):
            continue
        if any(o.i <= sp.i and sp.j < o.j for o in spans if o.type == "PRODUCT"):
            continue
        if bare_name(lex, keys, toks, sp.j) or any(
            o.type == "GPE" and o.j == sp.j + 1 for o in base_at.get(sp.j, [])
        ):  # a model named after a place: هيونداي توسان
            add("PRODUCT", sp.i, sp.j + 1, 0)
