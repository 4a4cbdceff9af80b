//! The web edge stack: a private S3 bucket for `web/dist` and the CloudFront
//! distribution that serves it (origin access control), forwards
//! `/partnerapi/*` to the HTTP API uncached (one origin for the browser,
//! no CORS) with the origin secret, and `/ocpp/*` to the chargers'
//! WebSocket API. With `DomainName` and `CertificateArn` it answers that
//! name with its certificate at TLS 1.2 or newer.

use crate::charger_link;
use crate::common::{deny_plain_http_statement, not_empty, policy_document, private_bucket_properties, tags_list, Stack};
use crate::yaml::{get_att, if_, list, map, no_value, raw, reference, s, sub, Y};

pub const ID: &str = "WebEdge";
const AREA: &str = "web-edge";

// Managed CloudFront policies (fixed IDs, the same in every account).
const CACHING_OPTIMIZED: &str = "658327ea-f89d-4fab-a63d-7e88639e58f6";

/// Resolves the generated origin secret at deploy time.
pub const ORIGIN_VERIFY_RESOLVE: &str = "{{resolve:secretsmanager:${OriginVerifySecretArn}:SecretString}}";

/// The least TLS the site, the API and chargers are served with on the
/// site's own domain.
pub const MINIMUM_TLS: &str = "TLSv1.2_2021";

/// Both of the site domain's parameters are set (the root's rules refuse
/// one without the other); naming the certificate too lets cfn-lint see
/// that its ARN is never empty where it is used.
const HAS_CUSTOM_DOMAIN: &str = "HasCustomDomain";

pub fn stack() -> Stack {
    let mut st = Stack::new(ID, "web-edge", AREA, "EV-charging back-office: the SPA's bucket and the CloudFront distribution in front of it, /partnerapi and /ocpp");
    st.wire("HttpApiId", "The HTTP API (the API stack's output)", (crate::api::ID, "HttpApiId"));
    st.wire("OriginVerifySecretArn", "The X-Origin-Verify secret (the API stack's output)", (crate::api::ID, "OriginVerifySecretArn"));
    st.wire("ChargerApiId", "The chargers' WebSocket API (the charger link stack's output)", (charger_link::ID, "ChargerApiId"));
    st.wire("ChargerPathRewriteArn", "The /ocpp/{id} rewrite (the charger link stack's output)", (charger_link::ID, "ChargerPathRewriteArn"));
    st.param("DomainName");
    st.param("CertificateArn");
    st.condition(HAS_CUSTOM_DOMAIN, map([("Fn::And", list([not_empty("DomainName"), not_empty("CertificateArn")]))]));
    st.add("SiteBucket", site_bucket());
    st.add("SiteBucketPolicy", site_bucket_policy());
    st.add("SiteOriginAccessControl", origin_access_control());
    st.add("SiteDistribution", distribution());
    st.add("SecurityHeadersPolicy", security_headers_policy());
    st.output("SiteUrl", "The back-office in the browser", if_(HAS_CUSTOM_DOMAIN, sub("https://${DomainName}"), sub("https://${SiteDistribution.DomainName}")));
    // Chargers without a domain of their own are given this host.
    st.output("SiteDomainName", "The site's host name: DomainName when given, else the distribution's", site_host());
    st.output("DistributionDomainName", "The distribution's own cloudfront.net name (point DomainName at it)", get_att("SiteDistribution.DomainName"));
    st.output("SiteBucketName", "Upload web/dist here (deploy.sh does)", reference("SiteBucket"));
    st.output("DistributionId", "Invalidate this distribution after an upload", reference("SiteDistribution"));
    st
}

/// The host the site answers on.
fn site_host() -> Y {
    if_(HAS_CUSTOM_DOMAIN, reference("DomainName"), get_att("SiteDistribution.DomainName"))
}

/// The viewer certificate: the site domain's own (SNI, TLS 1.2 with the
/// 2021 cipher set at least: CloudFront's default certificate still lets
/// old clients in with TLS 1.0), or the default certificate without one.
fn viewer_certificate() -> Y {
    let own = map([
        ("AcmCertificateArn", reference("CertificateArn")),
        ("SslSupportMethod", s("sni-only")),
        ("MinimumProtocolVersion", s(MINIMUM_TLS)),
    ]);
    if_(HAS_CUSTOM_DOMAIN, own, map([("CloudFrontDefaultCertificate", raw("true"))]))
}

fn site_bucket() -> Y {
    map([
        ("Type", s("AWS::S3::Bucket")),
        (
            "Properties",
            map(private_bucket_properties().into_iter().chain([("Tags", tags_list(AREA))])),
        ),
    ])
}

fn site_bucket_policy() -> Y {
    let read_by_distribution = map([
        ("Sid", s("ReadOnlyThroughTheDistribution")),
        ("Effect", s("Allow")),
        ("Principal", map([("Service", s("cloudfront.amazonaws.com"))])),
        ("Action", s("s3:GetObject")),
        ("Resource", sub("${SiteBucket.Arn}/*")),
        (
            "Condition",
            map([(
                "StringEquals",
                map([("AWS:SourceArn", sub("arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${SiteDistribution}"))]),
            )]),
        ),
    ]);
    map([
        ("Type", s("AWS::S3::BucketPolicy")),
        (
            "Properties",
            map([
                ("Bucket", reference("SiteBucket")),
                ("PolicyDocument", policy_document(vec![read_by_distribution, deny_plain_http_statement("SiteBucket")])),
            ]),
        ),
    ])
}

fn origin_access_control() -> Y {
    map([
        ("Type", s("AWS::CloudFront::OriginAccessControl")),
        (
            "Properties",
            map([(
                "OriginAccessControlConfig",
                map([
                    // Names are unique per account, across regions.
                    ("Name", sub("${AWS::StackName}-site-${AWS::Region}")),
                    ("OriginAccessControlOriginType", s("s3")),
                    ("SigningBehavior", s("always")),
                    ("SigningProtocol", s("sigv4")),
                ]),
            )]),
        ),
    ])
}

/// The headers every answer of the distribution carries: the same
/// Content-Security-Policy as the local gateway (one source:
/// `backoffice::browser_policy`), HSTS, no sniffing, no framing, no
/// referrer leaks.
fn security_headers_policy() -> Y {
    let csp = backoffice::browser_policy::content_security_policy();
    let hsts = backoffice::browser_policy::STRICT_TRANSPORT_SECURITY;
    let max_age = hsts.split(';').next().and_then(|v| v.trim().strip_prefix("max-age=")).expect("HSTS starts with max-age");
    map([
        ("Type", s("AWS::CloudFront::ResponseHeadersPolicy")),
        (
            "Properties",
            map([(
                "ResponseHeadersPolicyConfig",
                map([
                    ("Name", sub("${AWS::StackName}-security-headers")),
                    ("Comment", s("CSP, HSTS, nosniff, no framing, referrer policy (backoffice::browser_policy)")),
                    (
                        "SecurityHeadersConfig",
                        map([
                            ("ContentSecurityPolicy", map([("ContentSecurityPolicy", s(csp)), ("Override", raw("true"))])),
                            (
                                "StrictTransportSecurity",
                                map([
                                    ("AccessControlMaxAgeSec", raw(max_age)),
                                    ("IncludeSubdomains", raw(hsts.contains("includeSubDomains").to_string())),
                                    ("Override", raw("true")),
                                ]),
                            ),
                            ("ContentTypeOptions", map([("Override", raw("true"))])),
                            ("FrameOptions", map([("FrameOption", s("DENY")), ("Override", raw("true"))])),
                            ("ReferrerPolicy", map([("ReferrerPolicy", s("strict-origin-when-cross-origin")), ("Override", raw("true"))])),
                        ]),
                    ),
                ]),
            )]),
        ),
    ])
}

fn distribution() -> Y {
    let site_origin = map([
        ("Id", s("site")),
        ("DomainName", get_att("SiteBucket.RegionalDomainName")),
        ("OriginAccessControlId", get_att("SiteOriginAccessControl.Id")),
        // Empty: access goes through the origin access control, not a legacy OAI.
        ("S3OriginConfig", map([("OriginAccessIdentity", s(""))])),
    ]);
    let api_origin = map([
        ("Id", s("api")),
        ("DomainName", sub("${HttpApiId}.execute-api.${AWS::Region}.${AWS::URLSuffix}")),
        ("CustomOriginConfig", map([("OriginProtocolPolicy", s("https-only")), ("OriginSSLProtocols", list([s("TLSv1.2")]))])),
        (
            "OriginCustomHeaders",
            list([map([("HeaderName", s(backoffice::client_ip::ORIGIN_VERIFY_HEADER)), ("HeaderValue", sub(ORIGIN_VERIFY_RESOLVE))])]),
        ),
    ]);
    // The SPA calls the relative `/partnerapi/...`, so the API is served
    // through the same distribution: one origin for the browser, no CORS.
    let api_behavior = map([
        ("PathPattern", s(format!("{}/*", backoffice::routes::API_BASE))),
        ("TargetOriginId", s("api")),
        ("ViewerProtocolPolicy", s("https-only")),
        ("AllowedMethods", list(["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"].map(s))),
        ("CachedMethods", list([s("GET"), s("HEAD")])),
        ("CachePolicyId", s(charger_link::CACHING_DISABLED)),
        ("OriginRequestPolicyId", s(charger_link::ALL_VIEWER_EXCEPT_HOST_HEADER)),
        ("ResponseHeadersPolicyId", reference("SecurityHeadersPolicy")),
        ("Compress", raw("true")),
    ]);
    let site_behavior = map([
        ("TargetOriginId", s("site")),
        ("ViewerProtocolPolicy", s("redirect-to-https")),
        ("AllowedMethods", list([s("GET"), s("HEAD")])),
        ("CachedMethods", list([s("GET"), s("HEAD")])),
        ("CachePolicyId", s(CACHING_OPTIMIZED)),
        ("ResponseHeadersPolicyId", reference("SecurityHeadersPolicy")),
        ("Compress", raw("true")),
    ]);
    map([
        ("Type", s("AWS::CloudFront::Distribution")),
        (
            "Properties",
            map([
                (
                    "DistributionConfig",
                    map([
                        ("Enabled", raw("true")),
                        ("Comment", sub("${AWS::StackName} back-office SPA, /partnerapi and /ocpp")),
                        ("DefaultRootObject", s("index.html")),
                        ("HttpVersion", s("http2and3")),
                        ("IPV6Enabled", raw("true")),
                        ("PriceClass", s("PriceClass_100")),
                        ("Origins", list([site_origin, api_origin, charger_link::origin("ChargerApiId")])),
                        ("DefaultCacheBehavior", site_behavior),
                        ("CacheBehaviors", list([api_behavior, charger_link::behavior(Some("/ocpp/*"), reference("ChargerPathRewriteArn"))])),
                        ("Aliases", if_(HAS_CUSTOM_DOMAIN, list([reference("DomainName")]), no_value())),
                        ("ViewerCertificate", viewer_certificate()),
                    ]),
                ),
                ("Tags", tags_list(AREA)),
            ]),
        ),
    ])
}
