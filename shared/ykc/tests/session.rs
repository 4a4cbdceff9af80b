//! The session state machine: login first, the declared version, the
//! pile's number, sequence numbers, liveness.

use ykc::frame::{Decoded, Frame, StreamDecoder};
use ykc::msg::*;
use ykc::session::{Inbound, Refusal, Session, SessionError};
use ykc::wire::{Ascii, Bcd};

fn pile() -> PileNo {
    PileNo::from_digits("32010200000001").unwrap()
}

fn login(version_byte: u8) -> Message {
    Message::Login(Login {
        pile: pile(),
        pile_type: PileType::Dc,
        gun_count: 2,
        protocol_version: version_byte,
        software_version: Ascii::from_text("v1.0.0").unwrap(),
        network: NetworkType::Lan,
        sim: Bcd::default(),
        carrier: Carrier::OtherCarrier,
    })
}

fn frame(seq: u16, message: &Message) -> Frame {
    Frame::of(seq, message).unwrap()
}

fn heartbeat(pile: PileNo) -> Message {
    Message::Heartbeat(Heartbeat { pile, gun: GunNo::from_digits("01").unwrap(), gun_status: GunHealth::Normal })
}

fn decode_one(bytes: &[u8]) -> Frame {
    let mut d = StreamDecoder::new();
    d.push(bytes);
    match d.decode_next() {
        Decoded::Frame(f) => f,
        other => panic!("{other:?}"),
    }
}

fn online(version_byte: u8) -> Session {
    let mut s = Session::new();
    assert!(matches!(s.on_frame(&frame(0, &login(version_byte)), 0), Inbound::Login { .. }));
    s.accept_login(0).unwrap();
    s
}

#[test]
fn nothing_but_a_login_is_taken_before_the_login_is_accepted() {
    let mut s = Session::new();
    let hb = frame(3, &heartbeat(pile()));
    assert_eq!(s.on_frame(&hb, 0), Inbound::Refused { seq: 3, frame_type: 0x03, reason: Refusal::NotLoggedIn });
    let Inbound::Login { seq, login, version } = s.on_frame(&frame(9, &login(0x10)), 0) else { panic!() };
    assert_eq!((seq, version, login.gun_count), (9, Version::V1_6, 2));
    // Still pending: the application has not answered.
    assert_eq!(s.on_frame(&hb, 0), Inbound::Refused { seq: 3, frame_type: 0x03, reason: Refusal::NotLoggedIn });
    let answer = decode_one(&s.accept_login(seq).unwrap());
    assert_eq!(answer.seq, 9, "the answer repeats the login's sequence number");
    assert_eq!(
        answer.message(Version::V1_6).unwrap(),
        Message::LoginAnswer(LoginAnswer { pile: pile(), result: LoginResult::Accepted })
    );
    assert!(s.is_online());
    assert_eq!((s.pile(), s.version(), s.guns()), (Some(&pile()), Some(Version::V1_6), Some(2)));
    assert_eq!(s.on_frame(&hb, 1), Inbound::Message { seq: 3, message: heartbeat(pile()) });
    assert_eq!(s.accept_login(0), Err(SessionError::NoLoginPending));
}

#[test]
fn a_refused_login_closes_the_session() {
    let mut s = Session::new();
    s.on_frame(&frame(0, &login(0x0F)), 0);
    let answer = decode_one(&s.refuse_login(0, pile()));
    assert_eq!(
        answer.message(Version::V1_5).unwrap(),
        Message::LoginAnswer(LoginAnswer { pile: pile(), result: LoginResult::Refused })
    );
    assert!(s.is_closed());
    assert_eq!(
        s.on_frame(&frame(1, &login(0x0F)), 0),
        Inbound::Refused { seq: 1, frame_type: 0x01, reason: Refusal::Closed }
    );
}

#[test]
fn an_unsupported_version_is_refused_and_named() {
    let mut s = Session::new();
    assert_eq!(
        s.on_frame(&frame(0, &login(0x0A)), 0),
        Inbound::Refused { seq: 0, frame_type: 0x01, reason: Refusal::UnsupportedVersion(0x0A) }
    );
    assert!(!s.is_online());
}

#[test]
fn a_1_5_pile_may_not_send_the_parallel_frames() {
    let mut s = online(0x0F);
    let request = Message::ParallelStartRequest(ParallelStartRequest {
        pile: pile(),
        gun: GunNo::from_digits("01").unwrap(),
        mode: StartMode::Card,
        needs_password: YesNoByte::No,
        card: PhysicalCardNo::default(),
        password_md5: Default::default(),
        vin_reversed: Default::default(),
        role: GunRole::Main,
        parallel_no: ParallelNo::default(),
    });
    let Inbound::Refused { reason: Refusal::Undecodable(why), .. } = s.on_frame(&frame(4, &request), 0) else {
        panic!()
    };
    assert!(why.contains("not in protocol V1_5"), "{why}");
    let mut s = online(0x10);
    assert!(matches!(s.on_frame(&frame(4, &request), 0), Inbound::Message { .. }));
}

#[test]
fn frames_of_the_platform_and_of_another_pile_are_refused() {
    let mut s = online(0x10);
    let stop = Message::RemoteStop(RemoteStop { pile: pile(), gun: GunNo::from_digits("01").unwrap() });
    assert_eq!(
        s.on_frame(&frame(5, &stop), 0),
        Inbound::Refused { seq: 5, frame_type: 0x36, reason: Refusal::FromPlatform }
    );
    let other = PileNo::from_digits("32010200000002").unwrap();
    assert_eq!(
        s.on_frame(&frame(6, &heartbeat(other)), 0),
        Inbound::Refused {
            seq: 6,
            frame_type: 0x03,
            reason: Refusal::OtherPile { logged_in: "32010200000001".into(), got: "32010200000002".into() }
        }
    );
    let mut short = frame(7, &heartbeat(pile()));
    short.body.pop();
    let Inbound::Refused { reason: Refusal::Undecodable(why), .. } = s.on_frame(&short, 0) else { panic!() };
    assert!(why.contains("9-byte body, got 8"), "{why}");
}

#[test]
fn the_platform_numbers_its_own_frames_from_zero_and_wraps() {
    let mut s = Session::new();
    let reboot = Message::Reboot(Reboot { pile: pile(), when: When::Now });
    assert_eq!(s.send(&reboot), Err(SessionError::NotOnline));
    let mut s = online(0x10);
    let seqs: Vec<u16> = (0..3).map(|_| s.send(&reboot).unwrap().0).collect();
    assert_eq!(seqs, [0, 1, 2]);
    for _ in 3..=u16::MAX {
        s.send(&reboot).unwrap();
    }
    let (seq, bytes) = s.send(&reboot).unwrap();
    assert_eq!(seq, 0, "wraps to 0 after 65535");
    assert_eq!(decode_one(&bytes).seq, 0);
    // An answer carries the request's number, not the session's.
    let Message::Heartbeat(h) = heartbeat(pile()) else { panic!() };
    let answer = s.answer(0x1234, &Message::HeartbeatAnswer(h.answer())).unwrap();
    assert_eq!(decode_one(&answer).seq, 0x1234);
}

#[test]
fn three_heartbeat_periods_without_a_frame_mean_silence() {
    let mut s = online(0x10);
    s.on_frame(&frame(1, &heartbeat(pile())), 1_000);
    assert!(!s.is_silent(0, 31_000));
    assert!(s.is_silent(0, 31_001));
    // Any frame counts, a refused one too: the link is alive.
    let stop = Message::RemoteStop(RemoteStop { pile: pile(), gun: GunNo::from_digits("01").unwrap() });
    s.on_frame(&frame(2, &stop), 40_000);
    assert!(!s.is_silent(0, 70_000));
    // A connection that never sent a frame counts from its opening.
    assert!(Session::new().is_silent(5_000, 35_001));
    assert!(!Session::new().is_silent(5_000, 35_000));
}

#[test]
fn a_pile_that_logs_in_again_is_pending_again() {
    let mut s = online(0x10);
    assert!(matches!(s.on_frame(&frame(0, &login(0x0F)), 0), Inbound::Login { version: Version::V1_5, .. }));
    assert!(!s.is_online());
    s.accept_login(0).unwrap();
    assert_eq!(s.version(), Some(Version::V1_5));
}

#[test]
fn decoded_messages_serialize_for_the_message_log() {
    let json = serde_json::to_value(heartbeat(pile())).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"message": "Heartbeat", "fields": {"pile": "32010200000001", "gun": "01", "gunStatus": "Normal"}})
    );
    assert_eq!(frame_type_name(0x3B), Some(("transaction record", "交易记录")));
}
