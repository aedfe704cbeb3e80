//! Property test: arbitrary A2A 1.0 values survive a JSON round trip unchanged.

use a2a_tests::v1_strategies::*;
use a2a_types::v1::*;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

fn roundtrip<T>(value: &T) -> Result<(), TestCaseError>
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(value).unwrap();
    let back: T = a2a_types::json::from_str(&json)
        .map_err(|e| TestCaseError::fail(format!("{e} in {json}")))?;
    prop_assert_eq!(&back, value, "through {}", json);
    // Exact in what we send: the second encoding is byte-identical.
    prop_assert_eq!(serde_json::to_string(&back).unwrap(), json);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn stream_responses_round_trip(value in stream_response()) {
        roundtrip(&value)?;
    }

    #[test]
    fn send_message_requests_round_trip(
        msg in message(),
        hl in option::of(any::<i32>()),
        ri in any::<bool>(),
        modes in vec(text(), 0..3),
        meta in metadata(),
    ) {
        let mut config = SendMessageConfiguration::default().with_return_immediately(ri).with_accepted_output_modes(modes);
        config.history_length = hl;
        let mut req = SendMessageRequest::new(msg).with_configuration(config);
        req.metadata = meta;
        roundtrip(&req)?;
    }

    #[test]
    fn agent_cards_round_trip(card in agent_card()) {
        roundtrip(&card)?;
    }

    #[test]
    fn list_tasks_requests_round_trip(req in list_tasks_request()) {
        roundtrip(&req)?;
    }

    #[test]
    fn list_tasks_responses_round_trip(tasks in vec(task(), 0..3), token in "[a-z0-9]{0,8}", ps in any::<i32>(), total in any::<i32>()) {
        roundtrip(&ListTasksResponse::new(tasks, token, ps, total))?;
    }
}
