//! Fuzzes the A2A 0.3 (and 0.2) JSON-RPC requests, responses and other types a server or client
//! reads from the network, each decoded from the same bytes; what decodes must round-trip.

#![no_main]

use a2a_fuzz::decode;
use a2a_types::v0_3;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::<v0_3::A2ARequest>(data);
    decode::<v0_3::SendMessageRequest>(data);
    decode::<v0_3::SendMessageResponse>(data);
    decode::<v0_3::SendStreamingMessageRequest>(data);
    decode::<v0_3::SendStreamingMessageResponse>(data);
    decode::<v0_3::GetTaskRequest>(data);
    decode::<v0_3::GetTaskResponse>(data);
    decode::<v0_3::CancelTaskRequest>(data);
    decode::<v0_3::CancelTaskResponse>(data);
    decode::<v0_3::TaskResubscriptionRequest>(data);
    decode::<v0_3::SetTaskPushNotificationConfigRequest>(data);
    decode::<v0_3::SetTaskPushNotificationConfigResponse>(data);
    decode::<v0_3::GetTaskPushNotificationConfigRequest>(data);
    decode::<v0_3::GetTaskPushNotificationConfigResponse>(data);
    decode::<v0_3::ListTaskPushNotificationConfigRequest>(data);
    decode::<v0_3::ListTaskPushNotificationConfigResponse>(data);
    decode::<v0_3::DeleteTaskPushNotificationConfigRequest>(data);
    decode::<v0_3::DeleteTaskPushNotificationConfigResponse>(data);
    decode::<v0_3::GetAuthenticatedExtendedCardRequest>(data);
    decode::<v0_3::GetAuthenticatedExtendedCardResponse>(data);
    decode::<v0_3::JsonRpcErrorResponse>(data);
    decode::<v0_3::SendStreamingMessageResult>(data);
    decode::<v0_3::Task>(data);
    decode::<v0_3::Message>(data);
});
