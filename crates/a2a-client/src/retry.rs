//! [`RetryPolicy`]: how often and how patiently failed calls are tried again; and which
//! failures each operation may be retried on.

use std::time::Duration;

use a2a_types::protocol::Operation;

use crate::Error;

/// How often and how patiently failed calls are tried again.
///
/// A call is tried again when it fails with a [transient](Error::is_transient) error: a transport
/// error, a timeout, HTTP 408/429/502/503/504. Which calls:
///
/// * the idempotent ones (`GetTask`, `ListTasks`, `CancelTask`, `SubscribeToTask`, the push
///   configuration reads and deletes, `GetExtendedAgentCard`, the card fetch) on any transient
///   error;
/// * `SendMessage` and `SendStreamingMessage` on any transient error except a timeout of the
///   call itself (a slow agent is not a failed one): the message keeps its `messageId`, so a
///   server that deduplicates by it runs the message once;
/// * `CreateTaskPushNotificationConfig` (whose id the server assigns, so that a repeat would
///   register a second webhook) only when the connection could not be made, so the request
///   never reached the server.
///
/// The wait after `n` failed attempts is `initial_backoff * 2^(n-1)`, at most `max_backoff`, of
/// which a random part of up to a half is taken off so that clients do not retry in step. The
/// words are those of the server's push deliveries (`a2a_server::push::RetryPolicy`):
/// `max_attempts` counts the first attempt, `backoff(failures)` is the wait before jitter.
///
/// ```
/// use std::time::Duration;
/// use a2a_client::RetryPolicy;
///
/// let policy = RetryPolicy::default()
///     .with_max_attempts(5)
///     .with_initial_backoff(Duration::from_millis(50));
/// assert_eq!(policy.backoff(1), Duration::from_millis(50));
/// assert_eq!(policy.backoff(3), Duration::from_millis(200));
/// assert_eq!(policy.backoff(40), policy.max_backoff);
/// assert_eq!(RetryPolicy::none().max_attempts, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// The most attempts of one call, the first included (1: no retries). Default 3.
    pub max_attempts: u32,
    /// The wait after the first failure. Default 200 ms.
    pub initial_backoff: Duration,
    /// The longest wait between two attempts. Default 5 s.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// One attempt, no retries.
    pub fn none() -> Self {
        Self::default().with_max_attempts(1)
    }

    /// Sets the most attempts (at least 1).
    #[must_use]
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// Sets the first wait.
    #[must_use]
    pub fn with_initial_backoff(mut self, wait: Duration) -> Self {
        self.initial_backoff = wait;
        self
    }

    /// Sets the longest wait.
    #[must_use]
    pub fn with_max_backoff(mut self, wait: Duration) -> Self {
        self.max_backoff = wait;
        self
    }

    /// The wait after `failures` failed attempts (at least 1), before jitter.
    pub fn backoff(&self, failures: u32) -> Duration {
        let doublings = failures.saturating_sub(1).min(31);
        self.initial_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff)
    }

    /// [`backoff`](Self::backoff) with equal jitter: a random part of up to a half taken off.
    pub(crate) fn jittered(&self, failures: u32) -> Duration {
        let full = self.backoff(failures);
        let nanos = u64::try_from((full / 2).as_nanos()).unwrap_or(u64::MAX);
        let jitter = if nanos == 0 { 0 } else { random() % nanos };
        full - Duration::from_nanos(jitter)
    }
}

/// A random number from the standard library's per-process random hash keys.
fn random() -> u64 {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish()
}

/// Which failures a call may be retried on (see [`RetryPolicy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Retry {
    /// Idempotent: any transient failure.
    Idempotent,
    /// A send with a fixed `messageId`: any transient failure but a timeout of the call.
    Send,
    /// Only when the request never left (connection refused).
    ConnectOnly,
}

impl Retry {
    /// The failures a call of `operation` may be retried on.
    pub(crate) fn of(operation: Operation) -> Self {
        match operation {
            Operation::SendMessage | Operation::SendStreamingMessage => Retry::Send,
            Operation::CreateTaskPushNotificationConfig => Retry::ConnectOnly,
            _ => Retry::Idempotent,
        }
    }

    pub(crate) fn allows(self, error: &Error) -> bool {
        match self {
            Retry::Idempotent => error.is_transient(),
            Retry::Send => error.is_transient() && !matches!(error, Error::Timeout(_)),
            Retry::ConnectOnly => error.is_connect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap_with_jitter() {
        let policy = RetryPolicy::default()
            .with_initial_backoff(Duration::from_millis(100))
            .with_max_backoff(Duration::from_millis(1000));
        let waits: Vec<u128> = (1..=6).map(|n| policy.backoff(n).as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(policy.backoff(0), Duration::from_millis(100));
        assert_eq!(policy.backoff(u32::MAX), Duration::from_millis(1000));
        for _ in 0..50 {
            let first = policy.jittered(1);
            assert!(first >= Duration::from_millis(50) && first <= Duration::from_millis(100));
            let capped = policy.jittered(9);
            assert!(capped >= Duration::from_millis(500) && capped <= Duration::from_millis(1000));
        }
        let instant = RetryPolicy::default().with_initial_backoff(Duration::ZERO);
        assert_eq!(instant.jittered(3), Duration::ZERO);
        assert_eq!(RetryPolicy::default().with_max_attempts(0).max_attempts, 1);
    }
}
