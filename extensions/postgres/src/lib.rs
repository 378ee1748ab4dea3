//! samekey for PostgreSQL: the ids, content hashes and revision keys of the samekey core,
//! derived in SQL, byte for byte as every other binding derives them.
//!
//! A binding like the others: it converts PostgreSQL's types and raises the core's errors
//! (with their stable codes) as PostgreSQL errors; every rule stays in `crates/samekey`.
//! Every function is `IMMUTABLE PARALLEL SAFE`, so it can define a generated column or
//! an index and run in a parallel plan.

use pgrx::prelude::*;

mod errors;
mod hashes;
mod ids;
mod ids_ms;
mod keys;
mod time;

::pgrx::pg_module_magic!(name, version);

/// The core library's version, for checking which samekey a database runs.
#[pg_extern(immutable, parallel_safe)]
fn samekey_version() -> &'static str {
    samekey::VERSION
}
