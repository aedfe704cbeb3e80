//! The call layer, written once above the transports: retries, the call timeout and the
//! interceptors' failure reports around each attempt; and [`Core`], the state a client and its
//! streams share.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::protocol::Operation;
use a2a_types::v1::{AgentCard, AgentInterface, GetTaskRequest, SubscribeToTaskRequest, Task};

use crate::Error;
use crate::http::Interceptors;
use crate::interceptor::CallInfo;
use crate::retry::{Retry, RetryPolicy};
use crate::transport::{BoxFuture, EventStream, Transport};

/// How calls are made: the builder's settings.
pub(crate) struct Policy {
    pub(crate) timeout: Option<Duration>,
    pub(crate) retry: RetryPolicy,
    pub(crate) stream_reconnects: u32,
    pub(crate) stream_idle_timeout: Option<Duration>,
    pub(crate) interceptors: Interceptors,
}

impl Policy {
    /// Runs the attempts of one call until one succeeds, one fails for good, or the retries are
    /// used up; `attempt` gets the [`CallInfo`] of each.
    pub(crate) async fn run<'f, T>(
        &self,
        method: &'static str,
        retry: Retry,
        mut attempt: impl FnMut(CallInfo) -> BoxFuture<'f, Result<T, Error>>,
    ) -> Result<T, Error> {
        let mut n = 0;
        loop {
            let call = CallInfo::new(method, n);
            match self.attempt(&call, attempt(call.clone())).await {
                Err(error) if n + 1 < self.retry.max_attempts && retry.allows(&error) => {
                    n += 1;
                    tokio::time::sleep(self.retry.jittered(n)).await;
                }
                outcome => return outcome,
            }
        }
    }

    /// Runs one attempt under the call timeout, telling the interceptors about a failure
    /// without a response.
    pub(crate) async fn attempt<T>(
        &self,
        call: &CallInfo,
        fut: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let outcome = match self.timeout {
            Some(limit) => match tokio::time::timeout(limit, fut).await {
                Ok(outcome) => outcome,
                Err(_) => Err(Error::Timeout(limit)),
            },
            None => fut.await,
        };
        if let Err(error @ (Error::Transport(_) | Error::Timeout(_))) = &outcome {
            for interceptor in self.interceptors.iter() {
                interceptor.on_error(call, error);
            }
        }
        outcome
    }
}

/// A client's state: the transport to its chosen interface and how calls are made. Shared by
/// the client's clones and its streams.
pub(crate) struct Core {
    pub(crate) transport: Arc<dyn Transport>,
    pub(crate) policy: Policy,
    pub(crate) card: AgentCard,
    pub(crate) interface: AgentInterface,
    pub(crate) endpoint: http::Uri,
}

impl Core {
    /// The interface's tenant, for a request that does not name one.
    pub(crate) fn tenant(&self, tenant: &mut Option<String>) {
        if tenant.is_none() {
            tenant.clone_from(&self.interface.tenant);
        }
    }

    /// `GetTask`, with retries; the request's tenant as it is.
    pub(crate) async fn get_task(&self, request: GetTaskRequest) -> Result<Task, Error> {
        self.policy
            .run(Operation::GetTask.method(), Retry::Idempotent, |call| {
                self.transport.get_task(call, &request)
            })
            .await
    }

    /// One attempt of `SubscribeToTask` (a stream's reconnection; the stream counts them).
    pub(crate) async fn resubscribe(
        &self,
        request: &SubscribeToTaskRequest,
        last_event_id: Option<&str>,
        attempt: u32,
    ) -> Result<EventStream, Error> {
        let call = CallInfo::new(Operation::SubscribeToTask.method(), attempt);
        let opening = self
            .transport
            .subscribe_to_task(call.clone(), request, last_event_id);
        self.policy.attempt(&call, opening).await
    }
}
