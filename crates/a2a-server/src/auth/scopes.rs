//! The scopes each operation needs.

use std::collections::{BTreeMap, BTreeSet};

use a2a_jsonrpc::A2aError;
use a2a_types::protocol::Operation;

use super::Principal;

/// The scopes each operation needs: a caller without every scope of its operation is refused
/// with 403 (`PermissionDenied`; gRPC `PERMISSION_DENIED`). Operations without an entry need
/// none. Empty by default: authentication alone decides.
///
/// An anonymous caller (the authenticator accepted it without a principal) holds no scopes,
/// so an operation that needs one is refused to it with 401.
///
/// ```
/// use a2a_server::auth::{OperationScopes, Principal};
/// use a2a_types::protocol::Operation;
///
/// let scopes = OperationScopes::read_write("tasks:read", "tasks:write");
/// let reader = Principal::new("r").with_scopes(["tasks:read"]);
/// assert!(scopes.check(Operation::GetTask, Some(&reader)).is_ok());
/// let refused = scopes.check(Operation::SendMessage, Some(&reader)).unwrap_err();
/// assert_eq!(refused.message(), "permission denied: SendMessage needs the scope `tasks:write`");
/// assert_eq!(refused.http_status(), 403);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OperationScopes {
    needed: BTreeMap<Operation, BTreeSet<String>>,
}

impl OperationScopes {
    /// No scopes needed anywhere.
    pub fn new() -> Self {
        Self::default()
    }

    /// The usual split: `read` for the operations that only read (GetTask, ListTasks,
    /// SubscribeToTask, GetTaskPushNotificationConfig, ListTaskPushNotificationConfigs),
    /// `write` for those that start or change something (SendMessage,
    /// SendStreamingMessage, CancelTask, CreateTaskPushNotificationConfig,
    /// DeleteTaskPushNotificationConfig). GetExtendedAgentCard needs none.
    pub fn read_write(read: &str, write: &str) -> Self {
        let mut scopes = Self::new();
        for op in Operation::ALL {
            match op {
                Operation::GetTask
                | Operation::ListTasks
                | Operation::SubscribeToTask
                | Operation::GetTaskPushNotificationConfig
                | Operation::ListTaskPushNotificationConfigs => {
                    scopes = scopes.require(op, [read]);
                }
                Operation::GetExtendedAgentCard => {}
                _ => scopes = scopes.require(op, [write]),
            }
        }
        scopes
    }

    /// Adds scopes the operation needs.
    #[must_use]
    pub fn require<I, S>(mut self, operation: Operation, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.needed
            .entry(operation)
            .or_default()
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// The scopes the operation needs.
    pub fn needed(&self, operation: Operation) -> impl Iterator<Item = &str> {
        self.needed
            .get(&operation)
            .into_iter()
            .flatten()
            .map(String::as_str)
    }

    /// Whether no operation needs a scope.
    pub fn is_empty(&self) -> bool {
        self.needed.values().all(BTreeSet::is_empty)
    }

    /// Checks that the caller holds every scope the operation needs.
    ///
    /// # Errors
    ///
    /// [`A2aError::permission_denied`] naming the first missing scope;
    /// [`A2aError::unauthenticated`] for an anonymous caller when a scope is needed.
    pub fn check(
        &self,
        operation: Operation,
        principal: Option<&Principal>,
    ) -> Result<(), A2aError> {
        let Some(needed) = self.needed.get(&operation) else {
            return Ok(());
        };
        let Some(missing) = needed
            .iter()
            .find(|scope| !principal.is_some_and(|p| p.has_scope(scope)))
        else {
            return Ok(());
        };
        let name = operation.method();
        match principal {
            None => Err(A2aError::unauthenticated(format!(
                "{name} needs the scope `{missing}`, and the call has no credentials"
            ))),
            Some(_) => Err(A2aError::permission_denied(format!(
                "{name} needs the scope `{missing}`"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_callers_lack_every_scope() {
        let scopes = OperationScopes::new().require(Operation::ListTasks, ["tasks:read"]);
        let error = scopes.check(Operation::ListTasks, None).unwrap_err();
        assert_eq!(
            error.message(),
            "unauthenticated: ListTasks needs the scope `tasks:read`, and the call has no credentials"
        );
        assert_eq!(error.http_status(), 401);
        assert!(scopes.check(Operation::GetTask, None).is_ok());
        assert!(!scopes.is_empty());
        assert!(OperationScopes::new().is_empty());
        assert_eq!(
            scopes.needed(Operation::ListTasks).collect::<Vec<_>>(),
            ["tasks:read"]
        );
    }
}
