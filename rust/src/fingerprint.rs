//! RFC 8785 JSON Canonicalization Scheme (JCS) and the idempotency fingerprint built on it.
//!
//! One recursive-descent pass over the input validates it against the strict RFC 8259 grammar and
//! writes the canonical form straight into a single output buffer:
//!
//! * strings are copied run by run (a word-at-a-time scan skips ASCII up to the next `"`, `\` or
//!   control byte, validating any UTF-8 sequence on the way) and re-escaped minimally;
//! * numbers are copied verbatim when their text is provably already the ECMAScript form (plain
//!   integers below 2^53, short decimals without trailing zeros); everything else goes through
//!   `str::parse::<f64>` (correctly rounded) and `ryu_js` (ECMAScript `Number.prototype.toString`);
//! * objects remember where each member (`"key":value`) landed in the output; when the object closes
//!   the members are checked for order by UTF-16 code units (the common already-sorted case costs one
//!   comparison per member) and only otherwise sorted and rewritten in place; duplicates are found
//!   in the same step.
//!
//! Nothing is allocated per value: keys are compared where they were written in the output, and
//! only keys whose canonical text contains an escape are decoded into a shared side buffer.

use std::cmp::Ordering;
use std::fmt;

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use sha2::{Digest, Sha256};

/// Deepest accepted nesting of arrays and objects; one more level is an error.
pub const MAX_DEPTH: usize = 128;

/// Inputs at least this long are canonicalised with the GIL released.
const DETACH_MIN_LEN: usize = 16 * 1024;

/// Why an input has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input ended where the grammar needs more (the text says what was expected).
    UnexpectedEnd(&'static str),
    /// A byte the grammar does not allow here (the text says what was expected).
    UnexpectedByte { expected: &'static str, found: u8 },
    /// A number with a superfluous leading zero, such as `01`.
    LeadingZero,
    /// A string holds bytes that are not UTF-8.
    InvalidUtf8,
    /// A string holds a raw control character (below U+0020).
    ControlCharacter(u8),
    /// A backslash followed by something other than `" \ / b f n r t u`.
    InvalidEscape,
    /// `\u` not followed by four hex digits.
    InvalidUnicodeEscape,
    /// A `\u` escape of a surrogate that is not part of a high-low pair.
    LoneSurrogate(u16),
    /// The second occurrence of a key in one object (keys compare after unescaping).
    DuplicateKey(String),
    /// A number whose magnitude rounds to infinity as an IEEE-754 double.
    NumberOutOfRange,
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// The input starts with a UTF-8 byte order mark.
    ByteOrderMark,
    /// Something other than white space follows the JSON value.
    TrailingData,
}

/// An input that is not canonicalisable JSON, with the 0-based byte offset where that was detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JcsError {
    /// 0-based offset into the input.
    pub pos: usize,
    pub kind: ErrorKind,
}

fn describe_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

impl fmt::Display for JcsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSON at byte {}: ", self.pos)?;
        match &self.kind {
            ErrorKind::UnexpectedEnd(expected) => {
                write!(f, "unexpected end of input, expected {expected}")
            }
            ErrorKind::UnexpectedByte { expected, found } => {
                write!(f, "expected {expected}, found {}", describe_byte(*found))
            }
            ErrorKind::LeadingZero => f.write_str("leading zeros are not allowed in numbers"),
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            ErrorKind::ControlCharacter(b) => {
                write!(f, "unescaped control character 0x{b:02x} in string")
            }
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence in string"),
            ErrorKind::InvalidUnicodeEscape => {
                f.write_str("\\u must be followed by four hex digits")
            }
            ErrorKind::LoneSurrogate(u) => write!(f, "lone surrogate \\u{u:04x} in string"),
            ErrorKind::DuplicateKey(k) => write!(f, "duplicate object key {k:?}"),
            ErrorKind::NumberOutOfRange => {
                f.write_str("number is out of the IEEE-754 double range (overflows to infinity)")
            }
            ErrorKind::TooDeep => write!(f, "arrays and objects nested deeper than {MAX_DEPTH}"),
            ErrorKind::ByteOrderMark => f.write_str("a UTF-8 byte order mark is not allowed"),
            ErrorKind::TrailingData => f.write_str("unexpected data after the JSON value"),
        }
    }
}

impl std::error::Error for JcsError {}

impl From<JcsError> for PyErr {
    fn from(e: JcsError) -> PyErr {
        PyValueError::new_err(e.to_string())
    }
}

/// Orders two UTF-8 strings by their UTF-16 code units, as RFC 8785 section 3.2.3 requires.
///
/// UTF-8 byte order is code-point order, which agrees with UTF-16 order except between a
/// supplementary character (4-byte UTF-8, lead byte F0..F4, a surrogate pair D800..DFFF in UTF-16)
/// and a character in U+E000..U+FFFF (lead byte EE or EF): UTF-16 puts the supplementary one first.
/// The common prefix of two valid UTF-8 strings ends on the same character boundary in both, so the
/// first differing bytes are either both lead bytes or both continuation bytes of same-length
/// sequences; only the lead-byte case can need the correction.
pub fn cmp_utf16(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    match a[..n].iter().zip(&b[..n]).position(|(x, y)| x != y) {
        None => a.len().cmp(&b.len()),
        Some(i) => {
            let (x, y) = (a[i], b[i]);
            if x >= 0xF0 && (y == 0xEE || y == 0xEF) {
                Ordering::Less
            } else if y >= 0xF0 && (x == 0xEE || x == 0xEF) {
                Ordering::Greater
            } else {
                x.cmp(&y)
            }
        }
    }
}

/// Where one object member (`"key":value`) sits in the output, and where its key is.
#[derive(Clone, Copy)]
struct Member {
    /// Offset of the key's opening quote in the input (for the duplicate-key error).
    src_pos: usize,
    /// Output range of `"key":value`.
    start: usize,
    end: usize,
    /// The unescaped key: a range of the output when its canonical text has no escape,
    /// otherwise a range of `Parser::keys`.
    key_start: usize,
    key_end: usize,
    key_decoded: bool,
    /// [`utf16_prefix`] of the key: most comparisons end here.
    prefix: u64,
}

impl Member {
    #[inline]
    fn key<'b>(&self, out: &'b [u8], keys: &'b [u8]) -> &'b [u8] {
        if self.key_decoded {
            &keys[self.key_start..self.key_end]
        } else {
            &out[self.key_start..self.key_end]
        }
    }

    #[inline]
    fn cmp_key(&self, other: &Member, out: &[u8], keys: &[u8]) -> Ordering {
        self.prefix
            .cmp(&other.prefix)
            .then_with(|| cmp_utf16(self.key(out, keys), other.key(out, keys)))
    }
}

/// The first eight bytes of a UTF-8 key as a big-endian integer (zero-padded) whose order agrees
/// with [`cmp_utf16`]: the lead bytes EE and EF (U+E000..U+FFFF) are moved above F0..F4
/// (supplementary characters), which is exactly the UTF-16 correction; no other byte can be
/// compared with a lead byte. Equal prefixes need the full comparison.
#[inline]
fn utf16_prefix(key: &[u8]) -> u64 {
    let mut p = [0u8; 8];
    for (d, &b) in p.iter_mut().zip(key) {
        *d = match b {
            0xEE => 0xF5,
            0xEF => 0xF6,
            _ => b,
        };
    }
    u64::from_be_bytes(p)
}

/// Bytes that end a run of string content that can be copied as is.
static STRING_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Scans string content from `i`: returns `Ok(j)` with `j` the index of the first `"`, `\\` or
/// control byte (or `s.len()`), having checked that `s[i..j]` is UTF-8, or `Err(k)` with `k` the
/// start of the first invalid UTF-8 sequence (as `Utf8Error::valid_up_to` would report it).
#[inline]
fn scan_run(s: &[u8], mut i: usize) -> Result<usize, usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    loop {
        // Eight bytes at a time while they are ASCII and need no escaping. The classic
        // "has zero byte" / "has byte less than n" tricks flag the lowest such byte exactly.
        while i + 8 <= s.len() {
            let w = u64::from_le_bytes(s[i..i + 8].try_into().unwrap());
            let q = w ^ (LO * b'"' as u64);
            let b = w ^ (LO * b'\\' as u64);
            let hit = ((q.wrapping_sub(LO) & !q)
                | (b.wrapping_sub(LO) & !b)
                | (w.wrapping_sub(LO * 0x20) & !w)
                | w)
                & HI;
            if hit != 0 {
                i += (hit.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        // Byte by byte until the next ASCII byte that is plain again.
        loop {
            let Some(&b) = s.get(i) else { return Ok(i) };
            if b < 0x80 {
                if STRING_SPECIAL[b as usize] {
                    return Ok(i);
                }
                i += 1;
                break;
            }
            i += utf8_sequence_len(s, i).ok_or(i)?;
        }
    }
}

/// Length of the valid UTF-8 sequence (RFC 3629: no overlongs, surrogates or values beyond
/// U+10FFFF) whose lead byte `s[i]` is not ASCII, or `None`.
#[inline]
fn utf8_sequence_len(s: &[u8], i: usize) -> Option<usize> {
    let at = |j: usize, lo: u8, hi: u8| s.get(i + j).is_some_and(|&c| (lo..=hi).contains(&c));
    let ok = match s[i] {
        0xC2..=0xDF => return at(1, 0x80, 0xBF).then_some(2),
        0xE0 => at(1, 0xA0, 0xBF) && at(2, 0x80, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => at(1, 0x80, 0xBF) && at(2, 0x80, 0xBF),
        0xED => at(1, 0x80, 0x9F) && at(2, 0x80, 0xBF),
        0xF0 => return (at(1, 0x90, 0xBF) && at(2, 0x80, 0xBF) && at(3, 0x80, 0xBF)).then_some(4),
        0xF1..=0xF3 => {
            return (at(1, 0x80, 0xBF) && at(2, 0x80, 0xBF) && at(3, 0x80, 0xBF)).then_some(4)
        }
        0xF4 => return (at(1, 0x80, 0x8F) && at(2, 0x80, 0xBF) && at(3, 0x80, 0xBF)).then_some(4),
        _ => false,
    };
    ok.then_some(3)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends the canonical escape of a control character (below U+0020).
#[inline]
fn push_control(out: &mut Vec<u8>, c: u8) {
    match c {
        0x08 => out.extend_from_slice(b"\\b"),
        0x09 => out.extend_from_slice(b"\\t"),
        0x0A => out.extend_from_slice(b"\\n"),
        0x0C => out.extend_from_slice(b"\\f"),
        0x0D => out.extend_from_slice(b"\\r"),
        _ => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[(c >> 4) as usize],
            HEX[(c & 15) as usize],
        ]),
    }
}

#[inline]
fn hex_val(b: u8) -> Option<u16> {
    match b {
        b'0'..=b'9' => Some((b - b'0') as u16),
        b'a'..=b'f' => Some((b - b'a' + 10) as u16),
        b'A'..=b'F' => Some((b - b'A' + 10) as u16),
        _ => None,
    }
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    out: Vec<u8>,
    /// Members of all objects currently open, innermost last.
    members: Vec<Member>,
    /// Unescaped keys whose canonical text contains an escape.
    keys: Vec<u8>,
    /// Reordering buffer for unsorted objects.
    scratch: Vec<u8>,
    depth: usize,
}

type PResult<T> = Result<T, JcsError>;

impl<'a> Parser<'a> {
    fn new(src: &'a [u8], out: Vec<u8>) -> Self {
        Parser {
            src,
            pos: 0,
            out,
            members: Vec::new(),
            keys: Vec::new(),
            scratch: Vec::new(),
            depth: 0,
        }
    }

    #[inline]
    fn err<T>(&self, pos: usize, kind: ErrorKind) -> PResult<T> {
        Err(JcsError { pos, kind })
    }

    /// The error for the current position: end of input or an unexpected byte.
    #[cold]
    fn unexpected<T>(&self, expected: &'static str) -> PResult<T> {
        match self.src.get(self.pos) {
            None => self.err(self.pos, ErrorKind::UnexpectedEnd(expected)),
            Some(&found) => self.err(self.pos, ErrorKind::UnexpectedByte { expected, found }),
        }
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(&b) = self.src.get(self.pos) {
            if b == b' ' || b == b'\n' || b == b'\r' || b == b'\t' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn parse_value(&mut self) -> PResult<()> {
        self.skip_ws();
        match self.src.get(self.pos) {
            Some(b'{') => self.parse_object(),
            Some(b'[') => self.parse_array(),
            Some(b'"') => self.parse_string().map(|_| ()),
            Some(b'-' | b'0'..=b'9') => self.parse_number(),
            Some(b't') => self.parse_literal(b"true"),
            Some(b'f') => self.parse_literal(b"false"),
            Some(b'n') => self.parse_literal(b"null"),
            _ => self.unexpected("a JSON value"),
        }
    }

    fn parse_literal(&mut self, lit: &'static [u8]) -> PResult<()> {
        for (i, &c) in lit.iter().enumerate() {
            if self.src.get(self.pos + i) != Some(&c) {
                self.pos += i;
                return self.unexpected(match lit[0] {
                    b't' => "'true'",
                    b'f' => "'false'",
                    _ => "'null'",
                });
            }
        }
        self.pos += lit.len();
        self.out.extend_from_slice(lit);
        Ok(())
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err(self.pos, ErrorKind::TooDeep);
        }
        Ok(())
    }

    fn parse_array(&mut self) -> PResult<()> {
        self.enter()?;
        self.pos += 1;
        self.out.push(b'[');
        self.skip_ws();
        if self.src.get(self.pos) == Some(&b']') {
            self.pos += 1;
        } else {
            loop {
                self.parse_value()?;
                self.skip_ws();
                match self.src.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        self.out.push(b',');
                    }
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return self.unexpected("',' or ']'"),
                }
            }
        }
        self.out.push(b']');
        self.depth -= 1;
        Ok(())
    }

    fn parse_object(&mut self) -> PResult<()> {
        self.enter()?;
        self.pos += 1;
        self.out.push(b'{');
        let body_start = self.out.len();
        let base = self.members.len();
        let keys_base = self.keys.len();
        self.skip_ws();
        if self.src.get(self.pos) == Some(&b'}') {
            self.pos += 1;
        } else {
            loop {
                self.skip_ws();
                if self.src.get(self.pos) != Some(&b'"') {
                    return self.unexpected("a string key");
                }
                let src_pos = self.pos;
                let start = self.out.len();
                let escaped = self.parse_string()?;
                let (key_start, key_end) = if escaped {
                    let ks = self.keys.len();
                    unescape_canonical(&self.out[start + 1..self.out.len() - 1], &mut self.keys);
                    (ks, self.keys.len())
                } else {
                    (start + 1, self.out.len() - 1)
                };
                self.skip_ws();
                if self.src.get(self.pos) != Some(&b':') {
                    return self.unexpected("':'");
                }
                self.pos += 1;
                self.out.push(b':');
                self.parse_value()?;
                self.members.push(Member {
                    src_pos,
                    start,
                    end: self.out.len(),
                    key_start,
                    key_end,
                    key_decoded: escaped,
                    prefix: utf16_prefix(if escaped {
                        &self.keys[key_start..key_end]
                    } else {
                        &self.out[key_start..key_end]
                    }),
                });
                self.skip_ws();
                match self.src.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        self.out.push(b',');
                    }
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return self.unexpected("',' or '}'"),
                }
            }
            self.sort_members(base, body_start)?;
        }
        self.out.push(b'}');
        self.members.truncate(base);
        self.keys.truncate(keys_base);
        self.depth -= 1;
        Ok(())
    }

    /// Puts the members `self.members[base..]`, written from `body_start` on, in canonical order.
    fn sort_members(&mut self, base: usize, body_start: usize) -> PResult<()> {
        let (out, keys) = (&self.out, &self.keys);
        let ms = &mut self.members[base..];
        if ms
            .windows(2)
            .all(|w| w[0].cmp_key(&w[1], out, keys) == Ordering::Less)
        {
            return Ok(()); // already canonical, hence also free of duplicates
        }
        // Ties broken by input position: equal keys end up adjacent and in input order.
        ms.sort_unstable_by(|a, b| a.cmp_key(b, out, keys).then(a.src_pos.cmp(&b.src_pos)));
        // Report the earliest second occurrence of any duplicated key.
        let dup = ms
            .windows(2)
            .filter(|w| w[0].cmp_key(&w[1], out, keys) == Ordering::Equal)
            .min_by_key(|w| w[1].src_pos);
        if let Some(w) = dup {
            let key = String::from_utf8_lossy(w[1].key(out, keys)).into_owned();
            return Err(JcsError {
                pos: w[1].src_pos,
                kind: ErrorKind::DuplicateKey(key),
            });
        }
        let scratch = &mut self.scratch;
        scratch.clear();
        for (i, m) in ms.iter().enumerate() {
            if i > 0 {
                scratch.push(b',');
            }
            scratch.extend_from_slice(&out[m.start..m.end]);
        }
        // Same length: the ranges recorded by enclosing objects stay valid.
        self.out[body_start..].copy_from_slice(scratch);
        Ok(())
    }

    /// Parses the string at `self.pos` (an opening quote) and writes its canonical form.
    /// Returns whether the canonical form contains an escape.
    fn parse_string(&mut self) -> PResult<bool> {
        let src = self.src;
        self.pos += 1;
        self.out.push(b'"');
        let mut escaped = false;
        loop {
            let run_start = self.pos;
            let run_end = match scan_run(src, run_start) {
                Ok(end) => end,
                Err(bad) => return self.err(bad, ErrorKind::InvalidUtf8),
            };
            self.out.extend_from_slice(&src[run_start..run_end]);
            self.pos = run_end;
            match src.get(run_end) {
                Some(b'"') => {
                    self.pos += 1;
                    self.out.push(b'"');
                    return Ok(escaped);
                }
                Some(b'\\') => escaped |= self.parse_escape()?,
                Some(&c) => return self.err(run_end, ErrorKind::ControlCharacter(c)),
                None => return self.unexpected("'\"' to close the string"),
            }
        }
    }

    /// Parses the escape at `self.pos` (a backslash); returns whether its canonical form is an escape.
    fn parse_escape(&mut self) -> PResult<bool> {
        let esc = self.pos;
        let Some(&c) = self.src.get(esc + 1) else {
            self.pos = esc + 1;
            return self.unexpected("an escape character");
        };
        self.pos = esc + 2;
        let simple: &[u8] = match c {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'/' => b"/",
            b'b' => b"\\b",
            b'f' => b"\\f",
            b'n' => b"\\n",
            b'r' => b"\\r",
            b't' => b"\\t",
            b'u' => {
                let hi = self.hex4(esc + 2)?;
                self.pos = esc + 6;
                let cp: u32 = match hi {
                    0xD800..=0xDBFF => {
                        if self.src.get(esc + 6) == Some(&b'\\')
                            && self.src.get(esc + 7) == Some(&b'u')
                        {
                            let lo = self.hex4(esc + 8)?;
                            if !(0xDC00..=0xDFFF).contains(&lo) {
                                return self.err(esc, ErrorKind::LoneSurrogate(hi));
                            }
                            self.pos = esc + 12;
                            0x10000 + (((hi as u32) - 0xD800) << 10) + ((lo as u32) - 0xDC00)
                        } else {
                            return self.err(esc, ErrorKind::LoneSurrogate(hi));
                        }
                    }
                    0xDC00..=0xDFFF => return self.err(esc, ErrorKind::LoneSurrogate(hi)),
                    _ => hi as u32,
                };
                return Ok(self.push_char(cp));
            }
            _ => return self.err(esc, ErrorKind::InvalidEscape),
        };
        self.out.extend_from_slice(simple);
        Ok(simple.len() > 1)
    }

    fn hex4(&self, at: usize) -> PResult<u16> {
        let mut v = 0u16;
        for i in at..at + 4 {
            match self.src.get(i).and_then(|&b| hex_val(b)) {
                Some(d) => v = (v << 4) | d,
                None => return self.err(i, ErrorKind::InvalidUnicodeEscape),
            }
        }
        Ok(v)
    }

    /// Writes a character from a `\u` escape canonically; returns whether that is an escape.
    fn push_char(&mut self, cp: u32) -> bool {
        if cp < 0x20 {
            push_control(&mut self.out, cp as u8);
            return true;
        }
        if cp == b'"' as u32 || cp == b'\\' as u32 {
            self.out.extend_from_slice(&[b'\\', cp as u8]);
            return true;
        }
        let ch = char::from_u32(cp).expect("surrogates were rejected");
        let mut buf = [0u8; 4];
        self.out
            .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        false
    }

    fn digits(&mut self) {
        while matches!(self.src.get(self.pos), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn parse_number(&mut self) -> PResult<()> {
        let src = self.src;
        let start = self.pos;
        if src[start] == b'-' {
            self.pos += 1;
        }
        let int_start = self.pos;
        match src.get(self.pos) {
            Some(b'0') => {
                self.pos += 1;
                if matches!(src.get(self.pos), Some(b'0'..=b'9')) {
                    return self.err(self.pos, ErrorKind::LeadingZero);
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => return self.unexpected("a digit"),
        }
        let int_end = self.pos;
        let mut frac = None;
        if src.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            let fs = self.pos;
            self.digits();
            if self.pos == fs {
                return self.unexpected("a digit after '.'");
            }
            frac = Some(fs);
        }
        let frac_end = self.pos;
        let mut has_exp = false;
        if matches!(src.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(src.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            let es = self.pos;
            self.digits();
            if self.pos == es {
                return self.unexpected("a digit in the exponent");
            }
            has_exp = true;
        }
        let text = &src[start..self.pos];
        let int_digits = &src[int_start..int_end];
        if !has_exp {
            match frac {
                None => {
                    // Integers below 2^53 are exact doubles whose ECMAScript form is their digits.
                    if int_digits == b"0" {
                        self.out.push(b'0'); // also "-0"
                        return Ok(());
                    }
                    if int_digits.len() <= 15
                        || (int_digits.len() == 16 && parse_u64(int_digits) <= 1 << 53)
                    {
                        self.out.extend_from_slice(text);
                        return Ok(());
                    }
                }
                Some(fs) => {
                    // A decimal of at most 15 significant digits round-trips through a double and no
                    // other decimal of at most that many digits maps to the same double, so with no
                    // trailing zero it is the shortest form; ECMAScript writes it without exponent if
                    // 1e-6 <= |v| < 1e21.
                    let fd = &src[fs..frac_end];
                    if fd[fd.len() - 1] != b'0' {
                        let significant = if int_digits == b"0" {
                            let lz = fd.iter().take_while(|&&d| d == b'0').count();
                            (lz <= 5).then_some(fd.len() - lz)
                        } else {
                            Some(int_digits.len() + fd.len())
                        };
                        if significant.is_some_and(|s| s <= 15) {
                            self.out.extend_from_slice(text);
                            return Ok(());
                        }
                    }
                }
            }
        }
        // SAFETY: the grammar above only admits ASCII.
        let s = unsafe { std::str::from_utf8_unchecked(text) };
        let v: f64 = s
            .parse()
            .expect("JSON number grammar is accepted by f64::from_str");
        if v.is_infinite() {
            return self.err(start, ErrorKind::NumberOutOfRange);
        }
        write_number(&mut self.out, v);
        Ok(())
    }
}

fn parse_u64(digits: &[u8]) -> u64 {
    digits
        .iter()
        .fold(0u64, |acc, &d| acc * 10 + (d - b'0') as u64)
}

/// Appends the ECMAScript `Number.prototype.toString` form of a finite double (`-0` becomes `0`).
pub fn write_number(out: &mut Vec<u8>, v: f64) {
    debug_assert!(v.is_finite());
    let mut buf = ryu_js::Buffer::new();
    out.extend_from_slice(buf.format_finite(v).as_bytes());
}

/// Decodes the canonical escapes (`\" \\ \b \f \n \r \t \u00xx`) of a canonical string body.
fn unescape_canonical(s: &[u8], dst: &mut Vec<u8>) {
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            dst.push(s[i]);
            i += 1;
            continue;
        }
        let c = s[i + 1];
        i += 2;
        dst.push(match c {
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let v = (hex_val(s[i + 2]).unwrap() << 4) | hex_val(s[i + 3]).unwrap();
                i += 4;
                v as u8
            }
            other => other, // '"' and '\\'
        });
    }
}

/// Appends the RFC 8785 canonical form of the JSON text `input` to `out`.
///
/// On error `out` holds a partial result; its contents are unspecified.
pub fn canonicalize_into(input: &[u8], out: &mut Vec<u8>) -> Result<(), JcsError> {
    if input.starts_with(b"\xEF\xBB\xBF") {
        return Err(JcsError {
            pos: 0,
            kind: ErrorKind::ByteOrderMark,
        });
    }
    let mut p = Parser::new(input, std::mem::take(out));
    let r = p.parse_value().and_then(|()| {
        p.skip_ws();
        if p.pos != input.len() {
            return p.err(p.pos, ErrorKind::TrailingData);
        }
        Ok(())
    });
    *out = p.out;
    r
}

/// The RFC 8785 (JCS) canonical form of the JSON text `input`.
///
/// The input must be strict RFC 8259 JSON in UTF-8 without byte order mark, with no duplicate
/// object keys, no lone surrogate escapes, no number beyond the double range (numbers that underflow,
/// such as `1e-400`, become `0`), and at most [`MAX_DEPTH`] nested arrays and objects.
pub fn canonicalize(input: &[u8]) -> Result<Vec<u8>, JcsError> {
    let mut out = Vec::with_capacity(input.len());
    canonicalize_into(input, &mut out)?;
    Ok(out)
}

/// Lowercase hex SHA-256 of `context` (UTF-8), one zero byte, and the canonical form of `body`.
pub fn fingerprint_hex(context: &str, body: &[u8]) -> Result<String, JcsError> {
    let canonical = canonicalize(body)?;
    let mut h = Sha256::new();
    h.update(context.as_bytes());
    h.update([0u8]);
    h.update(&canonical);
    let digest = h.finalize();
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push(HEX[(b >> 4) as usize] as char);
        hex.push(HEX[(b & 15) as usize] as char);
    }
    Ok(hex)
}

/// Runs `f` on the bytes of a `bytes`, `bytearray` or other byte buffer object, without the GIL
/// when the input is large.
fn with_body<T, F>(py: Python<'_>, body: &Bound<'_, PyAny>, f: F) -> PyResult<T>
where
    T: Send,
    F: Fn(&[u8]) -> Result<T, JcsError> + Send + Sync,
{
    let run = |bytes: &[u8]| -> PyResult<T> {
        let r = if bytes.len() >= DETACH_MIN_LEN {
            py.detach(|| f(bytes))
        } else {
            f(bytes)
        };
        r.map_err(PyErr::from)
    };
    if let Ok(b) = body.cast::<PyBytes>() {
        // Immutable, and kept alive by `body`: safe to read without the GIL.
        return run(b.as_bytes());
    }
    if let Ok(ba) = body.cast::<PyByteArray>() {
        // A bytearray can be resized by other threads; take a snapshot.
        return run(&ba.to_vec());
    }
    match PyBuffer::<u8>::get(body) {
        Ok(buf) => run(&buf.to_vec(py)?),
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected bytes, bytearray or memoryview, got {}",
            body.get_type().name()?
        ))),
    }
}

/// Return the RFC 8785 (JSON Canonicalization Scheme) form of the UTF-8 JSON text `body`.
///
/// `body` is ``bytes``, ``bytearray`` or a byte ``memoryview``. The result has object members
/// sorted by the UTF-16 code units of their keys, no insignificant white space, numbers written
/// as ECMAScript's ``Number.prototype.toString`` does (``-0`` becomes ``0``, ``1E30`` becomes
/// ``1e+30``, ``4.50`` becomes ``4.5``), and strings escaped minimally (only ``"``, ``\`` and
/// control characters, as ``\b \t \n \f \r`` or lowercase ``\u00xx``; ``\/`` becomes ``/`` and
/// surrogate-pair escapes become the UTF-8 character).
///
/// Raises ``ValueError`` with the 0-based byte offset of the fault ("invalid JSON at byte 17:
/// expected ',' or '}', found ']'") for input that is not strict RFC 8259 JSON (leading zeros,
/// trailing commas, NaN, comments, trailing data, invalid UTF-8, raw control characters in
/// strings, bad escapes, a leading byte order mark), for duplicate object keys (offset of the
/// second one; keys compare after unescaping), lone surrogate escapes, numbers that overflow a
/// double (``1e400``; ``1e-400`` underflows to ``0`` and is accepted) and for arrays and objects
/// nested more than 128 deep.
#[pyfunction]
#[pyo3(signature = (body))]
fn canonical_json<'py>(py: Python<'py>, body: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let out = with_body(py, body, canonicalize)?;
    Ok(PyBytes::new(py, &out))
}

/// Return the idempotency fingerprint of the JSON text `body`: the lowercase hex SHA-256 of the
/// UTF-8 bytes of `context`, one zero byte, and ``canonical_json(body)``.
///
/// Bodies that differ only in key order, white space, number spelling or string escaping share a
/// fingerprint; `context` (e.g. ``"POST /agents/access-core/submissions/judge"``) separates
/// endpoints. Raises ``ValueError`` exactly as :func:`canonical_json` does.
#[pyfunction]
#[pyo3(signature = (body, *, context = ""))]
fn fingerprint(py: Python<'_>, body: &Bound<'_, PyAny>, context: &str) -> PyResult<String> {
    with_body(py, body, |b| fingerprint_hex(context, b))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(canonical_json, m)?)?;
    m.add_function(wrap_pyfunction!(fingerprint, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        String::from_utf8(canonicalize(s.as_bytes()).unwrap()).unwrap()
    }

    fn err(s: &[u8]) -> JcsError {
        canonicalize(s).unwrap_err()
    }

    fn num(bits: u64) -> String {
        let mut out = Vec::new();
        write_number(&mut out, f64::from_bits(bits));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rfc8785_sample() {
        let input = r#"{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}"#;
        let expected = r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#;
        assert_eq!(canon(input), expected);
    }

    #[test]
    fn rfc8785_sorting() {
        let input = r#"{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh",
            "1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}"#;
        let expected = "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
            \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
            \"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}";
        assert_eq!(canon(input), expected);
    }

    #[test]
    fn utf16_order_against_encode_utf16() {
        let samples = [
            "",
            "a",
            "ab",
            "\u{7f}",
            "\u{80}",
            "\u{7ff}",
            "\u{800}",
            "\u{d7ff}",
            "\u{e000}",
            "\u{fb33}",
            "\u{ffff}",
            "\u{10000}",
            "\u{1f600}",
            "\u{10ffff}",
            "a\u{1f600}",
            "a\u{ffff}",
            "a\u{e000}b",
            "\u{1f600}a",
            "a\0",
            "a\0b",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefgh1",
            "abcdefgh\u{e000}",
            "abcdefgh\u{10000}",
            "abcdefg\u{e000}",
            "abcdefg\u{10000}",
            "abcde\u{ffff}",
            "abcde\u{10ffff}",
        ];
        for a in samples {
            for b in samples {
                let want = a.encode_utf16().cmp(b.encode_utf16());
                assert_eq!(
                    cmp_utf16(a.as_bytes(), b.as_bytes()),
                    want,
                    "{a:?} vs {b:?}"
                );
                let (pa, pb) = (utf16_prefix(a.as_bytes()), utf16_prefix(b.as_bytes()));
                // The prefix order never contradicts the full order.
                assert!(pa == pb || pa.cmp(&pb) == want, "prefix {a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn appendix_b_numbers() {
        // RFC 8785 Appendix B (each checked against CPython repr + ECMAScript formatting rules).
        let vectors: &[(u64, &str)] = &[
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for &(bits, want) in vectors {
            assert_eq!(num(bits), want, "{bits:#018x}");
            // And through the parser: the expected text is itself canonical.
            assert_eq!(canon(want), want);
        }
    }

    #[test]
    fn numbers() {
        for (input, want) in [
            ("-0", "0"),
            ("-0.0", "0"),
            ("0.0", "0"),
            ("1e21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("1e-7", "1e-7"),
            ("0.0000001", "1e-7"),
            ("0.000001", "0.000001"),
            ("4.50", "4.5"),
            ("2e-3", "0.002"),
            ("1E+2", "100"),
            ("1.0", "1"),
            ("-12.340", "-12.34"),
            ("9007199254740992", "9007199254740992"),
            ("9007199254740993", "9007199254740992"),
            ("123456789012345678", "123456789012345680"),
            ("0.1", "0.1"),
            ("123456789012345.6", "123456789012345.6"),
            ("1234567890123456.7", "1234567890123456.8"),
            ("0.30000000000000004", "0.30000000000000004"),
            ("1e-400", "0"),
            ("-1e-400", "0"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ] {
            assert_eq!(canon(input), want, "{input}");
        }
    }

    #[test]
    fn number_fast_path_agrees_with_ryu() {
        // Pseudo-random short decimals: the verbatim path must equal parse + ryu_js.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let int_len = (x % 9) as usize;
            let frac_len = ((x >> 8) % 12) as usize;
            let mut s = String::new();
            if x >> 20 & 1 == 1 {
                s.push('-');
            }
            let mut y = x >> 21;
            if int_len == 0 {
                s.push('0');
            } else {
                s.push((b'1' + (y % 9) as u8) as char);
                y /= 9;
                for _ in 1..int_len {
                    s.push((b'0' + (y % 10) as u8) as char);
                    y /= 10;
                }
            }
            if frac_len > 0 {
                s.push('.');
                let zeros = (x >> 60) as usize % 8;
                for i in 0..frac_len {
                    let d = if i < zeros { 0 } else { (y % 10) as u8 };
                    y = y / 10 + (x >> (i % 50));
                    s.push((b'0' + d) as char);
                }
            }
            let mut slow = Vec::new();
            write_number(&mut slow, s.parse::<f64>().unwrap());
            assert_eq!(canon(&s).as_bytes(), &slow[..], "{s}");
        }
    }

    #[test]
    fn strings() {
        assert_eq!(canon(r#""\u2028\u007f\/""#), "\"\u{2028}\u{7f}/\"");
        assert_eq!(
            canon(r#""\u0000\u001f\b\f\n\r\t""#),
            r#""\u0000\u001f\b\f\n\r\t""#
        );
        assert_eq!(canon(r#""\uD83D\uDE00""#), "\"\u{1f600}\"");
        assert_eq!(
            canon("\"\u{1f600}\u{627}\u{644}\""),
            "\"\u{1f600}\u{627}\u{644}\""
        );
        assert_eq!(canon(r#""\u0041\u00e9""#), "\"A\u{e9}\"");
        let long = "x".repeat(1000) + "\"";
        assert_eq!(
            canon(&format!("\"{}\"", long.replace('"', "\\\""))),
            format!("\"{}\"", long.replace('"', "\\\""))
        );
    }

    #[test]
    fn whitespace_and_nesting() {
        assert_eq!(
            canon(" \t\r\n[ 1 , { \"b\" : [ ] , \"a\" : { } } ] \n"),
            r#"[1,{"a":{},"b":[]}]"#
        );
        assert_eq!(
            canon(r#"{"b":{"d":1,"c":2},"a":[{"z":0,"y":1}]}"#),
            r#"{"a":[{"y":1,"z":0}],"b":{"c":2,"d":1}}"#
        );
    }

    #[test]
    fn escaped_keys_sort_and_dedupe_after_unescaping() {
        assert_eq!(
            canon(r#"{"\u0062":1,"a":2,"\n":3,"\"":4}"#),
            r#"{"\n":3,"\"":4,"a":2,"b":1}"#
        );
        let e = err(br#"{"a":1,"\u0061":2}"#);
        assert_eq!(e.pos, 7);
        assert_eq!(e.kind, ErrorKind::DuplicateKey("a".into()));
    }

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert_eq!(canon(&ok), ok);
        let bad = "[".repeat(129) + &"]".repeat(129);
        assert_eq!(
            err(bad.as_bytes()),
            JcsError {
                pos: 128,
                kind: ErrorKind::TooDeep
            }
        );
        let bad_obj = "{\"a\":".repeat(129) + "1" + &"}".repeat(129);
        assert_eq!(
            err(bad_obj.as_bytes()),
            JcsError {
                pos: 5 * 128,
                kind: ErrorKind::TooDeep
            }
        );
    }

    #[test]
    fn errors_with_positions() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"", 0, "unexpected end of input"),
            (b"   ", 3, "unexpected end of input"),
            (b"{\"a\":1,}", 7, "expected a string key, found '}'"),
            (b"[1,]", 3, "expected a JSON value, found ']'"),
            (b"[1 2]", 3, "expected ',' or ']'"),
            (b"{\"a\":1 \"b\":2}", 7, "expected ',' or '}'"),
            (b"{\"a\" 1}", 5, "expected ':'"),
            (b"{1:2}", 1, "expected a string key"),
            (b"01", 1, "leading zeros"),
            (b"-01", 2, "leading zeros"),
            (b"1.", 2, "digit after '.'"),
            (b"1.e5", 2, "digit after '.'"),
            (b"1e", 2, "digit in the exponent"),
            (b"-", 1, "expected a digit"),
            (b"+1", 0, "expected a JSON value, found '+'"),
            (b".5", 0, "expected a JSON value"),
            (b"NaN", 0, "expected a JSON value, found 'N'"),
            (b"Infinity", 0, "expected a JSON value"),
            (b"-Infinity", 1, "expected a digit"),
            (b"tru", 3, "unexpected end of input, expected 'true'"),
            (b"nul1", 3, "expected 'null', found '1'"),
            (b"[1] x", 4, "unexpected data after the JSON value"),
            (b"[1]]", 3, "unexpected data"),
            (b"// c\n1", 0, "expected a JSON value, found '/'"),
            (b"[1,/*c*/2]", 3, "expected a JSON value"),
            (b"\x0c1", 0, "byte 0x0c"),
            (b"\xc2\xa01", 0, "byte 0xc2"),
            (b"\"a\xffb\"", 2, "invalid UTF-8"),
            (b"\"a\xc3\"", 2, "invalid UTF-8"),
            (b"\"\xed\xa0\x80\"", 1, "invalid UTF-8"),
            (b"\"a\nb\"", 2, "unescaped control character 0x0a"),
            (b"\"a\\x\"", 2, "invalid escape"),
            (b"\"\\u12g4\"", 5, "four hex digits"),
            (b"\"\\ud800\"", 1, "lone surrogate \\ud800"),
            (b"\"ab\\udc00\"", 3, "lone surrogate \\udc00"),
            (b"\"\\ud800\\u0041\"", 1, "lone surrogate"),
            (b"\"\\ud800\\n\"", 1, "lone surrogate"),
            (b"\"abc", 4, "'\"' to close the string"),
            (b"\"abc\\", 5, "escape character"),
            (b"[1e400]", 1, "out of the IEEE-754 double range"),
            (b"-1e309", 0, "out of the IEEE-754 double range"),
            (b"\xef\xbb\xbf{}", 0, "byte order mark"),
            (
                b"{\"a\":1,\"b\":2,\"a\":3}",
                13,
                "duplicate object key \"a\"",
            ),
            (
                b"{\"b\":1,\"a\":2,\"b\":3,\"a\":4}",
                13,
                "duplicate object key \"b\"",
            ),
            (
                b"{\"x\":{\"k\":1,\"k\":2}}",
                12,
                "duplicate object key \"k\"",
            ),
        ];
        for &(input, pos, msg) in cases {
            let e = err(input);
            let text = e.to_string();
            assert_eq!(e.pos, pos, "{:?}: {text}", String::from_utf8_lossy(input));
            assert!(
                text.starts_with(&format!("invalid JSON at byte {pos}: ")),
                "{text}"
            );
            assert!(
                text.contains(msg),
                "{:?}: {text}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn scan_run_finds_first_special() {
        let base: Vec<u8> = "abcdefghijklmnopqrstuvwxyz\u{627}\u{644}xyz"
            .bytes()
            .collect();
        for special in [b'"', b'\\', 0u8, 0x1f] {
            for at in (0..base.len()).filter(|&k| base[k] < 0x80) {
                let mut s = base.clone();
                s[at] = special;
                assert_eq!(scan_run(&s, 0), Ok(at));
            }
        }
        assert_eq!(scan_run(&base, 0), Ok(base.len()));
        assert_eq!(scan_run(b"\x7f \xc2\x80", 0), Ok(4));
    }

    #[test]
    fn scan_run_validates_like_std() {
        // Random byte strings (specials removed) biased towards UTF-8 edge bytes.
        let pool: &[u8] = &[
            b'a', b' ', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xd8, 0xdf,
            0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
        ];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..300_000 {
            let mut s = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 14) as usize;
            let mut y = x;
            for _ in 0..len {
                s.push(pool[(y % pool.len() as u64) as usize]);
                y = y / pool.len() as u64 + (x >> 3);
            }
            let want = match std::str::from_utf8(&s) {
                Ok(_) => Ok(s.len()),
                Err(e) => Err(e.valid_up_to()),
            };
            assert_eq!(scan_run(&s, 0), want, "{s:02x?}");
        }
        for ch in [
            '\u{80}',
            '\u{7ff}',
            '\u{800}',
            '\u{d7ff}',
            '\u{e000}',
            '\u{ffff}',
            '\u{10000}',
            '\u{10ffff}',
        ] {
            let s = ch.to_string().repeat(3);
            assert_eq!(scan_run(s.as_bytes(), 0), Ok(s.len()));
        }
    }

    #[test]
    fn fingerprint_matches_sha256_of_context_nul_canonical() {
        let fp = fingerprint_hex("ctx", b"{\"b\":1, \"a\":2}").unwrap();
        let mut h = Sha256::new();
        h.update(b"ctx\0{\"a\":2,\"b\":1}");
        let want: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(fp, want);
        assert_ne!(fp, fingerprint_hex("", b"{\"b\":1, \"a\":2}").unwrap());
        // sha256(b"\0[]"), computed independently with Python's hashlib.
        assert_eq!(
            fingerprint_hex("", b" [ ] ").unwrap(),
            "f370acc9d8b734d907d177ef29f70d4102a6226a969871eef36ce547b2944361"
        );
    }
}
