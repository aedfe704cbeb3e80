//! The in-memory store's push outbox: enqueued with the event, in order per (task, config),
//! leases, settling, deleting a config, a task that goes away, the bounds.

use std::time::{Duration, SystemTime};

use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{
    StreamResponse, Task, TaskId, TaskPushNotificationConfig, TaskState, TaskStatus,
};
use pretty_assertions::assert_eq;

use super::memory_tests::block_on;
use super::{
    Claimed, DeliveryRecord, DeliveryState, InMemoryTaskStore, OutboxLimits, Owner, PushStatus,
    RetentionPolicy, Settle, TaskEdit, TaskStore, delivery_bytes,
};

const LEASE: Duration = Duration::from_secs(30);

fn config(task: &str, id: &str) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig::new(format!("https://hook.example/{id}"))
        .with_task_id(task)
        .with_id(id)
}

async fn add_config(
    store: &InMemoryTaskStore,
    task: &str,
    id: &str,
    protocol_version: ProtocolVersion,
) {
    store
        .put_push_config(config(task, id), protocol_version)
        .await
        .unwrap();
}

async fn new_task(store: &InMemoryTaskStore, id: &str) {
    let task = Task::new(id, "ctx", TaskStatus::now(TaskState::Submitted));
    store
        .create(task, Owner::default(), ProtocolVersion::V1)
        .await
        .unwrap();
}

async fn set_state(store: &InMemoryTaskStore, id: &str, state: TaskState) {
    store
        .update(
            &TaskId::from(id),
            Box::new(move |_, _| Some(TaskEdit::Status(TaskStatus::now(state)))),
            None,
        )
        .await
        .unwrap()
        .unwrap();
}

/// (config id, seq, state) of each claimed delivery.
fn summary(claimed: &Claimed) -> Vec<(String, u64, String)> {
    claimed
        .deliveries
        .iter()
        .map(|d| {
            let state = match &d.event {
                StreamResponse::Task(t) => format!("task {}", t.status.state),
                StreamResponse::StatusUpdate(u) => format!("status {}", u.status.state),
                other => format!("{other:?}"),
            };
            (d.config.id.clone().unwrap(), d.seq, state)
        })
        .collect()
}

/// Claims and completes every delivery due at `now`, round after round; returns the summary of
/// each, in claim order. Nothing is left due after it.
async fn drain(store: &InMemoryTaskStore, now: SystemTime) -> Vec<(String, u64, String)> {
    let mut seen = Vec::new();
    loop {
        let claimed = store.claim_deliveries(now, LEASE, 10).await.unwrap();
        if claimed.deliveries.is_empty() {
            assert_eq!(claimed.next_due, None);
            return seen;
        }
        seen.extend(summary(&claimed));
        for d in &claimed.deliveries {
            assert!(
                store
                    .settle_delivery(d.id, d.lease, Settle::Complete)
                    .await
                    .unwrap()
            );
        }
    }
}

fn row(config: &str, seq: u64, state: &str) -> (String, u64, String) {
    (config.to_owned(), seq, state.to_owned())
}

#[test]
fn every_logged_event_is_enqueued_for_each_config_in_order() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        // Stored before the task: it gets event 1 too.
        add_config(&store, "t", "a", ProtocolVersion::V0_3).await;
        new_task(&store, "t").await;
        add_config(&store, "t", "b", ProtocolVersion::V1).await;
        set_state(&store, "t", TaskState::Working).await;
        // A message logs nothing, so it delivers nothing.
        store
            .update(
                &"t".into(),
                Box::new(|_, _| Some(TaskEdit::Message(a2a_types::v1::Message::user_text("hi")))),
                None,
            )
            .await
            .unwrap();
        set_state(&store, "t", TaskState::Completed).await;

        let now = SystemTime::now();
        let first = store.claim_deliveries(now, LEASE, 10).await.unwrap();
        // One per queue: the oldest of each.
        assert_eq!(
            summary(&first),
            [
                row("a", 1, "task TASK_STATE_SUBMITTED"),
                row("b", 2, "status TASK_STATE_WORKING")
            ]
        );
        assert_eq!(first.deliveries[0].protocol_version, ProtocolVersion::V0_3);
        assert_eq!(first.deliveries[1].protocol_version, ProtocolVersion::V1);
        // Leased: nothing more until they settle.
        assert_eq!(
            summary(&store.claim_deliveries(now, LEASE, 10).await.unwrap()),
            []
        );
        for d in &first.deliveries {
            assert!(
                store
                    .settle_delivery(d.id, d.lease, Settle::Complete)
                    .await
                    .unwrap()
            );
        }
        assert_eq!(
            drain(&store, now).await,
            [
                row("a", 2, "status TASK_STATE_WORKING"),
                row("b", 3, "status TASK_STATE_COMPLETED"),
                row("a", 3, "status TASK_STATE_COMPLETED"),
            ]
        );
        let status = store.push_status(&"t".into()).await.unwrap();
        assert_eq!(
            status
                .iter()
                .map(|s| (s.config_id.as_str(), s.delivered, s.deliveries.len()))
                .collect::<Vec<_>>(),
            [("a", 3, 0), ("b", 2, 0)]
        );
        assert_eq!(store.outbox_usage(), (0, 0));
    });
}

#[test]
fn retries_wait_for_their_time_and_a_lost_lease_is_claimed_again() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        add_config(&store, "t", "a", ProtocolVersion::V1).await;
        new_task(&store, "t").await;
        set_state(&store, "t", TaskState::Working).await;
        let t0 = SystemTime::now();
        let d = store
            .claim_deliveries(t0, LEASE, 1)
            .await
            .unwrap()
            .deliveries[0]
            .clone();
        assert_eq!(d.seq, 1);
        let later = t0 + Duration::from_secs(5);
        assert!(
            store
                .settle_delivery(
                    d.id,
                    d.lease,
                    Settle::Retry {
                        due: later,
                        error: "503 Service Unavailable".into()
                    }
                )
                .await
                .unwrap()
        );
        // Settled already: the same lease changes nothing more.
        assert!(
            !store
                .settle_delivery(d.id, d.lease, Settle::Complete)
                .await
                .unwrap()
        );
        let early = store.claim_deliveries(t0, LEASE, 10).await.unwrap();
        assert_eq!(summary(&early), []);
        assert_eq!(early.next_due, Some(later));
        let again = store.claim_deliveries(later, LEASE, 10).await.unwrap();
        let d2 = again.deliveries[0].clone();
        assert_eq!((d2.id, d2.seq, d2.attempts), (d.id, 1, 1));
        assert_eq!(d2.last_error.as_deref(), Some("503 Service Unavailable"));
        // Its worker dies: after the lease, another claims it; the old lease is void.
        let expired = later + LEASE;
        let d3 = store
            .claim_deliveries(expired, LEASE, 10)
            .await
            .unwrap()
            .deliveries[0]
            .clone();
        assert_eq!(d3.id, d.id);
        assert_ne!(d3.lease, d2.lease);
        assert!(
            !store
                .settle_delivery(d2.id, d2.lease, Settle::Complete)
                .await
                .unwrap()
        );
        // Released: due again without an attempt counted.
        assert!(
            store
                .settle_delivery(d3.id, d3.lease, Settle::Release { due: expired })
                .await
                .unwrap()
        );
        let d4 = store
            .claim_deliveries(expired, LEASE, 10)
            .await
            .unwrap()
            .deliveries[0]
            .clone();
        assert_eq!(d4.attempts, 1);
        assert!(
            store
                .settle_delivery(d4.id, d4.lease, Settle::Complete)
                .await
                .unwrap()
        );
        let next = store.claim_deliveries(expired, LEASE, 10).await.unwrap();
        assert_eq!(next.deliveries[0].seq, 2);
    });
}

#[test]
fn a_dead_delivery_is_recorded_and_its_queue_goes_on() {
    block_on(async {
        let store = InMemoryTaskStore::new()
            .with_outbox_limits(OutboxLimits::default().with_max_dead_per_config(1));
        add_config(&store, "t", "a", ProtocolVersion::V1).await;
        new_task(&store, "t").await;
        set_state(&store, "t", TaskState::Working).await;
        set_state(&store, "t", TaskState::Completed).await;
        let now = SystemTime::now();
        for error in ["404 Not Found", "410 Gone"] {
            let d = store
                .claim_deliveries(now, LEASE, 1)
                .await
                .unwrap()
                .deliveries[0]
                .clone();
            assert!(
                store
                    .settle_delivery(
                        d.id,
                        d.lease,
                        Settle::Kill {
                            error: error.into()
                        }
                    )
                    .await
                    .unwrap()
            );
        }
        let status = store.push_status(&"t".into()).await.unwrap();
        let mut expected = PushStatus::new("a");
        expected.last_error = Some("410 Gone".into());
        // Only the newest dead record is kept; the pending one follows.
        expected.deliveries = vec![
            DeliveryRecord {
                id: 1,
                seq: 2,
                state: DeliveryState::Dead,
                attempts: 1,
                last_error: Some("410 Gone".into()),
                due: None,
            },
            DeliveryRecord {
                id: 2,
                seq: 3,
                state: DeliveryState::Pending,
                attempts: 0,
                last_error: None,
                due: status[0].deliveries[1].due,
            },
        ];
        assert_eq!(status, [expected]);
    });
}

#[test]
fn deleting_a_config_drops_its_deliveries_and_an_evicted_task_keeps_them() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_max_tasks(1)
                .with_terminal_ttl(None),
        );
        add_config(&store, "t", "a", ProtocolVersion::V1).await;
        add_config(&store, "t", "b", ProtocolVersion::V1).await;
        new_task(&store, "t").await;
        set_state(&store, "t", TaskState::Completed).await;
        assert_eq!(store.outbox_usage().0, 4);
        assert!(store.delete_push_config(&"t".into(), "b").await.unwrap());
        assert_eq!(store.outbox_usage().0, 2);
        // A newer task pushes the ended one out; its deliveries still go.
        new_task(&store, "u").await;
        assert!(store.load(&"t".into()).await.unwrap().is_none());
        assert!(store.push_status(&"t".into()).await.unwrap().is_empty());
        assert_eq!(
            drain(&store, SystemTime::now()).await,
            [
                row("a", 1, "task TASK_STATE_SUBMITTED"),
                row("a", 2, "status TASK_STATE_COMPLETED")
            ]
        );
        assert_eq!(store.outbox_usage(), (0, 0));
    });
}

#[test]
fn the_outbox_bounds_drop_deliveries_and_say_so() {
    block_on(async {
        let probe =
            StreamResponse::Task(Task::new("t", "ctx", TaskStatus::new(TaskState::Submitted)));
        let one = delivery_bytes(&probe, &config("t", "a"));
        let store = InMemoryTaskStore::new().with_outbox_limits(
            OutboxLimits::default()
                .with_max_per_config(2)
                .with_max_total_bytes(one * 2),
        );
        add_config(&store, "t", "a", ProtocolVersion::V1).await;
        new_task(&store, "t").await;
        set_state(&store, "t", TaskState::Working).await;
        // The third event is over the per-config bound.
        set_state(&store, "t", TaskState::InputRequired).await;
        let status = store.push_status(&"t".into()).await.unwrap();
        assert_eq!((status[0].dropped, status[0].deliveries.len()), (1, 2));
        assert_eq!(
            status[0].last_error.as_deref(),
            Some(
                "the outbox holds 2 deliveries for push config `a` of task t, its limit \
                 (max_per_config): event 3 was dropped"
            )
        );
        // Another config of another task: the total bytes bound.
        add_config(&store, "u", "b", ProtocolVersion::V1).await;
        new_task(&store, "u").await;
        let status = store.push_status(&"u".into()).await.unwrap();
        assert_eq!(status[0].dropped, 1);
        let reason = status[0].last_error.clone().unwrap();
        assert!(
            reason.contains("(max_total_bytes) and was dropped for push config `b`"),
            "{reason}"
        );
        // The task went on regardless.
        let task = store.load(&"t".into()).await.unwrap().unwrap();
        assert_eq!(task.task.status.state, TaskState::InputRequired);
        // Room again once one is delivered.
        let d = store
            .claim_deliveries(SystemTime::now(), LEASE, 1)
            .await
            .unwrap()
            .deliveries[0]
            .clone();
        assert!(
            store
                .settle_delivery(d.id, d.lease, Settle::Complete)
                .await
                .unwrap()
        );
        set_state(&store, "u", TaskState::Working).await;
        let status = store.push_status(&"u".into()).await.unwrap();
        assert_eq!((status[0].dropped, status[0].deliveries.len()), (1, 1));
    });
}

#[test]
fn the_worker_is_woken_by_an_enqueue() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        add_config(&store, "t", "a", ProtocolVersion::V1).await;
        new_task(&store, "t").await;
        // The permit of the enqueue above: resolves at once (a day would fail the test).
        tokio::time::timeout(
            Duration::from_secs(60),
            store.wait_outbox(Duration::from_secs(86_400)),
        )
        .await
        .expect("woken by the enqueue")
        .unwrap();
    });
}
