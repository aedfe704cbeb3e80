//! [`RetryPolicy`]: how often and how patiently failed calls are tried again; and which
//! failures each operation may be retried on.

use std::time::Duration;

use crate::Error;

/// How often and how patiently failed calls are tried again.
///
/// A call is retried when it fails with a [transient](Error::is_transient) error: a transport
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
/// The wait before retry `n` (from 0) is `initial_backoff * 2^n`, at most `max_backoff`, of
/// which a random part of up to a half is taken off so that clients do not retry in step.
///
/// ```
/// use std::time::Duration;
/// use a2a_client::RetryPolicy;
///
/// let policy = RetryPolicy::default()
///     .with_max_retries(4)
///     .with_initial_backoff(Duration::from_millis(50));
/// assert!(policy.backoff(0) <= Duration::from_millis(50));
/// assert!(policy.backoff(10) <= policy.max_backoff);
/// assert_eq!(RetryPolicy::none().max_retries, 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Retries after the first attempt. Default 2.
    pub max_retries: u32,
    /// The wait before the first retry. Default 200 ms.
    pub initial_backoff: Duration,
    /// The longest wait between two attempts. Default 5 s.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 2,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// No retries.
    pub fn none() -> Self {
        Self::default().with_max_retries(0)
    }

    /// Sets the number of retries.
    #[must_use]
    pub fn with_max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
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

    /// The wait before retry `retry` (0 for the first retry).
    pub fn backoff(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX);
        let full = self
            .initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff);
        // Equal jitter: keep at least half of the wait.
        let half = full / 2;
        let nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
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
        for _ in 0..50 {
            let b0 = policy.backoff(0);
            assert!(b0 >= Duration::from_millis(50) && b0 <= Duration::from_millis(100));
            let b2 = policy.backoff(2);
            assert!(b2 >= Duration::from_millis(200) && b2 <= Duration::from_millis(400));
            let b9 = policy.backoff(9);
            assert!(b9 >= Duration::from_millis(500) && b9 <= Duration::from_millis(1000));
            assert!(policy.backoff(u32::MAX) <= Duration::from_millis(1000));
        }
        assert_eq!(
            RetryPolicy::default()
                .with_initial_backoff(Duration::ZERO)
                .backoff(3),
            Duration::ZERO
        );
    }
}
