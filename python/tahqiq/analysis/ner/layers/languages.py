"""Language names, which count as LANGUAGE only in context."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import COPULA, LANGUAGE_AFTER, LANGUAGE_BESIDE, LANGUAGE_HEAD, SPEAK, TO
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading


def languages(lex: Lexicon, doc: Reading) -> None:
    """Language names in context: after اللغة, with ب (بالعربية), before لغة, in a translation pair, after a verb of
    speaking."""
    keys, n, spans, claimed, add = doc.keys, doc.n, doc.spans, doc.claimed, doc.add
    for i in range(n):
        if claimed[i]:
            continue
        k = keys[i]
        if i > 0 and keys[i - 1] in LANGUAGE_HEAD and k in lex.languages:
            add("LANGUAGE", i, i + 1, 0)
        elif k.startswith("بال") and k[1:] in lex.languages:
            add("LANGUAGE", i, i + 1, 0)
        elif (
            k in lex.languages
            and (
                (i + 1 < n and keys[i + 1] in LANGUAGE_AFTER)
                or (i + 2 < n and keys[i + 1] in COPULA and keys[i + 2] in LANGUAGE_AFTER)  # الفارسية هي اللغة
                or (
                    i + 2 < n
                    and keys[i + 1][:1] == "و"
                    and keys[i + 1][1:] in lex.languages
                    and keys[i + 2] in LANGUAGE_AFTER
                )
            )
        ):
            add("LANGUAGE", i, i + 1, 0)  # العربية لغة رسمية
        elif (
            k in lex.languages
            and i > 0
            and keys[i - 1] == "من"
            and i + 2 < n
            and keys[i + 1].lstrip("\u200b") == TO
            and keys[i + 2] in lex.languages
        ):
            add("LANGUAGE", i, i + 1, 0)  # ترجم من الإنجليزية إلى العربية
            add("LANGUAGE", i + 2, i + 3, 0)
        elif (
            i > 0
            and spans
            and spans[-1].type == "LANGUAGE"
            and spans[-1].j == i
            and k.startswith("و")
            and k[1:] in lex.languages
        ):
            add("LANGUAGE", i, i + 1, 0)  # العربية والإنجليزية
        elif (
            k in lex.languages
            and any(tuple(x.lstrip("\u200b") for x in keys[max(0, i - len(b)) : i]) == b for b in LANGUAGE_BESIDE)
            and any(o.type == "LANGUAGE" and i - 10 < o.j < i for o in spans)
        ):
            add("LANGUAGE", i, i + 1, 0)  # الأمازيغية لغة رسمية إلى جانب العربية
        elif k in lex.languages and any(lex.heads(w) & SPEAK for w in keys[max(0, i - 5) : i]):
            add("LANGUAGE", i, i + 1, 0)  # يتحدث أغلب سكان البرازيل البرتغالية
        elif (
            k in lex.languages
            and i > 1
            and keys[i - 1] in COPULA
            and any(keys[x] in LANGUAGE_HEAD for x in range(max(0, i - 6), i - 1))
        ):
            add("LANGUAGE", i, i + 1, 0)  # اللغة الرسمية في البرازيل هي البرتغالية
