//! Property tests over every message type and the stream decoder.

use crate::frame::{Decoded, Frame, SkipReason, StreamDecoder, START};
use crate::msg::{Message, MessageError, Version, FRAME_TYPES};
use proptest::prelude::*;

fn drain(decoder: &mut StreamDecoder) -> Vec<Decoded> {
    let mut out = Vec::new();
    loop {
        let before = decoder.buffered();
        match decoder.decode_next() {
            Decoded::NeedMore(n) => {
                assert!(n >= 1, "NeedMore asks for at least one byte");
                out.push(Decoded::NeedMore(n));
                return out;
            }
            other => {
                assert!(decoder.buffered() < before, "every outcome but NeedMore consumes bytes");
                out.push(other);
            }
        }
    }
}

/// Every (frame type, body length) whose every byte is a field: each fixed
/// length, and the uncounted card lists (0x45, 0x47) at every length. The
/// counted lists (0x44, 0x46, 0x48) are left out: their count byte must
/// match the entries (the identity property covers them).
fn accepted_lengths() -> Vec<(u8, usize)> {
    static LENGTHS: std::sync::OnceLock<Vec<(u8, usize)>> = std::sync::OnceLock::new();
    LENGTHS
        .get_or_init(|| {
            FRAME_TYPES
                .iter()
                .filter(|(t, _)| ![0x44, 0x46, 0x48].contains(t))
                .flat_map(|(t, _)| {
                    (0..=251).filter(|len| Message::decode(*t, &vec![0; *len], Version::V1_6).is_ok()).map(|len| (*t, len))
                })
                .collect()
        })
        .clone()
}

fn frames(outcomes: &[Decoded]) -> Vec<Frame> {
    outcomes
        .iter()
        .filter_map(|d| match d {
            Decoded::Frame(f) => Some(f.clone()),
            _ => None,
        })
        .collect()
}

proptest! {
    // 512 cases a property by default; PROPTEST_CASES runs more (a longer fuzz).
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
        ..ProptestConfig::default()
    })]

    #[test]
    fn encode_then_decode_is_identity(message in any::<Message>(), seq in any::<u16>()) {
        let bytes = Frame::of(seq, &message).unwrap().encode().unwrap();
        let mut decoder = StreamDecoder::new();
        decoder.push(&bytes);
        let frame = match decoder.decode_next() {
            Decoded::Frame(frame) => frame,
            other => panic!("expected a frame, got {other:?}"),
        };
        prop_assert_eq!(decoder.buffered(), 0);
        prop_assert_eq!(frame.seq, seq);
        prop_assert_eq!(frame.message(Version::V1_6).unwrap(), message.clone());
        // And back to the same bytes.
        prop_assert_eq!(Frame::of(seq, &message).unwrap().encode().unwrap(), bytes);
    }

    #[test]
    fn version_1_5_refuses_only_the_parallel_frames(message in any::<Message>()) {
        let body = message.encode_body().unwrap();
        let t = message.frame_type();
        let decoded = Message::decode(t, &body, Version::V1_5);
        if (0xA1..=0xA4).contains(&t) {
            prop_assert_eq!(decoded, Err(MessageError::NotInVersion { frame_type: t, version: Version::V1_5 }));
        } else {
            prop_assert_eq!(decoded, Ok(message));
        }
    }

    #[test]
    fn a_flipped_bit_fails_the_crc(message in any::<Message>(), seq in any::<u16>(), bit in any::<prop::sample::Index>()) {
        let mut bytes = Frame::of(seq, &message).unwrap().encode().unwrap();
        // Every bit the CRC covers, and the CRC itself (bytes 2 to the end).
        let covered = (bytes.len() - 2) * 8;
        let at = bit.index(covered);
        bytes[2 + at / 8] ^= 1 << (at % 8);
        let mut decoder = StreamDecoder::new();
        decoder.push(&bytes);
        match decoder.decode_next() {
            Decoded::Skip { count: 1, reason: SkipReason::BadCrc { frame, .. } } => prop_assert_eq!(frame, bytes),
            other => panic!("expected a bad CRC, got {other:?}"),
        }
    }

    #[test]
    fn a_corrupt_length_never_gives_the_frame(message in any::<Message>(), length in any::<u8>()) {
        let mut bytes = Frame::of(7, &message).unwrap().encode().unwrap();
        prop_assume!(bytes[1] != length);
        bytes[1] = length;
        let mut decoder = StreamDecoder::new();
        decoder.push(&bytes);
        let outcomes = drain(&mut decoder);
        prop_assert!(frames(&outcomes).iter().all(|f| f.message(Version::V1_6).as_ref() != Ok(&message)));
    }

    #[test]
    fn a_truncated_frame_needs_more(message in any::<Message>(), cut in any::<prop::sample::Index>()) {
        let bytes = Frame::of(1, &message).unwrap().encode().unwrap();
        let keep = cut.index(bytes.len());
        let mut decoder = StreamDecoder::new();
        decoder.push(&bytes[..keep]);
        match decoder.decode_next() {
            Decoded::NeedMore(n) => prop_assert!(keep + n <= bytes.len() && n >= 1),
            other => panic!("expected NeedMore for {keep} of {} bytes, got {other:?}", bytes.len()),
        }
        prop_assert_eq!(decoder.buffered(), keep);
        decoder.push(&bytes[keep..]);
        prop_assert!(matches!(decoder.decode_next(), Decoded::Frame(_)));
    }

    #[test]
    fn frames_split_anywhere_and_joined_decode_alike(
        messages in prop::collection::vec(any::<Message>(), 1..5),
        garbage in prop::collection::vec(any::<u8>().prop_filter("not a start byte", |b| *b != START), 0..20),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let mut stream = garbage.clone();
        for (i, m) in messages.iter().enumerate() {
            stream.extend(Frame::of(i as u16, m).unwrap().encode().unwrap());
        }
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(stream.len() + 1)).collect();
        points.push(0);
        points.push(stream.len());
        points.sort_unstable();
        let mut decoder = StreamDecoder::new();
        let mut outcomes = Vec::new();
        for w in points.windows(2) {
            decoder.push(&stream[w[0]..w[1]]);
            outcomes.extend(drain(&mut decoder));
        }
        let got: Vec<Message> = frames(&outcomes).iter().map(|f| f.message(Version::V1_6).unwrap()).collect();
        prop_assert_eq!(got, messages);
        let skipped: usize = outcomes.iter().map(|d| match d { Decoded::Skip { count, .. } => *count, _ => 0 }).sum();
        prop_assert_eq!(skipped, garbage.len());
        prop_assert_eq!(decoder.buffered(), 0);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_are_all_accounted_for(
        chunks in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..300), 0..6),
    ) {
        let mut decoder = StreamDecoder::new();
        let (mut pushed, mut consumed) = (0usize, 0usize);
        for chunk in &chunks {
            decoder.push(chunk);
            pushed += chunk.len();
            for outcome in drain(&mut decoder) {
                match outcome {
                    Decoded::Skip { count, .. } => consumed += count,
                    Decoded::Frame(frame) => {
                        consumed += frame.body.len() + 8;
                        for (t, _) in FRAME_TYPES {
                            let _ = Message::decode(*t, &frame.body, Version::V1_6);
                        }
                    }
                    Decoded::NeedMore(_) => {}
                }
            }
        }
        prop_assert_eq!(pushed, consumed + decoder.buffered());
    }

    #[test]
    fn any_bytes_of_a_types_length_decode_and_re_encode_as_sent(
        (t, body) in prop::sample::select(accepted_lengths()).prop_flat_map(|(t, len)| {
            (Just(t), prop::collection::vec(any::<u8>(), len))
        }),
    ) {
        // Decoding keeps every byte (codes as Other, BCD nibbles above 9,
        // reserved bits), so a body that decodes re-encodes as sent.
        let message = Message::decode(t, &body, Version::V1_6).unwrap_or_else(|e| panic!("0x{t:02X}: {e}"));
        prop_assert_eq!(message.encode_body().unwrap(), body);
    }

    #[test]
    fn any_body_of_any_type_decodes_or_says_why(t in any::<u8>(), body in prop::collection::vec(any::<u8>(), 0..260)) {
        for version in [Version::V1_5, Version::V1_6] {
            if let Ok(message) = Message::decode(t, &body, version) {
                // Whatever decodes re-encodes to the same body.
                prop_assert_eq!(message.encode_body().unwrap(), body.clone());
            }
        }
    }
}
