//! The push parser: a byte-level state machine over its own buffer that can stop after any byte.
//!
//! Each state runs a tight loop over as many bytes as it can (string content, digits, whitespace)
//! and only returns to the dispatch at token boundaries or at the end of the fed bytes, where it
//! suspends. The containers being parsed live on an explicit stack bounded by `max_depth`.
use std::collections::BTreeSet;

use super::document::{
    next_sibling, Document, Node, T_ARRAY, T_FALSE, T_NULL, T_NUMBER, T_OBJECT, T_STRING,
    T_STRING_ESC, T_TRUE,
};
use super::text::{
    hex_value, span_hash, spans_equal, utf8_lead, DecodedBytes, BACKSLASH, CLASS, CONTROL, PLAIN,
};
use super::JsonError;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Expecting a value (root, after `:`, after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ArrayFirst,
    /// After `{`: a member name or `}`.
    ObjectFirst,
    /// After `,` in an object: a member name.
    ObjectKey,
    /// After a member name: `:`.
    Colon,
    /// After a value inside a container: `,` or the closing bracket.
    After,
    /// The root value is complete: only whitespace may follow.
    Done,
    /// String content.
    Str,
    /// Inside a multi-byte UTF-8 sequence of a string.
    Utf8,
    /// After `\`.
    Escape,
    /// Inside the hex digits of `\u`.
    EscapeHex,
    /// After a high-surrogate escape: `\` of the low half.
    LowBackslash,
    /// After a high-surrogate escape and `\`: `u` of the low half.
    LowU,
    /// After `-`.
    Minus,
    /// After a leading `0`.
    Zero,
    /// Integer digits after `1`..`9`.
    Int,
    /// After `.`: a digit.
    Dot,
    /// Fraction digits.
    Frac,
    /// After `e`/`E`: a sign or digit.
    Exp,
    /// After the exponent sign: a digit.
    ExpSign,
    /// Exponent digits.
    ExpDigits,
    /// Inside `true`, `false` or `null`.
    Literal,
}

/// Objects with more members than this detect duplicates with a hash table instead of a scan.
const LINEAR_KEYS: usize = 8;

/// Member-name index of an open object.
enum Keys {
    /// Few members: compare with the previous names in the arena.
    Linear,
    /// Open addressing over (decoded-name hash, key node index); node 0 (the root) marks empty.
    Hash {
        slots: Vec<(u64, usize)>,
        used: usize,
        probes: usize,
    },
    /// Fallback when probe chains grow suspiciously long (crafted collisions): worst-case
    /// O(log n) comparisons, at the cost of one copy of each decoded name.
    Tree(BTreeSet<Vec<u8>>),
}

struct Frame {
    node: usize,
    object: bool,
    /// `Parser::count` of the enclosing container, restored when this one closes.
    outer_count: usize,
}

/// Member names of the object open at one depth; kept per depth level, reset when an object opens.
struct KeyIndex {
    /// Fingerprints of the first `LINEAR_KEYS` names (`ESCAPED_FP` for names with escapes).
    fps: [u64; LINEAR_KEYS],
    keys: Keys,
}

/// Push parser; owns the body buffer. Feed chunks as they arrive, then `finish`.
pub struct Parser {
    buf: Vec<u8>,
    /// Bytes of `buf` already consumed by the state machine.
    pos: usize,
    state: State,
    /// The first error; every later call reports it again.
    err: Option<JsonError>,
    max_depth: u32,
    nodes: Vec<Node>,
    stack: Vec<Frame>,
    /// Whether the innermost open container is an object.
    in_object: bool,
    /// Elements (members for an object) completed so far in the innermost open container.
    count: usize,
    /// `indexes[d]` belongs to the object at depth `d + 1` when that container is an object.
    indexes: Vec<KeyIndex>,
    /// Start of the current string content or number.
    tok: usize,
    tok_escaped: bool,
    tok_key: bool,
    /// End of the integer part of the current number (0 = not seen yet).
    int_end: usize,
    /// Index of the current number's `e`/`E` (0 = none; a number never starts with it).
    exp_at: usize,
    hex: u32,
    hex_digits: u8,
    /// The pending high surrogate (0 = none) while its low half is expected.
    high: u32,
    utf8_need: u8,
    utf8_lo: u8,
    utf8_hi: u8,
    literal: &'static [u8],
    literal_i: usize,
}

impl Parser {
    pub fn new(max_depth: u32) -> Parser {
        Parser::with_capacity(max_depth, 0)
    }

    /// Like `new`, reserving room for a body of `bytes` bytes.
    pub fn with_capacity(max_depth: u32, bytes: usize) -> Parser {
        Parser {
            buf: Vec::with_capacity(bytes),
            pos: 0,
            state: State::Value,
            err: None,
            max_depth,
            nodes: Vec::with_capacity(bytes / 8 + 4),
            stack: Vec::new(),
            in_object: false,
            count: 0,
            indexes: Vec::new(),
            tok: 0,
            tok_escaped: false,
            tok_key: false,
            int_end: 0,
            exp_at: 0,
            hex: 0,
            hex_digits: 0,
            high: 0,
            utf8_need: 0,
            utf8_lo: 0,
            utf8_hi: 0,
            literal: b"",
            literal_i: 0,
        }
    }

    /// Appends `chunk` and parses as far as it goes; reports the first error as soon as a byte
    /// decides it (and again on every later call).
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), JsonError> {
        if let Some(e) = self.err {
            return Err(e);
        }
        self.buf.extend_from_slice(chunk);
        let buf = std::mem::take(&mut self.buf);
        let r = self.run(&buf, self.pos);
        self.pos = buf.len();
        self.buf = buf;
        if let Err(e) = r {
            self.err = Some(e);
        }
        r
    }

    /// The body is complete: the document, or why it is not acceptable JSON.
    pub fn finish(mut self) -> Result<Document, JsonError> {
        if let Some(e) = self.err {
            return Err(e);
        }
        if self.stack.is_empty()
            && matches!(
                self.state,
                State::Zero | State::Int | State::Frac | State::ExpDigits
            )
        {
            let buf = std::mem::take(&mut self.buf);
            self.end_number(&buf, buf.len())?;
            self.buf = buf;
        }
        if self.state != State::Done {
            return Err(JsonError::Incomplete);
        }
        Ok(Document::new(self.buf, self.nodes))
    }

    /// The dispatch over the states between tokens. Tokens and the states that resume one cut by
    /// the end of a chunk run in functions of their own: a JIT recompiles a hot function whole,
    /// optimised, so small hot functions keep that cheap (a process's first request starts it).
    #[inline(never)]
    fn run(&mut self, buf: &[u8], mut p: usize) -> Result<(), JsonError> {
        let n = buf.len();
        while p < n {
            let state = self.state;
            if !matches!(
                state,
                State::Value
                    | State::ArrayFirst
                    | State::ObjectFirst
                    | State::ObjectKey
                    | State::Colon
                    | State::After
            ) {
                p = self.resume(buf, p)?;
                continue;
            }
            p = skip_ws(buf, p);
            if p == n {
                break;
            }
            let b = buf[p];
            p += 1;
            match (state, b) {
                (State::Value | State::ArrayFirst, b'"') => {
                    self.tok = p;
                    self.tok_escaped = false;
                    self.tok_key = false;
                    p = self.string(buf, p)?;
                }
                (State::Value | State::ArrayFirst, b'0'..=b'9' | b'-') => {
                    p = self.number(buf, b, p)?
                }
                (State::Value | State::ArrayFirst, b'{') => self.open(true)?,
                (State::Value | State::ArrayFirst, b'[') => self.open(false)?,
                (State::Value | State::ArrayFirst, b't') => p = self.literal(buf, p, b"true"),
                (State::Value | State::ArrayFirst, b'f') => p = self.literal(buf, p, b"false"),
                (State::Value | State::ArrayFirst, b'n') => p = self.literal(buf, p, b"null"),
                (State::ArrayFirst, b']') => self.close()?,
                (State::ObjectFirst | State::ObjectKey, b'"') => {
                    self.tok = p;
                    self.tok_escaped = false;
                    self.tok_key = true;
                    p = self.string(buf, p)?;
                }
                (State::Colon, b':') => self.state = State::Value,
                (State::After, b',') => {
                    self.state = if self.in_object {
                        State::ObjectKey
                    } else {
                        State::Value
                    };
                }
                (State::ObjectFirst, b'}') => self.close()?,
                (State::After, b'}') if self.in_object => self.close()?,
                (State::After, b']') if !self.in_object => self.close()?,
                _ => return Err(JsonError::Syntax),
            }
        }
        Ok(())
    }

    /// The states inside a token: where a token cut by the end of a chunk resumes, and the bytes
    /// after `-`, in escapes and in literals.
    #[inline(never)]
    fn resume(&mut self, buf: &[u8], mut p: usize) -> Result<usize, JsonError> {
        let n = buf.len();
        match self.state {
            State::Done => {
                p = skip_ws(buf, p);
                if p < n {
                    return Err(JsonError::Trailing);
                }
            }
            State::Str => p = self.string(buf, p)?,
            State::Utf8 => {
                p = self.utf8_continue(buf, p)?;
                if self.utf8_need == 0 {
                    p = self.string(buf, p)?;
                }
            }
            State::Escape => {
                let b = buf[p];
                p += 1;
                match b {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                        p = self.string(buf, p)?;
                    }
                    b'u' => {
                        self.hex = 0;
                        self.hex_digits = 0;
                        self.state = State::EscapeHex;
                    }
                    _ => return Err(JsonError::Syntax),
                }
            }
            State::EscapeHex => {
                while p < n && self.hex_digits < 4 {
                    let d = match hex_value(buf[p]) {
                        Some(d) => d,
                        None => return Err(JsonError::Syntax),
                    };
                    self.hex = (self.hex << 4) | d;
                    self.hex_digits += 1;
                    p += 1;
                }
                if self.hex_digits == 4 {
                    let v = self.hex;
                    let low = (0xDC00..=0xDFFF).contains(&v);
                    if self.high != 0 {
                        if !low {
                            return Err(JsonError::LoneSurrogate);
                        }
                        self.high = 0;
                        p = self.string(buf, p)?;
                    } else if (0xD800..=0xDBFF).contains(&v) {
                        self.high = v;
                        self.state = State::LowBackslash;
                    } else if low {
                        return Err(JsonError::LoneSurrogate);
                    } else {
                        p = self.string(buf, p)?;
                    }
                }
            }
            State::LowBackslash => {
                if buf[p] != b'\\' {
                    return Err(JsonError::LoneSurrogate);
                }
                p += 1;
                self.state = State::LowU;
            }
            State::LowU => {
                if buf[p] != b'u' {
                    return Err(JsonError::LoneSurrogate);
                }
                p += 1;
                self.hex = 0;
                self.hex_digits = 0;
                self.state = State::EscapeHex;
            }
            State::Minus => {
                let b = buf[p];
                p += 1;
                match b {
                    b'0' => self.state = State::Zero,
                    b'1'..=b'9' => p = self.int(buf, p)?,
                    _ => return Err(JsonError::Syntax),
                }
            }
            State::Zero => p = self.after_int(buf, p)?,
            State::Int => p = self.int(buf, p)?,
            State::Dot => {
                if !buf[p].is_ascii_digit() {
                    return Err(JsonError::Syntax);
                }
                p = self.frac(buf, p + 1)?;
            }
            State::Frac => p = self.frac(buf, p)?,
            State::Exp => {
                let b = buf[p];
                p += 1;
                match b {
                    b'+' | b'-' => self.state = State::ExpSign,
                    b'0'..=b'9' => p = self.exp_digits(buf, p)?,
                    _ => return Err(JsonError::Syntax),
                }
            }
            State::ExpSign => {
                if !buf[p].is_ascii_digit() {
                    return Err(JsonError::Syntax);
                }
                p = self.exp_digits(buf, p + 1)?;
            }
            State::ExpDigits => p = self.exp_digits(buf, p)?,
            State::Literal => {
                let lit = self.literal;
                while p < n && self.literal_i < lit.len() {
                    if buf[p] != lit[self.literal_i] {
                        return Err(JsonError::Syntax);
                    }
                    p += 1;
                    self.literal_i += 1;
                }
                if self.literal_i == lit.len() {
                    self.literal_done();
                }
            }
            // The states between tokens are the dispatch's.
            State::Value
            | State::ArrayFirst
            | State::ObjectFirst
            | State::ObjectKey
            | State::Colon
            | State::After => {}
        }
        Ok(p)
    }

    /// A number from its first byte `first` (`-` or a digit), the byte before `p`.
    #[inline]
    fn number(&mut self, buf: &[u8], first: u8, p: usize) -> Result<usize, JsonError> {
        self.start_number(p - 1);
        match first {
            b'0' => {
                self.state = State::Zero;
                if p < buf.len() {
                    return self.after_int(buf, p);
                }
                Ok(p)
            }
            b'-' => {
                self.state = State::Minus;
                Ok(p)
            }
            _ => self.int(buf, p),
        }
    }

    /// `true`, `false` or `null` from the byte at `p`, after its first; checked here when whole in
    /// the fed bytes, else (and for a mismatch, which is an error) by the `Literal` state.
    #[inline]
    fn literal(&mut self, buf: &[u8], p: usize, lit: &'static [u8]) -> usize {
        self.literal = lit;
        let end = p + lit.len() - 1;
        // Byte by byte: a slice comparison would call `memcmp` for three or four bytes.
        if end <= buf.len() && lit[1..].iter().zip(&buf[p..end]).all(|(a, b)| a == b) {
            self.literal_done();
            return end;
        }
        self.literal_i = 1;
        self.state = State::Literal;
        p
    }

    fn literal_done(&mut self) {
        let tag = match self.literal[0] {
            b't' => T_TRUE,
            b'f' => T_FALSE,
            _ => T_NULL,
        };
        self.nodes.push(Node { tag, a: 0, b: 0 });
        self.value_done();
    }

    #[inline]
    fn start_number(&mut self, at: usize) {
        self.tok = at;
        self.int_end = 0;
        self.exp_at = 0;
    }

    #[inline]
    fn open(&mut self, object: bool) -> Result<(), JsonError> {
        if self.stack.len() >= self.max_depth as usize {
            return Err(JsonError::Depth);
        }
        let node = self.nodes.len();
        self.nodes.push(Node {
            tag: if object { T_OBJECT } else { T_ARRAY },
            a: 0,
            b: 0,
        });
        if object {
            // Levels below may hold arrays, which have no index: fill up to this depth.
            let depth = self.stack.len();
            while self.indexes.len() <= depth {
                self.indexes.push(KeyIndex {
                    fps: [0; LINEAR_KEYS],
                    keys: Keys::Linear,
                });
            }
            self.indexes[depth].keys = Keys::Linear;
        }
        self.stack.push(Frame {
            node,
            object,
            outer_count: self.count,
        });
        self.count = 0;
        self.in_object = object;
        self.state = if object {
            State::ObjectFirst
        } else {
            State::ArrayFirst
        };
        Ok(())
    }

    #[inline]
    fn close(&mut self) -> Result<(), JsonError> {
        let f = match self.stack.pop() {
            Some(f) => f,
            None => return Err(JsonError::Syntax),
        };
        let end = self.nodes.len();
        let node = &mut self.nodes[f.node];
        node.a = self.count;
        node.b = end;
        self.count = f.outer_count;
        self.in_object = matches!(self.stack.last(), Some(f) if f.object);
        self.value_done();
        Ok(())
    }

    #[inline]
    fn value_done(&mut self) {
        if self.stack.is_empty() {
            self.state = State::Done;
        } else {
            self.count += 1;
            self.state = State::After;
        }
    }

    /// String content from `p` until the closing quote (then the string is complete) or the end of
    /// the fed bytes (then the parser stays in `Str` or `Utf8`). Only plain content and the quote
    /// are handled here; every other byte goes to `special`.
    #[inline(never)]
    fn string(&mut self, buf: &[u8], mut p: usize) -> Result<usize, JsonError> {
        let n = buf.len();
        self.state = State::Str;
        loop {
            p = skip_plain(buf, p);
            if p == n {
                return Ok(p);
            }
            if buf[p] == b'"' {
                self.end_string(buf, p)?;
                return Ok(p + 1);
            }
            p = self.special(buf, p)?;
            if self.state != State::Str {
                return Ok(p);
            }
        }
    }

    /// The string byte at `p` that is neither plain nor the closing quote: an escape, a control
    /// byte or the lead of a multi-byte UTF-8 sequence. Returns where the content goes on; leaves
    /// `Str` for the escape or UTF-8 states when the sequence is cut by the end of the fed bytes.
    #[inline]
    fn special(&mut self, buf: &[u8], mut p: usize) -> Result<usize, JsonError> {
        let n = buf.len();
        let b = buf[p];
        p += 1;
        match CLASS[b as usize] {
            BACKSLASH => {
                self.tok_escaped = true;
                // Escapes whole in this chunk are checked here; a surrogate, a bad escape or
                // one cut by the chunk end goes through the escape states.
                match buf.get(p) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                        return Ok(p + 1);
                    }
                    Some(b'u') if p + 5 <= n => {
                        let v = buf[p + 1..p + 5]
                            .iter()
                            .try_fold(0u32, |acc, &d| hex_value(d).map(|d| (acc << 4) | d));
                        if let Some(v) = v {
                            if !(0xD800..=0xDFFF).contains(&v) {
                                return Ok(p + 5);
                            }
                        }
                    }
                    _ => {}
                }
                self.state = State::Escape;
                Ok(p)
            }
            CONTROL => Err(JsonError::Syntax),
            _ => {
                let (need, lo, hi) = match utf8_lead(b) {
                    Some(x) => x,
                    None => return Err(JsonError::Utf8),
                };
                let len = need as usize;
                if p + len <= n {
                    // The whole sequence is here: check it without touching the parser state.
                    if buf[p] < lo
                        || buf[p] > hi
                        || buf[p + 1..p + len].iter().any(|&c| c & 0xC0 != 0x80)
                    {
                        return Err(JsonError::Utf8);
                    }
                    return Ok(p + len);
                }
                self.utf8_need = need;
                self.utf8_lo = lo;
                self.utf8_hi = hi;
                p = self.utf8_continue(buf, p)?;
                if self.utf8_need != 0 {
                    self.state = State::Utf8;
                }
                Ok(p)
            }
        }
    }

    /// Continuation bytes of the current UTF-8 sequence.
    #[inline]
    fn utf8_continue(&mut self, buf: &[u8], mut p: usize) -> Result<usize, JsonError> {
        while self.utf8_need > 0 && p < buf.len() {
            let c = buf[p];
            if c < self.utf8_lo || c > self.utf8_hi {
                return Err(JsonError::Utf8);
            }
            self.utf8_lo = 0x80;
            self.utf8_hi = 0xBF;
            self.utf8_need -= 1;
            p += 1;
        }
        Ok(p)
    }

    #[inline]
    fn end_string(&mut self, buf: &[u8], end: usize) -> Result<(), JsonError> {
        let tag = if self.tok_escaped {
            T_STRING_ESC
        } else {
            T_STRING
        };
        let idx = self.nodes.len();
        self.nodes.push(Node {
            tag,
            a: self.tok,
            b: end,
        });
        if self.tok_key {
            // A member name is only read inside an object, whose index `open` created.
            let depth = self.stack.len() - 1;
            let obj = self.stack[depth].node;
            check_key(
                obj,
                self.count,
                &mut self.indexes[depth],
                &self.nodes,
                buf,
                idx,
            )?;
            self.state = State::Colon;
        } else {
            self.value_done();
        }
        Ok(())
    }

    /// Integer digits; then `.`, an exponent or the end of the number.
    #[inline]
    fn int(&mut self, buf: &[u8], mut p: usize) -> Result<usize, JsonError> {
        while p < buf.len() && buf[p].is_ascii_digit() {
            p += 1;
        }
        if p == buf.len() {
            self.state = State::Int;
            return Ok(p);
        }
        self.after_int(buf, p)
    }

    /// After the integer part, at a byte that is not a digit of it.
    #[inline]
    fn after_int(&mut self, buf: &[u8], p: usize) -> Result<usize, JsonError> {
        match buf[p] {
            b'.' => {
                self.int_end = p;
                // A digit after the point, the usual case, goes straight on to the fraction.
                if p + 1 < buf.len() && buf[p + 1].is_ascii_digit() {
                    return self.frac(buf, p + 2);
                }
                self.state = State::Dot;
                Ok(p + 1)
            }
            b'e' | b'E' => {
                self.int_end = p;
                self.exp_at = p;
                self.state = State::Exp;
                Ok(p + 1)
            }
            _ => {
                self.end_number(buf, p)?;
                Ok(p)
            }
        }
    }

    #[inline]
    fn frac(&mut self, buf: &[u8], mut p: usize) -> Result<usize, JsonError> {
        while p < buf.len() && buf[p].is_ascii_digit() {
            p += 1;
        }
        if p == buf.len() {
            self.state = State::Frac;
            return Ok(p);
        }
        if buf[p] == b'e' || buf[p] == b'E' {
            self.exp_at = p;
            self.state = State::Exp;
            return Ok(p + 1);
        }
        self.end_number(buf, p)?;
        Ok(p)
    }

    #[inline]
    fn exp_digits(&mut self, buf: &[u8], mut p: usize) -> Result<usize, JsonError> {
        while p < buf.len() && buf[p].is_ascii_digit() {
            p += 1;
        }
        if p == buf.len() {
            self.state = State::ExpDigits;
            return Ok(p);
        }
        self.end_number(buf, p)?;
        Ok(p)
    }

    /// Cheap sufficient test for the number `tok..end` being finite: it is below
    /// 10^(integer digits + exponent), finite when that power is at most 10^308. Otherwise the
    /// caller parses it.
    fn surely_finite(&self, buf: &[u8], end: usize) -> bool {
        // Counting a leading `-` as a digit only makes the test more conservative.
        let int_end = if self.int_end != 0 { self.int_end } else { end };
        let digits = (int_end - self.tok) as i64;
        if digits > 300 {
            return false;
        }
        if self.exp_at == 0 {
            return true;
        }
        let mut exp = &buf[self.exp_at + 1..end];
        let negative = exp.first() == Some(&b'-');
        if matches!(exp.first(), Some(b'-' | b'+')) {
            exp = &exp[1..];
        }
        while exp.len() > 4 && exp[0] == b'0' {
            exp = &exp[1..];
        }
        if exp.len() > 4 {
            return false;
        }
        let value = exp
            .iter()
            .fold(0i64, |acc, &b| acc * 10 + (b - b'0') as i64);
        digits + if negative { -value } else { value } <= 308
    }

    /// Whether the number `tok..end` (one with an exponent or many digits) is finite.
    #[cold]
    fn finite(&self, buf: &[u8], end: usize) -> bool {
        if self.surely_finite(buf, end) {
            return true;
        }
        let value = core::str::from_utf8(&buf[self.tok..end])
            .ok()
            .and_then(|s| s.parse::<f64>().ok());
        matches!(value, Some(v) if v.is_finite())
    }

    /// The number `tok..end` is complete (the byte at `end`, if any, is not consumed).
    #[inline]
    fn end_number(&mut self, buf: &[u8], end: usize) -> Result<(), JsonError> {
        // At most 300 bytes without an exponent means at most 300 integer digits: finite.
        if (self.exp_at != 0 || end - self.tok > 300) && !self.finite(buf, end) {
            return Err(JsonError::NumberRange);
        }
        self.nodes.push(Node {
            tag: T_NUMBER,
            a: self.tok,
            b: end,
        });
        self.value_done();
        Ok(())
    }
}

/// Parses a complete body.
pub fn parse(bytes: &[u8], max_depth: u32) -> Result<Document, JsonError> {
    let mut p = Parser::with_capacity(max_depth, bytes.len());
    p.feed(bytes)?;
    p.finish()
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Skips plain string bytes (not `"`, `\\`, a control byte or non-ASCII), 8 at a time.
#[inline]
fn skip_plain(buf: &[u8], mut p: usize) -> usize {
    while p + 8 <= buf.len() {
        let v = load8(buf, p);
        let q = v ^ (ONES * b'"' as u64);
        let s = v ^ (ONES * b'\\' as u64);
        // A byte's high bit ends up set if it is `"` or `\\` (x - 1 borrows from zero), below 0x20
        // (x - 0x20 borrows) or non-ASCII. Borrows only flag bytes above a real hit, so the lowest
        // flagged byte is exact.
        let hits =
            (q.wrapping_sub(ONES) | s.wrapping_sub(ONES) | v.wrapping_sub(ONES * 0x20) | v) & HIGHS;
        if hits != 0 {
            return p + (hits.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    while p < buf.len() && CLASS[buf[p] as usize] == PLAIN {
        p += 1;
    }
    p
}

#[inline]
fn skip_ws(buf: &[u8], mut p: usize) -> usize {
    while p < buf.len() && matches!(buf[p], b' ' | b'\n' | b'\r' | b'\t') {
        p += 1;
    }
    p
}

/// A member name's raw bytes in `buf` and whether they hold escapes.
#[inline]
fn key_span<'a>(nodes: &[Node], buf: &'a [u8], idx: usize) -> (&'a [u8], bool) {
    let n = nodes[idx];
    (&buf[n.a..n.b], n.tag == T_STRING_ESC)
}

/// Checks the just-completed member name `key` of the object at node `obj`, which has `count`
/// earlier members, against their names.
#[inline]
fn check_key(
    obj: usize,
    count: usize,
    index: &mut KeyIndex,
    nodes: &[Node],
    buf: &[u8],
    key: usize,
) -> Result<(), JsonError> {
    let span = |idx: usize| key_span(nodes, buf, idx);
    let (kraw, kesc) = span(key);
    if let Keys::Linear = index.keys {
        if count < LINEAR_KEYS {
            // Equal names have equal fingerprints unless escapes are involved; only a fingerprint
            // match (or an escape) costs a walk to the earlier name and a real comparison.
            let kn = nodes[key];
            let fp = if kesc {
                ESCAPED_FP
            } else {
                fingerprint(buf, kn.a, kn.b)
            };
            for j in 0..count {
                let other = index.fps[j];
                if other == fp || other == ESCAPED_FP || fp == ESCAPED_FP {
                    let (raw, esc) = span(nth_key(nodes, obj, j));
                    if spans_equal(raw, esc, kraw, kesc) {
                        return Err(JsonError::DuplicateKey);
                    }
                }
            }
            index.fps[count] = fp;
            return Ok(());
        }
    }
    check_key_indexed(obj, count, index, nodes, buf, key)
}

/// `check_key` for an object past `LINEAR_KEYS` members, whose names a hash table (or tree) holds.
#[inline(never)]
fn check_key_indexed(
    obj: usize,
    count: usize,
    index: &mut KeyIndex,
    nodes: &[Node],
    buf: &[u8],
    key: usize,
) -> Result<(), JsonError> {
    let span = |idx: usize| key_span(nodes, buf, idx);
    let (kraw, kesc) = span(key);
    if let Keys::Linear = index.keys {
        // Switch to hashing: index the earlier names, which are known to be distinct.
        let mut slots = vec![(0u64, 0usize); 64];
        let mut k = obj + 1;
        for _ in 0..count {
            let (raw, esc) = span(k);
            let h = span_hash(raw, esc);
            let mut i = h as usize & (slots.len() - 1);
            while slots[i].1 != 0 {
                i = (i + 1) & (slots.len() - 1);
            }
            slots[i] = (h, k);
            k = next_sibling(nodes, k + 1);
        }
        index.keys = Keys::Hash {
            slots,
            used: count,
            probes: 0,
        };
    }
    let flood = match index.keys {
        Keys::Hash {
            ref mut slots,
            ref mut used,
            ref mut probes,
        } => {
            let h = span_hash(kraw, kesc);
            let mask = slots.len() - 1;
            let mut i = h as usize & mask;
            while slots[i].1 != 0 {
                let (sh, sk) = slots[i];
                if sh == h {
                    let (raw, esc) = span(sk);
                    if spans_equal(raw, esc, kraw, kesc) {
                        return Err(JsonError::DuplicateKey);
                    }
                }
                *probes += 1;
                i = (i + 1) & mask;
            }
            slots[i] = (h, key);
            *used += 1;
            if *used * 2 > slots.len() {
                grow(slots);
            }
            // Honest names average about one probe each; far more means crafted collisions.
            *probes > 16 * *used + 1024
        }
        Keys::Tree(ref mut set) => {
            if !set.insert(decoded(kraw, kesc)) {
                return Err(JsonError::DuplicateKey);
            }
            false
        }
        Keys::Linear => false,
    };
    if flood {
        // Every indexed name is distinct, so the set simply collects them.
        let mut set = BTreeSet::new();
        let mut k = obj + 1;
        for j in 0..=count {
            let (raw, esc) = span(k);
            set.insert(decoded(raw, esc));
            if j < count {
                k = next_sibling(nodes, k + 1);
            }
        }
        index.keys = Keys::Tree(set);
    }
    Ok(())
}

/// Fingerprint marking a name with escapes: always compared in full.
const ESCAPED_FP: u64 = u64::MAX;

/// Length and up to 16 bytes (first and last 8) of the unescaped name `buf[a..b]`.
#[inline]
fn fingerprint(buf: &[u8], a: usize, b: usize) -> u64 {
    let len = b - a;
    let fp = if len >= 8 {
        load8(buf, a) ^ load8(buf, b - 8).rotate_left(29)
    } else if a + 8 <= buf.len() {
        // Whole-word load, then drop the bytes past the name (the quote and what follows).
        load8(buf, a) & ((1u64 << (8 * len)) - 1)
    } else {
        buf[a..b]
            .iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | x as u64)
    };
    // Clearing the top bit keeps the escape marker unambiguous.
    (fp ^ ((len as u64) << 56)) & !(1 << 63)
}

#[inline]
fn load8(buf: &[u8], p: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&buf[p..p + 8]);
    u64::from_le_bytes(word)
}

/// Node index of the `j`-th member name of the object at `obj`.
fn nth_key(nodes: &[Node], obj: usize, j: usize) -> usize {
    let mut k = obj + 1;
    for _ in 0..j {
        k = next_sibling(nodes, k + 1);
    }
    k
}

fn decoded(raw: &[u8], escaped: bool) -> Vec<u8> {
    if escaped {
        DecodedBytes::new(raw).collect()
    } else {
        raw.to_vec()
    }
}

fn grow(slots: &mut Vec<(u64, usize)>) {
    let mut bigger = vec![(0u64, 0usize); slots.len() * 2];
    let mask = bigger.len() - 1;
    for &(h, k) in slots.iter() {
        if k != 0 {
            let mut i = h as usize & mask;
            while bigger[i].1 != 0 {
                i = (i + 1) & mask;
            }
            bigger[i] = (h, k);
        }
    }
    *slots = bigger;
}

#[cfg(test)]
mod tests {
    use super::*;
    use JsonError::DuplicateKey;

    const DEPTH: u32 = 32;

    #[test]
    fn crafted_collisions_switch_to_the_tree_index() {
        // Names whose FNV hashes share their low bits collide in the table; enough of them make the
        // object switch to the tree index, which must still see every earlier name.
        let mut names = Vec::new();
        let mut i = 0u32;
        while names.len() < 3000 {
            let name = format!("n{}", i);
            if span_hash(name.as_bytes(), false) & 0xFFF == 0 {
                names.push(name);
            }
            i += 1;
        }
        let body = |extra: Option<&str>| {
            let mut s = String::from("{");
            for (k, n) in names.iter().enumerate() {
                s.push_str(&format!("{}\"{}\":{}", if k > 0 { "," } else { "" }, n, k));
            }
            if let Some(e) = extra {
                s.push_str(&format!(",\"{}\":0", e));
            }
            s.push('}');
            s
        };
        assert!(parse(body(None).as_bytes(), DEPTH).is_ok());
        let open = body(None);
        let mut p = Parser::new(DEPTH);
        p.feed(&open.as_bytes()[..open.len() - 1]).unwrap();
        assert!(matches!(p.indexes[0].keys, Keys::Tree(_)));
        let first = names[0].clone();
        let escaped_last = format!("\\u006e{}", &names[names.len() - 1][1..]);
        assert_eq!(
            parse(body(Some(&first)).as_bytes(), DEPTH).map(|_| ()),
            Err(DuplicateKey)
        );
        assert_eq!(
            parse(body(Some(&escaped_last)).as_bytes(), DEPTH).map(|_| ()),
            Err(DuplicateKey)
        );
    }

    #[test]
    fn honest_big_objects_stay_hashed() {
        let mut s = String::from("{");
        for i in 0..10_000 {
            s.push_str(&format!(
                "{}\"key{}\":{}",
                if i > 0 { "," } else { "" },
                i,
                i
            ));
        }
        let mut p = Parser::new(DEPTH);
        p.feed(s.as_bytes()).unwrap();
        assert!(matches!(p.indexes[0].keys, Keys::Hash { .. }));
    }

    #[test]
    fn finiteness_shortcut_is_sound() {
        for (num, sure) in [
            ("1e307", true),
            ("9e306", true),
            ("1e308", false),
            ("123e305", true),
            ("1234e305", false),
            ("1e-999", true),
            ("1.5e-3", true),
            ("0e00000", true),
            ("12", true),
        ] {
            let mut p = Parser::new(DEPTH);
            p.feed(num.as_bytes()).unwrap();
            assert_eq!(p.surely_finite(num.as_bytes(), num.len()), sure, "{}", num);
        }
    }
}
