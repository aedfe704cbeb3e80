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
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};

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

    /// True when `error` is the agent's `VersionNotSupportedError`: the client switches to 0.3
    /// (and says so) and the call is to be retried there.
    fn falls_back(&self, method: &str, error: &Error) -> bool {
        if error.code() != Some(ErrorCode::VERSION_NOT_SUPPORTED) {
            return false;
        }
        if !self.fallen_back.swap(true, Ordering::AcqRel) {
            tracing::info!(
                target: "a2a_client",
                agent = %self.agent,
                "{method} over A2A 1.0 was answered VersionNotSupportedError ({error}); \
                 retrying in A2A 0.3, which this client speaks to the agent from now on"
            );
        }
        true
    }
}

/// A transport method that tries the 1.0 transport (until the agent refused 1.0), then the
/// 0.3 one.
macro_rules! negotiated {
    ($name:ident($($arg:ident: $ty:ty),*) -> $out:ty) => {
        fn $name<'a>(
            &'a self,
            call: CallInfo,
            $($arg: &'a $ty),*
        ) -> BoxFuture<'a, Result<$out, Error>> {
            boxed(async move {
                if !self.fell_back() {
                    match self.primary.$name(call.clone(), $($arg),*).await {
                        Err(error) if self.falls_back(call.method, &error) => {}
                        outcome => return outcome,
                    }
                }
                self.fallback.$name(call, $($arg),*).await
            })
        }
    };
}

impl Transport for Negotiated {
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        if self.fell_back() {
            self.fallback.prepare_send(request);
        } else {
            self.primary.prepare_send(request);
        }
    }

    negotiated!(send_message(request: SendMessageRequest) -> SendMessageResponse);
    negotiated!(send_streaming_message(request: SendMessageRequest) -> EventStream);
    negotiated!(get_task(request: GetTaskRequest) -> Task);
    negotiated!(list_tasks(request: ListTasksRequest) -> ListTasksResponse);
    negotiated!(cancel_task(request: CancelTaskRequest) -> Task);
    negotiated!(create_task_push_notification_config(config: TaskPushNotificationConfig)
        -> TaskPushNotificationConfig);
    negotiated!(get_task_push_notification_config(request: GetTaskPushNotificationConfigRequest)
        -> TaskPushNotificationConfig);
    negotiated!(list_task_push_notification_configs(
        request: ListTaskPushNotificationConfigsRequest
    ) -> ListTaskPushNotificationConfigsResponse);
    negotiated!(delete_task_push_notification_config(
        request: DeleteTaskPushNotificationConfigRequest
    ) -> ());
    negotiated!(get_extended_agent_card(request: GetExtendedAgentCardRequest) -> AgentCard);

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(async move {
            if !self.fell_back() {
                match self
                    .primary
                    .subscribe_to_task(call.clone(), request, last_event_id)
                    .await
                {
                    Err(error) if self.falls_back(call.method, &error) => {}
                    outcome => return outcome,
                }
            }
            self.fallback
                .subscribe_to_task(call, request, last_event_id)
                .await
        })
    }
}
