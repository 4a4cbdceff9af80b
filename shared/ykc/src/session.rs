//! One pile's connection as a pure state machine: no socket, no store, no
//! clock of its own (the caller passes the time in milliseconds).
//!
//! It holds the rules the specification puts on the link itself:
//! - a pile logs in first (0x01) and nothing else is taken until the
//!   platform accepts the login ("并成功后才能进行后续交互"); a refused pile is
//!   disconnected, so a session closes after a refusal;
//! - the pile declares its version at login; frames of a later version are
//!   refused;
//! - the pile sends odd frame types; an even one from it is refused;
//! - every message carries the logged-in pile's number;
//! - an answer repeats its request's sequence number; the platform's own
//!   frames number from 0 and wrap ("溢出后归 0");
//! - three heartbeat periods (10 s each) without a frame mean the link is
//!   down ("3 次未收到心跳包视为网络异常").

use crate::frame::Frame;
use crate::msg::{Direction, EncodeError, Login, LoginAnswer, LoginResult, Message, PileNo, Version};
use serde::Serialize;

/// The pile's heartbeat period ("10 秒周期上送").
pub const HEARTBEAT_PERIOD_MS: u64 = 10_000;
/// Missed heartbeats after which the link counts as down.
pub const MISSED_HEARTBEATS: u64 = 3;

#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    AwaitingLogin,
    LoginPending { pile: PileNo, version: Version, guns: u8 },
    Online { pile: PileNo, version: Version, guns: u8 },
    Closed,
}

/// What a frame from the pile means for the application.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inbound {
    /// The pile asks to log in with a version this codec speaks. The
    /// application looks the pile up and calls [`Session::accept_login`] or
    /// [`Session::refuse_login`]; until then other frames are refused.
    Login { seq: u16, login: Login, version: Version },
    /// A message of the logged-in pile; answer it with `seq`.
    Message { seq: u16, message: Message },
    /// Refused before reaching the application: log it (and, for a login
    /// with an unsupported version, refuse the login).
    Refused { seq: u16, frame_type: u8, reason: Refusal },
}

/// Why a frame was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum Refusal {
    #[error("the pile has not logged in")]
    NotLoggedIn,
    #[error("protocol version byte 0x{0:02X} is not 1.5 (0x0F) or 1.6 (0x10)")]
    UnsupportedVersion(u8),
    #[error("the pile sent a frame type the platform sends")]
    FromPlatform,
    #[error("the frame names pile {got}, the connection is pile {logged_in}")]
    OtherPile { logged_in: String, got: String },
    #[error("{0}")]
    Undecodable(String),
    #[error("the login was refused; the connection is closing")]
    Closed,
}

/// Why the session cannot do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("no login is waiting for an answer")]
    NoLoginPending,
    #[error("the pile is not logged in")]
    NotOnline,
    #[error(transparent)]
    Encode(#[from] EncodeError),
}

/// One pile's connection.
#[derive(Debug, Clone)]
pub struct Session {
    state: State,
    next_seq: u16,
    last_frame_ms: Option<u64>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        Session { state: State::AwaitingLogin, next_seq: 0, last_frame_ms: None }
    }

    /// The logged-in pile's number.
    pub fn pile(&self) -> Option<&PileNo> {
        match &self.state {
            State::Online { pile, .. } => Some(pile),
            _ => None,
        }
    }

    /// The version the logged-in pile declared.
    pub fn version(&self) -> Option<Version> {
        match &self.state {
            State::Online { version, .. } => Some(*version),
            _ => None,
        }
    }

    /// The number of guns the logged-in pile declared.
    pub fn guns(&self) -> Option<u8> {
        match &self.state {
            State::Online { guns, .. } => Some(*guns),
            _ => None,
        }
    }

    pub fn is_online(&self) -> bool {
        matches!(self.state, State::Online { .. })
    }

    pub fn is_closed(&self) -> bool {
        self.state == State::Closed
    }

    /// Three heartbeat periods passed since the last frame (or since
    /// `opened_ms`, when none came).
    pub fn is_silent(&self, opened_ms: u64, now_ms: u64) -> bool {
        let last = self.last_frame_ms.unwrap_or(opened_ms);
        now_ms.saturating_sub(last) > MISSED_HEARTBEATS * HEARTBEAT_PERIOD_MS
    }

    /// Classifies a frame from the pile.
    pub fn on_frame(&mut self, frame: &Frame, now_ms: u64) -> Inbound {
        self.last_frame_ms = Some(now_ms);
        let (seq, frame_type) = (frame.seq, frame.frame_type);
        let refused = |reason| Inbound::Refused { seq, frame_type, reason };
        if self.state == State::Closed {
            return refused(Refusal::Closed);
        }
        if Direction::of(frame_type) == Direction::FromPlatform {
            return refused(Refusal::FromPlatform);
        }
        if frame_type == 0x01 {
            // The login's body is the same in every version.
            let login = match frame.message(Version::V1_6) {
                Ok(Message::Login(login)) => login,
                Ok(_) => unreachable!("frame type 0x01 decodes as a login"),
                Err(e) => return refused(Refusal::Undecodable(e.to_string())),
            };
            let Some(version) = Version::from_login_byte(login.protocol_version) else {
                return refused(Refusal::UnsupportedVersion(login.protocol_version));
            };
            // A pile that reset without closing the connection logs in again.
            self.state = State::LoginPending { pile: login.pile, version, guns: login.gun_count };
            return Inbound::Login { seq, login, version };
        }
        let State::Online { pile, version, .. } = &self.state else {
            return refused(Refusal::NotLoggedIn);
        };
        let message = match frame.message(*version) {
            Ok(message) => message,
            Err(e) => return refused(Refusal::Undecodable(e.to_string())),
        };
        if let Some(got) = message.pile() {
            if got != pile {
                return refused(Refusal::OtherPile { logged_in: pile.digits(), got: got.digits() });
            }
        }
        Inbound::Message { seq, message }
    }

    /// Accepts the pending login: the answer's bytes (with the login's
    /// sequence number); the pile is then online.
    pub fn accept_login(&mut self, seq: u16) -> Result<Vec<u8>, SessionError> {
        let State::LoginPending { pile, version, guns } = self.state.clone() else {
            return Err(SessionError::NoLoginPending);
        };
        self.state = State::Online { pile, version, guns };
        self.next_seq = 0;
        let answer = Message::LoginAnswer(LoginAnswer { pile, result: LoginResult::Accepted });
        Ok(encode(seq, &answer)?)
    }

    /// Refuses a login (unknown or disabled pile, unsupported version): the
    /// answer's bytes; the session is closed and the caller closes the
    /// connection after writing them.
    pub fn refuse_login(&mut self, seq: u16, pile: PileNo) -> Vec<u8> {
        self.state = State::Closed;
        let answer = Message::LoginAnswer(LoginAnswer { pile, result: LoginResult::Refused });
        encode(seq, &answer).expect("a login answer always encodes")
    }

    /// The bytes of an answer to the frame numbered `seq`.
    pub fn answer(&self, seq: u16, message: &Message) -> Result<Vec<u8>, SessionError> {
        if !self.is_online() {
            return Err(SessionError::NotOnline);
        }
        Ok(encode(seq, message)?)
    }

    /// The bytes of a frame the platform starts (a command, a tariff push),
    /// with its sequence number (the pile's answer will repeat it).
    pub fn send(&mut self, message: &Message) -> Result<(u16, Vec<u8>), SessionError> {
        if !self.is_online() {
            return Err(SessionError::NotOnline);
        }
        let seq = self.next_seq;
        let bytes = encode(seq, message)?;
        self.next_seq = self.next_seq.wrapping_add(1);
        Ok((seq, bytes))
    }
}

fn encode(seq: u16, message: &Message) -> Result<Vec<u8>, EncodeError> {
    let frame = Frame::of(seq, message)?;
    // Every message's body fits the length byte (the list bodies are capped
    // by their counts), so a frame of a message always encodes.
    Ok(frame.encode().expect("a message's body fits the length byte"))
}
