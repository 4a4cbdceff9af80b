//! Golden tests: the example frames published in the specification,
//! 《充电桩与云快充服务平台交互协议》 V1.6 (江苏云快充新能源科技有限公司,
//! 2020-10-29), written here by hand with the values the document gives
//! for them, decoded and re-encoded byte for byte.
//!
//! Four examples are whole frames whose CRC is the CRC of their bytes (the
//! login answer, the tariff-check answer, the start confirmation and the
//! remote update): they go through the stream decoder and back. The other
//! examples carry a CRC that does not match their bytes (most end in one of
//! a few copied values such as 6890 or C1A9): their bodies are decoded and
//! re-encoded, and the decoder is shown to drop the frame as a bad CRC.

use ykc::frame::{crc16, Decoded, Frame, SkipReason, StreamDecoder};
use ykc::msg::*;
use ykc::units::{Fen, KwhE4, PriceE5, YuanE4};
use ykc::wire::Field;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn pile(digits: &str) -> PileNo {
    PileNo::from_digits(digits).unwrap()
}

/// A whole published frame with a good CRC: decode, check, encode back.
fn whole_frame(bytes: &[u8], version: Version) -> (Frame, Message) {
    let mut decoder = StreamDecoder::new();
    decoder.push(bytes);
    let frame = match decoder.decode_next() {
        Decoded::Frame(frame) => frame,
        other => panic!("expected a frame, got {other:?}"),
    };
    assert_eq!(decoder.buffered(), 0);
    let message = frame.message(version).unwrap();
    assert_eq!(Frame::of(frame.seq, &message).unwrap().encode().unwrap(), bytes, "re-encoded byte for byte");
    (frame, message)
}

/// A published frame whose CRC does not match: the decoder drops it as a
/// bad CRC; its body decodes and re-encodes byte for byte.
fn body_of_edited_frame(bytes: &[u8]) -> Message {
    let mut decoder = StreamDecoder::new();
    decoder.push(bytes);
    let n = bytes.len();
    match decoder.decode_next() {
        Decoded::Skip { count: 1, reason: SkipReason::BadCrc { expected, found, .. } } => {
            assert_eq!(expected, crc16(&bytes[2..n - 2]));
            assert_eq!(found, u16::from_le_bytes([bytes[n - 2], bytes[n - 1]]));
        }
        other => panic!("the published CRC was expected not to match, got {other:?}"),
    }
    assert_eq!(usize::from(bytes[1]), n - 4, "the length byte counts sequence, flag, type and body");
    let body = &bytes[6..n - 2];
    let message = Message::decode(bytes[5], body, Version::V1_6).unwrap();
    assert_eq!(message.encode_body().unwrap(), body, "re-encoded byte for byte");
    message
}

#[test]
fn login_answer_6_2() {
    // Section 6.2: 68 0C 0000 00 02 55031412782305 (pile) 00 (accepted) DA4C.
    let bytes = hex("68 0C 0000 00 02 55 03 14 12 78 23 05 00 DA 4C");
    let (frame, message) = whole_frame(&bytes, Version::V1_5);
    assert_eq!(frame.seq, 0);
    assert_eq!(
        message,
        Message::LoginAnswer(LoginAnswer { pile: pile("55031412782305"), result: LoginResult::Accepted })
    );
}

#[test]
fn tariff_check_answer_6_6() {
    // Section 6.6: 68 0E CE04 (seq) 00 06 55031412782305 0000 (model) 00 (same) 8E2F.
    let bytes = hex("68 0E CE 04 00 06 55 03 14 12 78 23 05 00 00 00 8E 2F");
    let (frame, message) = whole_frame(&bytes, Version::V1_5);
    assert_eq!(frame.seq, 0x04CE);
    assert_eq!(
        message,
        Message::TariffCheckAnswer(TariffCheckAnswer {
            pile: pile("55031412782305"),
            model: TariffModelId::from_digits("0000").unwrap(),
            result: TariffCheckResult::Same,
        })
    );
}

#[test]
fn start_answer_8_2() {
    // Section 8.2: order 32010200000001012018061219595785, pile
    // 32010200000001, gun 01, logical card 0, balance 0, not authorised (00),
    // reason 01 (unknown account), CRC E829.
    let bytes = hex(
        "68 2A 00 04 00 32 32 01 02 00 00 00 01 01 20 18 06 12 19 59 57 85 32 01 02 00 00 00 01 \
         01 00 00 00 00 00 00 00 00 00 00 00 00 00 01 E8 29",
    );
    let (frame, message) = whole_frame(&bytes, Version::V1_5);
    assert_eq!(frame.seq, 0x0400);
    let Message::StartAnswer(m) = message else { panic!("{message:?}") };
    assert_eq!(m.order.digits(), "32010200000001012018061219595785");
    assert_eq!(m.pile, pile("32010200000001"));
    assert_eq!(m.gun.digits(), "01");
    assert_eq!(m.logical_card.digits(), "0000000000000000");
    assert_eq!(m.balance, Fen(0));
    assert_eq!(m.authorised, Outcome::Failed);
    assert_eq!(m.refusal, StartRefusal::UnknownAccount);
}

#[test]
fn remote_update_11_3() {
    // Section 11.3: pile 55031412782305, DC (01), power 15 (0F00), server
    // "114.55.114.174", port 21 (1500), user "sr", password "sr123", path
    // "AC-7KW/20180131", when idle (02), 60 min (3C), CRC 7A2C.
    let bytes = hex(
        "68 62 0026 00 94 55031412782305 01 0F00 3131342E35352E3131342E3137340000 1500 \
         73720000000000000000000000000000 73723132330000000000000000000000 \
         41432D374B572F32303138303133310000000000000000000000000000000000 02 3C 7A2C",
    );
    let (_, message) = whole_frame(&bytes, Version::V1_6);
    let Message::Update(m) = message else { panic!("{message:?}") };
    assert_eq!(m.pile, pile("55031412782305"));
    assert_eq!(m.model, PileModel::Dc);
    assert_eq!(m.power, 15);
    assert_eq!(m.server.text(), "114.55.114.174");
    assert_eq!(m.port, 21);
    assert_eq!(m.user.text(), "sr");
    assert_eq!(m.password.text(), "sr123");
    assert_eq!(m.path.text(), "AC-7KW/20180131");
    assert_eq!(m.when, When::WhenIdle);
    assert_eq!(m.timeout_minutes, 60);
}

#[test]
fn login_6_1() {
    // Section 6.1: pile 55031412782305, DC, 2 guns, protocol 0F (V1.5),
    // firmware "v4.1.50", LAN, SIM 01010101010101010101, carrier 04 (other).
    let bytes = hex(
        "68 22 0000 00 01 55031412782305 00 02 0F 56342E312E353000 01 01010101010101010101 04 675A",
    );
    let Message::Login(m) = body_of_edited_frame(&bytes) else { panic!() };
    assert_eq!(m.pile, pile("55031412782305"));
    assert_eq!(m.pile_type, PileType::Dc);
    assert_eq!(m.gun_count, 2);
    assert_eq!(Version::from_login_byte(m.protocol_version), Some(Version::V1_5));
    // The example's annotation says "v4.1.50"; its first byte, 0x56, is a capital V.
    assert_eq!(m.software_version.text(), "V4.1.50");
    assert_eq!(m.network, NetworkType::Lan);
    assert_eq!(m.sim.digits(), "01010101010101010101");
    assert_eq!(m.carrier, Carrier::OtherCarrier);
}

#[test]
fn heartbeat_and_answer_6_3_6_4() {
    let Message::Heartbeat(m) = body_of_edited_frame(&hex("68 0D 0001 00 03 32010200000001 01 00 6890")) else {
        panic!()
    };
    assert_eq!((m.pile, m.gun.digits(), m.gun_status), (pile("32010200000001"), "01".into(), GunHealth::Normal));
    let Message::HeartbeatAnswer(a) = body_of_edited_frame(&hex("68 0D 3600 00 04 55031412782305 01 00 65B2")) else {
        panic!()
    };
    assert_eq!((a.pile, a.gun.digits(), a.answer), (pile("55031412782305"), "01".into(), 0));
}

#[test]
fn tariff_check_and_request_6_5_6_7() {
    let Message::TariffCheck(m) = body_of_edited_frame(&hex("68 0D 0002 00 05 32010200000001 0001 9C00")) else {
        panic!()
    };
    assert_eq!(m.model.digits(), "0001");
    let Message::TariffRequest(m) = body_of_edited_frame(&hex("68 0B 0200 00 09 55031412782305 DD25")) else {
        panic!()
    };
    assert_eq!(m.pile, pile("55031412782305"));
}

/// The tariff of examples 6.8 and 9.5: electricity 2, 3, 4, 5 yuan/kWh (the
/// 9.5 annotations say "2, 2, 4, 5": the bytes E0 93 04 00 are 3.00000),
/// loss ratio 0, every slot sharp. The service fees are written "9C 40 00
/// 00" and annotated 0.4 yuan/kWh, which is 0x9C40 high byte first; the
/// document's rule for BIN fields is low byte first, as its electricity
/// fees are written, so the bytes are 0x409C = 0.16540 yuan/kWh here.
fn published_tariff() -> &'static str {
    "400D0300 9C400000 E0930400 9C400000 801A0600 9C400000 20A10700 9C400000 00 \
     000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
}

fn check_published_tariff(t: &TariffModel) {
    let rate = |e, s| Rate { electricity: PriceE5(e), service: PriceE5(s) };
    assert_eq!(t.sharp, rate(200_000, 16_540));
    assert_eq!(t.peak, rate(300_000, 16_540));
    assert_eq!(t.flat, rate(400_000, 16_540));
    assert_eq!(t.valley, rate(500_000, 16_540));
    assert_eq!(t.loss_ratio, 0);
    assert!(t.slots.0.iter().all(|s| *s == RateIndex::Sharp));
    assert_eq!(t.slot_at(23, 59), Some(RateIndex::Sharp));
    assert_eq!(t.slot_at(24, 0), None);
}

#[test]
fn tariff_answer_6_8_and_tariff_set_9_5() {
    let Message::TariffAnswer(m) =
        body_of_edited_frame(&hex(&format!("68 5E 0200 00 0A 55031412782305 0100 {} 5E60", published_tariff())))
    else {
        panic!()
    };
    assert_eq!(m.model.digits(), "0100");
    check_published_tariff(&m.tariff);
    let Message::TariffSet(m) =
        body_of_edited_frame(&hex(&format!("68 5E 0025 00 58 55031412782305 0100 {} 5E60", published_tariff())))
    else {
        panic!()
    };
    check_published_tariff(&m.tariff);
}

#[test]
fn realtime_7_2() {
    // Offline, holstered, plugged, "0200" output voltage (0x0002 = 0.2 V; the
    // annotation says 0), everything else zero.
    let Message::Realtime(m) = body_of_edited_frame(&hex(
        "68 40 1A03 00 13 00000000000000000000000000000000 55031412782305 01 00 01 01 0200 0000 00 \
         0000000000000000 00 00 0000 0000 00000000 00000000 00000000 0000 9DAC",
    )) else {
        panic!()
    };
    assert_eq!(m.state, GunState::Offline);
    assert_eq!(m.holstered, Holstered::Yes);
    assert_eq!(m.plugged, YesNo::Yes);
    assert_eq!(m.voltage_dv, 2);
    assert_eq!((m.energy, m.amount), (KwhE4(0), YuanE4(0)));
}

#[test]
fn start_request_8_1() {
    // Card start, no password, physical card D14B0A54.
    let Message::StartRequest(m) = body_of_edited_frame(&hex(
        "68 37 0004 00 31 32010200000001 01 01 00 00000000D14B0A54 00000000000000000000000000000000 \
         0000000000000000000000000000000000 F496",
    )) else {
        panic!()
    };
    assert_eq!(m.mode, StartMode::Card);
    assert_eq!(m.needs_password, YesNoByte::No);
    assert_eq!(m.card.hex(), "00000000D14B0A54");
    assert_eq!(m.vin(), "");
}

#[test]
fn remote_start_and_stop_8_3_to_8_6() {
    let Message::RemoteStart(m) = body_of_edited_frame(&hex(
        "68 30 007C 00 34 55031412782305012018061914444680 55031412782305 01 0000001000000573 \
         00000000D14B0A54 A0860100 4622",
    )) else {
        panic!()
    };
    assert_eq!(m.order.digits(), "55031412782305012018061914444680");
    assert_eq!(m.logical_card.value(), Some(1_000_000_573));
    assert_eq!(m.physical_card.hex(), "00000000D14B0A54");
    assert_eq!(m.balance, Fen(100_000), "1000.00 yuan");

    let Message::RemoteStartAnswer(m) = body_of_edited_frame(&hex(
        "68 1E 0002 00 33 32010200000000111511161555350260 32010200000001 01 01 00 0FE2",
    )) else {
        panic!()
    };
    assert_eq!((m.result, m.failure), (Outcome::Succeeded, RemoteStartFailure::None));

    let Message::RemoteStop(m) = body_of_edited_frame(&hex("68 0C 0003 00 36 32010200000001 01 C1A9")) else {
        panic!()
    };
    assert_eq!(m.gun.digits(), "01");
    let Message::RemoteStopAnswer(m) = body_of_edited_frame(&hex("68 0E 0003 00 35 32010200000001 01 01 00 907E"))
    else {
        panic!()
    };
    assert_eq!((m.result, m.failure), (Outcome::Succeeded, RemoteStopFailure::None));
}

#[test]
fn transaction_record_and_confirmation_8_7_8_8() {
    let Message::TransactionRecord(m) = body_of_edited_frame(&hex(
        "68 A2 8001 00 3B 55031412782305012018061910262392 55031412782305 01 98B70E11100314 98B70E11100314 \
         D0FB0100 00000000 00000000 00000000 D0FB0100 00000000 00000000 00000000 \
         D0FB0100 00000000 00000000 00000000 D0FB0100 00000000 00000000 00000000 \
         0000000000 0000000000 00000000 00000000 00000000 0000000000000000000000000000000000 02 \
         98B70E11100314 00 00000000D14B0A54 388C",
    )) else {
        panic!()
    };
    assert_eq!(m.order.digits(), "55031412782305012018061910262392");
    assert_eq!(m.start.to_datetime().unwrap().to_string(), "2020-03-16 17:14:47.0");
    assert_eq!(m.end, m.start);
    for tier in m.tiers() {
        assert_eq!(tier.price, PriceE5(130_000), "1.30000 yuan/kWh");
        assert_eq!(tier.energy, KwhE4(0));
    }
    assert_eq!((m.meter_start.get(), m.meter_stop.get()), (0, 0));
    // The annotation says "app 启动" for 02, which the table calls a card start.
    assert_eq!(m.trade_kind, TradeKind::Card);
    assert_eq!(m.traded_at, m.start);
    assert_eq!(m.stop_reason.0, 0);
    assert_eq!(m.physical_card.hex(), "00000000D14B0A54");

    let Message::TransactionConfirm(c) =
        body_of_edited_frame(&hex("68 15 0002 00 40 55031412782305012018061910262392 00 48B1"))
    else {
        panic!()
    };
    assert_eq!(c, m.confirm(ConfirmResult::Accepted));
}

#[test]
fn balance_time_settings_and_maintenance_8_9_to_11_4() {
    let Message::BalanceUpdate(m) =
        body_of_edited_frame(&hex("68 18 0006 00 42 32010200000001 01 00000000D14B0A54 00000000 72EA"))
    else {
        panic!()
    };
    assert_eq!((m.physical_card.hex(), m.balance), ("00000000D14B0A54".into(), Fen(0)));
    let Message::TimeSync(m) = body_of_edited_frame(&hex("68 12 00DF 00 56 55031412782305 98B70E11100314 8A13")) else {
        panic!()
    };
    assert_eq!(m.time.to_datetime().unwrap().to_string(), "2020-03-16 17:14:47.0");
    let Message::TimeSyncAnswer(a) = body_of_edited_frame(&hex("68 12 A101 00 55 55031412782305 98B70E11100314 0E9B"))
    else {
        panic!()
    };
    assert_eq!(a.time, m.time);
    let Message::WorkParams(m) = body_of_edited_frame(&hex("68 0D 0008 00 52 32010200000001 01 00 6890")) else {
        panic!()
    };
    assert_eq!((m.allowed, m.max_power_percent), (WorkAllowed::Locked, 0));
    for (t, check) in [(0x51u8, "51"), (0x57, "57"), (0x91, "91")] {
        let message = body_of_edited_frame(&hex(&format!("68 0C 0008 00 {check} 32010200000001 01 C1A9")));
        assert_eq!(message.frame_type(), t);
    }
    let Message::Reboot(m) = body_of_edited_frame(&hex("68 0C 0011 00 92 32010200000001 01 C1A9")) else { panic!() };
    assert_eq!(m.when, When::Now);
    let Message::UpdateAnswer(m) = body_of_edited_frame(&hex("68 0C 0012 00 93 32010200000001 01 C1A9")) else {
        panic!()
    };
    assert_eq!(m.status, UpdateStatus::WrongPile);
}

#[test]
fn parallel_frames_12_1_to_12_4() {
    let Message::ParallelStartRequest(m) = body_of_edited_frame(&hex(
        "68 3E 0004 00 A1 32010200000001 01 01 00 00000000D14B0A54 00000000000000000000000000000000 \
         0000000000000000000000000000000000 00 201029112801 F496",
    )) else {
        panic!()
    };
    assert_eq!((m.role, m.parallel_no.digits()), (GunRole::Main, "201029112801".into()));
    let Message::ParallelRemoteStart(m) = body_of_edited_frame(&hex(
        "68 36 007C 00 A4 55031412782305012018061914444680 55031412782305 01 0000001000000573 \
         00000000D14B0A54 A0860100 201029112801 4622",
    )) else {
        panic!()
    };
    assert_eq!(m.balance, Fen(100_000));
    let Message::ParallelRemoteStartAnswer(m) = body_of_edited_frame(&hex(
        "68 25 0002 00 A3 32010200000000111511161555350260 32010200000001 01 01 00 00 201029112801 0FE2",
    )) else {
        panic!()
    };
    assert_eq!(m.result, Outcome::Succeeded);
    // 12.2's example writes frame type 32 where 0xA2 belongs; its body is 0xA2's.
    let body = hex(
        "32010200000001012018061219595785 32010200000001 01 0000000000000000 00000000 00 01 201029112801",
    );
    let Message::ParallelStartAnswer(m) = Message::decode(0xA2, &body, Version::V1_6).unwrap() else { panic!() };
    assert_eq!(m.parallel_no.digits(), "201029112801");
    assert_eq!(
        Message::decode(0xA2, &body, Version::V1_5),
        Err(MessageError::NotInVersion { frame_type: 0xA2, version: Version::V1_5 })
    );
}

/// Every fixed-length body against the length byte of its published
/// example (the length counts 4 bytes before the body). Three examples
/// disagree with their own field tables, whose sums are used instead: 0x41
/// (0x13, one byte short of 7 + 8 + 1), 0x62 and 0x63 (0x0D, without the 4
/// reserved bytes their text shows).
#[test]
fn body_lengths_match_the_published_length_bytes() {
    let published: &[(u8, usize, usize)] = &[
        // (type, example's length byte, body length used)
        (0x01, 0x22, Login::LEN),
        (0x02, 0x0C, LoginAnswer::LEN),
        (0x03, 0x0D, Heartbeat::LEN),
        (0x04, 0x0D, HeartbeatAnswer::LEN),
        (0x05, 0x0D, TariffCheck::LEN),
        (0x06, 0x0E, TariffCheckAnswer::LEN),
        (0x09, 0x0B, TariffRequest::LEN),
        (0x0A, 0x5E, TariffAnswer::LEN),
        (0x12, 0x0C, ReadRealtime::LEN),
        (0x13, 0x40, Realtime::LEN),
        (0x15, 0x4D, Handshake::LEN),
        (0x17, 0x31, ParameterSetup::LEN),
        (0x19, 0x2B, ChargeEnd::LEN),
        (0x1B, 0x24, ErrorReport::LEN),
        (0x1D, 0x20, BmsStop::LEN),
        (0x21, 0x20, ChargerStop::LEN),
        (0x23, 0x30, BmsDemand::LEN),
        (0x25, 0x23, BmsInfo::LEN),
        (0x31, 0x37, StartRequest::LEN),
        (0x32, 0x2A, StartAnswer::LEN),
        (0x33, 0x1E, RemoteStartAnswer::LEN),
        (0x34, 0x30, RemoteStart::LEN),
        (0x35, 0x0E, RemoteStopAnswer::LEN),
        (0x36, 0x0C, RemoteStop::LEN),
        (0x3B, 0xA2, TransactionRecord::LEN),
        (0x40, 0x15, TransactionConfirm::LEN),
        (0x42, 0x18, BalanceUpdate::LEN),
        (0x43, 0x0D, OfflineCardSyncAnswer::LEN),
        (0x51, 0x0C, WorkParamsAnswer::LEN),
        (0x52, 0x0D, WorkParams::LEN),
        (0x55, 0x12, TimeSyncAnswer::LEN),
        (0x56, 0x12, TimeSync::LEN),
        (0x57, 0x0C, TariffSetAnswer::LEN),
        (0x58, 0x5E, TariffSet::LEN),
        (0x61, 0x14, ParkingLockStatus::LEN),
        (0x91, 0x0C, RebootAnswer::LEN),
        (0x92, 0x0C, Reboot::LEN),
        (0x93, 0x0C, UpdateAnswer::LEN),
        (0x94, 0x62, Update::LEN),
        (0xA1, 0x3E, ParallelStartRequest::LEN),
        (0xA2, 0x30, ParallelStartAnswer::LEN),
        (0xA3, 0x25, ParallelRemoteStartAnswer::LEN),
        (0xA4, 0x36, ParallelRemoteStart::LEN),
    ];
    for (t, length, body) in published {
        assert_eq!(*length - 4, *body, "frame type 0x{t:02X}");
    }
    assert_eq!(BalanceUpdateAnswer::LEN, 0x13 - 4 + 1);
    assert_eq!(ParkingLockCommand::LEN, 0x0D - 4 + 4);
    assert_eq!(ParkingLockAnswer::LEN, 0x0D - 4 + 4);
    // The offline-card lists: 0x44's example length (0x2C) is two cards.
    assert_eq!(7 + 1 + 2 * OfflineCard::LEN, 0x2C - 4);
}

#[test]
fn every_frame_type_has_a_name_and_a_message() {
    for (t, since) in FRAME_TYPES {
        assert!(frame_type_name(*t).is_some());
        // A zero body of the right length decodes for every fixed type.
        for len in 0..=251 {
            if let Ok(message) = Message::decode(*t, &vec![0; len], *since) {
                assert_eq!(message.frame_type(), *t);
                assert_eq!(message.encode_body().unwrap(), vec![0; len]);
            }
        }
    }
    assert_eq!(FRAME_TYPES.len(), 51);
    assert_eq!(Message::decode(0x07, &[], Version::V1_6), Err(MessageError::UnknownType(0x07)));
}

#[test]
fn wrong_lengths_and_bad_counts_are_refused_with_the_reason() {
    assert_eq!(
        Message::decode(0x03, &[0; 8], Version::V1_6),
        Err(MessageError::WrongLength { frame_type: 0x03, expected: "9".into(), got: 8 })
    );
    // 0x44 with a count of 2 and one card.
    let mut body = hex("32010200000001 02");
    body.extend(hex("0000000010000001 00000000D14B0A54"));
    let err = Message::decode(0x44, &body, Version::V1_6).unwrap_err();
    assert!(err.to_string().contains("says 2 entries, the body holds 1"), "{err}");
    // Writing more cards than the specification allows is refused.
    let too_many = Message::OfflineCardClear(OfflineCardClear {
        pile: pile("32010200000001"),
        entries: vec![PhysicalCardNo::default(); 25],
    });
    assert!(too_many.encode_body().unwrap_err().to_string().contains("at most 24"));
}

#[test]
fn garbage_a_bad_length_and_a_bad_crc_each_give_their_outcome() {
    let good = hex("68 0C 0000 00 02 55 03 14 12 78 23 05 00 DA 4C");
    let mut corrupt = good.clone();
    corrupt[9] ^= 0x40;
    let mut stream = hex("00 11 22");
    stream.extend(hex("68 02"));
    stream.extend(&corrupt);
    stream.extend(&good);
    let mut decoder = StreamDecoder::new();
    decoder.push(&stream);
    assert_eq!(decoder.decode_next(), Decoded::Skip { count: 3, reason: SkipReason::NoStartByte });
    assert_eq!(decoder.decode_next(), Decoded::Skip { count: 1, reason: SkipReason::BadLength { length: 2 } });
    // The 0x02 after the bad length is garbage now.
    assert_eq!(decoder.decode_next(), Decoded::Skip { count: 1, reason: SkipReason::NoStartByte });
    match decoder.decode_next() {
        Decoded::Skip { count: 1, reason: SkipReason::BadCrc { found: 0x4CDA, frame, .. } } => assert_eq!(frame, corrupt),
        other => panic!("{other:?}"),
    }
    // The rest of the corrupt frame is skipped up to the good frame.
    assert_eq!(decoder.decode_next(), Decoded::Skip { count: good.len() - 1, reason: SkipReason::NoStartByte });
    assert!(matches!(decoder.decode_next(), Decoded::Frame(f) if f.frame_type == 0x02));
    assert_eq!(decoder.decode_next(), Decoded::NeedMore(8));
}

#[test]
fn a_vin_start_carries_the_vin_last_character_first() {
    let reversed = *b"4923812N0812UAVSL";
    let mut request = StartRequest {
        pile: pile("32010200000001"),
        gun: GunNo::from_digits("01").unwrap(),
        mode: StartMode::Vin,
        needs_password: YesNoByte::No,
        card: PhysicalCardNo::default(),
        password_md5: Default::default(),
        vin_reversed: ykc::wire::Ascii::from_bytes(reversed),
    };
    assert_eq!(request.vin(), "LSVAU2180N2183294");
    // A shorter VIN: its reversed characters, then zeros.
    let mut short = [0u8; 17];
    short[..3].copy_from_slice(b"CBA");
    request.vin_reversed = ykc::wire::Ascii::from_bytes(short);
    assert_eq!(request.vin(), "ABC");
    request.vin_reversed = Default::default();
    assert_eq!(request.vin(), "");
}
