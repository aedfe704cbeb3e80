//! Fuzzes the A2A 0.1 JSON-RPC requests, responses and other types a server or client reads
//! from the network, each decoded from the same bytes; what decodes must round-trip.

#![no_main]

use a2a_fuzz::decode;
use a2a_types::v0_1;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::<v0_1::A2aRequest>(data);
    decode::<v0_1::JsonRpcRequest>(data);
    decode::<v0_1::JsonRpcResponse>(data);
    decode::<v0_1::JsonRpcMessage>(data);
    decode::<v0_1::SendTaskRequest>(data);
    decode::<v0_1::SendTaskResponse>(data);
    decode::<v0_1::SendTaskStreamingRequest>(data);
    decode::<v0_1::SendTaskStreamingResponse>(data);
    decode::<v0_1::GetTaskRequest>(data);
    decode::<v0_1::GetTaskResponse>(data);
    decode::<v0_1::CancelTaskRequest>(data);
    decode::<v0_1::CancelTaskResponse>(data);
    decode::<v0_1::SetTaskPushNotificationRequest>(data);
    decode::<v0_1::SetTaskPushNotificationResponse>(data);
    decode::<v0_1::GetTaskPushNotificationRequest>(data);
    decode::<v0_1::GetTaskPushNotificationResponse>(data);
    decode::<v0_1::TaskResubscriptionRequest>(data);
    decode::<v0_1::StreamEvent>(data);
    decode::<v0_1::Task>(data);
});
