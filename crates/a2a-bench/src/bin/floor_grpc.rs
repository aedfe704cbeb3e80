//! The gRPC floor: the least a tonic A2A server does per `SendMessage`.
//!
//! ```text
//! a2a-bench-floor-grpc --addr 127.0.0.1:7430
//! ```
//!
//! The `A2aServiceServer` that `a2a-grpc` generates from `a2a.proto` (`a2a_grpc::proto`),
//! served by hyper's HTTP/2 connection (prior knowledge, as gRPC clients connect), whose
//! `send_message` answers the completed echo task of the other floors
//! ([`wire::completed_task_grpc`], built at start-up) with fresh v4 UUIDs for the task and
//! context and the decoded request's message as its history (ids set), as the JSON floor does;
//! no store, no conversions, no call context. Every other rpc is `UNIMPLEMENTED`. Request
//! decoding, the answer's building and encoding, tonic's framing and HTTP/2 are what remain:
//! what any tonic server pays.

use std::pin::Pin;

use a2a_bench::wire;
use a2a_grpc::proto::{self, a2a_service_server::A2aService, a2a_service_server::A2aServiceServer};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tonic::{Request, Response, Status};

/// The pre-built answer.
struct Floor {
    completed: proto::SendMessageResponse,
}

type Events = Pin<
    Box<dyn futures_util::Stream<Item = Result<proto::StreamResponse, Status>> + Send + 'static>,
>;

fn unimplemented<T>() -> Result<Response<T>, Status> {
    Err(Status::unimplemented(
        "the gRPC floor answers SendMessage only",
    ))
}

#[tonic::async_trait]
impl A2aService for Floor {
    async fn send_message(
        &self,
        request: Request<proto::SendMessageRequest>,
    ) -> Result<Response<proto::SendMessageResponse>, Status> {
        use proto::send_message_response::Payload;
        let Some(mut message) = request.into_inner().message else {
            return Err(Status::invalid_argument("no message"));
        };
        let mut answer = self.completed.clone();
        if let Some(Payload::Task(task)) = &mut answer.payload {
            task.id = uuid::Uuid::new_v4().to_string();
            task.context_id = uuid::Uuid::new_v4().to_string();
            message.task_id.clone_from(&task.id);
            message.context_id.clone_from(&task.context_id);
            task.history = vec![message];
        }
        Ok(Response::new(answer))
    }

    type SendStreamingMessageStream = Events;

    async fn send_streaming_message(
        &self,
        _request: Request<proto::SendMessageRequest>,
    ) -> Result<Response<Events>, Status> {
        unimplemented()
    }

    async fn get_task(
        &self,
        _request: Request<proto::GetTaskRequest>,
    ) -> Result<Response<proto::Task>, Status> {
        unimplemented()
    }

    async fn list_tasks(
        &self,
        _request: Request<proto::ListTasksRequest>,
    ) -> Result<Response<proto::ListTasksResponse>, Status> {
        unimplemented()
    }

    async fn cancel_task(
        &self,
        _request: Request<proto::CancelTaskRequest>,
    ) -> Result<Response<proto::Task>, Status> {
        unimplemented()
    }

    type SubscribeToTaskStream = Events;

    async fn subscribe_to_task(
        &self,
        _request: Request<proto::SubscribeToTaskRequest>,
    ) -> Result<Response<Events>, Status> {
        unimplemented()
    }

    async fn create_task_push_notification_config(
        &self,
        _request: Request<proto::TaskPushNotificationConfig>,
    ) -> Result<Response<proto::TaskPushNotificationConfig>, Status> {
        unimplemented()
    }

    async fn get_task_push_notification_config(
        &self,
        _request: Request<proto::GetTaskPushNotificationConfigRequest>,
    ) -> Result<Response<proto::TaskPushNotificationConfig>, Status> {
        unimplemented()
    }

    async fn list_task_push_notification_configs(
        &self,
        _request: Request<proto::ListTaskPushNotificationConfigsRequest>,
    ) -> Result<Response<proto::ListTaskPushNotificationConfigsResponse>, Status> {
        unimplemented()
    }

    async fn get_extended_agent_card(
        &self,
        _request: Request<proto::GetExtendedAgentCardRequest>,
    ) -> Result<Response<proto::AgentCard>, Status> {
        unimplemented()
    }

    async fn delete_task_push_notification_config(
        &self,
        _request: Request<proto::DeleteTaskPushNotificationConfigRequest>,
    ) -> Result<Response<()>, Status> {
        unimplemented()
    }
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = a2a_bench::parse_flags(&args)?;
    let addr: String = a2a_bench::flag(&flags, "addr", "127.0.0.1:7430".to_owned())?;
    let server = A2aServiceServer::new(Floor {
        completed: wire::completed_task_grpc(wire::ECHO_TEXT),
    });
    a2a_bench::serve_each(&addr, move |stream| {
        let service = hyper_util::service::TowerToHyperService::new(server.clone());
        async move {
            let _ = hyper::server::conn::http2::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        }
    })
    .await
}
