//! Two independent implementations check each other: the Python pile of
//! `tests/ykc/pile.py` (its own packing and CRC, standard library only)
//! talks to a platform made of this crate's stream decoder, messages and
//! session. The pile checks every answer it gets against the
//! specification (and exits non-zero otherwise) and reports what it
//! decoded; this side checks every frame the pile sends, prices the
//! pile's transaction records from the tariff it pushed, and checks the
//! pile's reports against what it sent.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use ykc::frame::{Decoded, SkipReason, StreamDecoder};
use ykc::msg::*;
use ykc::session::{Inbound, Refusal, Session};
use ykc::units::{Fen, PriceE5};
use ykc::wire::Cp56Time2a;

fn pile_script() -> String {
    format!("{}/../../tests/ykc/pile.py", env!("CARGO_MANIFEST_DIR"))
}

fn tariff(base: u32) -> TariffModel {
    let rate = |e: u32, s: u32| Rate { electricity: PriceE5(e + base), service: PriceE5(s) };
    // 00:00-08:00 valley, 08:00-10:00 flat, 10:00-10:30 peak, 10:30-11:00
    // sharp, 11:00-24:00 flat.
    let mut slots = [RateIndex::Flat; 48];
    for slot in slots.iter_mut().take(16) {
        *slot = RateIndex::Valley;
    }
    slots[20] = RateIndex::Peak;
    slots[21] = RateIndex::Sharp;
    TariffModel {
        sharp: rate(123_456, 80_000),
        peak: rate(100_001, 60_000),
        flat: rate(70_000, 40_000),
        valley: rate(30_000, 20_000),
        loss_ratio: 0,
        slots: HalfHourSlots(slots),
    }
}

struct Platform {
    session: Session,
    stdin: ChildStdin,
    pile: Option<PileNo>,
    model: TariffModelId,
    tariff: TariffModel,
    orders: u16,
    records: Vec<TransactionRecord>,
    seen: Vec<u8>,
    skips: Vec<SkipReason>,
    refusals: Vec<Refusal>,
    logins: usize,
    sent: Vec<Message>,
}

impl Platform {
    fn write(&mut self, bytes: &[u8]) {
        writeln!(self.stdin, "recv {}", ykc::frame::to_hex(bytes)).unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self, seq: u16, message: Message) {
        let bytes = self.session.answer(seq, &message).unwrap();
        self.sent.push(message);
        self.write(&bytes);
    }

    fn send(&mut self, message: Message) {
        let (_, bytes) = self.session.send(&message).unwrap();
        self.sent.push(message);
        self.write(&bytes);
    }

    fn pile(&self) -> PileNo {
        self.pile.unwrap()
    }

    fn order_no(&mut self, gun: GunNo) -> OrderNo {
        self.orders += 1;
        OrderNo::from_digits(&format!("{}{}260316100000{:04}", self.pile().digits(), gun.digits(), self.orders)).unwrap()
    }

    fn on_frame(&mut self, frame: &ykc::Frame) {
        match self.session.on_frame(frame, 0) {
            Inbound::Login { seq, login, .. } => {
                self.logins += 1;
                self.pile = Some(login.pile);
                let bytes = self.session.accept_login(seq).unwrap();
                self.write(&bytes);
            }
            Inbound::Refused { reason, .. } => self.refusals.push(reason),
            Inbound::Message { seq, message } => {
                self.seen.push(message.frame_type());
                self.on_message(seq, message);
            }
        }
    }

    fn on_message(&mut self, seq: u16, message: Message) {
        let pile = self.pile();
        match message {
            Message::Heartbeat(m) => self.answer(seq, Message::HeartbeatAnswer(m.answer())),
            Message::TariffCheck(m) => {
                let result = if m.model == self.model { TariffCheckResult::Same } else { TariffCheckResult::Differs };
                self.answer(seq, Message::TariffCheckAnswer(TariffCheckAnswer { pile, model: self.model, result }));
            }
            Message::TariffRequest(_) => {
                let answer = TariffAnswer { pile, model: self.model, tariff: self.tariff.clone() };
                self.answer(seq, Message::TariffAnswer(answer));
            }
            Message::StartRequest(m) => {
                assert_eq!((m.mode, m.card.hex().as_str()), (StartMode::Card, "00000000D14B0A54"));
                let order = self.order_no(m.gun);
                self.answer(
                    seq,
                    Message::StartAnswer(StartAnswer {
                        order,
                        pile,
                        gun: m.gun,
                        logical_card: LogicalCardNo::from_number(1_000_000_573).unwrap(),
                        balance: Fen(100_000),
                        authorised: Outcome::Succeeded,
                        refusal: StartRefusal::None,
                    }),
                );
            }
            Message::Realtime(m) if m.state == GunState::Charging && self.records.len() == 1 => {
                self.send(Message::RemoteStop(RemoteStop { pile, gun: m.gun }));
            }
            Message::TransactionRecord(record) => {
                self.check_priced(&record);
                self.answer(seq, Message::TransactionConfirm(record.confirm(ConfirmResult::Accepted)));
                self.records.push(record);
                if self.records.len() == 1 {
                    let gun = GunNo::from_digits("02").unwrap();
                    let order = self.order_no(gun);
                    self.send(Message::RemoteStart(RemoteStart {
                        order,
                        pile,
                        gun,
                        logical_card: LogicalCardNo::from_number(1_000_000_573).unwrap(),
                        physical_card: PhysicalCardNo::from_hex("D14B0A54").unwrap(),
                        balance: Fen(98_765),
                    }));
                } else {
                    self.model = TariffModelId::from_digits("0002").unwrap();
                    self.tariff = tariff(1);
                    let push = TariffSet { pile, model: self.model, tariff: self.tariff.clone() };
                    self.send(Message::TariffSet(push));
                }
            }
            Message::TariffSetAnswer(m) => {
                assert_eq!(m.result, Outcome::Succeeded);
                let at = time::macros::datetime!(2026-03-16 23:30:00.250);
                self.send(Message::TimeSync(TimeSync { pile, time: Cp56Time2a::from_datetime(at).unwrap() }));
            }
            Message::TimeSyncAnswer(_) => self.send(Message::Reboot(Reboot { pile, when: When::WhenIdle })),
            Message::ParallelStartRequest(m) => {
                assert_eq!(m.mode, StartMode::Vin);
                assert_eq!(m.vin(), "LSVAU2180N2183294", "the VIN is sent last character first");
                let order = self.order_no(m.gun);
                self.answer(
                    seq,
                    Message::ParallelStartAnswer(ParallelStartAnswer {
                        order,
                        pile,
                        gun: m.gun,
                        logical_card: LogicalCardNo::default(),
                        balance: Fen(0),
                        authorised: Outcome::Succeeded,
                        refusal: StartRefusal::None,
                        parallel_no: m.parallel_no,
                    }),
                );
            }
            _ => {}
        }
    }

    /// The pile priced the session with the pushed tariff: every line's
    /// unit price is electricity + service of its rate, every amount is
    /// that price times the line's energy (0.0001 yuan, half up), and the
    /// totals add up.
    fn check_priced(&self, record: &TransactionRecord) {
        let t = &self.tariff;
        let mut energy = 0;
        let mut amount = 0;
        for (line, rate) in record.tiers().into_iter().zip([&t.sharp, &t.peak, &t.flat, &t.valley]) {
            assert_eq!(line.price.0, rate.electricity.0 + rate.service.0);
            assert_eq!(line.amount, line.price.amount(line.energy), "{line:?}");
            energy += line.energy.0;
            amount += line.amount.0;
        }
        assert_eq!(record.energy.0, energy);
        assert_eq!(record.amount.0, amount);
        assert_eq!(record.meter_stop.get() - record.meter_start.get(), u64::from(energy));
        assert_eq!(record.vin.text(), "LSVAU2180N2183294");
    }
}

struct Run {
    platform: Platform,
    notes: Vec<serde_json::Value>,
}

fn run(version: &str) -> Run {
    let mut child: Child = Command::new("python3")
        .arg(pile_script())
        .args(["run", "--version", version])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs the scripted pile");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    let mut platform = Platform {
        session: Session::new(),
        stdin: child.stdin.take().unwrap(),
        pile: None,
        model: TariffModelId::from_digits("0001").unwrap(),
        tariff: tariff(0),
        orders: 0,
        records: Vec::new(),
        seen: Vec::new(),
        skips: Vec::new(),
        refusals: Vec::new(),
        logins: 0,
        sent: Vec::new(),
    };
    let mut decoder = StreamDecoder::new();
    let mut notes = Vec::new();
    loop {
        let Ok(line) = rx.recv_timeout(Duration::from_secs(20)) else {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("the pile stopped talking: {}", String::from_utf8_lossy(&out.stderr));
        };
        let (kind, payload) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        match kind {
            "send" => {
                let bytes: Vec<u8> =
                    (0..payload.len()).step_by(2).map(|i| u8::from_str_radix(&payload[i..i + 2], 16).unwrap()).collect();
                decoder.push(&bytes);
                loop {
                    match decoder.decode_next() {
                        Decoded::Frame(frame) => platform.on_frame(&frame),
                        Decoded::Skip { reason, .. } => platform.skips.push(reason),
                        Decoded::NeedMore(_) => break,
                    }
                }
            }
            "note" => notes.push(serde_json::from_str(payload).unwrap()),
            "end" => break,
            other => panic!("unexpected line from the pile: {other} {payload}"),
        }
    }
    drop(platform.stdin.flush());
    let status = child.wait().unwrap();
    assert!(status.success(), "the pile failed");
    Run { platform, notes }
}

fn note<'a>(run: &'a Run, frame: &str) -> Vec<&'a serde_json::Value> {
    run.notes.iter().filter(|n| n["frame"] == frame).collect()
}

fn rates_of(t: &TariffModel) -> serde_json::Value {
    let r = |r: &Rate| serde_json::json!([r.electricity.0, r.service.0]);
    serde_json::json!([r(&t.sharp), r(&t.peak), r(&t.flat), r(&t.valley)])
}

fn slots_of(t: &TariffModel) -> serde_json::Value {
    serde_json::json!(t.slots.0.iter().map(|s| u8::from(*s)).collect::<Vec<_>>())
}

fn check_common(run: &Run) {
    let p = &run.platform;
    assert_eq!(p.logins, 2, "the first login and the one after the reboot");
    // The pile decoded the tariffs this crate encoded, field for field.
    let first = note(run, "tariff answer");
    assert_eq!(first[0]["model"], "0001");
    assert_eq!(first[0]["rates"], rates_of(&tariff(0)));
    assert_eq!(first[0]["slots"], slots_of(&tariff(0)));
    let pushed = note(run, "tariff push");
    assert_eq!(pushed[0]["model"], "0002");
    assert_eq!(pushed[0]["rates"], rates_of(&tariff(1)));
    let remote = note(run, "remote start");
    assert_eq!(remote[0]["physical_card"], "00000000D14B0A54");
    assert_eq!((remote[0]["balance"].as_u64(), remote[0]["logical_card"].as_str()), (Some(98_765), Some("0000001000000573")));
    assert_eq!(note(run, "time sync")[0]["time"], "2026-03-16T23:30:00.250000");
    assert_eq!(note(run, "reboot")[0]["when"], 2);

    // Two sessions, priced from the tariff in force (checked on arrival).
    assert_eq!(p.records.len(), 2);
    let card = &p.records[0];
    assert_eq!((card.trade_kind, card.stop_reason.class()), (TradeKind::Card, Some(ykc::msg::StopClass::Completed)));
    assert_eq!(
        [card.peak.energy.0, card.sharp.energy.0, card.flat.energy.0, card.valley.energy.0],
        [123_456, 100_001, 33_333, 0],
        "the pile split the energy by the half-hour slots"
    );
    // 12.3456 kWh × 1.60001 + 10.0001 × 2.03456 + 3.3333 × 1.10000 yuan.
    assert_eq!(card.amount.0, 197_531 + 203_458 + 36_666);
    assert_eq!(card.amount.to_fen(), Fen(4_377));
    assert_eq!(card.meter_start.get(), 123_456_789_012, "a register past 32 bits");
    assert_eq!(card.start.to_datetime().unwrap().to_string(), "2026-03-16 10:00:00.0");
    let remote = &p.records[1];
    assert_eq!((remote.trade_kind, remote.stop_reason.0), (TradeKind::App, 0x40));
    let started = p.sent.iter().find_map(|m| match m {
        Message::RemoteStart(s) => Some(s.order),
        _ => None,
    });
    assert_eq!(Some(remote.order), started, "the record carries the remote start's order");

    // The charging-process frames all arrived and decoded.
    for t in [0x13, 0x15, 0x17, 0x19, 0x1B, 0x1D, 0x21, 0x23, 0x25, 0x33, 0x35, 0x55, 0x57, 0x91] {
        assert!(p.seen.contains(&t), "0x{t:02X} was not seen");
    }
    // The bad frames: noise, a bad CRC and an impossible length were
    // skipped; an unknown type and a short heartbeat were refused; the
    // good frames around them were answered (the pile checked that).
    assert!(p.skips.iter().any(|s| matches!(s, SkipReason::NoStartByte)));
    assert!(p.skips.iter().any(|s| matches!(s, SkipReason::BadCrc { .. })));
    assert!(p.skips.iter().any(|s| matches!(s, SkipReason::BadLength { length: 2 })));
    assert!(p.refusals.iter().any(|r| matches!(r, Refusal::Undecodable(why) if why.contains("0x07 is not a frame"))));
    assert!(p.refusals.iter().any(|r| matches!(r, Refusal::Undecodable(why) if why.contains("9-byte body, got 8"))));
}

#[test]
fn python_pile_speaking_1_6() {
    let run = run("1.6");
    check_common(&run);
    assert_eq!(note(&run, "parallel start answer")[0]["authorised"], 1);
    assert!(run.platform.sent.iter().any(|m| matches!(m, Message::ParallelStartAnswer(_))));
}

#[test]
fn python_pile_speaking_1_5() {
    let run = run("1.5");
    check_common(&run);
    // A 1.5 pile's parallel start request is not part of its protocol.
    assert!(run
        .platform
        .refusals
        .iter()
        .any(|r| matches!(r, Refusal::Undecodable(why) if why.contains("0xA1 is not in protocol V1_5"))));
    assert!(note(&run, "parallel start answer").is_empty());
}

#[test]
fn python_pile_selftest_on_the_specification_examples() {
    let out = Command::new("python3").arg(pile_script()).arg("selftest").output().expect("python3 runs the pile");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "selftest ok");
}
