//! Literal JSON values: the `type` of a part, the `jsonrpc` version and the `method` of a request.
//!
//! Each type here stands for exactly one JSON string. It writes that string, reads only that
//! string (anything else is an error that names the expected value), and describes itself in JSON
//! Schema as `{"type": "string", "const": "..."}`, which is how `a2a.json` 0.1 spells these
//! fields.
//!
//! ```
//! use a2a_types::v0_1::tag::TextTag;
//!
//! assert_eq!(serde_json::to_string(&TextTag).unwrap(), r#""text""#);
//! assert!(serde_json::from_str::<TextTag>(r#""file""#).is_err());
//! ```

crate::macros::const_str! {
    /// `"text"`: the `type` of a [`TextPart`](super::TextPart).
    TextTag = "text";
    /// `"file"`: the `type` of a [`FilePart`](super::FilePart).
    FileTag = "file";
    /// `"data"`: the `type` of a [`DataPart`](super::DataPart).
    DataTag = "data";
    /// `"2.0"`: the `jsonrpc` member of every JSON-RPC 2.0 message.
    JsonRpcV2 = "2.0";
    /// `"tasks/send"`: the method of a [`SendTaskRequest`](super::SendTaskRequest).
    SendTaskMethod = "tasks/send";
    /// `"tasks/sendSubscribe"`: the method of a [`SendTaskStreamingRequest`](super::SendTaskStreamingRequest).
    SendTaskStreamingMethod = "tasks/sendSubscribe";
    /// `"tasks/get"`: the method of a [`GetTaskRequest`](super::GetTaskRequest).
    GetTaskMethod = "tasks/get";
    /// `"tasks/cancel"`: the method of a [`CancelTaskRequest`](super::CancelTaskRequest).
    CancelTaskMethod = "tasks/cancel";
    /// `"tasks/pushNotification/set"`: the method of a
    /// [`SetTaskPushNotificationRequest`](super::SetTaskPushNotificationRequest).
    SetTaskPushNotificationMethod = "tasks/pushNotification/set";
    /// `"tasks/pushNotification/get"`: the method of a
    /// [`GetTaskPushNotificationRequest`](super::GetTaskPushNotificationRequest).
    GetTaskPushNotificationMethod = "tasks/pushNotification/get";
    /// `"tasks/resubscribe"`: the method of a [`TaskResubscriptionRequest`](super::TaskResubscriptionRequest).
    TaskResubscriptionMethod = "tasks/resubscribe";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_only_their_value() {
        assert_eq!(
            serde_json::from_str::<JsonRpcV2>(r#""2.0""#).unwrap(),
            JsonRpcV2
        );
        let err = serde_json::from_str::<JsonRpcV2>(r#""1.0""#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(r#"expected "2.0", found "1.0""#),
            "{err}"
        );
        assert!(serde_json::from_str::<SendTaskMethod>("1").is_err());
        assert_eq!(SendTaskMethod.to_string(), "tasks/send");
        assert_eq!(DataTag::VALUE, "data");
    }
}
