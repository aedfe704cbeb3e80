//! The errors an operation answers with: [`A2aError`], the A2A error catalogue shared with the
//! client (defined in `a2a-jsonrpc`), and how store failures map onto it.

pub use a2a_jsonrpc::A2aError;

impl From<crate::store::StoreError> for A2aError {
    fn from(err: crate::store::StoreError) -> Self {
        A2aError::internal(err)
    }
}
