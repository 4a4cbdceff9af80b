//! The frame (specification section 3.1 "应用层数据结构") and a streaming
//! decoder for a TCP byte stream.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 1 | start byte, always `0x68` ("起始标志") |
//! | 1 | 1 | data length: sequence + encryption flag + frame type + body ("序列号域+加密标志+帧类型标志+消息体"), so 4 + body |
//! | 2 | 2 | sequence number, little-endian; an answer repeats its request's ("如是应答数据包，则与询问数据包序号保持一致") |
//! | 4 | 1 | encryption flag of the body: `0x00` none, `0x01` 3DES |
//! | 5 | 1 | frame type: odd from the pile, even from the platform |
//! | 6 | N | body |
//! | 6+N | 2 | CRC-16/MODBUS of bytes 2..6+N (sequence to end of body), low byte first ("低字节在前，高字节在后") |
//!
//! Sources and choices:
//! - The CRC: the appendix gives the classic table-driven Modbus routine
//!   (initial 0xFFFF, reflected polynomial 0xA001; the text's "0x180D" is
//!   not that polynomial's value under any usual notation). The
//!   specification's own examples settle the byte order: the login answer
//!   `68 0C 00 00 00 02 55 03 14 12 78 23 05 00 DA 4C` carries 0x4CDA low
//!   byte first, as do the tariff-check answer, the start answer and the
//!   remote update examples. Most other examples in the document carry a
//!   CRC that is not the CRC of their bytes (they were edited after being
//!   captured); the golden tests say which.
//! - The length: the text says the data never exceeds 200 bytes, yet its
//!   own limits for the offline-card frames (15 cards in 0x44 is 252 bytes)
//!   pass 200. The decoder takes any length the one-byte field can hold
//!   (4-255); a length below 4 cannot hold the sequence, flag and type.
//! - The sequence number: the examples write it both ways ("0001" after a
//!   login of "0000", but "3600", "CE 04"); the text's rule for binary
//!   fields is low byte first, and that is what is used. The server only
//!   echoes a pile's number, which is byte for byte either way.

use crate::msg::{EncodeError, Message, MessageError, Version};
use serde::Serialize;

/// The start byte of every frame.
pub const START: u8 = 0x68;
/// Bytes before the body: start, length, sequence (2), flag, type.
pub const HEADER_LEN: usize = 6;
/// Bytes of the CRC after the body.
pub const CRC_LEN: usize = 2;
/// The largest body the one-byte length field can describe (255 - 4).
pub const MAX_BODY: usize = 251;

const MODBUS: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_MODBUS);

/// CRC-16/MODBUS of `bytes` (the frame's sequence number to the end of its body).
pub fn crc16(bytes: &[u8]) -> u16 {
    MODBUS.checksum(bytes)
}

crate::wire::code! {
    /// The encryption flag: it covers the body only.
    pub enum Encryption {
        /// `0x00`: the body is plain.
        None = 0x00,
        /// `0x01`: the body is 3DES-encrypted (the key is agreed outside the
        /// specification; this codec does not decrypt).
        TripleDes = 0x01,
    }
}

/// One frame: header fields and the body as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frame {
    pub seq: u16,
    pub encryption: Encryption,
    pub frame_type: u8,
    #[serde(serialize_with = "hex_bytes")]
    pub body: Vec<u8>,
}

fn hex_bytes<S: serde::Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&to_hex(bytes))
}

/// Upper-case hex without separators (the message log's raw view).
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// Why a frame could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("a body of {0} bytes does not fit the one-byte length field (at most {MAX_BODY})")]
    BodyTooLong(usize),
}

impl Frame {
    /// A plain frame carrying `message`.
    pub fn of(seq: u16, message: &Message) -> Result<Frame, EncodeError> {
        Ok(Frame {
            seq,
            encryption: Encryption::None,
            frame_type: message.frame_type(),
            body: message.encode_body()?,
        })
    }

    /// The frame's bytes, CRC included.
    pub fn encode(&self) -> Result<Vec<u8>, FrameError> {
        if self.body.len() > MAX_BODY {
            return Err(FrameError::BodyTooLong(self.body.len()));
        }
        let mut out = Vec::with_capacity(HEADER_LEN + self.body.len() + CRC_LEN);
        out.push(START);
        out.push((self.body.len() + 4) as u8);
        out.extend_from_slice(&self.seq.to_le_bytes());
        out.push(u8::from(self.encryption));
        out.push(self.frame_type);
        out.extend_from_slice(&self.body);
        let crc = crc16(&out[2..]);
        out.extend_from_slice(&crc.to_le_bytes());
        Ok(out)
    }

    /// The message in the body, for a pile that speaks `version`.
    pub fn message(&self, version: Version) -> Result<Message, MessageError> {
        if self.encryption != Encryption::None {
            return Err(MessageError::Encrypted(self.encryption));
        }
        Message::decode(self.frame_type, &self.body, version)
    }
}

/// What the stream decoder found at the head of its buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    /// A whole frame with a good CRC (its type may still be unknown: that
    /// is [`Frame::message`]'s answer).
    Frame(Frame),
    /// The buffer ends inside a frame: at least this many more bytes.
    NeedMore(usize),
    /// These many bytes at the head were dropped, for this reason.
    Skip { count: usize, reason: SkipReason },
}

/// Why the decoder dropped bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "camelCase")]
pub enum SkipReason {
    /// Bytes before the next start byte (line noise, a stray frame tail).
    NoStartByte,
    /// A start byte followed by a length below 4; the start byte is dropped.
    BadLength { length: u8 },
    /// A candidate frame whose CRC does not match. Only its start byte is
    /// dropped: the length may be the corrupt byte, and a real frame may
    /// begin inside the candidate. `frame` is the candidate as received, for
    /// the message log.
    BadCrc {
        expected: u16,
        found: u16,
        #[serde(serialize_with = "hex_bytes")]
        frame: Vec<u8>,
    },
}

/// A decoder for a pile's TCP stream: push what each read returned, then
/// call [`StreamDecoder::decode_next`] until it says [`Decoded::NeedMore`]. Frames
/// split across reads, several frames in one read, garbage, bad lengths and
/// bad CRCs each give their own outcome; nothing panics. The buffer holds
/// at most the bytes pushed and not yet decoded.
#[derive(Debug, Default)]
pub struct StreamDecoder {
    buf: Vec<u8>,
}

impl StreamDecoder {
    pub fn new() -> Self {
        StreamDecoder::default()
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes pushed and not yet decoded or skipped.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    pub fn decode_next(&mut self) -> Decoded {
        let Some(&first) = self.buf.first() else {
            return Decoded::NeedMore(HEADER_LEN + CRC_LEN);
        };
        if first != START {
            let count = self.buf.iter().position(|b| *b == START).unwrap_or(self.buf.len());
            self.buf.drain(..count);
            return Decoded::Skip { count, reason: SkipReason::NoStartByte };
        }
        let Some(&length) = self.buf.get(1) else {
            return Decoded::NeedMore(HEADER_LEN + CRC_LEN - self.buf.len());
        };
        if length < 4 {
            self.buf.drain(..1);
            return Decoded::Skip { count: 1, reason: SkipReason::BadLength { length } };
        }
        let total = 2 + usize::from(length) + CRC_LEN;
        if self.buf.len() < total {
            return Decoded::NeedMore(total - self.buf.len());
        }
        let data_end = 2 + usize::from(length);
        let expected = crc16(&self.buf[2..data_end]);
        let found = u16::from_le_bytes([self.buf[data_end], self.buf[data_end + 1]]);
        if expected != found {
            let frame = self.buf[..total].to_vec();
            self.buf.drain(..1);
            return Decoded::Skip { count: 1, reason: SkipReason::BadCrc { expected, found, frame } };
        }
        let frame = Frame {
            seq: u16::from_le_bytes([self.buf[2], self.buf[3]]),
            encryption: Encryption::from(self.buf[4]),
            frame_type: self.buf[5],
            body: self.buf[HEADER_LEN..data_end].to_vec(),
        };
        self.buf.drain(..total);
        Decoded::Frame(frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crc_is_the_catalogue_modbus_crc() {
        // CRC-16/MODBUS check value over "123456789".
        assert_eq!(crc16(b"123456789"), 0x4B37);
    }

    #[test]
    fn an_empty_decoder_needs_a_whole_header() {
        assert_eq!(StreamDecoder::new().decode_next(), Decoded::NeedMore(8));
    }
}
