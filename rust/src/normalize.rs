//! The one Arabic normaliser of tahqiq.
//!
//! [`normalize_str`] (Rust) and `normalize` (Python) make a single pass over the text. Each
//! character is kept, dropped or replaced by one character, according to [`NormalizeOptions`]:
//!
//! - `punctuation` (off by default): drop every character of general category P* (`، ؛ ؟ ٪ ۔`,
//!   `. , ! ?` ...). This is checked first, so `٫` and `٬` are dropped even when `digits` is on.
//! - `diacritics` (on): drop harakat and tanwin U+064B–U+0652 (with shadda and sukun),
//!   U+0656–U+065F, superscript alef U+0670 and the Quranic annotation marks U+0610–U+061A,
//!   U+06D6–U+06DC, U+06DF–U+06E4, U+06E7–U+06E8, U+06EA–U+06ED, U+08D3–U+08E1, U+08E3–U+08FF.
//!   Maddah and hamza above/below (U+0653–U+0655) form letters and are kept (but see `alef`).
//! - `tatweel` (on): drop U+0640.
//! - `alef` (on): map أ إ آ ٱ ٲ ٳ to ا, and drop U+0653–U+0655 when the last character written
//!   to the output is ا (the decomposed spellings of آ أ إ, also after stripped diacritics).
//! - `ya` (on): map ى U+0649 and Farsi ی U+06CC to ي U+064A.
//! - `ta_marbuta` (off): map ة to ه.
//! - `digits` (off): map Arabic-Indic U+0660–U+0669 and Persian U+06F0–U+06F9 digits to ASCII,
//!   the Arabic decimal separator ٫ to `.` and the thousands separator ٬ to `,`.
//!
//! The result is idempotent: `normalize(normalize(t)) == normalize(t)` for any options.
//! When nothing changes the input is returned as is (a borrowed `Cow`, or the same Python `str`).

use std::borrow::Cow;
use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::unicode_class::{pystring_from_chars, with_chars_mut, Class, Classifier};

const ALEF: char = '\u{0627}';

/// Which rewritings [`normalize_str`] applies. `Default` matches the Python defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NormalizeOptions {
    pub diacritics: bool,
    pub tatweel: bool,
    pub alef: bool,
    pub ya: bool,
    pub ta_marbuta: bool,
    pub digits: bool,
    pub punctuation: bool,
}

impl Default for NormalizeOptions {
    fn default() -> Self {
        NormalizeOptions {
            diacritics: true,
            tatweel: true,
            alef: true,
            ya: true,
            ta_marbuta: false,
            digits: false,
            punctuation: false,
        }
    }
}

/// Whether `u` is one of the marks stripped by the `diacritics` option.
#[inline]
pub fn is_diacritic(u: u32) -> bool {
    matches!(u,
        0x064B..=0x0652
        | 0x0656..=0x065F
        | 0x0670
        | 0x0610..=0x061A
        | 0x06D6..=0x06DC
        | 0x06DF..=0x06E4
        | 0x06E7..=0x06E8
        | 0x06EA..=0x06ED
        | 0x08D3..=0x08E1
        | 0x08E3..=0x08FF)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Keep,
    Drop,
    Map(char),
}

/// The rule for one code point of U+0600..U+08FF, before context: see [`Rules::action`].
fn block_rule(u: u32, o: &NormalizeOptions, cls: &Classifier) -> u32 {
    let c = char::from_u32(u).expect("no surrogates in the Arabic blocks");
    if o.punctuation && cls.class(c) == Class::Punct {
        return DROP;
    }
    match u {
        _ if o.diacritics && is_diacritic(u) => DROP,
        0x0640 if o.tatweel => DROP,
        0x0622 | 0x0623 | 0x0625 | 0x0671..=0x0673 if o.alef => ALEF as u32,
        0x0653..=0x0655 if o.alef => DROP_AFTER_ALEF,
        0x0649 | 0x06CC if o.ya => 0x064A,
        0x0629 if o.ta_marbuta => 0x0647,
        0x0660..=0x0669 if o.digits => u32::from(b'0') + (u - 0x0660),
        0x06F0..=0x06F9 if o.digits => u32::from(b'0') + (u - 0x06F0),
        0x066B if o.digits => u32::from(b'.'),
        0x066C if o.digits => u32::from(b','),
        _ => KEEP,
    }
}

const BLOCK_START: u32 = 0x0600;
const BLOCK_LEN: usize = 0x0300;
const KEEP: u32 = 0;
const DROP: u32 = 1;
const DROP_AFTER_ALEF: u32 = 2;
type BlockTable = [u32; BLOCK_LEN];

/// The per-options table for U+0600..U+08FF, built once per combination of options.
fn block_table(o: &NormalizeOptions, cls: &Classifier) -> &'static BlockTable {
    static TABLES: [OnceLock<Box<BlockTable>>; 128] = [const { OnceLock::new() }; 128];
    let bits = [
        o.diacritics,
        o.tatweel,
        o.alef,
        o.ya,
        o.ta_marbuta,
        o.digits,
        o.punctuation,
    ]
    .iter()
    .enumerate()
    .fold(0usize, |acc, (i, &b)| acc | (usize::from(b) << i));
    TABLES[bits].get_or_init(|| {
        let mut t = Box::new([KEEP; BLOCK_LEN]);
        for (i, slot) in t.iter_mut().enumerate() {
            *slot = block_rule(BLOCK_START + i as u32, o, cls);
        }
        t
    })
}

/// The single-character rule engine; `last` is the last character written to the output.
#[derive(Clone, Copy)]
struct Rules {
    punctuation: bool,
    cls: Classifier,
    table: &'static BlockTable,
}

impl Rules {
    fn new(opts: &NormalizeOptions) -> Self {
        let cls = Classifier::new();
        Rules {
            punctuation: opts.punctuation,
            cls,
            table: block_table(opts, &cls),
        }
    }

    #[inline(always)]
    fn action(&self, c: char, last: char) -> Action {
        let off = (c as u32).wrapping_sub(BLOCK_START) as usize;
        if off < BLOCK_LEN {
            match self.table[off] {
                KEEP => Action::Keep,
                DROP => Action::Drop,
                DROP_AFTER_ALEF if last == ALEF => Action::Drop,
                DROP_AFTER_ALEF => Action::Keep,
                // SAFETY: the table only stores the code points of chars (ا ي ه 0-9 . ,).
                m => Action::Map(unsafe { char::from_u32_unchecked(m) }),
            }
        } else if self.punctuation && self.cls.class(c) == Class::Punct {
            Action::Drop
        } else {
            Action::Keep
        }
    }

    /// Applies the rules to `rest` after the first change, appending to `out`.
    #[inline]
    fn finish(&self, rest: impl Iterator<Item = char>, out: &mut String, mut last: char) {
        for c in rest {
            match self.action(c, last) {
                Action::Keep => {
                    out.push(c);
                    last = c;
                }
                Action::Drop => {}
                Action::Map(m) => {
                    out.push(m);
                    last = m;
                }
            }
        }
    }
}

/// Normalises Arabic `text` in one pass (see the module docs for the rules).
///
/// Returns `Cow::Borrowed(text)` when nothing changes, so the common case does not allocate.
pub fn normalize_str<'a>(text: &'a str, opts: &NormalizeOptions) -> Cow<'a, str> {
    let rules = Rules::new(opts);
    let mut last = '\0';
    for (i, c) in text.char_indices() {
        match rules.action(c, last) {
            Action::Keep => last = c,
            _ => {
                let mut out = String::with_capacity(text.len());
                out.push_str(&text[..i]);
                rules.finish(text[i..].chars(), &mut out, last);
                return Cow::Owned(out);
            }
        }
    }
    Cow::Borrowed(text)
}

/// Normalises `chars` in place (the result never has more chars than the input).
///
/// Returns `None` when nothing changes, else the length of the normalised prefix of `chars`.
pub fn normalize_in_place(chars: &mut [char], opts: &NormalizeOptions) -> Option<usize> {
    let rules = Rules::new(opts);
    let mut last = '\0';
    let first = chars.iter().position(|&c| match rules.action(c, last) {
        Action::Keep => {
            last = c;
            false
        }
        _ => true,
    })?;
    let mut w = first;
    for r in first..chars.len() {
        let c = chars[r];
        match rules.action(c, last) {
            Action::Keep => {
                chars[w] = c;
                w += 1;
                last = c;
            }
            Action::Drop => {}
            Action::Map(m) => {
                chars[w] = m;
                w += 1;
                last = m;
            }
        }
    }
    Some(w)
}

/// Normalise Arabic text in one pass; the project's single normaliser.
///
/// Options (keyword-only):
///
/// - ``diacritics=True``: strip harakat, tanwin, shadda, sukun (U+064B-U+0652, U+0656-U+065F),
///   superscript alef U+0670 and Quranic annotation marks (U+0610-U+061A, U+06D6-U+06DC,
///   U+06DF-U+06E4, U+06E7-U+06E8, U+06EA-U+06ED, U+08D3-U+08E1, U+08E3-U+08FF). Maddah and
///   hamza above/below (U+0653-U+0655) are kept, except as ``alef`` says.
/// - ``tatweel=True``: strip the kashida U+0640.
/// - ``alef=True``: map أ إ آ ٱ ٲ ٳ to ا, and drop U+0653-U+0655 written directly after an ا
///   (decomposed آ أ إ; "directly" means after any characters this call strips).
/// - ``ya=True``: map ى (U+0649) and Farsi ی (U+06CC) to ي.
/// - ``ta_marbuta=False``: map ة to ه.
/// - ``digits=False``: map Arabic-Indic and Persian digits to ASCII 0-9, ٫ to ``.`` and ٬ to ``,``.
/// - ``punctuation=False``: remove every character of Unicode category P* (، ؛ ؟ ٪ ۔ . , ...);
///   this wins over ``digits`` for ٫ and ٬.
///
/// The result is idempotent. When nothing changes, the very same ``str`` object is returned.
/// Raises ``UnicodeEncodeError`` if ``text`` contains a lone surrogate.
#[pyfunction]
#[pyo3(signature = (text, *, diacritics=true, tatweel=true, alef=true, ya=true, ta_marbuta=false, digits=false, punctuation=false))]
#[allow(clippy::too_many_arguments)]
fn normalize<'py>(
    text: &Bound<'py, PyString>,
    diacritics: bool,
    tatweel: bool,
    alef: bool,
    ya: bool,
    ta_marbuta: bool,
    digits: bool,
    punctuation: bool,
) -> PyResult<Bound<'py, PyString>> {
    let opts = NormalizeOptions {
        diacritics,
        tatweel,
        alef,
        ya,
        ta_marbuta,
        digits,
        punctuation,
    };
    with_chars_mut(text, |chars| match normalize_in_place(chars, &opts) {
        None => Ok(text.clone()),
        Some(n) => pystring_from_chars(text.py(), &chars[..n]),
    })?
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn norm(s: &str) -> String {
        normalize_str(s, &NormalizeOptions::default()).into_owned()
    }

    fn all_on() -> NormalizeOptions {
        NormalizeOptions {
            diacritics: true,
            tatweel: true,
            alef: true,
            ya: true,
            ta_marbuta: true,
            digits: true,
            punctuation: true,
        }
    }

    fn all_off() -> NormalizeOptions {
        NormalizeOptions {
            diacritics: false,
            tatweel: false,
            alef: false,
            ya: false,
            ta_marbuta: false,
            digits: false,
            punctuation: false,
        }
    }

    #[test]
    fn strips_harakat_tanwin_shadda_sukun() {
        assert_eq!(norm("قالَ الرئيسُ"), "قال الرئيس");
        assert_eq!(norm("كِتَابٌ مُّبِينٌ"), "كتاب مبين");
        assert_eq!(norm("مُحَمَّدٌ"), "محمد");
        assert_eq!(norm("قُلْ"), "قل");
        assert_eq!(norm("شُكْرًا"), "شكرا");
    }

    #[test]
    fn strips_quranic_text() {
        // Al-Fatiha 1:1 in Uthmani script: superscript alef, wasla, small high marks.
        let basmala = "بِسْمِ ٱللَّهِ ٱلرَّحْمَـٰنِ ٱلرَّحِيمِ";
        assert_eq!(norm(basmala), "بسم الله الرحمن الرحيم");
        // Small high ligatures and pause marks U+06D6..U+06DC, U+06DF..U+06E4, U+06EA..U+06ED.
        assert_eq!(norm("ذَٰلِكَ ٱلْكِتَٰبُ لَا رَيْبَۛ فِيهِۛ"), "ذلك الكتب لا ريب فيه");
        // (the dagger alef U+0670 of ٱلْكِتَٰبُ is stripped with the other diacritics, not mapped to ا)
        assert_eq!(
            norm("ب\u{06DF}\u{06E0}\u{06E2}\u{06E4}\u{06E7}\u{06E8}\u{06EA}\u{06ED}"),
            "ب"
        );
        assert_eq!(
            norm("ب\u{0610}\u{061A}\u{08D3}\u{08E1}\u{08E3}\u{08FF}"),
            "ب"
        );
        assert_eq!(norm("ب\u{0656}\u{065F}\u{0670}"), "ب");
    }

    #[test]
    fn keeps_what_is_not_listed() {
        // U+06DD (end of ayah, Cf), U+06DE (So), U+06E5/U+06E6 (Lm), U+06E9 (So), U+08E2 (Cf).
        let s = "ب\u{06DD}\u{06DE}\u{06E5}\u{06E6}\u{06E9}\u{08E2}";
        assert_eq!(norm(s), s);
        // Hamza above not after alef is letter-forming (decomposed ئ) and stays.
        assert_eq!(norm("ي\u{0654}"), "ي\u{0654}");
        assert_eq!(norm("و\u{0654}"), "و\u{0654}");
    }

    #[test]
    fn diacritics_off_keeps_them() {
        let o = NormalizeOptions {
            diacritics: false,
            ..Default::default()
        };
        assert_eq!(normalize_str("قالَ", &o), "قالَ");
    }

    #[test]
    fn tatweel() {
        assert_eq!(norm("العـــربية"), "العربية");
        let o = NormalizeOptions {
            tatweel: false,
            ..Default::default()
        };
        assert_eq!(normalize_str("العـــربية", &o), "العـــربية");
    }

    #[test]
    fn alef_forms() {
        assert_eq!(norm("أحمد إلى آمن ٱلله ٲ ٳ"), "احمد الي امن الله ا ا");
        // decomposed forms
        assert_eq!(norm("ا\u{0654}حمد ا\u{0655}لى ا\u{0653}من"), "احمد الي امن");
        // also after a stripped diacritic or tatweel, and for a run of them
        assert_eq!(norm("ا\u{064E}\u{0654}"), "ا");
        assert_eq!(norm("اـ\u{0653}\u{0654}"), "ا");
        let o = NormalizeOptions {
            alef: false,
            ..Default::default()
        };
        assert_eq!(normalize_str("أ ا\u{0654}", &o), "أ ا\u{0654}");
    }

    #[test]
    fn ya_and_ta_marbuta() {
        assert_eq!(norm("على مصطفی"), "علي مصطفي");
        assert_eq!(norm("مدرسة"), "مدرسة");
        let o = NormalizeOptions {
            ta_marbuta: true,
            ..Default::default()
        };
        assert_eq!(normalize_str("مدرسة جميلة", &o), "مدرسه جميله");
        let o = NormalizeOptions {
            ya: false,
            ..Default::default()
        };
        assert_eq!(normalize_str("على", &o), "على");
    }

    #[test]
    fn digits() {
        let o = NormalizeOptions {
            digits: true,
            ..Default::default()
        };
        assert_eq!(
            normalize_str("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹", &o),
            "0123456789 0123456789"
        );
        assert_eq!(normalize_str("٣٫٥٪ من ١٬٠٠٠", &o), "3.5٪ من 1,000");
        assert_eq!(norm("٣٫٥"), "٣٫٥");
    }

    #[test]
    fn punctuation() {
        let o = NormalizeOptions {
            punctuation: true,
            ..Default::default()
        };
        assert_eq!(
            normalize_str("قال: «نعم»، لماذا؟ نسبة ٣٫٥٪ ۔ (1.5) $+", &o),
            "قال نعم لماذا نسبة ٣٥  15 $+"
        );
        let o = all_on();
        // punctuation wins over digits for the separators
        assert_eq!(normalize_str("٣٫٥٪", &o), "35");
    }

    #[test]
    fn example_sentence_all_on() {
        let s = "قالَ الرئيسُ: نسبة ٣٫٥٪ من 1,000 شخص 👍🏽";
        assert_eq!(
            normalize_str(s, &all_on()),
            "قال الرئيس نسبه 35 من 1000 شخص 👍🏽"
        );
        assert_eq!(norm(s), "قال الرئيس: نسبة ٣٫٥٪ من 1,000 شخص 👍🏽");
    }

    #[test]
    fn unchanged_is_borrowed() {
        let s = "كتب الطالب الدرس 123 hello";
        assert!(matches!(
            normalize_str(s, &NormalizeOptions::default()),
            Cow::Borrowed(_)
        ));
        assert!(matches!(normalize_str("قالَ", &all_off()), Cow::Borrowed(_)));
        assert!(matches!(normalize_str("", &all_on()), Cow::Borrowed(_)));
        assert!(matches!(
            normalize_str("قالَ", &NormalizeOptions::default()),
            Cow::Owned(_)
        ));
        let mut chars: Vec<char> = s.chars().collect();
        assert_eq!(
            normalize_in_place(&mut chars, &NormalizeOptions::default()),
            None
        );
    }

    fn arabic_text() -> impl Strategy<Value = String> {
        let alphabet: Vec<char> = "ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأإؤئىةٱٲٳی ـ،؛؟٪۔.,!-٠١٢٣٫٬٩۰۹09aZ\u{064B}\u{064C}\u{064E}\u{0650}\u{0651}\u{0652}\u{0653}\u{0654}\u{0655}\u{0656}\u{0670}\u{06D6}\u{06DF}\u{06ED}\u{08F0}\u{200C}\u{200D}👍\u{1F3FD}"
            .chars()
            .collect();
        proptest::collection::vec(proptest::sample::select(alphabet), 0..40)
            .prop_map(|v| v.into_iter().collect())
    }

    fn options() -> impl Strategy<Value = NormalizeOptions> {
        proptest::collection::vec(any::<bool>(), 7).prop_map(|b| NormalizeOptions {
            diacritics: b[0],
            tatweel: b[1],
            alef: b[2],
            ya: b[3],
            ta_marbuta: b[4],
            digits: b[5],
            punctuation: b[6],
        })
    }

    proptest! {
        #[test]
        fn idempotent_on_arabic(s in arabic_text(), o in options()) {
            let once = normalize_str(&s, &o).into_owned();
            let twice = normalize_str(&once, &o);
            prop_assert!(matches!(twice, Cow::Borrowed(_)));
            prop_assert_eq!(twice.as_ref(), once.as_str());
        }

        #[test]
        fn idempotent_on_any_text(s in any::<String>(), o in options()) {
            let once = normalize_str(&s, &o).into_owned();
            let twice = normalize_str(&once, &o);
            prop_assert_eq!(twice.as_ref(), once.as_str());
        }

        #[test]
        fn str_and_chars_agree(s in arabic_text(), o in options()) {
            let mut chars: Vec<char> = s.chars().collect();
            let a = normalize_str(&s, &o);
            let b = normalize_in_place(&mut chars, &o);
            match (a, b) {
                (Cow::Borrowed(x), None) => prop_assert_eq!(x, s.as_str()),
                (Cow::Owned(x), Some(n)) => prop_assert_eq!(x, chars[..n].iter().collect::<String>()),
                (x, y) => prop_assert!(false, "disagree: {:?} vs {:?}", x, y),
            }
        }

        #[test]
        fn never_grows_in_chars(s in any::<String>(), o in options()) {
            prop_assert!(normalize_str(&s, &o).chars().count() <= s.chars().count());
        }
    }
}
