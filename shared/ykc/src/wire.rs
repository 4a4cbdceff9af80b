//! The field encodings of the specification (section 3.2 "数据格式定义"):
//! BCD digits, little-endian binary integers ("BIN 码均为低位在前高位在后"),
//! zero-padded ASCII, raw bytes, and CP56Time2a times.
//!
//! Every field type reads exactly its own length and writes exactly that
//! many bytes, so a message's length is the sum of its fields' lengths and
//! a body of any other length is refused before any field is read.

use serde::{Serialize, Serializer};
use std::fmt;

/// Why a message body could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("the body ends inside field {field}")]
    Truncated { field: &'static str },
    #[error("field {field}: {reason}")]
    Invalid { field: &'static str, reason: String },
}

/// A cursor over a message body.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// The next `n` bytes, or `Truncated` naming the field being read.
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], FieldError> {
        if self.remaining() < n {
            return Err(FieldError::Truncated { field });
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    pub fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], FieldError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, field)?);
        Ok(out)
    }
}

/// One fixed-length field of a message body.
pub trait Field: Sized {
    /// Bytes on the wire.
    const LEN: usize;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError>;
    fn write(&self, out: &mut Vec<u8>);
}

impl Field for u8 {
    const LEN: usize = 1;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        Ok(r.take(1, field)?[0])
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }
}

impl Field for u16 {
    const LEN: usize = 2;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        Ok(u16::from_le_bytes(r.array(field)?))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl Field for u32 {
    const LEN: usize = 4;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        Ok(u32::from_le_bytes(r.array(field)?))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

/// A little-endian unsigned integer of `BYTES` bytes (3 for the BMS's
/// charge count, 5 for the meter registers of the transaction record).
/// The constructor refuses a value that does not fit, so writing never
/// truncates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct UInt<const BYTES: usize>(u64);

impl<const BYTES: usize> UInt<BYTES> {
    pub const MAX: u64 = (1u64 << (8 * BYTES)) - 1;

    pub fn new(value: u64) -> Option<Self> {
        (value <= Self::MAX).then_some(UInt(value))
    }

    pub fn get(self) -> u64 {
        self.0
    }
}

impl<const BYTES: usize> Field for UInt<BYTES> {
    const LEN: usize = BYTES;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        let bytes = r.take(BYTES, field)?;
        let mut value = 0u64;
        for (i, b) in bytes.iter().enumerate() {
            value |= u64::from(*b) << (8 * i);
        }
        Ok(UInt(value))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.to_le_bytes()[..BYTES]);
    }
}

impl<const BYTES: usize> Serialize for UInt<BYTES> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

/// `N` bytes of BCD: two decimal digits a byte, the first digit in the high
/// nibble ("55031412782305" is the bytes 55 03 14 12 78 23 05).
///
/// The bytes are kept as sent, so a pile that puts a nibble above 9 in a
/// BCD field still decodes (its digits show as hex letters) and re-encodes
/// byte for byte; [`Bcd::is_decimal`] tells whether it is proper BCD, and
/// [`Bcd::from_digits`] only builds proper BCD.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bcd<const N: usize>([u8; N]);

impl<const N: usize> Bcd<N> {
    /// Exactly `2 * N` decimal digits.
    pub fn from_digits(digits: &str) -> Result<Self, String> {
        if digits.len() != 2 * N || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("expected {} decimal digits, got {digits:?}", 2 * N));
        }
        let d = digits.as_bytes();
        let mut out = [0u8; N];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = ((d[2 * i] - b'0') << 4) | (d[2 * i + 1] - b'0');
        }
        Ok(Bcd(out))
    }

    /// Left-pads with zeros up to `2 * N` digits ("不足 N 位补 0").
    pub fn from_number(value: u128) -> Result<Self, String> {
        Self::from_digits(&format!("{value:0width$}", width = 2 * N))
    }

    pub fn from_bytes(bytes: [u8; N]) -> Self {
        Bcd(bytes)
    }

    pub fn bytes(&self) -> &[u8; N] {
        &self.0
    }

    /// Every nibble is a decimal digit.
    pub fn is_decimal(&self) -> bool {
        self.0.iter().all(|b| b >> 4 <= 9 && b & 0x0F <= 9)
    }

    /// The digits as sent (a nibble above 9 shows as an upper-case letter).
    pub fn digits(&self) -> String {
        self.0.iter().map(|b| format!("{b:02X}")).collect()
    }

    /// The decimal value, when the bytes are proper BCD.
    pub fn value(&self) -> Option<u128> {
        self.is_decimal().then(|| self.digits().parse().unwrap_or(0))
    }
}

impl<const N: usize> Default for Bcd<N> {
    fn default() -> Self {
        Bcd([0; N])
    }
}

impl<const N: usize> fmt::Debug for Bcd<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bcd({})", self.digits())
    }
}

impl<const N: usize> fmt::Display for Bcd<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.digits())
    }
}

impl<const N: usize> Field for Bcd<N> {
    const LEN: usize = N;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        Ok(Bcd(r.array(field)?))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
}

impl<const N: usize> Serialize for Bcd<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.digits())
    }
}

/// `N` raw bytes ("BIN 码" fields that are identifiers rather than numbers,
/// e.g. the physical card number `00000000D14B0A54`). Shown as hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bin<const N: usize>([u8; N]);

impl<const N: usize> Bin<N> {
    pub fn new(bytes: [u8; N]) -> Self {
        Bin(bytes)
    }

    /// Up to `2 * N` hex digits, left-padded with zero bytes ("不足 8 位补 0").
    pub fn from_hex(hex: &str) -> Result<Self, String> {
        if hex.len() > 2 * N || !hex.len().is_multiple_of(2) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("expected an even number of hex digits, at most {}, got {hex:?}", 2 * N));
        }
        let mut out = [0u8; N];
        let start = N - hex.len() / 2;
        for (i, byte) in out[start..].iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())?;
        }
        Ok(Bin(out))
    }

    pub fn bytes(&self) -> &[u8; N] {
        &self.0
    }

    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02X}")).collect()
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|b| *b == 0)
    }
}

impl<const N: usize> Default for Bin<N> {
    fn default() -> Self {
        Bin([0; N])
    }
}

impl<const N: usize> fmt::Debug for Bin<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bin({})", self.hex())
    }
}

impl<const N: usize> Field for Bin<N> {
    const LEN: usize = N;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        Ok(Bin(r.array(field)?))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
}

impl<const N: usize> Serialize for Bin<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.hex())
    }
}

/// `N` bytes of ASCII, zero-padded at the end ("不足 N 位补零"). The bytes
/// are kept as sent; [`Ascii::text`] reads up to the first zero byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ascii<const N: usize>([u8; N]);

impl<const N: usize> Ascii<N> {
    /// Printable ASCII, at most `N` characters.
    pub fn from_text(text: &str) -> Result<Self, String> {
        if text.len() > N || !text.bytes().all(|b| (0x20..0x7F).contains(&b)) {
            return Err(format!("expected at most {N} printable ASCII characters, got {text:?}"));
        }
        let mut out = [0u8; N];
        out[..text.len()].copy_from_slice(text.as_bytes());
        Ok(Ascii(out))
    }

    pub fn from_bytes(bytes: [u8; N]) -> Self {
        Ascii(bytes)
    }

    pub fn bytes(&self) -> &[u8; N] {
        &self.0
    }

    /// The characters before the first zero byte; a byte outside ASCII
    /// shows as U+FFFD.
    pub fn text(&self) -> String {
        let end = self.0.iter().position(|b| *b == 0).unwrap_or(N);
        self.0[..end]
            .iter()
            .map(|b| if b.is_ascii() { char::from(*b) } else { char::REPLACEMENT_CHARACTER })
            .collect()
    }
}

impl<const N: usize> Default for Ascii<N> {
    fn default() -> Self {
        Ascii([0; N])
    }
}

impl<const N: usize> fmt::Debug for Ascii<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ascii({:?})", self.text())
    }
}

impl<const N: usize> Field for Ascii<N> {
    const LEN: usize = N;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        Ok(Ascii(r.array(field)?))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
}

impl<const N: usize> Serialize for Ascii<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

/// CP56Time2a (IEC 60870-5-104), 7 bytes, as section 3.2 draws it:
/// milliseconds of the minute (2 bytes, little-endian, seconds × 1000 +
/// ms), minute (bits 0-5; bit 7 = invalid), hour (bits 0-4; bit 7 = summer
/// time), day of month (bits 0-4) with the day of week in bits 5-7, month
/// (bits 0-3), year (bits 0-6, years after 2000). The reserved bits (RES1-4)
/// are kept as sent in `reserved`, so a time decodes and re-encodes byte
/// for byte whatever a pile put there. Example from the specification:
/// `98 B7 0E 11 10 03 14` is 2020-03-16 17:14:47.
///
/// A pile's clock may say anything (not set yet, a year like 2000), so a
/// time is read as its fields and [`Cp56Time2a::to_datetime`] says whether
/// they make a real time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Cp56Time2a {
    /// Seconds × 1000 + milliseconds, 0-59999.
    pub millis: u16,
    /// 0-59 (6 bits).
    pub minute: u8,
    /// 0-23 (5 bits).
    pub hour: u8,
    /// 1-31 (5 bits).
    pub day: u8,
    /// 1-7, 0 when not given (3 bits).
    pub weekday: u8,
    /// 1-12 (4 bits).
    pub month: u8,
    /// Years after 2000 (7 bits).
    pub year: u8,
    /// The IV bit: the sender marks the time invalid.
    pub invalid: bool,
    /// The SU bit: summer time.
    pub summer_time: bool,
    /// The reserved bits, zero from a well-behaved sender: bit 0 = RES1
    /// (minute byte bit 6), bits 1-2 = RES2 (hour byte bits 5-6), bits 3-6 =
    /// RES3 (month byte bits 4-7), bit 7 = RES4 (year byte bit 7).
    #[serde(skip_serializing_if = "is_zero")]
    pub reserved: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl Cp56Time2a {
    /// The time, when its fields make one (the weekday is not checked).
    pub fn to_datetime(&self) -> Option<time::PrimitiveDateTime> {
        let month = time::Month::try_from(self.month).ok()?;
        let date = time::Date::from_calendar_date(2000 + i32::from(self.year), month, self.day).ok()?;
        let second = u8::try_from(self.millis / 1000).ok()?;
        let t = time::Time::from_hms_milli(self.hour, self.minute, second, self.millis % 1000).ok()?;
        Some(time::PrimitiveDateTime::new(date, t))
    }

    /// A time of 2000-2127 (the 7-bit year), with its day of week (1 = Monday).
    pub fn from_datetime(at: time::PrimitiveDateTime) -> Option<Self> {
        let year = u8::try_from(at.year() - 2000).ok().filter(|y| *y < 128)?;
        Some(Cp56Time2a {
            millis: u16::from(at.second()) * 1000 + at.millisecond(),
            minute: at.minute(),
            hour: at.hour(),
            day: at.day(),
            weekday: at.weekday().number_from_monday(),
            month: u8::from(at.month()),
            year,
            invalid: false,
            summer_time: false,
            reserved: 0,
        })
    }
}

impl Field for Cp56Time2a {
    const LEN: usize = 7;
    fn read(r: &mut Reader<'_>, field: &'static str) -> Result<Self, FieldError> {
        let b: [u8; 7] = r.array(field)?;
        Ok(Cp56Time2a {
            millis: u16::from_le_bytes([b[0], b[1]]),
            minute: b[2] & 0x3F,
            invalid: b[2] & 0x80 != 0,
            hour: b[3] & 0x1F,
            summer_time: b[3] & 0x80 != 0,
            day: b[4] & 0x1F,
            weekday: b[4] >> 5,
            month: b[5] & 0x0F,
            year: b[6] & 0x7F,
            reserved: ((b[2] >> 6) & 0x01) | (((b[3] >> 5) & 0x03) << 1) | ((b[5] >> 4) << 3) | (b[6] & 0x80),
        })
    }
    fn write(&self, out: &mut Vec<u8>) {
        let r = self.reserved;
        out.extend_from_slice(&self.millis.to_le_bytes());
        out.push((self.minute & 0x3F) | ((r & 0x01) << 6) | if self.invalid { 0x80 } else { 0 });
        out.push((self.hour & 0x1F) | (((r >> 1) & 0x03) << 5) | if self.summer_time { 0x80 } else { 0 });
        out.push((self.day & 0x1F) | ((self.weekday & 0x07) << 5));
        out.push((self.month & 0x0F) | (((r >> 3) & 0x0F) << 4));
        out.push((self.year & 0x7F) | (r & 0x80));
    }
}

/// Declares a one-byte code with the values the specification names and an
/// `Other` for any value it does not, so a pile's unexpected value decodes
/// (and re-encodes) instead of failing the whole message. Shown in decoded
/// views by its name, or by its number when it has none.
macro_rules! code {
    ($(#[$meta:meta])* pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $value:literal, )+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value the specification does not name, kept as sent.
            Other(u8),
        }

        impl From<u8> for $name {
            fn from(value: u8) -> Self {
                match value {
                    $( $value => $name::$variant, )+
                    other => $name::Other(other),
                }
            }
        }

        impl From<$name> for u8 {
            fn from(code: $name) -> u8 {
                match code {
                    $( $name::$variant => $value, )+
                    $name::Other(value) => value,
                }
            }
        }

        impl $crate::wire::Field for $name {
            const LEN: usize = 1;
            fn read(r: &mut $crate::wire::Reader<'_>, field: &'static str) -> Result<Self, $crate::wire::FieldError> {
                Ok($name::from(<u8 as $crate::wire::Field>::read(r, field)?))
            }
            fn write(&self, out: &mut Vec<u8>) {
                out.push(u8::from(*self));
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( $name::$variant => s.serialize_str(stringify!($variant)), )+
                    $name::Other(value) => s.serialize_u8(*value),
                }
            }
        }

        #[cfg(test)]
        impl proptest::arbitrary::Arbitrary for $name {
            type Parameters = ();
            type Strategy = proptest::strategy::Map<proptest::num::u8::Any, fn(u8) -> Self>;
            fn arbitrary_with(_: ()) -> Self::Strategy {
                use proptest::strategy::Strategy;
                proptest::num::u8::ANY.prop_map($name::from as fn(u8) -> Self)
            }
        }
    };
}
pub(crate) use code;

#[cfg(test)]
mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    impl<const BYTES: usize> Arbitrary for UInt<BYTES> {
        type Parameters = ();
        type Strategy = BoxedStrategy<Self>;
        fn arbitrary_with(_: ()) -> Self::Strategy {
            (0..=Self::MAX).prop_map(UInt).boxed()
        }
    }

    impl<const N: usize> Arbitrary for Bcd<N> {
        type Parameters = ();
        type Strategy = BoxedStrategy<Self>;
        fn arbitrary_with(_: ()) -> Self::Strategy {
            // Any bytes: a field is kept as sent, so even a non-decimal
            // nibble must survive the round trip.
            proptest::collection::vec(any::<u8>(), N)
                .prop_map(|v| Bcd(v.try_into().expect("N bytes")))
                .boxed()
        }
    }

    impl<const N: usize> Arbitrary for Bin<N> {
        type Parameters = ();
        type Strategy = BoxedStrategy<Self>;
        fn arbitrary_with(_: ()) -> Self::Strategy {
            proptest::collection::vec(any::<u8>(), N)
                .prop_map(|v| Bin(v.try_into().expect("N bytes")))
                .boxed()
        }
    }

    impl<const N: usize> Arbitrary for Ascii<N> {
        type Parameters = ();
        type Strategy = BoxedStrategy<Self>;
        fn arbitrary_with(_: ()) -> Self::Strategy {
            proptest::collection::vec(any::<u8>(), N)
                .prop_map(|v| Ascii(v.try_into().expect("N bytes")))
                .boxed()
        }
    }

    impl Arbitrary for Cp56Time2a {
        type Parameters = ();
        type Strategy = BoxedStrategy<Self>;
        fn arbitrary_with(_: ()) -> Self::Strategy {
            // Every value each bit field can hold, reserved bits included.
            (
                (any::<u16>(), 0u8..64, 0u8..32, 0u8..32, 0u8..8, 0u8..16, 0u8..128),
                (any::<bool>(), any::<bool>(), any::<u8>()),
            )
                .prop_map(|((millis, minute, hour, day, weekday, month, year), (invalid, summer_time, reserved))| Cp56Time2a {
                    millis,
                    minute,
                    hour,
                    day,
                    weekday,
                    month,
                    year,
                    invalid,
                    summer_time,
                    reserved,
                })
                .boxed()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bcd_digits_round_trip_and_refuse_non_digits() {
        let pile = Bcd::<7>::from_digits("55031412782305").unwrap();
        assert_eq!(pile.bytes(), &[0x55, 0x03, 0x14, 0x12, 0x78, 0x23, 0x05]);
        assert_eq!(pile.digits(), "55031412782305");
        assert_eq!(pile.value(), Some(55031412782305));
        assert!(Bcd::<7>::from_digits("5503141278230").is_err());
        assert!(Bcd::<7>::from_digits("5503141278230A").is_err());
        assert_eq!(Bcd::<2>::from_number(1).unwrap().bytes(), &[0x00, 0x01]);
        let odd = Bcd::<1>::from_bytes([0x1A]);
        assert!(!odd.is_decimal());
        assert_eq!(odd.digits(), "1A");
        assert_eq!(odd.value(), None);
    }

    #[test]
    fn bin_hex_is_left_padded() {
        let card = Bin::<8>::from_hex("D14B0A54").unwrap();
        assert_eq!(card.bytes(), &[0, 0, 0, 0, 0xD1, 0x4B, 0x0A, 0x54]);
        assert_eq!(card.hex(), "00000000D14B0A54");
        assert!(Bin::<8>::from_hex("D14B0A5").is_err());
    }

    #[test]
    fn ascii_reads_to_the_first_zero() {
        let v = Ascii::<8>::from_bytes(*b"v4.1.50\0");
        assert_eq!(v.text(), "v4.1.50");
        assert!(Ascii::<2>::from_text("abc").is_err());
    }

    #[test]
    fn cp56time2a_reads_the_specification_example() {
        let t = Cp56Time2a::read(&mut Reader::new(&[0x98, 0xB7, 0x0E, 0x11, 0x10, 0x03, 0x14]), "t").unwrap();
        let at = t.to_datetime().unwrap();
        assert_eq!(at.to_string(), "2020-03-16 17:14:47.0");
        let mut out = Vec::new();
        t.write(&mut out);
        assert_eq!(out, [0x98, 0xB7, 0x0E, 0x11, 0x10, 0x03, 0x14]);
        let back = Cp56Time2a::from_datetime(at).unwrap();
        assert_eq!(back.to_datetime(), Some(at));
        assert_eq!(back.weekday, 1, "2020-03-16 was a Monday");
    }

    #[test]
    fn uint_refuses_values_that_do_not_fit() {
        assert!(UInt::<5>::new(1 << 40).is_none());
        let mut out = Vec::new();
        UInt::<5>::new(0x01_0203_0405).unwrap().write(&mut out);
        assert_eq!(out, [5, 4, 3, 2, 1]);
    }
}
