//! The error of a store operation that speaks to both the database and the object store.

use super::objects::ObjectError;

/// Which of the two systems failed, and how.
#[derive(Debug)]
pub enum StoreError {
    Database(sqlx::Error),
    Objects(ObjectError),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Database(e) => write!(f, "the database: {e}"),
            StoreError::Objects(e) => write!(f, "the object store: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Database(e)
    }
}

impl From<ObjectError> for StoreError {
    fn from(e: ObjectError) -> Self {
        StoreError::Objects(e)
    }
}
