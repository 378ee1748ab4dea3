//! The packed request: its decoding (which allocates nothing) and the scheme codes.

use alloc::vec::Vec;

use samekey::{Error, KeyRing, Scheme};

/// A malformed request is a bug in the JS layer, not bad user input.
#[derive(Debug)]
pub enum WireError {
    Core(Error),
    Malformed(&'static str),
}

impl From<Error> for WireError {
    fn from(e: Error) -> Self {
        WireError::Core(e)
    }
}

pub type Result<T> = core::result::Result<T, WireError>;

pub fn scheme_code(scheme: Scheme) -> u8 {
    Scheme::ALL.iter().position(|&s| s == scheme).unwrap_or(0) as u8
}

pub(crate) fn scheme_of(code: u8) -> Result<Scheme> {
    Scheme::ALL
        .get(usize::from(code))
        .copied()
        .ok_or(WireError::Malformed("unknown scheme code"))
}

/// A decoded request; its slices borrow from the buffer. Decoding allocates nothing, as
/// it runs on every single-id call.
pub struct Request<'a> {
    /// Scheme codes, primary first, each checked by `parse`.
    codes: &'a [u8],
    pub namespace: &'a str,
    pub secret: Option<&'a [u8]>,
    pub count: usize,
    buf: &'a [u8],
    at: usize,
}

impl<'a> Request<'a> {
    pub fn parse(buf: &'a [u8]) -> Result<Self> {
        let k = usize::from(*buf.first().ok_or(WireError::Malformed("empty request"))?);
        let head = buf
            .get(1..k + 6)
            .ok_or(WireError::Malformed("short header"))?;
        let codes = &head[..k];
        for &c in codes {
            scheme_of(c)?;
        }
        let count = u32::from_le_bytes([head[k + 1], head[k + 2], head[k + 3], head[k + 4]]);
        let mut r = Request {
            codes,
            namespace: "",
            secret: None,
            count: count as usize,
            buf,
            at: k + 6,
        };
        let has_secret = head[k] == 1;
        r.namespace = samekey::text::from_utf8(r.item()?)?;
        if has_secret {
            r.secret = Some(r.item()?);
        }
        Ok(r)
    }

    /// A bare list of `count` items, with no header: the fields a prepared deriver takes
    /// (its settings were given once, when it was made).
    pub fn items(buf: &'a [u8], count: usize) -> Self {
        Request {
            codes: &[],
            namespace: "",
            secret: None,
            count,
            buf,
            at: 0,
        }
    }

    /// The next length-prefixed item.
    pub fn item(&mut self) -> Result<&'a [u8]> {
        let len = self
            .buf
            .get(self.at..self.at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or(WireError::Malformed("truncated length"))?;
        let item = self
            .buf
            .get(self.at + 4..self.at + 4 + len)
            .ok_or(WireError::Malformed("truncated item"))?;
        self.at += 4 + len;
        Ok(item)
    }

    pub fn fields(&mut self, n: usize) -> Result<Vec<&'a [u8]>> {
        (0..n).map(|_| self.item()).collect()
    }

    /// Calls `f` with the request's `count` fields, on the stack when there are few, and
    /// the request positioned after them.
    pub fn with_fields<R>(
        &mut self,
        f: impl FnOnce(&mut Self, &[&'a [u8]]) -> Result<R>,
    ) -> Result<R> {
        let mut few: [&[u8]; 8] = [&[]; 8];
        if let Some(slots) = few.get_mut(..self.count) {
            for slot in slots.iter_mut() {
                *slot = self.item()?;
            }
            return f(self, slots);
        }
        let fields = self.fields(self.count)?;
        f(self, &fields)
    }

    /// The next 8 bytes as a little-endian `f64`.
    pub fn f64(&mut self) -> Result<f64> {
        let bytes = self
            .buf
            .get(self.at..self.at + 8)
            .ok_or(WireError::Malformed("truncated time"))?;
        self.at += 8;
        let mut le = [0u8; 8];
        le.copy_from_slice(bytes);
        Ok(f64::from_le_bytes(le))
    }

    pub(crate) fn primary(&self) -> Result<Scheme> {
        scheme_of(
            *self
                .codes
                .first()
                .ok_or(WireError::Malformed("no scheme"))?,
        )
    }

    pub(crate) fn ring(&self) -> Result<KeyRing> {
        let accepted = self.codes[1..]
            .iter()
            .map(|&c| scheme_of(c))
            .collect::<Result<Vec<_>>>()?;
        Ok(KeyRing::new(self.primary()?, &accepted)?)
    }
}
