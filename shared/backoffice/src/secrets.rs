//! Secrets read at start-up from AWS Secrets Manager.
//!
//! On Lambda the template gives each function the secrets' ids, not their
//! values (`BACKOFFICE_JWT_SECRET_ID`, `BACKOFFICE_ORIGIN_VERIFY_SECRET_ID`),
//! so the values never appear in the function configuration. They are read
//! once per process, before the first event, through the AWS Parameters and
//! Secrets Lambda Extension (a layer that answers on localhost), with the
//! HTTP client the product already links: no Secrets Manager SDK crate in
//! the function package. The values then stand in for the plain variables
//! (`BACKOFFICE_JWT_SECRET`, `BACKOFFICE_ORIGIN_VERIFY_SECRET`), which keep
//! working where no id is set (the local gateway, tests).

use std::collections::HashMap;
use std::time::Duration;

use crate::config::ConfigError;

/// (variable holding the value, variable holding the secret's id).
/// The charging stations' CA (its certificate and key in one PEM text) is
/// one of them: a function given its id signs charger certificates with it.
pub const SECRET_VARS: [(&str, &str); 3] = [
    ("BACKOFFICE_JWT_SECRET", "BACKOFFICE_JWT_SECRET_ID"),
    ("BACKOFFICE_ORIGIN_VERIFY_SECRET", "BACKOFFICE_ORIGIN_VERIFY_SECRET_ID"),
    ("BACKOFFICE_CHARGER_CA", "BACKOFFICE_CHARGER_CA_SECRET_ID"),
];

/// The extension's default port (it reads the same variable).
const DEFAULT_PORT: &str = "2773";
/// The header the extension requires: the function's session token, so
/// only code running in the function can ask it.
const TOKEN_HEADER: &str = "X-Aws-Parameters-Secrets-Token";

/// Where the extension listens: `BACKOFFICE_SECRETS_ENDPOINT` (tests), else
/// localhost at `PARAMETERS_SECRETS_EXTENSION_HTTP_PORT` (2773).
pub fn extension_base(get: &impl Fn(&str) -> Option<String>) -> String {
    get("BACKOFFICE_SECRETS_ENDPOINT").unwrap_or_else(|| {
        format!("http://localhost:{}", get("PARAMETERS_SECRETS_EXTENSION_HTTP_PORT").unwrap_or_else(|| DEFAULT_PORT.into()))
    })
}

/// The secret values for every id variable that is set, keyed by the
/// value variable they stand in for. Nothing is fetched (and nothing
/// needed) when no id is set.
pub async fn resolve(get: impl Fn(&str) -> Option<String>) -> Result<HashMap<String, String>, ConfigError> {
    let var = |name: &str| get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let wanted: Vec<(&str, String)> = SECRET_VARS.iter().filter_map(|(value_var, id_var)| var(id_var).map(|id| (*value_var, id))).collect();
    let mut out = HashMap::new();
    if wanted.is_empty() {
        return Ok(out);
    }
    for (value_var, id_var) in SECRET_VARS {
        if var(id_var).is_some() && var(value_var).is_some() {
            return Err(ConfigError(format!("both {value_var} and {id_var} are set: set only one (the id on AWS, the value locally)")));
        }
    }
    let token = var("AWS_SESSION_TOKEN").ok_or_else(|| {
        ConfigError("AWS_SESSION_TOKEN is not set: secrets are read through the Parameters and Secrets Lambda Extension, which needs the function's session token".into())
    })?;
    let base = extension_base(&var);
    // Loopback only: no proxy, a short timeout (the extension answers from
    // its cache or one Secrets Manager call).
    let http = crate::http_client::builder()
        .no_proxy()
        // Plain HTTP on loopback: no root certificates to load at start-up.
        .tls_built_in_root_certs(false)
        .timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| ConfigError(format!("cannot build the HTTP client for the secrets extension: {e}")))?;
    for (value_var, id) in wanted {
        out.insert(value_var.to_string(), fetch(&http, &base, &token, &id).await?);
    }
    Ok(out)
}

/// One secret's string value from the extension. Retries briefly: the
/// extension may still be starting when the function's init begins.
async fn fetch(http: &reqwest::Client, base: &str, token: &str, id: &str) -> Result<String, ConfigError> {
    let url = format!("{base}/secretsmanager/get?secretId={}", url::form_urlencoded::byte_serialize(id.as_bytes()).collect::<String>());
    let mut last = String::new();
    for attempt in 0..5u64 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(100 * attempt)).await;
        }
        match http.get(&url).header(TOKEN_HEADER, token).send().await {
            Ok(resp) if resp.status().is_success() => {
                let body: serde_json::Value = resp
                    .json()
                    .await
                    .map_err(|e| ConfigError(format!("the secrets extension's answer for {id} is not JSON: {e}")))?;
                return body
                    .get("SecretString")
                    .and_then(|v| v.as_str())
                    .map(str::to_owned)
                    .ok_or_else(|| ConfigError(format!("the secret {id} has no SecretString: store the value as a plain string")));
            }
            // The answer's body names the problem (access denied, no such
            // secret); it never holds a secret value.
            Ok(resp) => {
                let status = resp.status();
                let text: String = resp.text().await.unwrap_or_default().chars().take(200).collect();
                last = format!("status {status}: {text}");
                if status.is_client_error() && !text.contains("not ready") {
                    break;
                }
            }
            Err(e) => last = e.to_string(),
        }
    }
    Err(ConfigError(format!(
        "cannot read the secret {id} through the Parameters and Secrets Lambda Extension ({last}): check the function has the extension layer and secretsmanager:GetSecretValue on it"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    use axum::extract::{Query, State};
    use axum::http::{HeaderMap, StatusCode};
    use axum::routing::get;

    type Seen = Arc<Mutex<Vec<(String, Option<String>)>>>;

    /// What the fake extension holds as the JWT secret (random-looking: the
    /// configuration refuses one with little entropy).
    const JWT: &str = "Jq7vXc2LmN8pRt4WzY6bKd0HfG3sAe5Uo9Ii1TyQwE";

    /// A stand-in for the extension on 127.0.0.1: answers the two secrets
    /// to the right token, records what it was asked.
    async fn fake_extension() -> (String, Seen) {
        async fn answer(State(seen): State<Seen>, Query(q): Query<HashMap<String, String>>, headers: HeaderMap) -> (StatusCode, String) {
            let id = q.get("secretId").cloned().unwrap_or_default();
            let token = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
            seen.lock().unwrap().push((id.clone(), token.clone()));
            if token.as_deref() != Some("session-token") {
                return (StatusCode::UNAUTHORIZED, "missing or wrong token".into());
            }
            let value = match id.as_str() {
                "arn:aws:secretsmanager:eu-west-1:123456789012:secret:jwt-AbCdEf" => JWT.into(),
                "backoffice/origin" => "o".repeat(48),
                "backoffice/charger-ca" => "-----BEGIN CERTIFICATE-----".into(),
                _ => return (StatusCode::BAD_REQUEST, "ResourceNotFoundException: Secrets Manager can't find the specified secret.".into()),
            };
            (StatusCode::OK, serde_json::json!({"ARN": id, "Name": id, "SecretString": value, "VersionId": "v1"}).to_string())
        }
        let seen: Seen = Arc::default();
        let app = axum::Router::new().route("/secretsmanager/get", get(answer)).with_state(seen.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (format!("http://{addr}"), seen)
    }

    fn lookup(vars: Vec<(&'static str, String)>) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<&str, String> = vars.into_iter().collect();
        move |k| map.get(k).cloned()
    }

    #[tokio::test]
    async fn the_secrets_are_read_through_the_extension_into_the_configuration() {
        let (base, seen) = fake_extension().await;
        let vars = vec![
            ("BACKOFFICE_ENV", "production".to_string()),
            ("BACKOFFICE_SECRETS_ENDPOINT", base),
            ("AWS_SESSION_TOKEN", "session-token".into()),
            ("BACKOFFICE_JWT_SECRET_ID", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:jwt-AbCdEf".into()),
            ("BACKOFFICE_ORIGIN_VERIFY_SECRET_ID", "backoffice/origin".into()),
            ("BACKOFFICE_CHARGER_CA_SECRET_ID", "backoffice/charger-ca".into()),
        ];
        let resolved = resolve(lookup(vars.clone())).await.unwrap();
        let get = lookup(vars);
        let config = crate::config::Config::from_lookup(|k| resolved.get(k).cloned().or_else(|| get(k))).unwrap();
        assert_eq!(config.jwt_secret, JWT.as_bytes());
        assert_eq!(config.origin_verify_secret, Some("o".repeat(48)));
        assert_eq!(config.charger_ca.source, crate::config::CaSource::Pem("-----BEGIN CERTIFICATE-----".into()));
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 3, "one request per secret: {seen:?}");
        assert!(seen.iter().all(|(_, token)| token.as_deref() == Some("session-token")), "{seen:?}");
    }

    #[tokio::test]
    async fn nothing_is_fetched_without_ids_and_failures_say_what_to_fix() {
        assert!(resolve(lookup(vec![("BACKOFFICE_JWT_SECRET", "x".repeat(40))])).await.unwrap().is_empty());

        let (base, _) = fake_extension().await;
        let unknown = vec![
            ("BACKOFFICE_SECRETS_ENDPOINT", base.clone()),
            ("AWS_SESSION_TOKEN", "session-token".into()),
            ("BACKOFFICE_JWT_SECRET_ID", "no-such-secret".into()),
        ];
        let err = resolve(lookup(unknown)).await.unwrap_err();
        assert!(err.0.contains("no-such-secret") && err.0.contains("ResourceNotFoundException"), "{err}");

        let wrong_token = vec![("BACKOFFICE_SECRETS_ENDPOINT", base.clone()), ("AWS_SESSION_TOKEN", "other".into()), ("BACKOFFICE_JWT_SECRET_ID", "backoffice/origin".into())];
        assert!(resolve(lookup(wrong_token)).await.unwrap_err().0.contains("401"));

        let no_token = vec![("BACKOFFICE_SECRETS_ENDPOINT", base.clone()), ("BACKOFFICE_JWT_SECRET_ID", "backoffice/origin".into())];
        assert!(resolve(lookup(no_token)).await.unwrap_err().0.contains("AWS_SESSION_TOKEN"));

        let both = vec![("AWS_SESSION_TOKEN", "session-token".into()), ("BACKOFFICE_JWT_SECRET_ID", "x".into()), ("BACKOFFICE_JWT_SECRET", "y".repeat(40))];
        assert!(resolve(lookup(both)).await.unwrap_err().0.contains("set only one"));
    }

    #[test]
    fn the_extension_port_follows_its_own_variable() {
        assert_eq!(extension_base(&lookup(vec![])), "http://localhost:2773");
        assert_eq!(extension_base(&lookup(vec![("PARAMETERS_SECRETS_EXTENSION_HTTP_PORT", "2800".into())])), "http://localhost:2800");
    }
}
