//! The OCPP message types are written from the official JSON schemas, the
//! one source of truth for what a message holds: each schema file becomes
//! a Rust struct (and each enumeration and nested object its own type),
//! with a reader that checks every keyword of the schema on the way
//! (`ocpp::schema`). The schemas come from the PyPI package `ocpp` (the
//! test command installs it into the tools virtualenv); a test here
//! writes the files again from the installed schemas and fails on any
//! difference with the committed ones.
//!
//! No schema library: the OCPP schemas use a small set of keywords (type,
//! properties, required, additionalProperties, enum, maxLength, format,
//! items, minItems, maxItems, minimum, maximum, multipleOf, definitions
//! with `$ref`), and an unknown one stops the generator.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod json;
pub use json::J;

/// One OCPP version's schemas and how its types are named.
pub struct Version {
    /// `OCPP 1.6`.
    pub label: &'static str,
    /// The folder of the package (`ocpp/{dir}/schemas`).
    pub dir: &'static str,
    /// The generated file, from the workspace root.
    pub out: &'static str,
    /// Request schema files end with this (1.6: none, 2.0.1: `Request`).
    pub request_suffix: &'static str,
    /// Actions whose CALL the charger sends.
    pub charger_sends: &'static [&'static str],
    /// Actions either side may send.
    pub either_sends: &'static [&'static str],
    /// Names of the types the schemas leave anonymous (1.6 nests its
    /// objects and enumerations inline): `{file}.{path}` or `*.{field}`,
    /// the specification's own names.
    pub names: &'static [(&'static str, &'static str)],
    /// Extra lines for the file's head (what the version's schemas are).
    pub about: &'static str,
    /// The types' names in a JSON Schema document (feature `schema`: the
    /// OpenAPI document), prefixed so they never meet the API's own.
    pub schema_prefix: &'static str,
}

pub const V16: Version = Version {
    label: "OCPP 1.6",
    dir: "v16",
    out: "shared/ocpp/src/v16/messages.rs",
    request_suffix: "",
    charger_sends: &[
        "Authorize",
        "BootNotification",
        "DiagnosticsStatusNotification",
        "FirmwareStatusNotification",
        "Heartbeat",
        "LogStatusNotification",
        "MeterValues",
        "SecurityEventNotification",
        "SignCertificate",
        "SignedFirmwareStatusNotification",
        "StartTransaction",
        "StatusNotification",
        "StopTransaction",
    ],
    either_sends: &["DataTransfer"],
    names: &[
        ("*.idTagInfo", "IdTagInfo"),
        ("*.idTagInfo.status", "AuthorizationStatus"),
        ("BootNotificationResponse.status", "RegistrationStatus"),
        ("CancelReservationResponse.status", "CancelReservationStatus"),
        ("ChangeAvailability.type", "AvailabilityType"),
        ("ChangeAvailabilityResponse.status", "AvailabilityStatus"),
        ("ChangeConfigurationResponse.status", "ConfigurationStatus"),
        ("ClearCacheResponse.status", "ClearCacheStatus"),
        ("*.chargingProfilePurpose", "ChargingProfilePurposeType"),
        ("*.chargingProfileKind", "ChargingProfileKindType"),
        ("*.recurrencyKind", "RecurrencyKindType"),
        ("*.chargingRateUnit", "ChargingRateUnitType"),
        ("*.chargingSchedule", "ChargingSchedule"),
        ("*.chargingSchedulePeriod[]", "ChargingSchedulePeriod"),
        ("ClearChargingProfileResponse.status", "ClearChargingProfileStatus"),
        ("DataTransferResponse.status", "DataTransferStatus"),
        ("DiagnosticsStatusNotification.status", "DiagnosticsStatus"),
        ("FirmwareStatusNotification.status", "FirmwareStatus"),
        ("GetCompositeScheduleResponse.status", "GetCompositeScheduleStatus"),
        ("GetConfigurationResponse.configurationKey[]", "KeyValue"),
        ("MeterValues.meterValue[]", "MeterValue"),
        ("*.sampledValue[]", "SampledValue"),
        ("*.context", "ReadingContext"),
        ("*.format", "ValueFormat"),
        ("*.measurand", "Measurand"),
        ("*.phase", "Phase"),
        ("*.location", "Location"),
        ("*.unit", "UnitOfMeasure"),
        // The package's MeterValues schema lists one unit more (Hertz)
        // than its StopTransaction schema: two types, as the schemas say.
        ("StopTransaction.transactionData[]", "TransactionData"),
        ("StopTransaction.transactionData[].sampledValue[]", "TransactionSampledValue"),
        ("StopTransaction.transactionData[].sampledValue[].unit", "TransactionUnitOfMeasure"),
        ("RemoteStartTransaction.chargingProfile", "ChargingProfile"),
        ("SetChargingProfile.csChargingProfiles", "ChargingProfile"),
        ("RemoteStartTransactionResponse.status", "RemoteStartStopStatus"),
        ("RemoteStopTransactionResponse.status", "RemoteStartStopStatus"),
        ("ReserveNowResponse.status", "ReservationStatus"),
        ("Reset.type", "ResetType"),
        ("ResetResponse.status", "ResetStatus"),
        ("SendLocalList.localAuthorizationList[]", "AuthorizationData"),
        ("SendLocalList.updateType", "UpdateType"),
        ("SendLocalListResponse.status", "UpdateStatus"),
        ("SetChargingProfileResponse.status", "ChargingProfileStatus"),
        ("StatusNotification.errorCode", "ChargePointErrorCode"),
        ("StatusNotification.status", "ChargePointStatus"),
        ("StopTransaction.reason", "Reason"),
        ("TriggerMessage.requestedMessage", "MessageTrigger"),
        ("TriggerMessageResponse.status", "TriggerMessageStatus"),
        ("UnlockConnectorResponse.status", "UnlockStatus"),
    ],
    about: "The 1.6 schemas of OCPP-J with the Security Whitepaper's messages (edition 3).",
    schema_prefix: "Ocpp16",
};

pub const V201: Version = Version {
    label: "OCPP 2.0.1",
    dir: "v201",
    out: "shared/ocpp/src/v201/messages.rs",
    request_suffix: "Request",
    charger_sends: &[
        "Authorize",
        "BootNotification",
        "ClearedChargingLimit",
        "FirmwareStatusNotification",
        "Get15118EVCertificate",
        "GetCertificateStatus",
        "Heartbeat",
        "LogStatusNotification",
        "MeterValues",
        "NotifyChargingLimit",
        "NotifyCustomerInformation",
        "NotifyDisplayMessages",
        "NotifyEVChargingNeeds",
        "NotifyEVChargingSchedule",
        "NotifyEvent",
        "NotifyMonitoringReport",
        "NotifyReport",
        "PublishFirmwareStatusNotification",
        "ReportChargingProfiles",
        "ReservationStatusUpdate",
        "SecurityEventNotification",
        "SignCertificate",
        "StatusNotification",
        "TransactionEvent",
    ],
    either_sends: &["DataTransfer"],
    names: &[],
    about: "The OCPP 2.0.1 schemas (edition 3): every type is named in them.",
    schema_prefix: "Ocpp201",
};

/// What went wrong reading the schemas.
#[derive(Debug)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(m: impl Into<String>) -> Result<T, Error> {
    Err(Error(m.into()))
}

/// The package's folder (`site-packages/ocpp`) in a virtualenv.
pub fn package_dir(venv: &Path) -> Option<PathBuf> {
    let lib = std::fs::read_dir(venv.join("lib")).ok()?;
    let mut found: Vec<PathBuf> = lib.filter_map(|e| e.ok()).map(|e| e.path().join("site-packages/ocpp")).filter(|p| p.join("v16/schemas").is_dir()).collect();
    found.sort();
    found.pop()
}

/// The installed package's version (from its `dist-info`), for the head.
pub fn package_version(package: &Path) -> String {
    let site = package.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut infos: Vec<PathBuf> = std::fs::read_dir(&site)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("ocpp-") && n.ends_with(".dist-info"))).collect())
        .unwrap_or_default();
    infos.sort();
    infos
        .pop()
        .and_then(|p| std::fs::read_to_string(p.join("METADATA")).ok())
        .and_then(|m| m.lines().find_map(|l| l.strip_prefix("Version: ").map(|v| v.trim().to_string())))
        .unwrap_or_else(|| "(version unknown)".into())
}

// ---------------------------------------------------------------- model

#[derive(Debug, Clone, PartialEq)]
enum Ty {
    Str { max: Option<u64>, format: Option<String> },
    Int { min: Option<i64>, max: Option<i64> },
    Num { min: Option<f64>, max: Option<f64>, step: Option<f64> },
    Bool,
    Any,
    Named(String),
    Arr { item: Box<Ty>, min: Option<u64>, max: Option<u64> },
}

#[derive(Debug, Clone, PartialEq)]
struct Field {
    json: String,
    ty: Ty,
    required: bool,
    doc: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
enum Def {
    Struct { fields: Vec<Field>, open: bool },
    Enum { values: Vec<String> },
}

#[derive(Debug, Clone)]
struct TypeDef {
    name: String,
    def: Def,
    doc: Vec<String>,
}

/// One schema file being read.
struct File<'a> {
    stem: String,
    /// The message type's name (`AuthorizeRequest`): conflicting nested
    /// names are prefixed with it.
    message: String,
    root: &'a J,
}

#[derive(Default)]
struct Registry {
    order: Vec<String>,
    types: HashMap<String, TypeDef>,
}

impl Registry {
    /// Registers a type under `name`, or finds the same type already
    /// there; a different type with the name gets `{message}{name}`.
    fn add(&mut self, name: &str, def: Def, doc: Vec<String>, message: &str) -> Result<String, Error> {
        for candidate in [name.to_string(), format!("{message}{name}")] {
            match self.types.get(&candidate) {
                Some(t) if t.def == def => return Ok(candidate),
                Some(_) => continue,
                None => {
                    self.order.push(candidate.clone());
                    self.types.insert(candidate.clone(), TypeDef { name: candidate.clone(), def, doc });
                    return Ok(candidate);
                }
            }
        }
        err(format!("{message}: two different types want the name {name}"))
    }
}

fn pascal(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(|c: char| !c.is_ascii_alphanumeric()).filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

const KEYWORDS: &[&str] = &["as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "yield"];

fn snake(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if boundary {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            out.push('_');
        }
    }
    if KEYWORDS.contains(&out.as_str()) {
        format!("r#{out}")
    } else {
        out
    }
}

/// The description of a schema as doc lines.
fn doc_of(s: &J) -> Vec<String> {
    let mut lines: Vec<String> = s.get("description").and_then(J::as_str).map(|d| d.replace('\r', "").lines().map(|l| l.trim_end().to_string()).collect()).unwrap_or_default();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if let Some(d) = s.get("default") {
        lines.push(format!("Default: `{}`.", d.to_compact()));
    }
    lines
}

const KNOWN_KEYWORDS: &[&str] = &[
    "$schema", "$id", "title", "comment", "description", "javaType", "type", "properties", "required", "additionalProperties", "additionalItems", "enum", "maxLength", "format", "items", "minItems", "maxItems", "minimum", "maximum", "multipleOf", "definitions", "$ref", "default",
];

impl Version {
    fn name_for(&self, stem: &str, path: &str) -> Option<&'static str> {
        let full = format!("{stem}{path}");
        if let Some((_, n)) = self.names.iter().find(|(k, _)| *k == full) {
            return Some(n);
        }
        self.names.iter().filter(|(k, _)| k.starts_with("*.")).find(|(k, _)| path.ends_with(&k[1..])).map(|(_, n)| *n)
    }

    fn ty_of(&self, reg: &mut Registry, file: &File, s: &J, path: &str, hint: &str) -> Result<Ty, Error> {
        if let Some(unknown) = s.keys().into_iter().find(|k| !KNOWN_KEYWORDS.contains(k)) {
            return err(format!("{}{path}: the keyword {unknown} is not handled", file.stem));
        }
        if let Some(r) = s.get("$ref").and_then(J::as_str) {
            let Some(def_name) = r.strip_prefix("#/definitions/") else { return err(format!("{}{path}: $ref {r} is not to a definition", file.stem)) };
            let Some(def) = file.root.get("definitions").and_then(|d| d.get(def_name)) else { return err(format!("{}: no definition {def_name}", file.stem)) };
            let name = def.get("javaType").and_then(J::as_str).map(String::from).unwrap_or_else(|| def_name.strip_suffix("Type").unwrap_or(def_name).to_string());
            return self.named(reg, file, def, path, &name);
        }
        if s.get("enum").is_some() || s.get("type").and_then(J::as_str) == Some("object") {
            let name = self.name_for(&file.stem, path).map(String::from).unwrap_or_else(|| hint.to_string());
            if name.is_empty() {
                return err(format!("{}{path}: an anonymous type needs a name (Version::names)", file.stem));
            }
            return self.named(reg, file, s, path, &name);
        }
        let ty = match s.get("type").and_then(J::as_str) {
            Some("string") => Ty::Str { max: s.get("maxLength").and_then(J::as_u64), format: s.get("format").and_then(J::as_str).map(String::from) },
            Some("integer") => Ty::Int { min: s.get("minimum").and_then(J::as_i64), max: s.get("maximum").and_then(J::as_i64) },
            Some("number") => Ty::Num { min: s.get("minimum").and_then(J::as_f64), max: s.get("maximum").and_then(J::as_f64), step: s.get("multipleOf").and_then(J::as_f64) },
            Some("boolean") => Ty::Bool,
            Some("array") => {
                let Some(items) = s.get("items") else { return err(format!("{}{path}: an array without items", file.stem)) };
                let item_hint = pascal(hint);
                let item = self.ty_of(reg, file, items, &format!("{path}[]"), &item_hint)?;
                Ty::Arr { item: Box::new(item), min: s.get("minItems").and_then(J::as_u64), max: s.get("maxItems").and_then(J::as_u64) }
            }
            None => Ty::Any,
            Some(other) => return err(format!("{}{path}: type {other} is not handled", file.stem)),
        };
        if let (Some(f), Ty::Str { .. }) = (s.get("format").and_then(J::as_str), &ty) {
            if f != "date-time" && f != "uri" {
                return err(format!("{}{path}: format {f} is not handled", file.stem));
            }
        }
        Ok(ty)
    }

    fn named(&self, reg: &mut Registry, file: &File, s: &J, path: &str, name: &str) -> Result<Ty, Error> {
        let doc = doc_of(s);
        if let Some(values) = s.get("enum") {
            let values: Vec<String> = values.items().iter().filter_map(|v| v.as_str().map(String::from)).collect();
            let name = reg.add(name, Def::Enum { values }, doc, &file.message)?;
            return Ok(Ty::Named(name));
        }
        let required: Vec<&str> = s.get("required").map(|r| r.items().iter().filter_map(J::as_str).collect()).unwrap_or_default();
        let open = s.get("additionalProperties").and_then(J::as_bool) != Some(false);
        let mut fields = Vec::new();
        for (key, prop) in s.get("properties").map(J::entries).unwrap_or_default() {
            let ty = self.ty_of(reg, file, prop, &format!("{path}.{key}"), &pascal(key))?;
            fields.push(Field { json: key.clone(), ty, required: required.contains(&key.as_str()), doc: doc_of(prop) });
        }
        if let Some(missing) = required.iter().find(|r| !fields.iter().any(|f| f.json == **r)) {
            return err(format!("{}{path}: required {missing} is not a property", file.stem));
        }
        let name = reg.add(name, Def::Struct { fields, open }, doc, &file.message)?;
        Ok(Ty::Named(name))
    }
}

/// The Rust source of one version's messages from the schemas in
/// `schemas` (the package's `ocpp/{dir}/schemas`).
pub fn generate(v: &Version, schemas: &Path, package_version: &str) -> Result<String, Error> {
    let mut files: BTreeMap<String, J> = BTreeMap::new();
    for entry in std::fs::read_dir(schemas).map_err(|e| Error(format!("{}: {e}", schemas.display())))? {
        let path = entry.map_err(|e| Error(e.to_string()))?.path();
        if path.extension().and_then(|x| x.to_str()) != Some("json") {
            continue;
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        let parsed: J = serde_json::from_str(&text).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        files.insert(stem, parsed);
    }
    let actions: Vec<String> = files
        .keys()
        .filter(|s| !s.ends_with("Response"))
        .filter_map(|s| if v.request_suffix.is_empty() { Some(s.clone()) } else { s.strip_suffix(v.request_suffix).map(String::from) })
        .collect();
    let known: HashSet<&str> = actions.iter().map(String::as_str).collect();
    for a in v.charger_sends.iter().chain(v.either_sends) {
        if !known.contains(a) {
            return err(format!("{}: {a} is listed as sent by chargers but has no schema", v.label));
        }
    }
    let mut reg = Registry::default();
    let mut roots = Vec::new();
    for action in &actions {
        for (stem, name) in [(format!("{action}{}", v.request_suffix), format!("{action}Request")), (format!("{action}Response"), format!("{action}Response"))] {
            let Some(root) = files.get(&stem) else { return err(format!("{}: {action} has no {stem}.json", v.label)) };
            let file = File { stem: stem.clone(), message: name.clone(), root };
            if reg.types.contains_key(&name) {
                return err(format!("{stem}: the message name {name} is taken by a nested type"));
            }
            let ty = v.named(&mut reg, &file, root, "", &name)?;
            if ty != Ty::Named(name.clone()) {
                return err(format!("{stem}: the message type came out as {ty:?}"));
            }
            roots.push(name);
        }
    }
    Ok(emit(v, &actions, &roots, &reg, package_version))
}

// ---------------------------------------------------------------- output

fn rust_type(t: &Ty) -> String {
    match t {
        Ty::Str { format: Some(f), .. } if f == "date-time" => "DateTime".into(),
        Ty::Str { .. } => "String".into(),
        Ty::Int { .. } => "i64".into(),
        Ty::Num { .. } => "f64".into(),
        Ty::Bool => "bool".into(),
        Ty::Any => "Value".into(),
        Ty::Named(n) => n.clone(),
        Ty::Arr { item, .. } => format!("Vec<{}>", rust_type(item)),
    }
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    match v {
        Some(x) => format!("Some({x})"),
        None => "None".into(),
    }
}

fn opt_f(v: &Option<f64>) -> String {
    match v {
        Some(x) => format!("Some({x:?})"),
        None => "None".into(),
    }
}

fn reader(t: &Ty) -> String {
    match t {
        Ty::Str { format: Some(f), .. } if f == "date-time" => "c.date_time(v)".into(),
        Ty::Str { format: Some(_), max } => format!("c.uri(v, {})", opt(max)),
        Ty::Str { max, .. } => format!("c.string(v, {})", opt(max)),
        Ty::Int { min, max } => format!("c.integer(v, {}, {})", opt(min), opt(max)),
        Ty::Num { min, max, step } => format!("c.number(v, {}, {}, {})", opt_f(min), opt_f(max), opt_f(step)),
        Ty::Bool => "c.boolean(v)".into(),
        Ty::Any => "c.any(v)".into(),
        Ty::Named(n) => format!("{n}::from_json(v, c)"),
        Ty::Arr { item, min, max } => format!("c.array(v, {}, {}, |v, c| {})", opt(min), opt(max), reader(item)),
    }
}

/// The `schemars` attribute that documents a field's constraints (feature
/// `schema`), if it has any.
fn schema_attr(t: &Ty) -> Option<String> {
    fn rules(t: &Ty) -> Vec<String> {
        match t {
            Ty::Str { format: Some(f), .. } if f == "uri" => vec!["url".into()],
            Ty::Str { max: Some(m), .. } => vec![format!("length(max = {m})")],
            Ty::Int { min, max } if min.is_some() || max.is_some() => {
                let mut r = Vec::new();
                if let Some(m) = min {
                    r.push(format!("min = {m}"));
                }
                if let Some(m) = max {
                    r.push(format!("max = {m}"));
                }
                vec![format!("range({})", r.join(", "))]
            }
            Ty::Num { min, max, step } => {
                let mut out = Vec::new();
                let mut r = Vec::new();
                if let Some(m) = min {
                    r.push(format!("min = {m:?}"));
                }
                if let Some(m) = max {
                    r.push(format!("max = {m:?}"));
                }
                if !r.is_empty() {
                    out.push(format!("range({})", r.join(", ")));
                }
                if let Some(step) = step {
                    out.push(format!("extend(\"multipleOf\" = {step:?})"));
                }
                out
            }
            Ty::Arr { item, min, max } => {
                let mut out = Vec::new();
                let mut r = Vec::new();
                if let Some(m) = min {
                    r.push(format!("min = {m}"));
                }
                if let Some(m) = max {
                    r.push(format!("max = {m}"));
                }
                if !r.is_empty() {
                    out.push(format!("length({})", r.join(", ")));
                }
                let inner = rules(item);
                if !inner.is_empty() && matches!(**item, Ty::Str { .. } | Ty::Int { .. } | Ty::Num { .. }) {
                    out.push(format!("inner({})", inner.join(", ")));
                }
                out
            }
            _ => Vec::new(),
        }
    }
    let r = rules(t);
    (!r.is_empty()).then(|| format!("#[cfg_attr(feature = \"schema\", schemars({}))]", r.join(", ")))
}

fn docs(out: &mut String, indent: &str, lines: &[String]) {
    for l in lines {
        if l.is_empty() {
            let _ = writeln!(out, "{indent}///");
        } else {
            let _ = writeln!(out, "{indent}/// {l}");
        }
    }
}

fn children(t: &Ty, out: &mut Vec<String>) {
    match t {
        Ty::Named(n) => out.push(n.clone()),
        Ty::Arr { item, .. } => children(item, out),
        _ => {}
    }
}

fn variants(values: &[String]) -> Vec<String> {
    let mut seen = HashSet::new();
    values
        .iter()
        .map(|v| {
            let mut name = pascal(v);
            if name.is_empty() || name == "Unlisted" {
                name = format!("V{name}");
            }
            let base = name.clone();
            let mut n = 2;
            while !seen.insert(name.clone()) {
                name = format!("{base}{n}");
                n += 1;
            }
            name
        })
        .collect()
}

fn emit_struct(out: &mut String, v: &Version, t: &TypeDef, fields: &[Field], open: bool) {
    let _ = writeln!(out, "#[derive(Debug, Clone, PartialEq, Serialize)]");
    let deny = if open { "" } else { ", deny_unknown_fields" };
    let _ = writeln!(out, "#[cfg_attr(feature = \"schema\", derive(schemars::JsonSchema), schemars(rename = \"{}{}\"{deny}))]", v.schema_prefix, t.name);
    let _ = writeln!(out, "pub struct {} {{", t.name);
    for f in fields {
        docs(out, "    ", &f.doc);
        if let Some(a) = schema_attr(&f.ty) {
            let _ = writeln!(out, "    {a}");
        }
        let ty = rust_type(&f.ty);
        if f.required {
            let _ = writeln!(out, "    #[serde(rename = \"{}\")]", f.json);
            let _ = writeln!(out, "    pub {}: {ty},", snake(&f.json));
        } else {
            let _ = writeln!(out, "    #[serde(rename = \"{}\", skip_serializing_if = \"Option::is_none\")]", f.json);
            let _ = writeln!(out, "    pub {}: Option<{ty}>,", snake(&f.json));
        }
    }
    if open {
        let _ = writeln!(out, "    /// Fields beyond the schema's (this object may carry any), as sent.");
        let _ = writeln!(out, "    #[serde(flatten)]");
        let _ = writeln!(out, "    pub extra: Map<String, Value>,");
    }
    let _ = writeln!(out, "}}\n");
    let names: Vec<String> = fields.iter().map(|f| format!("\"{}\"", f.json)).collect();
    let _ = writeln!(out, "impl {} {{", t.name);
    let _ = writeln!(out, "    /// The fields the schema defines.");
    let _ = writeln!(out, "    pub const FIELDS: &'static [&'static str] = &[{}];", names.join(", "));
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "impl FromJson for {} {{", t.name);
    let _ = writeln!(out, "    fn from_json(v: &Value, c: &mut Cursor) -> Result<Self, Violation> {{");
    if fields.is_empty() && !open {
        let _ = writeln!(out, "        c.only(c.object(v)?, Self::FIELDS)?;");
        let _ = writeln!(out, "        Ok({} {{}})", t.name);
    } else {
        let _ = writeln!(out, "        let o = c.object(v)?;");
        if !open {
            let _ = writeln!(out, "        c.only(o, Self::FIELDS)?;");
        }
        let _ = writeln!(out, "        Ok({} {{", t.name);
        for f in fields {
            let how = if f.required { "required" } else { "optional" };
            let _ = writeln!(out, "            {}: c.{how}(o, \"{}\", |v, c| {})?,", snake(&f.json), f.json, reader(&f.ty));
        }
        if open {
            let _ = writeln!(out, "            extra: c.rest(o, Self::FIELDS),");
        }
        let _ = writeln!(out, "        }})");
    }
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
}

fn emit_enum(out: &mut String, v: &Version, t: &TypeDef, values: &[String]) {
    let names = variants(values);
    let _ = writeln!(out, "#[derive(Debug, Clone, PartialEq, Eq, Hash)]");
    let _ = writeln!(out, "pub enum {} {{", t.name);
    for (v, n) in values.iter().zip(&names) {
        let _ = writeln!(out, "    /// `{v}`");
        let _ = writeln!(out, "    {n},");
    }
    let _ = writeln!(out, "    /// A value the schema does not list, kept as a charger sent it (`coerce::unlisted`).");
    let _ = writeln!(out, "    Unlisted(String),");
    let _ = writeln!(out, "}}\n");
    let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    let _ = writeln!(out, "impl {} {{", t.name);
    let _ = writeln!(out, "    /// The values the schema lists, in its order.");
    let _ = writeln!(out, "    pub const VALUES: &'static [&'static str] = &[{}];\n", quoted.join(", "));
    let _ = writeln!(out, "    pub fn as_str(&self) -> &str {{");
    let _ = writeln!(out, "        match self {{");
    for (v, n) in values.iter().zip(&names) {
        let _ = writeln!(out, "            Self::{n} => \"{v}\",");
    }
    let _ = writeln!(out, "            Self::Unlisted(s) => s,");
    let _ = writeln!(out, "        }}");
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "impl fmt::Display for {} {{", t.name);
    let _ = writeln!(out, "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {{");
    let _ = writeln!(out, "        f.write_str(self.as_str())");
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "impl Serialize for {} {{", t.name);
    let _ = writeln!(out, "    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {{");
    let _ = writeln!(out, "        s.serialize_str(self.as_str())");
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "#[cfg(feature = \"schema\")]");
    let _ = writeln!(out, "impl schemars::JsonSchema for {} {{", t.name);
    let _ = writeln!(out, "    fn schema_name() -> std::borrow::Cow<'static, str> {{");
    let _ = writeln!(out, "        \"{}{}\".into()", v.schema_prefix, t.name);
    let _ = writeln!(out, "    }}\n");
    let _ = writeln!(out, "    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {{");
    let _ = writeln!(out, "        schemars::json_schema!({{ \"type\": \"string\", \"enum\": Self::VALUES }})");
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "impl FromJson for {} {{", t.name);
    let _ = writeln!(out, "    fn from_json(v: &Value, c: &mut Cursor) -> Result<Self, Violation> {{");
    let _ = writeln!(out, "        Ok(match c.enumeration(v, Self::VALUES)? {{");
    for (i, n) in names.iter().enumerate() {
        if i + 1 == names.len() {
            let _ = writeln!(out, "            Ok(_) => Self::{n},");
        } else {
            let _ = writeln!(out, "            Ok({i}) => Self::{n},");
        }
    }
    let _ = writeln!(out, "            Err(text) => Self::Unlisted(text),");
    let _ = writeln!(out, "        }})");
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
}

fn emit(v: &Version, actions: &[String], roots: &[String], reg: &Registry, package_version: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "//! {} messages, both directions, one Rust type each, with the", v.label);
    let _ = writeln!(out, "//! reader that holds a payload to its schema (`crate::schema`).");
    let _ = writeln!(out, "//! {}", v.about);
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! @generated by `ocpp-codegen` from the JSON schemas of the PyPI package");
    let _ = writeln!(out, "//! `ocpp` {package_version} (`ocpp/{}/schemas`). Do not edit: change the generator", v.dir);
    let _ = writeln!(out, "//! (`shared/ocpp/codegen`) and run `cargo run -p ocpp-codegen`; its test fails");
    let _ = writeln!(out, "//! when this file and the installed schemas differ.\n");
    let _ = writeln!(out, "#![allow(unused_imports, clippy::all)]\n");
    let _ = writeln!(out, "use std::fmt;\n");
    let _ = writeln!(out, "use serde::{{Serialize, Serializer}};");
    let _ = writeln!(out, "use serde_json::{{Map, Value}};\n");
    let _ = writeln!(out, "use crate::schema::{{parse, Cursor, DateTime, FromJson, Mode, Violation}};");
    let _ = writeln!(out, "use crate::Sender;\n");

    let _ = writeln!(out, "/// Every {} action.", v.label);
    let _ = writeln!(out, "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]");
    let _ = writeln!(out, "pub enum Action {{");
    for a in actions {
        let _ = writeln!(out, "    {a},");
    }
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "impl Action {{");
    let _ = writeln!(out, "    pub const ALL: &'static [Action] = &[{}];\n", actions.iter().map(|a| format!("Action::{a}")).collect::<Vec<_>>().join(", "));
    let _ = writeln!(out, "    /// The action's name in a CALL.");
    let _ = writeln!(out, "    pub fn name(self) -> &'static str {{");
    let _ = writeln!(out, "        match self {{");
    for a in actions {
        let _ = writeln!(out, "            Action::{a} => \"{a}\",");
    }
    let _ = writeln!(out, "        }}");
    let _ = writeln!(out, "    }}\n");
    let _ = writeln!(out, "    pub fn from_name(name: &str) -> Option<Action> {{");
    let _ = writeln!(out, "        Some(match name {{");
    for a in actions {
        let _ = writeln!(out, "            \"{a}\" => Action::{a},");
    }
    let _ = writeln!(out, "            _ => return None,");
    let _ = writeln!(out, "        }})");
    let _ = writeln!(out, "    }}\n");
    for (what, suffix) in [("request (a CALL's payload)", "Request"), ("response (a CALLRESULT's payload)", "Response")] {
        let _ = writeln!(out, "    /// Checks a {what} of this action against its schema.");
        let _ = writeln!(out, "    pub fn check_{}(self, payload: &Value, mode: Mode) -> Result<(), Violation> {{", suffix.to_lowercase());
        let _ = writeln!(out, "        match self {{");
        for a in actions {
            let _ = writeln!(out, "            Action::{a} => parse::<{a}{suffix}>(payload, mode).map(drop),");
        }
        let _ = writeln!(out, "        }}");
        let _ = writeln!(out, "    }}\n");
    }
    let _ = writeln!(out, "    /// The JSON Schema of this action's request, as a definition of `generator` (feature `schema`).");
    let _ = writeln!(out, "    #[cfg(feature = \"schema\")]");
    let _ = writeln!(out, "    pub fn request_json_schema(self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema {{");
    let _ = writeln!(out, "        match self {{");
    for a in actions {
        let _ = writeln!(out, "            Action::{a} => generator.subschema_for::<{a}Request>(),");
    }
    let _ = writeln!(out, "        }}");
    let _ = writeln!(out, "    }}\n");
    let _ = writeln!(out, "    /// Who sends this action's CALL.");
    let _ = writeln!(out, "    pub fn sender(self) -> Sender {{");
    let _ = writeln!(out, "        match self {{");
    let by = |list: &[&str]| actions.iter().filter(|a| list.contains(&a.as_str())).map(|a| format!("Action::{a}")).collect::<Vec<_>>().join(" | ");
    let charger = by(v.charger_sends);
    let either = by(v.either_sends);
    if !charger.is_empty() {
        let _ = writeln!(out, "            {charger} => Sender::Charger,");
    }
    if !either.is_empty() {
        let _ = writeln!(out, "            {either} => Sender::Either,");
    }
    let _ = writeln!(out, "            _ => Sender::Server,");
    let _ = writeln!(out, "        }}");
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "impl fmt::Display for Action {{");
    let _ = writeln!(out, "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {{");
    let _ = writeln!(out, "        f.write_str(self.name())");
    let _ = writeln!(out, "    }}");
    let _ = writeln!(out, "}}\n");
    let _ = writeln!(out, "/// A CALL's payload: its action and the type of its answer.");
    let _ = writeln!(out, "pub trait Request: FromJson + Serialize + Send + Sync {{");
    let _ = writeln!(out, "    const ACTION: Action;");
    let _ = writeln!(out, "    type Response: FromJson + Serialize + Send + Sync;");
    let _ = writeln!(out, "}}\n");
    for a in actions {
        let _ = writeln!(out, "impl Request for {a}Request {{");
        let _ = writeln!(out, "    const ACTION: Action = Action::{a};");
        let _ = writeln!(out, "    type Response = {a}Response;");
        let _ = writeln!(out, "}}\n");
    }

    let mut emitted: HashSet<String> = HashSet::new();
    let mut stack: Vec<String> = roots.iter().rev().cloned().collect();
    while let Some(name) = stack.pop() {
        if !emitted.insert(name.clone()) {
            continue;
        }
        let t = &reg.types[&name];
        let mut doc = t.doc.clone();
        if let Some(action) = name.strip_suffix("Request").filter(|a| actions.iter().any(|x| x == a)) {
            let who = if v.charger_sends.contains(&action) { "the charger sends it" } else if v.either_sends.contains(&action) { "either side sends it" } else { "the server sends it" };
            doc.insert(0, format!("The payload of a `{action}` CALL ({who})."));
        } else if let Some(action) = name.strip_suffix("Response").filter(|a| actions.iter().any(|x| x == a)) {
            doc.insert(0, format!("The payload of the CALLRESULT that answers `{action}`."));
        }
        if doc.len() > 1 && !doc[0].is_empty() && roots.contains(&name) {
            doc.insert(1, String::new());
        }
        docs(&mut out, "", &doc);
        let mut kids = Vec::new();
        match &t.def {
            Def::Struct { fields, open } => {
                emit_struct(&mut out, v, t, fields, *open);
                for f in fields {
                    children(&f.ty, &mut kids);
                }
            }
            Def::Enum { values } => emit_enum(&mut out, v, t, values),
        }
        for k in kids.into_iter().rev() {
            if !emitted.contains(&k) {
                stack.push(k);
            }
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("chargePointVendor"), "charge_point_vendor");
        assert_eq!(snake("iso15118SchemaVersion"), "iso15118_schema_version");
        assert_eq!(snake("EVSEId"), "evse_id");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(pascal("Energy.Active.Import.Register"), "EnergyActiveImportRegister");
        assert_eq!(pascal("L1-N"), "L1N");
        assert_eq!(pascal("kWh"), "KWh");
        assert_eq!(pascal("15118"), "V15118");
        assert_eq!(variants(&["Ab".into(), "ab".into(), "AB".into()]), vec!["Ab", "Ab2", "AB"]);
    }

    /// The committed files are what the installed schemas make: after a
    /// change of the package (or of the generator) this fails until
    /// `cargo run -p ocpp-codegen` writes them again.
    #[test]
    fn the_committed_types_are_what_the_installed_schemas_make() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
        let venv = std::env::var_os("BACKOFFICE_TOOLS_VENV").map(PathBuf::from).unwrap_or_else(|| root.join("target/tools-venv"));
        let package = package_dir(&venv).unwrap_or_else(|| panic!("no PyPI `ocpp` package in {} (scripts/install-test-deps.sh installs it; BACKOFFICE_TOOLS_VENV names another virtualenv)", venv.display()));
        let version = package_version(&package);
        for v in [&V16, &V201] {
            let made = generate(v, &package.join(v.dir).join("schemas"), &version).unwrap_or_else(|e| panic!("{}: {e}", v.label));
            let committed = std::fs::read_to_string(root.join(v.out)).unwrap_or_default();
            assert!(made == committed, "{} differs from what the schemas of ocpp {version} make: run `cargo run -p ocpp-codegen`", v.out);
        }
    }
}
