//! Coarse character classes shared by the normaliser and the scanner.
//!
//! Every code point falls in exactly one [`Class`], derived from its Unicode general category
//! (as known to the `unicode-general-category` crate):
//!
//! | class       | general categories                    |
//! |-------------|---------------------------------------|
//! | `Letter`    | Lu Ll Lt Lm Lo (tatweel U+0640 is Lm) |
//! | `Mark`      | Mn Mc Me                              |
//! | `Number`    | Nd Nl No                              |
//! | `Punct`     | Pc Pd Ps Pe Pi Pf Po                  |
//! | `Symbol`    | Sm Sc Sk So, Co (private use), Cn     |
//! | `Separator` | Zs Zl Zp, Cc, Cf (and Cs)             |
//!
//! Code points below U+0800 (ASCII, Latin, Greek, Cyrillic, Hebrew, Arabic, Syriac, Thaana ...)
//! are answered from a table built once; the rest go through the general-category lookup.

use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

use unicode_general_category::{get_general_category, GeneralCategory as G};

/// The coarse class of a character; see the module docs for the mapping from general categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Class {
    Separator = 0,
    Letter = 1,
    Mark = 2,
    Number = 3,
    Punct = 4,
    Symbol = 5,
}

/// Code points below this bound are classified from the precomputed table.
pub const TABLE_LIMIT: u32 = 0x800;

/// The class of a general category.
pub fn class_of_category(cat: G) -> Class {
    match cat {
        G::UppercaseLetter
        | G::LowercaseLetter
        | G::TitlecaseLetter
        | G::ModifierLetter
        | G::OtherLetter => Class::Letter,
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark => Class::Mark,
        G::DecimalNumber | G::LetterNumber | G::OtherNumber => Class::Number,
        G::ConnectorPunctuation
        | G::DashPunctuation
        | G::OpenPunctuation
        | G::ClosePunctuation
        | G::InitialPunctuation
        | G::FinalPunctuation
        | G::OtherPunctuation => Class::Punct,
        G::MathSymbol
        | G::CurrencySymbol
        | G::ModifierSymbol
        | G::OtherSymbol
        | G::PrivateUse
        | G::Unassigned => Class::Symbol,
        G::SpaceSeparator
        | G::LineSeparator
        | G::ParagraphSeparator
        | G::Control
        | G::Format
        | G::Surrogate => Class::Separator,
        // The enum is non-exhaustive; a future category is treated like an unassigned one.
        _ => Class::Symbol,
    }
}

fn table() -> &'static [Class; TABLE_LIMIT as usize] {
    static TABLE: OnceLock<[Class; TABLE_LIMIT as usize]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [Class::Separator; TABLE_LIMIT as usize];
        for (cp, slot) in t.iter_mut().enumerate() {
            if let Some(c) = char::from_u32(cp as u32) {
                *slot = class_of_category(get_general_category(c));
            }
        }
        t
    })
}

/// A classifier holding a reference to the low table, so hot loops skip the `OnceLock` check.
#[derive(Clone, Copy)]
pub struct Classifier {
    low: &'static [Class; TABLE_LIMIT as usize],
}

impl Default for Classifier {
    fn default() -> Self {
        Self::new()
    }
}

impl Classifier {
    pub fn new() -> Self {
        Classifier { low: table() }
    }

    /// The class of `c`.
    #[inline(always)]
    pub fn class(&self, c: char) -> Class {
        let u = c as u32;
        if u < TABLE_LIMIT {
            self.low[u as usize]
        } else {
            class_of_category(get_general_category(c))
        }
    }
}

/// The class of `c` (convenience wrapper around [`Classifier`]).
pub fn class(c: char) -> Class {
    Classifier::new().class(c)
}

/// Runs `f` over the code points of a Python `str`, read with `PyUnicode_AsUCS4` (part of the
/// stable ABI) so that slice indices are exactly Python's code-point offsets and nothing is cached
/// on the string object. `f` gets a private copy it may rewrite. Short strings use a stack buffer.
///
/// A `str` holding a lone surrogate cannot become `&[char]`; the error is the one PyO3 raises when
/// converting such a string to UTF-8 (`UnicodeEncodeError`).
pub fn with_chars_mut<R>(
    text: &Bound<'_, PyString>,
    f: impl FnOnce(&mut [char]) -> R,
) -> PyResult<R> {
    const STACK: usize = 64;
    let obj = text.as_ptr();
    // SAFETY: `obj` is a live `str` (the `Bound` proves it and holds the GIL).
    let len = unsafe { ffi::PyUnicode_GetLength(obj) };
    if len < 0 {
        return Err(PyErr::fetch(text.py()));
    }
    let len = len as usize;
    let mut stack = [0u32; STACK];
    let mut heap = Vec::new();
    let buf: &mut [u32] = if len <= STACK {
        &mut stack[..len]
    } else {
        heap.resize(len, 0u32);
        &mut heap[..]
    };
    if len > 0 {
        // SAFETY: `buf` has room for exactly `len` code points and no terminator is requested.
        let r = unsafe { ffi::PyUnicode_AsUCS4(obj, buf.as_mut_ptr(), len as ffi::Py_ssize_t, 0) };
        if r.is_null() {
            return Err(PyErr::fetch(text.py()));
        }
    }
    if buf
        .iter()
        .any(|&u| (0xD800..=0xDFFF).contains(&u) || u > 0x10FFFF)
    {
        // Let PyO3 report it exactly as it would for a `&str` argument.
        text.to_str()?;
        return Err(PyValueError::new_err("str contains a lone surrogate"));
    }
    // SAFETY: every value was just checked to be a Unicode scalar value, `char` has the size and
    // alignment of `u32`, and the `&mut [char]` only lets `f` store valid chars.
    let chars = unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<char>(), len) };
    Ok(f(chars))
}

/// [`with_chars_mut`] for readers.
pub fn with_chars<R>(text: &Bound<'_, PyString>, f: impl FnOnce(&[char]) -> R) -> PyResult<R> {
    with_chars_mut(text, |chars| f(chars))
}

/// A new Python `str` holding `chars` (decoded as native-endian UTF-32, which the stable ABI
/// offers without a UTF-8 round trip; an explicit byte order keeps a leading U+FEFF).
pub fn pystring_from_chars<'py>(py: Python<'py>, chars: &[char]) -> PyResult<Bound<'py, PyString>> {
    let mut byteorder: std::os::raw::c_int = if cfg!(target_endian = "little") {
        -1
    } else {
        1
    };
    // SAFETY: the pointer covers `4 * chars.len()` initialised bytes; errors=NULL means strict.
    unsafe {
        let obj = ffi::PyUnicode_DecodeUTF32(
            chars.as_ptr().cast::<std::os::raw::c_char>(),
            (chars.len() * 4) as ffi::Py_ssize_t,
            std::ptr::null(),
            &mut byteorder,
        );
        Ok(Bound::from_owned_ptr_or_err(py, obj)?.cast_into_unchecked::<PyString>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arabic_and_ascii_classes() {
        assert_eq!(class('ك'), Class::Letter);
        assert_eq!(class('\u{0640}'), Class::Letter); // tatweel is Lm
        assert_eq!(class('\u{064E}'), Class::Mark); // fatha
        assert_eq!(class('٣'), Class::Number);
        assert_eq!(class('²'), Class::Number);
        assert_eq!(class('،'), Class::Punct);
        assert_eq!(class('٪'), Class::Punct);
        assert_eq!(class('%'), Class::Punct);
        assert_eq!(class('+'), Class::Symbol);
        assert_eq!(class('$'), Class::Symbol);
        assert_eq!(class(' '), Class::Separator);
        assert_eq!(class('\n'), Class::Separator);
        assert_eq!(class('\u{200D}'), Class::Separator); // ZWJ is Cf
        assert_eq!(class('\u{FE0F}'), Class::Mark); // VS16 is Mn
        assert_eq!(class('\u{20E3}'), Class::Mark); // keycap is Me
        assert_eq!(class('👍'), Class::Symbol);
        assert_eq!(class('\u{1F3FD}'), Class::Symbol); // skin tone modifier is Sk
        assert_eq!(class('\u{E000}'), Class::Symbol); // private use
        assert_eq!(class('\u{0378}'), Class::Symbol); // unassigned
    }

    #[test]
    fn table_agrees_with_lookup() {
        for cp in 0..TABLE_LIMIT {
            let c = char::from_u32(cp).unwrap();
            assert_eq!(
                class(c),
                class_of_category(get_general_category(c)),
                "U+{cp:04X}"
            );
        }
    }
}
