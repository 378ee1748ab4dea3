//! `samekey registry`: the upkeep of a registry's storage. `gc` deletes the objects of the
//! data store that no revision names ([`crate::store::gc`]); `move-data` moves the data
//! of a registry that keeps it in its database into an object store while it serves
//! ([`crate::store::move_data`]).

use std::time::Duration;

use crate::store::objects::DataStore;
use crate::{BoxError, Db};

/// `samekey registry`.
#[derive(Debug, Clone, clap::Args)]
pub struct RegistryArgs {
    #[command(subcommand)]
    pub command: RegistryCommand,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum RegistryCommand {
    /// Delete the objects of the data store that no revision names, once older than a
    /// grace period.
    ///
    /// Example: samekey registry gc --database postgres://host/db --data-store s3://bucket/revisions
    Gc(GcArgs),
    /// Move revision data from the database into an object store while the registry
    /// serves: copy, verify by hash, name the object, then drop the database's copy.
    /// Resumable: a run after a kill carries on. Restart the registry with --data-store
    /// set to the same store first: it reads data still in its database from there, and
    /// moved data from the store.
    ///
    /// Example: samekey registry move-data --database postgres://host/db --to s3://bucket/revisions
    MoveData(MoveDataArgs),
}

/// `samekey registry gc`.
#[derive(Debug, Clone, clap::Args)]
pub struct GcArgs {
    /// The registry's database: sqlite:PATH or postgres://USER@HOST/DB.
    #[arg(long, env = "SAMEKEY_DATABASE_URL")]
    pub database: String,
    /// The registry's object store, s3://BUCKET/PREFIX (as `samekey serve --data-store`).
    #[arg(long, env = "SAMEKEY_DATA_STORE")]
    pub data_store: String,
    /// Objects written less than this long ago are kept (e.g. 60m): longer than any
    /// upload takes, since an upload older than it is no longer protected.
    #[arg(long, default_value = "60m", value_parser = crate::parse_duration)]
    pub grace: Duration,
}

/// `samekey registry move-data`.
#[derive(Debug, Clone, clap::Args)]
pub struct MoveDataArgs {
    /// The registry's database: sqlite:PATH or postgres://USER@HOST/DB.
    #[arg(long, env = "SAMEKEY_DATABASE_URL")]
    pub database: String,
    /// The object store to move the data to, s3://BUCKET/PREFIX (credentials and endpoint
    /// from the AWS_* variables, as `samekey serve --data-store`).
    #[arg(long, env = "SAMEKEY_DATA_STORE")]
    pub to: String,
    /// Data of at most this many bytes stays in the database (as `samekey serve
    /// --inline-limit`, whose default it shares).
    #[arg(long, default_value_t = 64 * 1024, value_parser = clap::value_parser!(u64).range(0..=16 << 20))]
    pub inline_limit: u64,
    /// How long reads that started before their data moved may go on reading the
    /// database's copy before it is dropped.
    #[arg(long, default_value = "60s", value_parser = crate::parse_duration)]
    pub drain: Duration,
}

/// Runs the command; what it prints at the end (progress goes to standard error).
pub async fn run(command: &RegistryCommand) -> Result<String, BoxError> {
    match command {
        RegistryCommand::Gc(args) => gc(args).await,
        RegistryCommand::MoveData(args) => move_data(args).await,
    }
}

async fn gc(args: &GcArgs) -> Result<String, BoxError> {
    let objects = DataStore::open(&args.data_store)?;
    let db = Db::connect(&args.database, 2).await?;
    let report = crate::store::gc::collect(&db, &objects, args.grace).await;
    db.close().await;
    let r = report?;
    Ok(format!(
        "{} objects: {} deleted, {} named by revisions, {} uploading or being deleted by another gc, {} younger than {:?}, {} not contents (left alone)\n",
        r.listed, r.deleted, r.named, r.busy, r.young, args.grace, r.foreign
    ))
}

async fn move_data(args: &MoveDataArgs) -> Result<String, BoxError> {
    let objects = DataStore::open(&args.to)?;
    objects.check().await?;
    let db = Db::connect(&args.database, 2).await?;
    let report = crate::store::move_data::move_data(
        &db,
        &objects,
        args.inline_limit,
        args.drain,
        |hash, size| eprintln!("moved {hash} ({size} bytes)"),
    )
    .await;
    db.close().await;
    let r = report?;
    Ok(format!(
        "{} contents moved to {} ({} bytes); {} database copies dropped; {} contents stay in the database (at most {} bytes each)\n",
        r.moved,
        args.to,
        r.bytes,
        r.dropped,
        r.inline,
        args.inline_limit
    ))
}
