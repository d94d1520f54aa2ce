//! The scanner: splits text into word, number, punctuation and symbol tokens.
//!
//! Offsets are code-point offsets (Python string indices), so `text[t.start:t.end] == t.text`.
//!
//! # Grammar
//!
//! Every character has one class (see [`crate::unicode_class`]): L letters (Lu Ll Lt Lm Lo, so
//! tatweel too), M marks (Mn Mc Me), N numbers (Nd Nl No), P punctuation (P*), S symbols (Sm Sc Sk
//! So, Co, Cn), and separators (Z*, Cc, Cf). Scanning left to right, separators are skipped and the
//! class of the next char picks the rule below, which then takes as much as it can (greedy, no
//! backtracking; this is exactly the `re` pattern of tests/reference_text.py):
//!
//! ```text
//! word   = L ( L | N | M | (ZWNJ|ZWJ) followed by L or N )*
//! number = N ( N | M | SEP followed by N )*           SEP = . , ٫ ٬
//! punct  = P M*
//! symbol = UNIT ( ZWJ UNIT )*  |  M+                 (ZWJ only when an S char follows)
//! UNIT   = ( RI RI | S ) ( M | MODIFIER | TAG )*
//! ```
//!
//! - ZWNJ U+200C / ZWJ U+200D belong to a word only when directly followed by an L or N char;
//!   otherwise they separate, like every other Cf char. So `COVID19`, `H2O`, `m²` are one word.
//! - A separator joins a number only between two N chars (`3.5`, `٣٫٥`, `1,000,000`); `1.` is
//!   number + punct; `3rd` is number `3` + word `rd` (a number never continues into letters).
//! - Each P char is a token of its own with its marks: `...` is three tokens; `%` and `٪` are Po.
//! - S chars are single tokens extended like emoji: marks (VS16 U+FE0F, keycap U+20E3),
//!   modifiers U+1F3FB–U+1F3FF, tag chars U+E0020–U+E007F, and ZWJ + another S unit; two
//!   regional indicators U+1F1E6–U+1F1FF make one flag (a third starts a new token).
//! - Marks attach to whatever char precedes them inside a token; a run of marks with no base
//!   (at the start, or after a separator) is a `symbol` token.
//! - Separators are never part of a token except ZWNJ/ZWJ as described.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::unicode_class::{with_chars, Class, Classifier};

const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';

/// The four token kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Word,
    Number,
    Punct,
    Symbol,
}

impl TokenKind {
    /// The Python name of the kind: `"word"`, `"number"`, `"punct"` or `"symbol"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::Word => "word",
            TokenKind::Number => "number",
            TokenKind::Punct => "punct",
            TokenKind::Symbol => "symbol",
        }
    }

    /// Parses a Python kind name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "word" => Some(TokenKind::Word),
            "number" => Some(TokenKind::Number),
            "punct" => Some(TokenKind::Punct),
            "symbol" => Some(TokenKind::Symbol),
            _ => None,
        }
    }

    fn py_str<'py>(self, py: Python<'py>) -> Bound<'py, PyString> {
        match self {
            TokenKind::Word => pyo3::intern!(py, "word").clone(),
            TokenKind::Number => pyo3::intern!(py, "number").clone(),
            TokenKind::Punct => pyo3::intern!(py, "punct").clone(),
            TokenKind::Symbol => pyo3::intern!(py, "symbol").clone(),
        }
    }
}

/// A token as code-point offsets `start..end` into the scanned text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: TokenKind,
}

#[inline(always)]
fn is_regional_indicator(c: char) -> bool {
    matches!(c as u32, 0x1F1E6..=0x1F1FF)
}

#[inline(always)]
fn is_emoji_modifier(c: char) -> bool {
    matches!(c as u32, 0x1F3FB..=0x1F3FF)
}

#[inline(always)]
fn is_tag(c: char) -> bool {
    matches!(c as u32, 0xE0020..=0xE007F)
}

#[inline(always)]
fn is_number_separator(c: char) -> bool {
    matches!(c, '.' | ',' | '\u{066B}' | '\u{066C}')
}

struct Scanner<'a> {
    chars: &'a [char],
    cls: Classifier,
}

impl Scanner<'_> {
    #[inline(always)]
    fn class_at(&self, i: usize) -> Option<Class> {
        self.chars.get(i).map(|&c| self.cls.class(c))
    }

    #[inline(always)]
    fn skip_marks(&self, mut i: usize) -> usize {
        while self.class_at(i) == Some(Class::Mark) {
            i += 1;
        }
        i
    }

    /// One emoji-like unit starting at the S char at `i`; returns its end.
    #[inline]
    fn symbol_unit(&self, mut i: usize) -> usize {
        let c = self.chars[i];
        i += 1;
        if is_regional_indicator(c)
            && self
                .chars
                .get(i)
                .copied()
                .is_some_and(is_regional_indicator)
        {
            i += 1;
        }
        while let Some(&d) = self.chars.get(i) {
            if self.cls.class(d) == Class::Mark || is_emoji_modifier(d) || is_tag(d) {
                i += 1;
            } else {
                break;
            }
        }
        i
    }

    fn run(&self, out: &mut Vec<Span>) {
        let chars = self.chars;
        let n = chars.len();
        let mut i = 0;
        while i < n {
            let start = i;
            let kind = match self.cls.class(chars[i]) {
                Class::Separator => {
                    i += 1;
                    continue;
                }
                Class::Letter => {
                    i += 1;
                    while i < n {
                        let d = chars[i];
                        match self.cls.class(d) {
                            Class::Letter | Class::Number | Class::Mark => i += 1,
                            Class::Separator
                                if (d == ZWNJ || d == ZWJ)
                                    && matches!(
                                        self.class_at(i + 1),
                                        Some(Class::Letter | Class::Number)
                                    ) =>
                            {
                                i += 2
                            }
                            _ => break,
                        }
                    }
                    TokenKind::Word
                }
                Class::Number => {
                    i += 1;
                    while i < n {
                        let d = chars[i];
                        match self.cls.class(d) {
                            Class::Number | Class::Mark => i += 1,
                            Class::Punct
                                if is_number_separator(d)
                                    && self.class_at(i + 1) == Some(Class::Number) =>
                            {
                                i += 2
                            }
                            _ => break,
                        }
                    }
                    TokenKind::Number
                }
                Class::Punct => {
                    i = self.skip_marks(i + 1);
                    TokenKind::Punct
                }
                Class::Symbol => {
                    i = self.symbol_unit(i);
                    while i + 1 < n
                        && chars[i] == ZWJ
                        && self.class_at(i + 1) == Some(Class::Symbol)
                    {
                        i = self.symbol_unit(i + 1);
                    }
                    TokenKind::Symbol
                }
                Class::Mark => {
                    i = self.skip_marks(i + 1);
                    TokenKind::Symbol
                }
            };
            out.push(Span {
                start,
                end: i,
                kind,
            });
        }
    }
}

/// Scans a slice of chars; the spans' offsets are indices into `chars`.
pub fn scan_chars(chars: &[char]) -> Vec<Span> {
    let mut out = Vec::with_capacity(chars.len() / 5 + 4);
    Scanner {
        chars,
        cls: Classifier::new(),
    }
    .run(&mut out);
    out
}

/// A token of [`scan_str`]: its text, its code-point span and its byte range in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrToken<'a> {
    pub text: &'a str,
    pub span: Span,
    pub byte_start: usize,
    pub byte_end: usize,
}

/// Scans `text` (see the module docs for the grammar).
pub fn scan_str(text: &str) -> Vec<StrToken<'_>> {
    let chars: Vec<char> = text.chars().collect();
    let spans = scan_chars(&chars);
    let mut out = Vec::with_capacity(spans.len());
    // Byte offset of code point k is the k-th item of `offsets`; spans ascend, so walk it once.
    let mut offsets = text
        .char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(text.len()));
    let mut cur_cp = 0usize;
    let mut cur_byte = offsets.next().unwrap_or(0);
    let mut byte_of = |k: usize| {
        while cur_cp < k {
            cur_byte = offsets.next().unwrap_or(text.len());
            cur_cp += 1;
        }
        cur_byte
    };
    for span in spans {
        let b0 = byte_of(span.start);
        let b1 = byte_of(span.end);
        out.push(StrToken {
            text: &text[b0..b1],
            span,
            byte_start: b0,
            byte_end: b1,
        });
    }
    out
}

/// One token of :func:`scan`: ``text == source[start:end]`` and ``kind`` is one of ``"word"``,
/// ``"number"``, ``"punct"`` or ``"symbol"``. Immutable, hashable, compared by value.
#[pyclass(frozen, module = "tahqiq._native")]
pub struct Token {
    text: Py<PyString>,
    start: usize,
    end: usize,
    kind: TokenKind,
}

#[pymethods]
impl Token {
    #[new]
    fn new(text: Bound<'_, PyString>, start: usize, end: usize, kind: &str) -> PyResult<Self> {
        let kind = TokenKind::parse(kind).ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "kind must be 'word', 'number', 'punct' or 'symbol', not {kind:?}"
            ))
        })?;
        if start > end {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "start ({start}) must not exceed end ({end})"
            )));
        }
        Ok(Token {
            text: text.unbind(),
            start,
            end,
            kind,
        })
    }

    /// The token's text, ``source[start:end]``.
    #[getter]
    fn text(&self, py: Python<'_>) -> Py<PyString> {
        self.text.clone_ref(py)
    }

    /// Code-point offset of the first character in the scanned string.
    #[getter]
    fn start(&self) -> usize {
        self.start
    }

    /// Code-point offset just past the last character in the scanned string.
    #[getter]
    fn end(&self) -> usize {
        self.end
    }

    /// ``"word"``, ``"number"``, ``"punct"`` or ``"symbol"``.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.kind.py_str(py)
    }

    fn __eq__(&self, other: PyRef<'_, Self>) -> PyResult<bool> {
        let py = other.py();
        Ok(self.start == other.start
            && self.end == other.end
            && self.kind == other.kind
            && self.text.bind(py).as_any().eq(other.text.bind(py))?)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.as_tuple(py)?.hash()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Token(text={}, start={}, end={}, kind='{}')",
            self.text.bind(py).repr()?,
            self.start,
            self.end,
            self.kind.as_str()
        ))
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        Ok((slf.get_type().into_any(), slf.get().as_tuple(py)?))
    }
}

impl Token {
    fn as_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.text.clone_ref(py),
            self.start,
            self.end,
            self.kind.py_str(py),
        )
            .into_pyobject(py)
    }
}

/// Split ``text`` into tokens: words, numbers, punctuation and symbols (emoji included).
///
/// Returns a list of :class:`Token` in text order, never overlapping; offsets are code-point
/// offsets, so ``text[t.start:t.end] == t.text``. Whitespace, control and format characters
/// separate tokens and are never part of one (except ZWNJ/ZWJ inside words and emoji).
///
/// Grammar (each character's class comes from its Unicode general category):
///
/// - ``word``: a letter, then letters, digits, marks, and ZWNJ/ZWJ directly followed by a letter
///   or digit: ``كتابٌ``, ``COVID19``, ``H2O``, ``m²``; ``don't`` is word, punct, word.
/// - ``number``: a digit, then digits and marks; ``. , ٫ ٬`` only between two digits:
///   ``3.5``, ``٣٫٥``, ``1,000,000``. ``1.`` is number + punct; ``3rd`` is number + word.
/// - ``punct``: one punctuation character (P*) with its marks: ``...`` is three tokens; ``٪``,
///   ``%``, ``،`` and ``؟`` are punct.
/// - ``symbol``: one symbol (S*, private use, unassigned) with its marks, emoji modifiers, tags,
///   and ZWJ-joined symbols; two regional indicators make one flag: ``👨‍👩‍👧``, ``👍🏽``, ``🇵🇸``.
///   A run of marks with no base character is also a ``symbol``.
///
/// Raises ``UnicodeEncodeError`` if ``text`` contains a lone surrogate.
#[pyfunction]
fn scan<'py>(text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyList>> {
    let py = text.py();
    let spans = with_chars(text, scan_chars)?;
    let mut tokens = Vec::with_capacity(spans.len());
    for span in spans {
        // SAFETY: `text` is a live str and `start <= end <= len(text)` by construction.
        let sub = unsafe {
            Bound::from_owned_ptr_or_err(
                py,
                ffi::PyUnicode_Substring(
                    text.as_ptr(),
                    span.start as ffi::Py_ssize_t,
                    span.end as ffi::Py_ssize_t,
                ),
            )?
        };
        let token = Token {
            text: sub.cast_into::<PyString>()?.unbind(),
            start: span.start,
            end: span.end,
            kind: span.kind,
        };
        tokens.push(Bound::new(py, token)?);
    }
    PyList::new(py, tokens)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Token>()?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn toks(s: &str) -> Vec<(&str, &'static str)> {
        scan_str(s)
            .into_iter()
            .map(|t| (t.text, t.span.kind.as_str()))
            .collect()
    }

    fn texts(s: &str) -> Vec<&str> {
        scan_str(s).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn arabic_sentence() {
        let s = "قالَ الرئيسُ: نسبة ٣٫٥٪ من 1,000 شخص 👍🏽";
        assert_eq!(
            toks(s),
            vec![
                ("قالَ", "word"),
                ("الرئيسُ", "word"),
                (":", "punct"),
                ("نسبة", "word"),
                ("٣٫٥", "number"),
                ("٪", "punct"),
                ("من", "word"),
                ("1,000", "number"),
                ("شخص", "word"),
                ("👍🏽", "symbol"),
            ]
        );
        let spans: Vec<(usize, usize)> = scan_str(s)
            .iter()
            .map(|t| (t.span.start, t.span.end))
            .collect();
        assert_eq!(spans[0], (0, 4));
        assert_eq!(spans[1], (5, 12));
        assert_eq!(spans[2], (12, 13));
    }

    #[test]
    fn quranic_text_with_marks_stays_whole() {
        let s = "بِسْمِ ٱللَّهِ ٱلرَّحْمَـٰنِ ٱلرَّحِيمِ ۝١";
        assert_eq!(
            toks(s),
            vec![
                ("بِسْمِ", "word"),
                ("ٱللَّهِ", "word"),
                ("ٱلرَّحْمَـٰنِ", "word"),
                ("ٱلرَّحِيمِ", "word"),
                // U+06DD (end of ayah) is Cf: a separator
                ("١", "number"),
            ]
        );
        assert_eq!(toks("رَيْبَۛ فِيهِۛ"), vec![("رَيْبَۛ", "word"), ("فِيهِۛ", "word")]);
    }

    #[test]
    fn words_take_letters_digits_marks() {
        assert_eq!(
            toks("COVID19 H2O m²"),
            vec![("COVID19", "word"), ("H2O", "word"), ("m²", "word")]
        );
        assert_eq!(
            toks("don't"),
            vec![("don", "word"), ("'", "punct"), ("t", "word")]
        );
        assert_eq!(toks("العـــربية"), vec![("العـــربية", "word")]); // tatweel is Lm
        assert_eq!(toks("ـ"), vec![("ـ", "word")]);
    }

    #[test]
    fn zwnj_zwj_inside_words_only_before_letter_or_digit() {
        // Persian "می‌خواهم" keeps its ZWNJ
        assert_eq!(toks("می\u{200C}خواهم"), vec![("می\u{200C}خواهم", "word")]);
        assert_eq!(toks("ab\u{200D}1"), vec![("ab\u{200D}1", "word")]);
        // trailing, doubled, or before a mark: separator
        assert_eq!(toks("ab\u{200C}"), vec![("ab", "word")]);
        assert_eq!(
            toks("ab\u{200C}\u{200C}cd"),
            vec![("ab", "word"), ("cd", "word")]
        );
        assert_eq!(toks("ab\u{200C} cd"), vec![("ab", "word"), ("cd", "word")]);
        assert_eq!(
            toks("ab\u{200D}\u{064E}"),
            vec![("ab", "word"), ("\u{064E}", "symbol")]
        );
        assert_eq!(toks("ab\u{200D}."), vec![("ab", "word"), (".", "punct")]);
        // a number does not take ZWNJ
        assert_eq!(toks("1\u{200C}2"), vec![("1", "number"), ("2", "number")]);
    }

    #[test]
    fn numbers() {
        assert_eq!(
            toks("3.5 ٣٫٥ 1,000,000"),
            vec![
                ("3.5", "number"),
                ("٣٫٥", "number"),
                ("1,000,000", "number")
            ]
        );
        assert_eq!(
            toks("١٬٠٠٠ ۱۲۳"),
            vec![("١٬٠٠٠", "number"), ("۱۲۳", "number")]
        );
        assert_eq!(toks("1."), vec![("1", "number"), (".", "punct")]);
        assert_eq!(toks(".5"), vec![(".", "punct"), ("5", "number")]);
        assert_eq!(
            toks("1..2"),
            vec![
                ("1", "number"),
                (".", "punct"),
                (".", "punct"),
                ("2", "number")
            ]
        );
        assert_eq!(
            toks("1.,2"),
            vec![
                ("1", "number"),
                (".", "punct"),
                (",", "punct"),
                ("2", "number")
            ]
        );
        assert_eq!(toks("3rd"), vec![("3", "number"), ("rd", "word")]);
        assert_eq!(toks("١٢ص"), vec![("١٢", "number"), ("ص", "word")]);
        assert_eq!(toks("½ ²"), vec![("½", "number"), ("²", "number")]);
        assert_eq!(
            toks("3-4"),
            vec![("3", "number"), ("-", "punct"), ("4", "number")]
        );
        // marks after a digit stay with it, and the separator still joins
        assert_eq!(toks("1\u{0651}.5"), vec![("1\u{0651}.5", "number")]);
        // a mark after the separator breaks it: separator + mark is punct
        assert_eq!(
            toks("1.\u{0651}5"),
            vec![("1", "number"), (".\u{0651}", "punct"), ("5", "number")]
        );
        assert_eq!(toks("1.5.7"), vec![("1.5.7", "number")]);
    }

    #[test]
    fn punctuation_one_per_char() {
        assert_eq!(
            toks("..."),
            vec![(".", "punct"), (".", "punct"), (".", "punct")]
        );
        assert_eq!(
            toks("،؛؟٪%۔«»"),
            vec![
                ("،", "punct"),
                ("؛", "punct"),
                ("؟", "punct"),
                ("٪", "punct"),
                ("%", "punct"),
                ("۔", "punct"),
                ("«", "punct"),
                ("»", "punct"),
            ]
        );
        assert_eq!(toks("!\u{0651}"), vec![("!\u{0651}", "punct")]);
    }

    #[test]
    fn symbols_and_emoji() {
        assert_eq!(
            toks("$+="),
            vec![("$", "symbol"), ("+", "symbol"), ("=", "symbol")]
        );
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(toks(family), vec![(family, "symbol")]);
        assert_eq!(toks("👍🏽👍"), vec![("👍🏽", "symbol"), ("👍", "symbol")]);
        assert_eq!(toks("🇵🇸"), vec![("🇵🇸", "symbol")]);
        assert_eq!(toks("🇵🇸🇪"), vec![("🇵🇸", "symbol"), ("🇪", "symbol")]);
        assert_eq!(toks("🇵🇸🇪🇬"), vec![("🇵🇸", "symbol"), ("🇪🇬", "symbol")]);
        assert_eq!(toks("❤\u{FE0F}"), vec![("❤\u{FE0F}", "symbol")]);
        // keycap: the digit is a number, then VS16 and U+20E3 are its marks
        assert_eq!(
            toks("1\u{FE0F}\u{20E3}"),
            vec![("1\u{FE0F}\u{20E3}", "number")]
        );
        assert_eq!(
            toks("#\u{FE0F}\u{20E3}"),
            vec![("#\u{FE0F}\u{20E3}", "punct")]
        );
        // subdivision flag: black flag + tags
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
        assert_eq!(toks(scotland), vec![(scotland, "symbol")]);
        // rainbow flag: white flag, VS16, ZWJ, rainbow
        let rainbow = "🏳\u{FE0F}\u{200D}🌈";
        assert_eq!(toks(rainbow), vec![(rainbow, "symbol")]);
        // a ZWJ sequence member with its own modifier
        let s = "👩🏽\u{200D}💻";
        assert_eq!(toks(s), vec![(s, "symbol")]);
        // ZWJ not followed by a symbol separates
        assert_eq!(toks("👍\u{200D}a"), vec![("👍", "symbol"), ("a", "word")]);
        assert_eq!(toks("👍\u{200D}"), vec![("👍", "symbol")]);
        // a modifier with no base is a symbol of its own; tags alone separate
        assert_eq!(toks(" \u{1F3FD}"), vec![("\u{1F3FD}", "symbol")]);
        assert_eq!(toks("\u{E0067}"), vec![]);
        // private use and unassigned are symbols
        assert_eq!(
            toks("\u{E000}\u{0378}"),
            vec![("\u{E000}", "symbol"), ("\u{0378}", "symbol")]
        );
        // emoji glued to a word are separate tokens
        assert_eq!(toks("شكرا🙏"), vec![("شكرا", "word"), ("🙏", "symbol")]);
    }

    #[test]
    fn orphan_marks() {
        assert_eq!(
            toks("\u{064E}\u{0651}ب"),
            vec![("\u{064E}\u{0651}", "symbol"), ("ب", "word")]
        );
        assert_eq!(
            toks("ب \u{064E}"),
            vec![("ب", "word"), ("\u{064E}", "symbol")]
        );
        assert_eq!(toks("\u{FE0F}"), vec![("\u{FE0F}", "symbol")]);
    }

    #[test]
    fn separators() {
        assert_eq!(
            texts(" \t\nكتب\r\n\u{00A0}قرأ\u{2029}x\u{FEFF}y\u{061C}z"),
            vec!["كتب", "قرأ", "x", "y", "z"]
        );
        assert!(scan_str("").is_empty());
        assert!(scan_str(" \n\t\u{200C}\u{200D}").is_empty());
    }

    #[test]
    fn byte_offsets() {
        let s = "a ب 👍🏽!";
        for t in scan_str(s) {
            assert_eq!(&s[t.byte_start..t.byte_end], t.text);
        }
    }

    #[test]
    fn python_glue() {
        // Exercises the unsafe UCS4 / substring / UTF-32 paths through a real interpreter.
        Python::initialize();
        Python::attach(|py| -> PyResult<()> {
            let m = PyModule::new(py, "_native")?;
            register(&m)?;
            crate::normalize::register(&m)?;
            // long enough to use the heap buffer, with astral chars so the str is UCS4
            let text = "قالَ الرئيسُ: ٣٫٥٪ 👍🏽\u{FEFF}أ ".repeat(20);
            let tokens = m
                .getattr("scan")?
                .call1((text.as_str(),))?
                .cast_into::<PyList>()?;
            assert_eq!(tokens.len(), 7 * 20);
            let expected = scan_str(&text);
            for (tok, exp) in tokens.iter().zip(&expected) {
                let tok = tok.cast_into::<Token>()?;
                let tok = tok.get();
                assert_eq!(tok.text.bind(py).to_str()?, exp.text);
                assert_eq!(
                    (tok.start, tok.end, tok.kind),
                    (exp.span.start, exp.span.end, exp.span.kind)
                );
            }
            let normalize = m.getattr("normalize")?;
            let out = normalize.call1((text.as_str(),))?;
            let want = crate::normalize::normalize_str(&text, &Default::default()).into_owned();
            assert_eq!(out.cast::<PyString>()?.to_str()?, want);
            assert!(
                want.contains('\u{FEFF}'),
                "U+FEFF must survive the UTF-32 decode"
            );
            let same = PyString::new(py, "كتب الدرس");
            assert!(normalize.call1((&same,))?.is(&same));
            let bad = py.eval(c"'a\\ud800'", None, None)?;
            let err = m.getattr("scan")?.call1((&bad,)).unwrap_err();
            assert!(err.is_instance_of::<pyo3::exceptions::PyUnicodeEncodeError>(py));
            let err = normalize.call1((&bad,)).unwrap_err();
            assert!(err.is_instance_of::<pyo3::exceptions::PyUnicodeEncodeError>(py));
            Ok(())
        })
        .unwrap();
    }

    fn mixed_text() -> impl Strategy<Value = String> {
        let alphabet: Vec<char> = "ابتكلمنهويءأإآىةٱ ــ\u{064B}\u{064E}\u{0651}\u{0652}\u{0670}\u{06D6}abcXYZ0123٠١٢٣٤۱۲.,٫٬،؛؟٪!?%:'\"()$+ \n\t\u{200C}\u{200D}\u{FE0F}\u{20E3}👍👨👩\u{1F3FB}\u{1F3FD}🇵🇸🇪\u{E0067}\u{E007F}²½"
            .chars()
            .collect();
        proptest::collection::vec(proptest::sample::select(alphabet), 0..60)
            .prop_map(|v| v.into_iter().collect())
    }

    fn check_invariants(s: &str) -> Result<(), TestCaseError> {
        let chars: Vec<char> = s.chars().collect();
        let tokens = scan_str(s);
        let mut covered = vec![false; chars.len()];
        let mut prev_end = 0;
        for t in &tokens {
            let sp = t.span;
            prop_assert!(sp.start < sp.end, "empty token");
            prop_assert!(sp.start >= prev_end, "overlap or disorder");
            prev_end = sp.end;
            let expected: String = chars[sp.start..sp.end].iter().collect();
            prop_assert_eq!(t.text, expected.as_str());
            prop_assert_eq!(&s[t.byte_start..t.byte_end], t.text);
            prop_assert!(
                !t.text.chars().any(char::is_whitespace),
                "whitespace in {:?}",
                t.text
            );
            if sp.kind == TokenKind::Word {
                let first = chars[sp.start];
                prop_assert_eq!(crate::unicode_class::class(first), Class::Letter);
            }
            for c in covered.iter_mut().take(sp.end).skip(sp.start) {
                *c = true;
            }
        }
        for (i, &c) in chars.iter().enumerate() {
            if crate::unicode_class::class(c) != Class::Separator {
                prop_assert!(covered[i], "char {:?} at {} not covered", c, i);
            }
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn invariants_on_mixed_text(s in mixed_text()) {
            check_invariants(&s)?;
        }

        #[test]
        fn invariants_on_any_text(s in any::<String>()) {
            check_invariants(&s)?;
        }

        #[test]
        fn rescanning_a_token_gives_itself_for_words(s in mixed_text()) {
            // A word's text scanned alone is the same single word.
            for t in scan_str(&s).into_iter().filter(|t| t.span.kind == TokenKind::Word) {
                let again = scan_str(t.text);
                prop_assert_eq!(again.len(), 1);
                prop_assert_eq!(again[0].text, t.text);
            }
        }
    }
}
