//! The call layer, written once above the transports: retries, the call timeout, the
//! interceptors' view of each attempt's operation and their failure reports; and [`Core`], the
//! state a client and its streams share.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::protocol::{Call, Reply, Request, StreamRequest, UnexpectedReply};
use a2a_types::v1::{AgentCard, AgentInterface, GetTaskRequest, Task};

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
    /// used up; `attempt` gets the [`CallInfo`] of each (`first`'s, counted on).
    pub(crate) async fn run<'f, T>(
        &self,
        first: CallInfo,
        retry: Retry,
        mut attempt: impl FnMut(CallInfo) -> BoxFuture<'f, Result<T, Error>>,
    ) -> Result<T, Error> {
        let mut n = 0;
        loop {
            let mut call = first.clone();
            call.attempt = n;
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
    /// The protocol version the client speaks to the interface (`1.1`, `1.0`, `0.3`, ...).
    pub(crate) speaks: String,
    /// Whether the client uses the 1.1 task generations with this agent.
    pub(crate) generations: crate::generation::Support,
}

impl Core {
    /// The interface's tenant, for a request that does not name one.
    pub(crate) fn tenant(&self, tenant: &mut Option<String>) {
        if tenant.is_none() {
            tenant.clone_from(&self.interface.tenant);
        }
    }

    /// Tells the interceptors which operation an attempt is, with its request.
    fn announce(&self, call: &CallInfo, request: &Call) {
        for interceptor in self.policy.interceptors.iter() {
            interceptor.on_call(call, request);
        }
    }

    /// The attempts of `call` under the retries its operation allows, each announced to the
    /// interceptors and made by `attempt`.
    async fn attempts<'f, T>(
        &self,
        call: &Call,
        mut attempt: impl FnMut(CallInfo) -> BoxFuture<'f, Result<T, Error>>,
    ) -> Result<T, Error> {
        let operation = call.operation();
        self.policy
            .run(CallInfo::of(operation, 0), Retry::of(operation), |info| {
                self.announce(&info, call);
                attempt(info)
            })
            .await
    }

    /// A unary operation, with the retries its operation allows.
    pub(crate) async fn call(&self, request: Request) -> Result<Reply, Error> {
        let call = Call::Unary(request);
        let Call::Unary(request) = &call else {
            unreachable!("a unary call")
        };
        let reply = self
            .attempts(&call, |info| self.transport.call(info, request))
            .await?;
        self.generations.observe_reply(&reply);
        Ok(reply)
    }

    /// A streaming operation, with the retries its operation allows, until its stream is open.
    pub(crate) async fn open(
        &self,
        request: StreamRequest,
        last_event_id: Option<&str>,
    ) -> Result<EventStream, Error> {
        let call = Call::Stream(request);
        let Call::Stream(request) = &call else {
            unreachable!("a streaming call")
        };
        self.attempts(&call, |info| {
            self.transport.open(info, request, last_event_id)
        })
        .await
    }

    /// `GetTask`, with retries; the request's tenant as it is.
    pub(crate) async fn get_task(&self, request: GetTaskRequest) -> Result<Task, Error> {
        expect(self.call(request.into()).await?)
    }

    /// One attempt of a streaming operation (a stream's reconnection, `attempt` as the stream
    /// counts them).
    pub(crate) async fn reopen(
        &self,
        request: StreamRequest,
        last_event_id: Option<&str>,
        attempt: u32,
    ) -> Result<EventStream, Error> {
        let call = CallInfo::of(request.operation(), attempt);
        let request = Call::Stream(request);
        self.announce(&call, &request);
        let Call::Stream(request) = &request else {
            unreachable!("a streaming call")
        };
        let opening = self.transport.open(call.clone(), request, last_event_id);
        self.policy.attempt(&call, opening).await
    }
}

/// The result a reply carries, of the type its operation answers with.
pub(crate) fn expect<T>(reply: Reply) -> Result<T, Error>
where
    T: TryFrom<Reply, Error = UnexpectedReply>,
{
    T::try_from(reply).map_err(|unexpected| {
        Error::Protocol(format!(
            "the transport answered with the wrong kind of reply: {unexpected}"
        ))
    })
}
