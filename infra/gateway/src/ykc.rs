//! The YKC (Yunkuaichong) link on the local gateway: a TCP listener on its own
//! port (`BACKOFFICE_YKC_PORT`), one task per pile connection that feeds
//! the bytes to the `ykc` crate's decoder and session and each message to
//! the back-office's YKC platform (`ykc_platform::PileLink`), writing the
//! answers. The connection is the pile's outbound port in the same map as
//! the OCPP sockets: the command queue's calls arrive as text and leave as
//! the pile's frames, and the pile's answer (matched by sequence number)
//! completes the command. A second port may take piles over TLS, with the
//! gateway's own certificate (renewed as the HTTPS one is).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use backoffice::domain::chargers::log::Direction;
use backoffice::domain::chargers::ykc_platform::{self as platform, PileLink};
use backoffice::AppCtx;
use axum_server::tls_rustls::RustlsConfig;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use ykc::{Decoded, Inbound, Message, Session, StreamDecoder};

use crate::chargers::{LiveSockets, Sender, YkcOut};

/// A frame is at most 259 bytes; a read of this many holds several.
const READ_BUFFER: usize = 4096;
/// How often a connection checks that its pile still speaks.
const SILENCE_CHECK: Duration = Duration::from_secs(5);
/// Dropped bytes logged per read at most (line noise must not flood the log).
const SKIPS_LOGGED_PER_READ: usize = 8;
/// A command's frame waits this long for its answer before its entry goes
/// (the queue's own timeout ends the command first).
const PENDING_SECS: i64 = 120;

/// How long a pile may take over its TLS handshake.
const TLS_HANDSHAKE: Duration = Duration::from_secs(10);

/// Binds a YKC port (TLS with `tls`) and serves piles until the process ends.
pub async fn listen(ctx: Arc<AppCtx>, sockets: LiveSockets, host: &str, port: u16, tls: Option<RustlsConfig>) -> Result<SocketAddr, String> {
    let listener = TcpListener::bind((host, port)).await.map_err(|e| {
        if e.kind() == std::io::ErrorKind::AddrInUse {
            format!("YKC port {port} is busy: stop the other process or set BACKOFFICE_YKC_PORT to a free port")
        } else {
            format!("cannot listen for YKC piles on {host}:{port}: {e}")
        }
    })?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let (ctx, sockets) = (ctx.clone(), sockets.clone());
                    match &tls {
                        None => {
                            tokio::spawn(run(ctx, sockets, stream, peer));
                        }
                        Some(config) => {
                            // The configuration as it is now (a renewed certificate is taken).
                            let acceptor = tokio_rustls::TlsAcceptor::from(config.get_inner());
                            tokio::spawn(async move {
                                match tokio::time::timeout(TLS_HANDSHAKE, acceptor.accept(stream)).await {
                                    Ok(Ok(stream)) => run(ctx, sockets, stream, peer).await,
                                    Ok(Err(e)) => tracing::info!(%peer, error = %e, "YKC TLS handshake failed"),
                                    Err(_) => tracing::info!(%peer, "YKC TLS handshake timed out"),
                                }
                            });
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "YKC accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    });
    Ok(address)
}

fn now_ms() -> i64 {
    ocpp::now_ms()
}

/// A frame the platform sent that waits for the pile's answer.
struct Pending {
    /// The queued command it carries (None: the platform's own time sync).
    command_id: Option<String>,
    answer_type: u8,
    message: Message,
    raw: Vec<u8>,
    at: i64,
}

/// One pile's connection.
struct Connection {
    ctx: Arc<AppCtx>,
    sockets: LiveSockets,
    id: String,
    peer: String,
    tx: mpsc::UnboundedSender<YkcOut>,
    session: Session,
    link: Option<PileLink>,
    pending: HashMap<u16, Pending>,
    out: Vec<u8>,
    /// Close once what is written is flushed (a refused login).
    closing: bool,
}

async fn run<S: AsyncRead + AsyncWrite + Send + Unpin + 'static>(ctx: Arc<AppCtx>, sockets: LiveSockets, stream: S, peer: SocketAddr) {
    let (mut reader, mut writer) = tokio::io::split(stream);
    let (tx, mut rx) = mpsc::unbounded_channel::<YkcOut>();
    let opened_ms = now_ms();
    let mut c = Connection {
        ctx,
        sockets,
        id: uuid::Uuid::now_v7().simple().to_string(),
        peer: peer.to_string(),
        tx,
        session: Session::new(),
        link: None,
        pending: HashMap::new(),
        out: Vec::new(),
        closing: false,
    };
    let mut decoder = StreamDecoder::new();
    let mut buf = vec![0u8; READ_BUFFER];
    let mut tick = tokio::time::interval(SILENCE_CHECK);
    loop {
        tokio::select! {
            read = reader.read(&mut buf) => {
                let n = match read {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                decoder.push(&buf[..n]);
                c.decode(&mut decoder).await;
            }
            out = rx.recv() => match out {
                Some(YkcOut::Call(text)) => c.command(&text).await,
                Some(YkcOut::Close(reason)) => {
                    tracing::info!(connection = %c.id, reason, "YKC connection closed by the platform");
                    break;
                }
                None => break,
            },
            _ = tick.tick() => {
                if c.session.is_silent(opened_ms as u64, now_ms() as u64) {
                    tracing::info!(connection = %c.id, "YKC pile silent: connection closed");
                    break;
                }
                let stale = c.ctx.now() - PENDING_SECS;
                c.pending.retain(|_, p| p.at >= stale);
            }
        }
        if !c.out.is_empty() {
            if writer.write_all(&c.out).await.is_err() {
                break;
            }
            c.out.clear();
        }
        if c.closing {
            break;
        }
    }
    let _ = writer.shutdown().await;
    if let Some(link) = &c.link {
        c.sockets.unregister(&link.pile.id, &c.id);
        if let Err(e) = link.close(&c.ctx).await {
            tracing::warn!(error = %e.msg.en, "could not record a YKC disconnect");
        }
    }
}

impl Connection {
    fn pile_id(&self) -> Option<String> {
        self.link.as_ref().map(|l| l.pile.id.clone())
    }

    async fn log(&self, entry: backoffice::domain::chargers::log::MessageLogEntry) {
        if let Some(pile) = self.pile_id() {
            platform::log(&self.ctx, &pile, entry).await;
        }
    }

    async fn decode(&mut self, decoder: &mut StreamDecoder) {
        let mut skips = 0;
        loop {
            match decoder.decode_next() {
                Decoded::NeedMore(_) => return,
                Decoded::Skip { count, reason } => {
                    skips += 1;
                    if skips <= SKIPS_LOGGED_PER_READ {
                        let raw = match &reason {
                            ykc::SkipReason::BadCrc { frame, .. } => frame.clone(),
                            _ => Vec::new(),
                        };
                        let why = serde_json::to_string(&reason).unwrap_or_default();
                        self.log(platform::refused_entry(self.ctx.now(), None, &raw, "Skipped", format!("{count} byte(s) dropped: {why}"))).await;
                    }
                }
                Decoded::Frame(frame) => {
                    let raw = frame.encode().unwrap_or_default();
                    let inbound = self.session.on_frame(&frame, now_ms() as u64);
                    self.inbound(inbound, raw).await;
                    if self.closing {
                        return;
                    }
                }
            }
        }
    }

    async fn inbound(&mut self, inbound: Inbound, raw: Vec<u8>) {
        let now = self.ctx.now();
        match inbound {
            Inbound::Login { seq, login, version } => self.login(seq, login, version, raw).await,
            Inbound::Message { seq, message } => {
                if let Some(p) = self.answer_to(seq, &message) {
                    self.answered(p, message, raw).await;
                    return;
                }
                let Some(link) = self.link.as_mut() else { return };
                match link.handle(&self.ctx, &message).await {
                    Ok(handled) => {
                        let answer = handled.answer.and_then(|a| self.session.answer(seq, &a).ok().map(|bytes| (a, bytes)));
                        if let Some((_, bytes)) = &answer {
                            self.out.extend_from_slice(bytes);
                        }
                        let answered_at = answer.as_ref().map(|_| now);
                        let entry = platform::entry(now, Direction::In, &message, &raw, answer.as_ref().map(|(m, b)| (m, b.as_slice())), answered_at);
                        self.log(entry).await;
                    }
                    Err(e) => {
                        // Unanswered: the pile sends it again.
                        tracing::error!(error = %e.msg.en, frame = message.name(), "a YKC message could not be handled");
                        self.log(platform::refused_entry(now, Some(message.name().into()), &raw, "InternalError", "not handled: the store failed; the pile sends it again".into())).await;
                    }
                }
            }
            Inbound::Refused { frame_type, reason, .. } => {
                let action = ykc::msg::frame_type_message_name(frame_type).map(String::from);
                self.log(platform::refused_entry(now, action, &raw, "Refused", reason.to_string())).await;
            }
        }
    }

    async fn login(&mut self, seq: u16, login: ykc::msg::Login, version: ykc::Version, raw: Vec<u8>) {
        let now = self.ctx.now();
        let verdict = match platform::login(&self.ctx, &login, version).await {
            Ok(v) => v,
            Err(e) => {
                // The store failed: no answer; the pile logs in again.
                tracing::error!(error = %e.msg.en, "a YKC login could not be checked");
                return;
            }
        };
        let pile = match verdict {
            Ok(pile) => pile,
            Err((refusal, known)) => {
                tracing::info!(pile = %login.pile.digits(), peer = %self.peer, reason = refusal.describe(), "YKC login refused");
                let bytes = self.session.refuse_login(seq, login.pile);
                self.out.extend_from_slice(&bytes);
                self.closing = true;
                // A registered pile's log says why it stays offline.
                if let Some(pile) = known {
                    let entry = platform::refused_login_entry(now, &Message::Login(login), &raw, &bytes, &refusal);
                    platform::log(&self.ctx, &pile.id, entry).await;
                }
                return;
            }
        };
        let Ok(bytes) = self.session.accept_login(seq) else { return };
        self.out.extend_from_slice(&bytes);
        let answer = ykc::msg::Message::LoginAnswer(ykc::msg::LoginAnswer { pile: login.pile, result: ykc::msg::LoginResult::Accepted });
        let message = Message::Login(login.clone());
        // A pile that logs in again on the same connection starts over.
        if let Some(old) = self.link.take() {
            self.sockets.unregister(&old.pile.id, &self.id);
        }
        match PileLink::open(&self.ctx, pile, version, &self.id, &self.peer, now_ms()).await {
            Ok(link) => {
                if let Some(old) = self.sockets.register(&link.pile.id, &self.id, Sender::Ykc(self.tx.clone())) {
                    old.close("replaced by a new connection");
                }
                self.link = Some(link);
            }
            Err(e) => {
                tracing::error!(error = %e.msg.en, "a YKC connection could not be recorded");
                self.closing = true;
                return;
            }
        }
        self.log(platform::entry(now, Direction::In, &message, &raw, Some((&answer, &bytes)), Some(now))).await;
        // The platform's clock, then what is queued for the pile.
        let sync = platform::time_sync(&login.pile, now_ms());
        if let Ok((seq, bytes)) = self.session.send(&sync) {
            self.out.extend_from_slice(&bytes);
            self.pending.insert(seq, Pending { command_id: None, answer_type: platform::calls::answer_type(sync.frame_type()), message: sync, raw: bytes, at: now });
        }
        if let Some(link) = &self.link {
            if let Err(e) = link.start_queue(&self.ctx).await {
                tracing::warn!(error = %e.msg.en, "could not start a YKC pile's queue");
            }
        }
    }

    /// A queued command (`[2, id, action, payload]`, as the queue sends
    /// every call) goes out as the pile's frame.
    async fn command(&mut self, text: &str) {
        let Some(link) = self.link.as_ref() else { return };
        let Ok((_, id, action, payload)) = serde_json::from_str::<(u8, String, String, serde_json::Value)>(text) else {
            tracing::error!(call = text, "the command queue sent a YKC connection something that is not a call");
            return;
        };
        let message = match link.command_frame(&self.ctx, &action, &payload).await {
            Ok(m) => m,
            Err(problem) => {
                // Never sent: the queue times the command out.
                tracing::error!(command = %id, action, problem, "a YKC command could not be written");
                return;
            }
        };
        match self.session.send(&message) {
            Ok((seq, bytes)) => {
                self.out.extend_from_slice(&bytes);
                let answer_type = platform::calls::answer_type(message.frame_type());
                self.pending.insert(seq, Pending { command_id: Some(id), answer_type, message, raw: bytes, at: self.ctx.now() });
            }
            Err(e) => tracing::error!(command = %id, error = %e, "a YKC command could not be sent"),
        }
    }

    /// The frame `message` answers: the one sent with its sequence number
    /// and answered by its type (a frame of the pile's own numbering that
    /// shares a number leaves it waiting). Real-time data also answers a
    /// request for the same gun's whatever its number: piles send the data
    /// asked for as they send it every 15 s.
    fn answer_to(&mut self, seq: u16, message: &Message) -> Option<Pending> {
        let by_number = self.pending.get(&seq).is_some_and(|p| p.answer_type == message.frame_type());
        let key = if by_number {
            Some(seq)
        } else if let Message::Realtime(rt) = message {
            self.pending.iter().filter(|(_, p)| matches!(&p.message, Message::ReadRealtime(r) if r.gun == rt.gun)).min_by_key(|(_, p)| p.at).map(|(k, _)| *k)
        } else {
            None
        };
        key.and_then(|k| self.pending.remove(&k))
    }

    async fn answered(&mut self, p: Pending, answer: Message, raw: Vec<u8>) {
        let now = self.ctx.now();
        let Some(link) = self.link.as_mut() else { return };
        match &p.command_id {
            // The queue logs the command's exchange when it completes.
            Some(id) => {
                let frames = backoffice::domain::chargers::log::RawFrames { request: ykc::frame::to_hex(&p.raw), response: Some(ykc::frame::to_hex(&raw)) };
                if let Err(e) = link.answered(&self.ctx, id, &answer, frames).await {
                    tracing::error!(command = %id, error = %e.msg.en, "a YKC answer could not be applied");
                }
            }
            None => {
                let entry = platform::entry(p.at, Direction::Out, &p.message, &p.raw, Some((&answer, raw.as_slice())), Some(now));
                self.log(entry).await;
            }
        }
    }
}
