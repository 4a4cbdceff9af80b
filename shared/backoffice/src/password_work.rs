//! Password hashing off the async worker threads. argon2id takes tens of
//! milliseconds of CPU and 19 MiB per hash: run inline on the async
//! threads, a few parallel sign-ins stalled every other request on a small
//! machine. Here each hash runs on the blocking pool, and at most one per
//! CPU runs at once (the rest wait their turn without holding a thread).

use std::sync::LazyLock;

use envelope::ApiError;
use tokio::sync::Semaphore;

/// Hashes at once: one per CPU.
fn slot_count() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

static SLOTS: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(slot_count()));

/// For a long-running server: the hash slots' working memory is taken at
/// start, so the process's memory stays level under sign-in bursts.
pub fn reserve_memory() {
    auth::reserve_memory(slot_count());
}

async fn bounded<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    let _slot = SLOTS.acquire().await.map_err(|_| ApiError::internal())?;
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        tracing::error!(error = %e, "a password hash task failed");
        ApiError::internal()
    })
}

/// [`auth::verify_password`], bounded and off the async threads.
pub async fn verify(password: &str, phc: &str) -> Result<bool, ApiError> {
    let (password, phc) = (password.to_string(), phc.to_string());
    bounded(move || auth::verify_password(&password, &phc)).await
}

/// [`auth::dummy_verify`] (an unknown user costs what a known one does).
pub async fn dummy_verify(password: &str) -> Result<(), ApiError> {
    let password = password.to_string();
    bounded(move || auth::dummy_verify(&password)).await
}

/// [`auth::hash_password`], bounded and off the async threads.
pub async fn hash(password: &str) -> Result<String, ApiError> {
    let password = password.to_string();
    bounded(move || auth::hash_password(&password)).await?.map_err(|e| {
        tracing::error!(error = %e, "password hashing failed");
        ApiError::internal()
    })
}

/// Any other password work (a charger's KDF), bounded and off the async
/// threads like the staff hashes: they share the slots.
pub async fn run<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    bounded(work).await
}
