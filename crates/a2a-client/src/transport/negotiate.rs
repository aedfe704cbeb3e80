//! [`Negotiated`]: a 1.0 transport that falls back to 0.3 once the agent says it does not
//! speak 1.0, for clients that allow legacy versions.
//!
//! An agent whose card claims 1.0 may still answer `VersionNotSupportedError` (-32009) to an
//! `A2A-Version: 1.0` request: an older server behind a newer card, a proxy that strips
//! headers. With legacy versions allowed
//! ([`ClientBuilder::allow_legacy`](crate::ClientBuilder::allow_legacy)), that call is retried
//! once over the 0.3 transport of the same binding, and the client keeps speaking 0.3 to this
//! agent from then on (every clone of the client and its streams share the choice). The switch
//! is logged at `info` (target `a2a_client`): it is never silent.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use a2a_jsonrpc::ErrorCode;
use a2a_types::protocol::{Reply, Request, StreamRequest};
use a2a_types::v1::SendMessageRequest;

use super::{BoxFuture, EventStream, Transport, boxed};
use crate::Error;
use crate::interceptor::CallInfo;

/// A 1.0 transport with a 0.3 one to fall back to (see the module docs).
pub(crate) struct Negotiated {
    primary: Arc<dyn Transport>,
    fallback: Arc<dyn Transport>,
    /// The agent and the fallback's endpoint, for the log.
    agent: String,
    fallen_back: AtomicBool,
}

impl Negotiated {
    pub(crate) fn new(
        primary: Arc<dyn Transport>,
        fallback: Arc<dyn Transport>,
        agent: String,
    ) -> Self {
        Self {
            primary,
            fallback,
            agent,
            fallen_back: AtomicBool::new(false),
        }
    }

    /// True once the client speaks 0.3 to this agent.
    pub(crate) fn fell_back(&self) -> bool {
        self.fallen_back.load(Ordering::Acquire)
    }

    /// The transport to try first: the 1.0 one until the agent refused 1.0.
    fn current(&self) -> &dyn Transport {
        if self.fell_back() {
            &*self.fallback
        } else {
            &*self.primary
        }
    }

    /// True when `error`, from the 1.0 transport, is the agent's `VersionNotSupportedError`:
    /// the client switches to 0.3 (and says so) and the call is to be retried there.
    fn falls_back(&self, call: &CallInfo, error: &Error) -> bool {
        if error.code() != Some(ErrorCode::VERSION_NOT_SUPPORTED) {
            return false;
        }
        if !self.fallen_back.swap(true, Ordering::AcqRel) {
            tracing::info!(
                target: "a2a_client",
                agent = %self.agent,
                "{} over A2A 1.0 was answered VersionNotSupportedError ({error}); \
                 retrying in A2A 0.3, which this client speaks to the agent from now on",
                call.method
            );
        }
        true
    }
}

impl Transport for Negotiated {
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        self.current().prepare_send(request);
    }

    fn call<'a>(
        &'a self,
        call: CallInfo,
        request: &'a Request,
    ) -> BoxFuture<'a, Result<Reply, Error>> {
        boxed(async move {
            if !self.fell_back() {
                match self.primary.call(call.clone(), request).await {
                    Err(error) if self.falls_back(&call, &error) => {}
                    outcome => return outcome,
                }
            }
            self.fallback.call(call, request).await
        })
    }

    fn open<'a>(
        &'a self,
        call: CallInfo,
        request: &'a StreamRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(async move {
            if !self.fell_back() {
                match self
                    .primary
                    .open(call.clone(), request, last_event_id)
                    .await
                {
                    Err(error) if self.falls_back(&call, &error) => {}
                    outcome => return outcome,
                }
            }
            self.fallback.open(call, request, last_event_id).await
        })
    }
}
