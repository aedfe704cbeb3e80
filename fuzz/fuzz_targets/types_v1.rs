//! Fuzzes the A2A 1.0 types a server or client reads from the network, each decoded from the
//! same bytes with `a2a_types::json::from_slice`; what decodes must round-trip (see `a2a_fuzz`).

#![no_main]

use a2a_fuzz::decode;
use a2a_types::v1;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::<v1::StreamResponse>(data);
    decode::<v1::SendMessageRequest>(data);
    decode::<v1::SendMessageResponse>(data);
    decode::<v1::Task>(data);
    decode::<v1::Message>(data);
    decode::<v1::ListTasksRequest>(data);
    decode::<v1::ListTasksResponse>(data);
    decode::<v1::GetTaskRequest>(data);
    decode::<v1::CancelTaskRequest>(data);
    decode::<v1::SubscribeToTaskRequest>(data);
    decode::<v1::TaskPushNotificationConfig>(data);
    decode::<v1::GetTaskPushNotificationConfigRequest>(data);
    decode::<v1::ListTaskPushNotificationConfigsRequest>(data);
    decode::<v1::ListTaskPushNotificationConfigsResponse>(data);
    decode::<v1::DeleteTaskPushNotificationConfigRequest>(data);
    decode::<v1::GetExtendedAgentCardRequest>(data);
    decode::<v1::SecurityScheme>(data);
});
