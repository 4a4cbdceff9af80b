//! The certificate authority for charging stations (OCPP 1.6 security
//! whitepaper, edition 3): it signs a charger's certificate from the CSR
//! the charger sends (SignCertificate), and is the trust anchor for the
//! client certificates of security profile 3 (TLS with client
//! certificates) at the handshake.
//!
//! Where the CA comes from (`config::CaSource`): generated at first use
//! into the data dir (ECDSA P-256, ten years; the key owner-readable, like
//! the development JWT secret; the embedded store only, where one machine
//! keeps the key beside the database), the operator's own CA as two PEM
//! files, or one PEM text holding both (on AWS a Secrets Manager secret,
//! read at start-up as the other secrets are). Nothing is built in: no key
//! exists before one of these gives it.
//!
//! The charging station certificate it issues (the whitepaper's
//! "Charging Station certificate"):
//! - X.509 v3, signed with the CA's key (ECDSA P-256 with SHA-256 for the
//!   generated CA), a random 128-bit serial number;
//! - subject: CN = the charge point id (the pile's code, as the charger
//!   identifies itself at the handshake), O = the CSR's organisation if it
//!   names one;
//! - key usage digitalSignature and keyAgreement (critical), extended key
//!   usage clientAuth, basic constraints CA:false, subject and authority
//!   key identifiers;
//! - valid from five minutes before the signing (chargers' clocks drift)
//!   for `BACKOFFICE_CHARGER_CERT_DAYS` days (365).
//!
//! A CSR is refused (a 400 naming `csr`, and SignCertificate answers
//! Rejected) when it is not a PKCS#10 request in PEM, its signature does
//! not verify (the charger must hold the key), its subject's CN is not the
//! charger's id, or its key is weak: RSA below 2048 bits, an elliptic
//! curve other than P-256 or P-384 (what TLS verifies here), Ed25519 (OCPP
//! asks for RSA or ECDSA), or a signature hash below SHA-256.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use envelope::{msg, ApiError, Text};
use rcgen::{PublicKeyData, BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair, KeyUsagePurpose, SerialNumber};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, CertificateSigningRequestDer, UnixTime};
use sha2::{Digest, Sha256};
use x509_parser::oid_registry::*;
use x509_parser::prelude::*;

use crate::config::{CaSource, Config, StoreConfig};
use crate::ctx::AppCtx;

/// The generated CA's files in the data dir.
pub const CA_CERT_FILE: &str = "charger-ca.pem";
pub const CA_KEY_FILE: &str = "charger-ca-key.pem";
/// How long the generated CA is valid.
const CA_DAYS: i64 = 3650;
/// An issued certificate starts this long before it is signed.
const BACKDATE_SECS: i64 = 300;
/// SignCertificate's `csr` is a CiString of at most 5500 characters.
pub const MAX_CSR_CHARS: usize = 5500;
/// The subject the generated CA carries.
pub const GENERATED_CA_NAME: &str = "Charging Station CA";

/// The CA in use, loaded once per process (see [`get`]).
#[derive(Default)]
pub struct CaCell(Mutex<Option<Arc<ChargerCa>>>);

/// A loaded CA: its certificate, its signing key and the trust anchors
/// of the handshake (this CA first, then `BACKOFFICE_CHARGER_TRUSTED_CAS`).
pub struct ChargerCa {
    pub cert_pem: String,
    pub cert_der: CertificateDer<'static>,
    pub subject: String,
    /// OCPP's issuerKeyHash of what this CA signs.
    pub key_hash: String,
    issuer: Issuer<'static, KeyPair>,
    trusted: Vec<CertificateDer<'static>>,
}

impl std::fmt::Debug for ChargerCa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChargerCa").field("subject", &self.subject).finish_non_exhaustive()
    }
}

/// Why the CA cannot be used: said once, as what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaError(pub String);

impl From<CaError> for ApiError {
    fn from(e: CaError) -> ApiError {
        tracing::error!(error = %e.0, "the charging stations' CA is not usable");
        ApiError::new(503, msg::chargers::ca::unavailable(&e.0))
    }
}

/// The CA, loaded (or generated) at its first use and kept.
pub fn get(ctx: &AppCtx) -> Result<Arc<ChargerCa>, CaError> {
    let mut cell = ctx.charger_ca.0.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(ca) = cell.as_ref() {
        return Ok(ca.clone());
    }
    let ca = Arc::new(load(&ctx.config, ctx.now())?);
    *cell = Some(ca.clone());
    Ok(ca)
}

fn read(path: &Path, what: &str) -> Result<String, CaError> {
    std::fs::read_to_string(path).map_err(|e| CaError(format!("cannot read the CA's {what} {}: {e}", path.display())))
}

/// Loads the configured CA, generating it into the data dir when that is
/// the source and none is there yet.
pub fn load(config: &Config, now: i64) -> Result<ChargerCa, CaError> {
    let ca = &config.charger_ca;
    let (cert_pem, key_pem) = match &ca.source {
        CaSource::Files { cert, key } => (read(cert, "certificate")?, read(key, "key")?),
        CaSource::Pem(text) => (text.clone(), text.clone()),
        CaSource::DataDir => {
            if !matches!(config.store, StoreConfig::Sqlite { .. }) {
                return Err(CaError(
                    "no CA is configured: with the DynamoDB store give it (BACKOFFICE_CHARGER_CA, or BACKOFFICE_CHARGER_CA_SECRET_ID on AWS, or the files BACKOFFICE_CHARGER_CA_CERT and BACKOFFICE_CHARGER_CA_KEY), so every instance signs with the same one".into(),
                ));
            }
            generated(&config.data_dir, now)?
        }
    };
    let mut loaded = from_pem(&cert_pem, &key_pem)?;
    if let Some(path) = &ca.trusted_cas {
        for der in CertificateDer::pem_slice_iter(read(path, "trusted CA list")?.as_bytes()) {
            let der = der.map_err(|e| CaError(format!("{} holds a certificate that is not PEM: {e}", path.display())))?;
            parse_certificate(&der).map_err(|e| CaError(format!("{}: {e}", path.display())))?;
            loaded.trusted.push(der);
        }
    }
    Ok(loaded)
}

/// The data dir's CA: read when both files are there, else made now (the
/// key first, written owner-readable; the certificate then).
fn generated(dir: &Path, now: i64) -> Result<(String, String), CaError> {
    let (cert_path, key_path): (PathBuf, PathBuf) = (dir.join(CA_CERT_FILE), dir.join(CA_KEY_FILE));
    if key_path.exists() && cert_path.exists() {
        return Ok((read(&cert_path, "certificate")?, read(&key_path, "key")?));
    }
    let key = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).map_err(|e| CaError(format!("cannot make a key: {e}")))?;
    let mut params = CertificateParams::default();
    params.distinguished_name = DistinguishedName::new();
    params.distinguished_name.push(DnType::CommonName, GENERATED_CA_NAME);
    params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    params.not_before = at(now - BACKDATE_SECS);
    params.not_after = at(now + CA_DAYS * 86_400);
    params.serial_number = Some(random_serial());
    let cert = params.self_signed(&key).map_err(|e| CaError(format!("cannot make the CA certificate: {e}")))?;
    let (cert_pem, key_pem) = (cert.pem(), key.serialize_pem());
    crate::config::write_private_file(&key_path, key_pem.as_bytes())
        .and_then(|()| std::fs::write(&cert_path, cert_pem.as_bytes()))
        .map_err(|e| CaError(format!("cannot write the CA into {}: {e}; make the data dir writable or give a CA (BACKOFFICE_CHARGER_CA_CERT/KEY)", dir.display())))?;
    tracing::info!(certificate = %cert_path.display(), "made the charging stations' certificate authority (keep its key with the data dir's backups)");
    Ok((cert_pem, key_pem))
}

/// A CA from its certificate (the first CERTIFICATE section) and key (the
/// PKCS#8 PRIVATE KEY section) in PEM; the two may be one text.
pub fn from_pem(cert_pem: &str, key_pem: &str) -> Result<ChargerCa, CaError> {
    let cert_der = CertificateDer::pem_slice_iter(cert_pem.as_bytes())
        .next()
        .ok_or_else(|| CaError("the CA certificate is missing: give a PEM CERTIFICATE section".into()))?
        .map_err(|e| CaError(format!("the CA certificate is not PEM: {e}")))?;
    let key_section = pem_section(key_pem, "PRIVATE KEY").ok_or_else(|| CaError("the CA key is missing: give a PKCS#8 PEM PRIVATE KEY section (openssl pkcs8 -topk8 -nocrypt converts others)".into()))?;
    let key = KeyPair::from_pem(&key_section).map_err(|e| CaError(format!("the CA key cannot be used: {e}")))?;
    let parsed = parse_certificate(&cert_der).map_err(CaError)?;
    let (_, cert) = X509Certificate::from_der(&cert_der).map_err(|e| CaError(format!("the CA certificate cannot be read: {e}")))?;
    if !cert.is_ca() {
        return Err(CaError(format!("the certificate {} is not a CA certificate (basic constraints CA:true)", parsed.subject)));
    }
    if cert.public_key().raw != key.subject_public_key_info().as_slice() {
        return Err(CaError(format!("the CA key does not belong to the certificate {}", parsed.subject)));
    }
    let key_hash = key_hash(&cert);
    let issuer = Issuer::from_ca_cert_der(&cert_der, key).map_err(|e| CaError(format!("the CA certificate cannot sign: {e}")))?;
    let cert_pem = pem_text("CERTIFICATE", &cert_der);
    Ok(ChargerCa { subject: parsed.subject, key_hash, cert_pem, trusted: vec![cert_der.clone()], cert_der, issuer })
}

/// The first PEM section labelled `label` (with its armour), if any.
fn pem_section(text: &str, label: &str) -> Option<String> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let start = text.find(&begin)?;
    let stop = text[start..].find(&end)? + start + end.len();
    Some(text[start..stop].to_string())
}

fn pem_text(label: &str, der: &[u8]) -> String {
    let body = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, der);
    let lines: Vec<&str> = body.as_bytes().chunks(64).map(|c| std::str::from_utf8(c).unwrap_or_default()).collect();
    format!("-----BEGIN {label}-----\n{}\n-----END {label}-----\n", lines.join("\n"))
}

fn at(secs: i64) -> ::time::OffsetDateTime {
    ::time::OffsetDateTime::from_unix_timestamp(secs).unwrap_or(::time::OffsetDateTime::UNIX_EPOCH)
}

fn random_serial() -> SerialNumber {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    // Positive and of full length: DER integers are signed.
    bytes[0] = (bytes[0] & 0x7f) | 0x40;
    SerialNumber::from_slice(&bytes)
}

/// What the product keeps of a certificate it issued or was shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedCertificate {
    /// Upper-case hex without separators, as OCPP's CertificateHashData.
    pub serial: String,
    pub subject: String,
    pub issuer: String,
    pub common_name: Option<String>,
    pub not_before: i64,
    pub not_after: i64,
    /// SHA-256 of the DER, lower-case hex.
    pub fingerprint: String,
    pub is_ca: bool,
    /// OCPP's CertificateHashData (SHA-256): the issuer's name and key as
    /// the certificate names them. For a self-signed root its own.
    pub issuer_name_hash: String,
    pub issuer_key_hash: String,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads a DER certificate.
pub fn parse_certificate(der: &[u8]) -> Result<ParsedCertificate, String> {
    let (_, cert) = X509Certificate::from_der(der).map_err(|e| format!("not an X.509 certificate: {e}"))?;
    let serial = hex(cert.raw_serial()).trim_start_matches('0').to_uppercase();
    let common_name = cert.subject().iter_common_name().next().and_then(|cn| cn.as_str().ok()).map(str::to_owned);
    // The issuer's key is known here only for a self-signed certificate
    // (the roots a charger holds); `sign` fills it in for what it issues.
    let self_signed = cert.subject().as_raw() == cert.issuer().as_raw();
    let issuer_key_hash = if self_signed { key_hash(&cert) } else { String::new() };
    Ok(ParsedCertificate {
        serial: if serial.is_empty() { "0".into() } else { serial },
        subject: cert.subject().to_string(),
        issuer: cert.issuer().to_string(),
        common_name,
        not_before: cert.validity().not_before.timestamp(),
        not_after: cert.validity().not_after.timestamp(),
        fingerprint: hex(&Sha256::digest(der)),
        is_ca: cert.is_ca(),
        issuer_name_hash: hex(&Sha256::digest(cert.issuer().as_raw())),
        issuer_key_hash,
    })
}

/// OCPP's issuerKeyHash of the certificate's own key: the SHA-256 of its
/// public key's bits.
fn key_hash(cert: &X509Certificate<'_>) -> String {
    hex(&Sha256::digest(&cert.public_key().subject_public_key.data))
}

/// Reads one PEM certificate (InstallCertificate's `certificate`); the
/// problem is the words after the field's name.
pub fn parse_certificate_pem(pem: &str) -> Result<(CertificateDer<'static>, ParsedCertificate), Text> {
    let der = CertificateDer::from_pem_slice(pem.as_bytes()).map_err(|_| msg::chargers::certificates::not_pem())?;
    let parsed = parse_certificate(&der).map_err(msg::chargers::certificates::unreadable)?;
    Ok((der, parsed))
}

/// A signed charger certificate: the certificate, and the chain sent in
/// CertificateSigned (the certificate, then the CA's).
pub struct Signed {
    pub der: CertificateDer<'static>,
    pub parsed: ParsedCertificate,
    pub chain_pem: String,
}

/// Checks a CSR (PEM) for the charger `charge_point_id` and signs it; a
/// CSR's problem is the words after the field's name.
pub fn sign(ca: &ChargerCa, charge_point_id: &str, csr_pem: &str, now: i64, days: u32) -> Result<Signed, Text> {
    if csr_pem.chars().count() > MAX_CSR_CHARS {
        return Err(msg::chargers::command::at_most_chars(MAX_CSR_CHARS));
    }
    let der = CertificateSigningRequestDer::from_pem_slice(csr_pem.trim().as_bytes()).map_err(|_| msg::chargers::csr::not_pem())?;
    let (_, csr) = X509CertificationRequest::from_der(der.as_ref()).map_err(|_| msg::chargers::csr::not_pkcs10())?;
    let info = &csr.certification_request_info;
    key_strength(&info.subject_pki)?;
    let sig = &csr.signature_algorithm.algorithm;
    let strong_hash = [OID_PKCS1_SHA256WITHRSA, OID_PKCS1_SHA384WITHRSA, OID_PKCS1_SHA512WITHRSA, OID_SIG_ECDSA_WITH_SHA256, OID_SIG_ECDSA_WITH_SHA384, OID_SIG_ECDSA_WITH_SHA512];
    if !strong_hash.contains(sig) {
        return Err(msg::chargers::csr::weak_signature(sig));
    }
    csr.verify_signature().map_err(|_| msg::chargers::csr::bad_signature())?;
    let cn = info.subject.iter_common_name().next().and_then(|cn| cn.as_str().ok()).unwrap_or_default();
    if !cn.eq_ignore_ascii_case(charge_point_id) {
        return Err(msg::chargers::csr::wrong_subject(charge_point_id, cn));
    }
    let mut params = CertificateParams::default();
    params.distinguished_name = DistinguishedName::new();
    if let Some(o) = info.subject.iter_organization().next().and_then(|o| o.as_str().ok()).map(str::trim).filter(|o| !o.is_empty()) {
        params.distinguished_name.push(DnType::OrganizationName, o);
    }
    params.distinguished_name.push(DnType::CommonName, charge_point_id);
    params.is_ca = IsCa::ExplicitNoCa;
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyAgreement];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    params.use_authority_key_identifier_extension = true;
    params.not_before = at(now - BACKDATE_SECS);
    params.not_after = at(now + i64::from(days) * 86_400);
    params.serial_number = Some(random_serial());
    let public_key = rcgen::SubjectPublicKeyInfo::from_der(info.subject_pki.raw).map_err(|_| msg::chargers::csr::unreadable_key())?;
    let cert = params.signed_by(&public_key, &ca.issuer).map_err(|e| msg::chargers::csr::cannot_sign(e))?;
    let der = cert.der().clone();
    let mut parsed = parse_certificate(&der).map_err(msg::chargers::csr::cannot_sign)?;
    parsed.issuer_key_hash = ca.key_hash.clone();
    let chain_pem = format!("{}{}", cert.pem(), ca.cert_pem);
    Ok(Signed { der, parsed, chain_pem })
}

fn key_strength(spki: &SubjectPublicKeyInfo) -> Result<(), Text> {
    match spki.parsed() {
        Ok(x509_parser::public_key::PublicKey::RSA(rsa)) => {
            let bits = rsa.key_size();
            if bits < 2048 {
                return Err(msg::chargers::csr::rsa_too_short(bits));
            }
            if bits > 8192 {
                return Err(msg::chargers::csr::rsa_too_long(bits));
            }
            Ok(())
        }
        Ok(x509_parser::public_key::PublicKey::EC(_)) => {
            let curve = spki.algorithm.parameters.as_ref().and_then(|p| p.as_oid().ok());
            match curve {
                Some(c) if c == OID_EC_P256 || c == OID_NIST_EC_P384 => Ok(()),
                Some(other) => Err(msg::chargers::csr::curve(other)),
                None => Err(msg::chargers::csr::unnamed_curve()),
            }
        }
        _ if spki.algorithm.algorithm == OID_SIG_ED25519 => Err(msg::chargers::csr::ed25519()),
        _ => Err(msg::chargers::csr::key_type(&spki.algorithm.algorithm)),
    }
}

/// Why a charger's client certificate does not admit it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientCertProblem {
    /// The connection carried none (or is not the gateway's own TLS).
    Missing,
    /// It does not chain to a trusted CA, or is not for client use.
    Untrusted(String),
    Expired,
    NotYetValid,
    /// Its subject's CN is another charger's, or none.
    WrongSubject(String),
}

impl ClientCertProblem {
    pub fn reason(&self) -> String {
        match self {
            ClientCertProblem::Missing => "security profile 3: a TLS client certificate is required".into(),
            ClientCertProblem::Untrusted(why) => format!("the client certificate is not trusted: {why}"),
            ClientCertProblem::Expired => "the client certificate has expired".into(),
            ClientCertProblem::NotYetValid => "the client certificate is not valid yet".into(),
            ClientCertProblem::WrongSubject(cn) => format!("the client certificate's subject CN '{cn}' is not this charge point id"),
        }
    }
}

/// Checks a client certificate chain (DER, the charger's first) against
/// the trust anchors at `now` with rustls' own client verifier (chain,
/// validity, clientAuth use), then that its subject's CN is
/// `charge_point_id`. Returns what the certificate is.
pub fn verify_client(ca: &ChargerCa, charge_point_id: &str, chain: &[Vec<u8>], now: i64) -> Result<ParsedCertificate, ClientCertProblem> {
    let (end_entity, intermediates) = chain.split_first().ok_or(ClientCertProblem::Missing)?;
    let verifier = ca.client_verifier().map_err(|e| ClientCertProblem::Untrusted(e.0))?;
    let ee = CertificateDer::from(end_entity.as_slice());
    let rest: Vec<CertificateDer<'_>> = intermediates.iter().map(|c| CertificateDer::from(c.as_slice())).collect();
    let when = UnixTime::since_unix_epoch(Duration::from_secs(now.max(0) as u64));
    if let Err(e) = verifier.verify_client_cert(&ee, &rest, when) {
        use rustls::CertificateError as C;
        return Err(match e {
            rustls::Error::InvalidCertificate(C::Expired | C::ExpiredContext { .. }) => ClientCertProblem::Expired,
            rustls::Error::InvalidCertificate(C::NotValidYet | C::NotValidYetContext { .. }) => ClientCertProblem::NotYetValid,
            other => ClientCertProblem::Untrusted(other.to_string()),
        });
    }
    let parsed = parse_certificate(end_entity).map_err(ClientCertProblem::Untrusted)?;
    match &parsed.common_name {
        Some(cn) if cn.eq_ignore_ascii_case(charge_point_id) => Ok(parsed),
        other => Err(ClientCertProblem::WrongSubject(other.clone().unwrap_or_default())),
    }
}

impl ChargerCa {
    /// The trust anchors of the handshake: this CA, then the others.
    pub fn trusted(&self) -> &[CertificateDer<'static>] {
        &self.trusted
    }

    /// rustls' verifier of charger certificates against [`Self::trusted`]
    /// (client authentication optional: browsers and chargers of profiles
    /// 1 and 2 use the same port).
    pub fn client_verifier(&self) -> Result<Arc<dyn rustls::server::danger::ClientCertVerifier>, CaError> {
        let mut roots = rustls::RootCertStore::empty();
        for der in &self.trusted {
            roots.add(der.clone()).map_err(|e| CaError(format!("a trusted CA certificate cannot be a trust anchor: {e}")))?;
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
            .allow_unauthenticated()
            .build()
            .map_err(|e| CaError(format!("cannot verify client certificates: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_780_000_000;

    fn test_ca() -> ChargerCa {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::default();
        params.distinguished_name.push(DnType::CommonName, "Test CA");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::DigitalSignature];
        params.not_before = at(NOW - 86_400);
        params.not_after = at(NOW + 3650 * 86_400);
        let cert = params.self_signed(&key).unwrap();
        from_pem(&cert.pem(), &key.serialize_pem()).unwrap()
    }

    fn csr(cn: &str, key: &KeyPair) -> String {
        let mut params = CertificateParams::default();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::OrganizationName, "ACME Charging");
        params.distinguished_name.push(DnType::CommonName, cn);
        params.serialize_request(key).unwrap().pem().unwrap()
    }

    #[test]
    fn a_csr_for_the_charger_is_signed_with_the_charging_station_profile() {
        let ca = test_ca();
        let key = KeyPair::generate().unwrap();
        let signed = sign(&ca, "CP-0001", &csr("CP-0001", &key), NOW, 365).unwrap();
        let (_, cert) = X509Certificate::from_der(&signed.der).unwrap();
        assert_eq!(cert.version(), X509Version::V3);
        assert_eq!(signed.parsed.common_name.as_deref(), Some("CP-0001"));
        assert!(signed.parsed.subject.contains("O=ACME Charging"), "{}", signed.parsed.subject);
        assert_eq!(signed.parsed.issuer, "CN=Test CA");
        assert_eq!((signed.parsed.not_before, signed.parsed.not_after), (NOW - BACKDATE_SECS, NOW + 365 * 86_400));
        assert_eq!(signed.parsed.serial.len(), 32, "a 128-bit serial: {}", signed.parsed.serial);
        let ku = cert.key_usage().unwrap().unwrap();
        assert!(ku.critical && ku.value.digital_signature() && ku.value.key_agreement() && !ku.value.key_cert_sign());
        let eku = cert.extended_key_usage().unwrap().unwrap().value;
        assert!(eku.client_auth && !eku.server_auth);
        assert!(!cert.is_ca());
        assert!(cert.get_extension_unique(&OID_X509_EXT_AUTHORITY_KEY_IDENTIFIER).unwrap().is_some());
        assert!(cert.get_extension_unique(&OID_X509_EXT_SUBJECT_KEY_IDENTIFIER).unwrap().is_some());
        assert_eq!(cert.public_key().raw, key.subject_public_key_info().as_slice(), "the charger's own key");
        let root = parse_certificate(&ca.cert_der).unwrap();
        assert_eq!(signed.parsed.issuer_key_hash, root.issuer_key_hash, "OCPP's hash of the CA's key");
        assert_eq!(signed.parsed.issuer_name_hash, hex(&Sha256::digest(X509Certificate::from_der(&ca.cert_der).unwrap().1.subject().as_raw())));
        // The chain: the certificate, then the CA's; and it admits the charger.
        assert_eq!(signed.chain_pem.matches("BEGIN CERTIFICATE").count(), 2);
        assert!(signed.chain_pem.ends_with(&ca.cert_pem));
        let chain = vec![signed.der.to_vec()];
        assert_eq!(verify_client(&ca, "cp-0001", &chain, NOW).unwrap().serial, signed.parsed.serial);
    }

    #[test]
    fn a_wrong_subject_a_weak_key_and_garbage_are_refused() {
        let ca = test_ca();
        let key = KeyPair::generate().unwrap();
        let wrong = sign(&ca, "CP-0001", &csr("CP-0002", &key), NOW, 365).err().unwrap();
        assert!(wrong.en.contains("'CP-0002'") && wrong.en.contains("CP-0001"), "{}", wrong.en);
        for garbage in ["", "hello", "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n"] {
            assert!(sign(&ca, "CP-0001", garbage, NOW, 365).is_err(), "{garbage}");
        }
        assert!(sign(&ca, "CP-0001", &"A".repeat(MAX_CSR_CHARS + 1), NOW, 365).err().unwrap().en.contains("5500"));
        // A CSR whose signature is broken: the charger does not hold the key.
        let good = csr("CP-0001", &key);
        let der = CertificateSigningRequestDer::from_pem_slice(good.as_bytes()).unwrap();
        let mut bytes = der.as_ref().to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x01;
        let tampered = pem_text("CERTIFICATE REQUEST", &bytes);
        assert!(sign(&ca, "CP-0001", &tampered, NOW, 365).err().unwrap().en.contains("does not verify"));
        // P-384 and RSA 2048 are fine; Ed25519, RSA below 2048 bits and a
        // SHA-1 signature are not.
        let p384 = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384).unwrap();
        assert!(sign(&ca, "CP-0001", &csr("CP-0001", &p384), NOW, 365).is_ok());
        let rsa = sign(&ca, "CP-0001", include_str!("ca_fixtures/rsa2048.csr.pem"), NOW, 365).unwrap();
        assert_eq!(rsa.parsed.subject, "O=ACME, CN=CP-0001");
        let ed = KeyPair::generate_for(&rcgen::PKCS_ED25519).unwrap();
        assert!(sign(&ca, "CP-0001", &csr("CP-0001", &ed), NOW, 365).err().unwrap().en.contains("Ed25519"));
        let short = sign(&ca, "CP-0001", include_str!("ca_fixtures/rsa1024.csr.pem"), NOW, 365).err().unwrap();
        assert!(short.en.contains("1024-bit RSA key"), "{}", short.en);
        let sha1 = sign(&ca, "CP-0001", include_str!("ca_fixtures/rsa2048-sha1.csr.pem"), NOW, 365).err().unwrap();
        assert!(sha1.en.contains("SHA-256 or stronger"), "{}", sha1.en);
    }

    #[test]
    fn a_client_certificate_is_checked_for_its_ca_its_time_and_its_subject() {
        let ca = test_ca();
        let key = KeyPair::generate().unwrap();
        let signed = sign(&ca, "CP-7", &csr("CP-7", &key), NOW, 30).unwrap();
        let chain = vec![signed.der.to_vec()];
        assert!(verify_client(&ca, "CP-7", &chain, NOW + 86_400).is_ok());
        assert_eq!(verify_client(&ca, "CP-7", &chain, NOW + 31 * 86_400), Err(ClientCertProblem::Expired));
        assert_eq!(verify_client(&ca, "CP-7", &chain, NOW - 3600), Err(ClientCertProblem::NotYetValid));
        assert_eq!(verify_client(&ca, "CP-8", &chain, NOW), Err(ClientCertProblem::WrongSubject("CP-7".into())));
        assert_eq!(verify_client(&ca, "CP-7", &[], NOW), Err(ClientCertProblem::Missing));
        // Made by another CA: not trusted.
        let other = test_ca();
        let foreign = sign(&other, "CP-7", &csr("CP-7", &key), NOW, 30).unwrap();
        assert!(matches!(verify_client(&ca, "CP-7", &[foreign.der.to_vec()], NOW), Err(ClientCertProblem::Untrusted(_))));
    }

    #[test]
    fn the_ca_is_generated_once_into_the_data_dir_owner_readable() {
        let dir = std::env::temp_dir().join(format!("charger-ca-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut config = crate::config::Config::from_lookup(|_| None).unwrap();
        config.data_dir = dir.clone();
        config.store = StoreConfig::Sqlite { path: dir.join("db") };
        let first = load(&config, NOW).unwrap();
        assert_eq!(first.subject, format!("CN={GENERATED_CA_NAME}"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(dir.join(CA_KEY_FILE)).unwrap().permissions().mode() & 0o777, 0o600);
        }
        let again = load(&config, NOW + 10).unwrap();
        assert_eq!(first.cert_der, again.cert_der, "the second start reads the same CA");
        // With DynamoDB (several instances) nothing is generated.
        config.store = StoreConfig::Dynamo { table: "t".into(), endpoint: None, region: None };
        assert!(load(&config, NOW).unwrap_err().0.contains("BACKOFFICE_CHARGER_CA"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_supplied_ca_must_be_a_ca_with_its_own_key() {
        let key = KeyPair::generate().unwrap();
        let other_key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::default();
        params.distinguished_name.push(DnType::CommonName, "Operator CA");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let cert = params.self_signed(&key).unwrap();
        let both = format!("{}{}", cert.pem(), key.serialize_pem());
        assert!(from_pem(&both, &both).is_ok(), "one PEM text holding both");
        assert!(from_pem(&cert.pem(), &other_key.serialize_pem()).unwrap_err().0.contains("does not belong"));
        assert!(from_pem(&cert.pem(), "").unwrap_err().0.contains("PRIVATE KEY"));
        let mut leaf = CertificateParams::default();
        leaf.distinguished_name.push(DnType::CommonName, "not a CA");
        let leaf = leaf.self_signed(&key).unwrap();
        assert!(from_pem(&leaf.pem(), &key.serialize_pem()).unwrap_err().0.contains("not a CA"));
    }
}
