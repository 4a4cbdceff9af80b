//! The deployment's parameters. The root template declares them with their
//! checks; each nested stack declares the ones it uses (with the same
//! default, so a nested template also reads on its own, e.g. in SAM local)
//! and the root passes them down.

use crate::sizing;
use crate::yaml::{list, map, raw, s, Y};

pub struct Param {
    pub name: &'static str,
    pub number: bool,
    pub description: &'static str,
    pub default: Option<String>,
    pub allowed: &'static [&'static str],
    pub pattern: Option<&'static str>,
    pub constraint: Option<&'static str>,
    pub min: Option<u32>,
    pub max: Option<u32>,
    /// The nested stacks declare it without a default: its empty value
    /// means "not given" only to the root's conditions, and cfn-lint would
    /// check the nested stack's uses against that empty default.
    pub no_nested_default: bool,
}

const fn text(name: &'static str, description: &'static str) -> Param {
    Param { name, number: false, description, default: None, allowed: &[], pattern: None, constraint: None, min: None, max: None, no_nested_default: false }
}

impl Param {
    fn default(mut self, value: impl Into<String>) -> Param {
        self.default = Some(value.into());
        self
    }
    fn allowed(mut self, values: &'static [&'static str]) -> Param {
        self.allowed = values;
        self
    }
    fn pattern(mut self, pattern: &'static str, constraint: &'static str) -> Param {
        self.pattern = Some(pattern);
        self.constraint = Some(constraint);
        self
    }
    fn number(mut self, default: u32, min: u32, max: u32) -> Param {
        self.number = true;
        self.default = Some(default.to_string());
        self.min = Some(min);
        self.max = Some(max);
        self
    }

    fn number_of(mut self, default: u32, allowed: &'static [&'static str]) -> Param {
        self.number = true;
        self.default = Some(default.to_string());
        self.allowed = allowed;
        self
    }

    fn no_nested_default(mut self) -> Param {
        self.no_nested_default = true;
        self
    }

    /// The allowed values as written: numbers plain, so a number's default is among them.
    fn allowed_node(&self) -> Y {
        list(self.allowed.iter().map(|v| if self.number { raw(*v) } else { s(*v) }))
    }

    fn default_node(&self) -> Option<Y> {
        self.default.as_ref().map(|d| if self.number { raw(d.clone()) } else { s(d.clone()) })
    }

    /// As the root template declares it: every check.
    pub fn root_spec(&self) -> Y {
        let mut m = vec![("Type", s(if self.number { "Number" } else { "String" })), ("Description", s(self.description))];
        if let Some(d) = self.default_node() {
            m.push(("Default", d));
        }
        if !self.allowed.is_empty() {
            m.push(("AllowedValues", self.allowed_node()));
        }
        if let Some(p) = self.pattern {
            m.push(("AllowedPattern", s(p)));
        }
        if let Some(c) = self.constraint {
            m.push(("ConstraintDescription", s(c)));
        }
        if let Some(v) = self.min {
            m.push(("MinValue", raw(v.to_string())));
        }
        if let Some(v) = self.max {
            m.push(("MaxValue", raw(v.to_string())));
        }
        if self.default.is_none() && !self.number {
            m.push(("MinLength", raw("1")));
        }
        map(m)
    }

    /// As a nested stack declares it: the value was checked by the root.
    pub fn nested_spec(&self) -> Y {
        let mut m = vec![("Type", s(if self.number { "Number" } else { "String" })), ("Description", s(self.description))];
        if !self.no_nested_default {
            m.push(("Default", self.default_node().unwrap_or_else(|| s(""))));
        }
        if !self.allowed.is_empty() {
            m.push(("AllowedValues", self.allowed_node()));
        }
        map(m)
    }
}

const LOG_RETENTION_DAYS: &[&str] =
    &["1", "3", "5", "7", "14", "30", "60", "90", "120", "150", "180", "365", "400", "545", "731", "1096", "1827", "2192", "2557", "2922", "3288", "3653"];

/// Every parameter of the root template, in the order it lists them.
pub fn all() -> Vec<Param> {
    vec![
        text("Stage", "The deployment stage (production, staging, ...): tagged on every resource; the pipeline deploys one stack per stage")
            .default("production")
            .pattern("^[a-z][a-z0-9-]{0,19}$", "lower-case letters, digits and dashes, at most 20"),
        text("Architecture", "CPU architecture the functions run on; build the bootstrap for the same one (infra/deploy/build.sh reads ARCH)")
            .default("arm64")
            .allowed(&["arm64", "x86_64"]),
        // No default: a deploy without a real secret must fail, not run
        // with a guessable one. A name, not an ARN: the functions' IAM
        // policy names the secret's ARN from it.
        text(
            "JwtSecretName",
            "Name of the Secrets Manager secret whose value is the HS256 JWT secret (a plain string of at least 32 random characters); create it before deploying. The functions read it at start-up",
        )
        .pattern("^[A-Za-z0-9/_+=.@-]+$", "a Secrets Manager secret name (not an ARN)"),
        // Required on AWS (a rule says so); empty only where nothing runs
        // the layer (SAM local, whose env-vars file gives the secret).
        text(
            "SecretsExtensionLayerArn",
            "ARN of the AWS Parameters and Secrets Lambda Extension layer for this region and the Architecture (AWS publishes one per region and architecture; see infra/deploy/README.md)",
        )
        .default("")
        .pattern(
            "^(arn:aws[a-z-]*:lambda:[a-z0-9-]+:[0-9]{12}:layer:AWS-Parameters-and-Secrets-Lambda-Extension[A-Za-z0-9-]*:[0-9]+)?$",
            "the extension layer's ARN, with its version",
        ),
        // Optional, together (the root's rules refuse one without the
        // other): without them the site keeps CloudFront's default
        // certificate, which still lets clients in with TLS 1.0.
        text(
            "DomainName",
            "The site's own domain name (e.g. backoffice.example.com), served with CertificateArn's certificate at TLS 1.2 or newer; empty: the distribution's cloudfront.net name and certificate",
        )
        .default("")
        .pattern("^(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63})?$", "a lower-case domain name, or empty"),
        text("CertificateArn", "ARN of the ACM certificate for DomainName, issued in us-east-1 (CloudFront's region); required with DomainName")
            .default("")
            .pattern("^(arn:aws[a-z-]*:acm:us-east-1:[0-9]{12}:certificate/[0-9a-f-]+)?$", "an ACM certificate ARN in us-east-1, or empty"),
        text("LogRetentionDays", "How many days the functions' logs and the APIs' access logs are kept").number_of(30, LOG_RETENTION_DAYS),
        text("Tracing", "X-Ray tracing of every function: Active records a sample of invocations (Lambda's fixed rate: 1 a second and 5% of the rest); PassThrough records none of its own")
            .default("Active")
            .allowed(&["Active", "PassThrough"]),
        text("AlarmTopicArn", "SNS topic the alarms notify (ALARM and OK); empty: the alarms only change state")
            .default("")
            .pattern("^(arn:aws[a-z-]*:sns:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_.-]+)?$", "an SNS topic ARN, or empty"),
        text("ChargerRateLimit", "Charger messages a second the WebSocket stage accepts (steady rate; see infra/deploy/README.md for the sizing)")
            .number(sizing::rate_limit(), 1, 10_000),
        text("ChargerBurstLimit", "Charger messages the WebSocket stage accepts at once above the rate (the account's burst is 5,000)")
            .number(sizing::burst_limit(), 1, sizing::ACCOUNT_BURST),
        text("ChargerMessageConcurrency", "Reserved concurrency of the $default function (charger frames): its share the back-office API cannot take, and its ceiling")
            .number(sizing::message_concurrency(), 1, 10_000),
        text("ChargerConnectConcurrency", "Reserved concurrency of the $connect function (handshakes)").number(sizing::connect_concurrency(), 1, 10_000),
        text("ChargerDisconnectConcurrency", "Reserved concurrency of the $disconnect function").number(sizing::disconnect_concurrency(), 1, 10_000),
        text(
            "ChargerAccessLog",
            "true: the WebSocket stage writes an access log (needs API Gateway's account-wide CloudWatch role set once per account and region; see infra/deploy/README.md)",
        )
        .default("false")
        .allowed(&["false", "true"]),
        text("ChargerDomainName", "The operator's host name for chargers (wss://HOST/ocpp/{id}), e.g. ocpp.example.com; empty: chargers use the site's host")
            .default("")
            .pattern("^(([a-z0-9]([a-z0-9-]*[a-z0-9])?\\.)+[a-z]{2,63})?$", "a lower-case host name, or empty"),
        text(
            "ChargerCertificateArn",
            "ACM certificate (in us-east-1, as CloudFront requires) covering ChargerDomainName; empty: the stack requests one, validated in HostedZoneId (stacks in us-east-1 only)",
        )
        .default("")
        .pattern("^(arn:aws[a-z-]*:acm:us-east-1:[0-9]{12}:certificate/[a-f0-9-]+)?$", "an ACM certificate ARN in us-east-1, or empty")
        .no_nested_default(),
        text("HostedZoneId", "Route 53 hosted zone of ChargerDomainName: the stack writes the alias records there (and validates the certificate it requests); empty: point the name at the ChargerDistributionDomain output yourself")
            .default("")
            .pattern("^(Z[A-Z0-9]{1,32})?$", "a Route 53 hosted zone id (Z...), or empty"),
        text(
            "ChargerTlsPolicy",
            "Lowest TLS chargers may use on ChargerDomainName; every choice is TLS 1.2 or newer (2019 and 2018 add CBC ciphers older charger firmware may need)",
        )
        .default("TLSv1.2_2021")
        .allowed(&["TLSv1.2_2021", "TLSv1.2_2019", "TLSv1.2_2018"]),
        text("BackupRetentionDays", "Days AWS Backup keeps each daily backup of the table (point-in-time recovery covers the last 35 days on its own)")
            .number(35, 1, 36_500),
        text(
            "ExistingTableName",
            "Empty: the stack makes the table. The name of a table kept from a stack deployed before the split into nested stacks: the stack uses it instead (see infra/deploy/README.md)",
        )
        .default("")
        .pattern("^([A-Za-z0-9_.-]{3,255})?$", "a DynamoDB table name, or empty"),
    ]
}

pub fn by_name(name: &str) -> Param {
    all().into_iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no parameter {name}"))
}
