//! The push outbox of the in-memory store: one queue of deliveries per (task, push
//! configuration), and a schedule of the queues whose oldest delivery can next be claimed.
//! Everything here runs under the store's lock; the contract is in the
//! [module docs](super#the-push-outbox).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{StreamResponse, TaskId, TaskPushNotificationConfig};

use super::{
    Claimed, Delivery, DeliveryRecord, DeliveryState, OutboxLimits, PushStatus, Settle,
    delivery_bytes,
};

/// The longest error text kept per delivery and configuration.
const MAX_ERROR_TEXT: usize = 1024;

/// A push configuration as deliveries use it: shared by the configuration's entry and every
/// delivery enqueued while it stood.
#[derive(Debug)]
pub(super) struct Target {
    pub(super) config: TaskPushNotificationConfig,
    pub(super) protocol_version: ProtocolVersion,
}

impl Target {
    fn id(&self) -> &str {
        self.config.id.as_deref().unwrap_or_default()
    }
}

type QueueKey = (TaskId, String);

/// When a queue's oldest delivery can next be claimed, and that delivery's id.
type Slot = (SystemTime, u64);

#[derive(Debug, Default)]
pub(super) struct Outbox {
    limits: OutboxLimits,
    next_id: u64,
    next_lease: u64,
    queues: HashMap<QueueKey, Queue>,
    /// Every queue with a delivery waiting, by when its oldest one can next be claimed.
    schedule: BTreeMap<Slot, QueueKey>,
    /// The queue of each waiting delivery.
    index: HashMap<u64, QueueKey>,
    /// Deliveries waiting, and their bytes.
    waiting: usize,
    bytes: u64,
}

#[derive(Debug, Default)]
struct Queue {
    items: VecDeque<Item>,
    bytes: u64,
    /// The oldest delivery's lease: its token and when it runs out.
    lease: Option<(u64, SystemTime)>,
    /// Its entry in the schedule, while it has items.
    slot: Option<Slot>,
    delivered: u64,
    dropped: u64,
    last_error: Option<String>,
    dead: VecDeque<DeliveryRecord>,
    /// Its configuration is gone with its task: the queue goes once it drained.
    orphan: bool,
}

#[derive(Debug)]
struct Item {
    id: u64,
    seq: u64,
    event: StreamResponse,
    target: Arc<Target>,
    attempts: u32,
    due: SystemTime,
    bytes: u64,
    last_error: Option<String>,
}

fn cut(text: String) -> String {
    a2a_types::text::truncated(text, MAX_ERROR_TEXT, " ...")
}

impl Outbox {
    pub(super) fn set_limits(&mut self, limits: OutboxLimits) {
        self.limits = limits;
    }

    /// Deliveries waiting, and their bytes.
    pub(super) fn usage(&self) -> (usize, u64) {
        (self.waiting, self.bytes)
    }

    /// Enqueues `event` (sequence number `seq` of `task_id`) for each target; true when one
    /// was enqueued.
    pub(super) fn enqueue(
        &mut self,
        task_id: &TaskId,
        seq: u64,
        event: &StreamResponse,
        targets: &[Arc<Target>],
        now: SystemTime,
    ) -> bool {
        let mut enqueued = false;
        for target in targets {
            let bytes = delivery_bytes(event, &target.config);
            let key = (task_id.clone(), target.id().to_owned());
            let limits = self.limits;
            let (waiting, total_bytes) = (self.waiting, self.bytes);
            let queue = self.queues.entry(key.clone()).or_default();
            let refusal = if queue.items.len() >= limits.max_per_config {
                Some(format!(
                    "the outbox holds {} deliveries for push config `{}` of task {task_id}, its \
                     limit (max_per_config): event {seq} was dropped",
                    queue.items.len(),
                    target.id()
                ))
            } else if queue.bytes.saturating_add(bytes) > limits.max_bytes_per_config {
                Some(format!(
                    "the outbox holds {} bytes for push config `{}` of task {task_id}; event \
                     {seq} ({bytes} bytes) would take it over its limit of {} bytes \
                     (max_bytes_per_config) and was dropped",
                    queue.bytes,
                    target.id(),
                    limits.max_bytes_per_config
                ))
            } else if waiting >= limits.max_total {
                Some(format!(
                    "the outbox holds {waiting} deliveries, its limit (max_total): event {seq} \
                     of task {task_id} was dropped for push config `{}`",
                    target.id()
                ))
            } else if total_bytes.saturating_add(bytes) > limits.max_total_bytes {
                Some(format!(
                    "the outbox holds {total_bytes} bytes; event {seq} of task {task_id} \
                     ({bytes} bytes) would take it over its limit of {} bytes \
                     (max_total_bytes) and was dropped for push config `{}`",
                    limits.max_total_bytes,
                    target.id()
                ))
            } else {
                None
            };
            if let Some(reason) = refusal {
                tracing::warn!(task.id = %task_id, config.id = target.id(), %reason, "push delivery dropped");
                queue.dropped += 1;
                queue.last_error = Some(reason);
                continue;
            }
            let id = self.next_id;
            self.next_id += 1;
            queue.items.push_back(Item {
                id,
                seq,
                event: event.clone(),
                target: target.clone(),
                attempts: 0,
                due: now,
                bytes,
                last_error: None,
            });
            queue.bytes += bytes;
            if queue.slot.is_none() {
                queue.slot = Some((now, id));
                self.schedule.insert((now, id), key.clone());
            }
            self.index.insert(id, key);
            self.waiting += 1;
            self.bytes += bytes;
            enqueued = true;
        }
        enqueued
    }

    pub(super) fn claim(&mut self, now: SystemTime, lease: Duration, limit: usize) -> Claimed {
        let until = now.checked_add(lease).unwrap_or(now);
        let mut deliveries = Vec::new();
        while deliveries.len() < limit {
            let Some(entry) = self.schedule.first_entry() else {
                break;
            };
            if entry.key().0 > now {
                break;
            }
            let key = entry.remove();
            let Some(queue) = self.queues.get_mut(&key) else {
                continue;
            };
            let Some(item) = queue.items.front() else {
                queue.slot = None;
                continue;
            };
            self.next_lease += 1;
            let token = self.next_lease;
            queue.lease = Some((token, until));
            queue.slot = Some((until, item.id));
            self.schedule.insert((until, item.id), key);
            deliveries.push(Delivery {
                id: item.id,
                lease: token,
                task_id: item.target.config.task_id.clone().unwrap_or_default(),
                seq: item.seq,
                event: item.event.clone(),
                config: item.target.config.clone(),
                protocol_version: item.target.protocol_version,
                attempts: item.attempts,
                last_error: item.last_error.clone(),
            });
        }
        Claimed {
            deliveries,
            next_due: self.schedule.first_key_value().map(|(slot, _)| slot.0),
        }
    }

    /// Settles delivery `id` under `lease`; false when that is not its current claim.
    pub(super) fn settle(&mut self, id: u64, lease: u64, how: Settle) -> bool {
        let Some(key) = self.index.get(&id).cloned() else {
            return false;
        };
        let max_dead = self.limits.max_dead_per_config;
        let Some(queue) = self.queues.get_mut(&key) else {
            return false;
        };
        let current = queue.items.front().is_some_and(|item| item.id == id)
            && queue.lease.is_some_and(|(token, _)| token == lease);
        if !current {
            return false;
        }
        queue.lease = None;
        if let Some(slot) = queue.slot.take() {
            self.schedule.remove(&slot);
        }
        let head = queue.items.front_mut().expect("checked above");
        let done = match how {
            Settle::Complete => {
                queue.delivered += 1;
                true
            }
            Settle::Retry { due, error } => {
                let error = cut(error);
                head.attempts = head.attempts.saturating_add(1);
                head.due = due;
                head.last_error = Some(error.clone());
                queue.last_error = Some(error);
                false
            }
            Settle::Release { due } => {
                head.due = due;
                false
            }
            Settle::Kill { error } => {
                let error = cut(error);
                head.attempts = head.attempts.saturating_add(1);
                queue.dead.push_back(DeliveryRecord {
                    id: head.id,
                    seq: head.seq,
                    state: DeliveryState::Dead,
                    attempts: head.attempts,
                    last_error: Some(error.clone()),
                    due: None,
                });
                while queue.dead.len() > max_dead {
                    queue.dead.pop_front();
                }
                queue.last_error = Some(error);
                true
            }
        };
        if done {
            let item = queue.items.pop_front().expect("checked above");
            queue.bytes -= item.bytes;
            self.waiting -= 1;
            self.bytes -= item.bytes;
            self.index.remove(&id);
        }
        match queue.items.front() {
            Some(next) => {
                let slot = (next.due, next.id);
                queue.slot = Some(slot);
                self.schedule.insert(slot, key);
            }
            None if queue.orphan => {
                self.queues.remove(&key);
            }
            None => {}
        }
        true
    }

    /// Drops a configuration's queue: its waiting deliveries and its status.
    pub(super) fn remove(&mut self, task_id: &TaskId, config_id: &str) {
        let key = (task_id.clone(), config_id.to_owned());
        if let Some(queue) = self.queues.remove(&key) {
            self.drop_queue(queue);
        }
    }

    fn drop_queue(&mut self, queue: Queue) {
        if let Some(slot) = queue.slot {
            self.schedule.remove(&slot);
        }
        for item in queue.items {
            self.index.remove(&item.id);
            self.waiting -= 1;
            self.bytes -= item.bytes;
        }
    }

    /// The task of these configurations is gone: their queues go once drained.
    pub(super) fn orphan(&mut self, task_id: &TaskId, targets: &[Arc<Target>]) {
        for target in targets {
            let key = (task_id.clone(), target.id().to_owned());
            let Some(queue) = self.queues.get_mut(&key) else {
                continue;
            };
            if queue.items.is_empty() {
                self.queues.remove(&key);
            } else {
                queue.orphan = true;
            }
        }
    }

    /// The status of each of the task's configurations, in the order given.
    pub(super) fn status(
        &self,
        task_id: &TaskId,
        targets: &[Arc<Target>],
        now: SystemTime,
    ) -> Vec<PushStatus> {
        targets
            .iter()
            .map(|target| {
                let mut status = PushStatus::new(target.id());
                let key = (task_id.clone(), target.id().to_owned());
                if let Some(queue) = self.queues.get(&key) {
                    status.delivered = queue.delivered;
                    status.dropped = queue.dropped;
                    status.last_error.clone_from(&queue.last_error);
                    status.deliveries.extend(queue.dead.iter().cloned());
                    for (i, item) in queue.items.iter().enumerate() {
                        let lease = queue.lease.filter(|(_, until)| i == 0 && *until > now);
                        status.deliveries.push(DeliveryRecord {
                            id: item.id,
                            seq: item.seq,
                            state: if lease.is_some() {
                                DeliveryState::InFlight
                            } else {
                                DeliveryState::Pending
                            },
                            attempts: item.attempts,
                            last_error: item.last_error.clone(),
                            due: Some(lease.map_or(item.due, |(_, until)| until)),
                        });
                    }
                }
                status
            })
            .collect()
    }
}
