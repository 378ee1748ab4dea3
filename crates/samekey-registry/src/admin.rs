//! `samekey schemes`: where a change of scheme stands in a registry's database, and the
//! rollout's two database steps (see [`crate::store::schemes`]). `samekey gc`: objects of
//! the data store that no revision names, deleted (see [`crate::store::gc`]).

use samekey::Scheme;

use crate::store::schemes;
use crate::Db;

/// `samekey schemes`.
#[derive(Debug, Clone, clap::Args)]
pub struct SchemesArgs {
    /// The registry's database: sqlite:PATH or postgres://USER@HOST/DB.
    #[arg(long, env = "SAMEKEY_DATABASE_URL")]
    pub database: String,
    #[command(subcommand)]
    pub action: SchemesAction,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum SchemesAction {
    /// Each scheme's state, the revisions created under it and those recorded under it.
    Status,
    /// Record SCHEME's key of every revision that lacks it, then require it of every writer
    /// (run once every writer's ring has SCHEME: the expand step).
    Require { scheme: Scheme },
    /// Record nothing new under SCHEME again (run once no writer's ring has it: after the
    /// switch). Another scheme must be required.
    Retire { scheme: Scheme },
}

/// Runs the action; what it prints.
pub async fn run(args: &SchemesArgs) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let db = Db::connect(&args.database, 2).await?;
    let result = act(&db, &args.action).await;
    db.close().await;
    result
}

async fn act(
    db: &Db,
    action: &SchemesAction,
) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let mut out = String::new();
    match action {
        SchemesAction::Status => {}
        SchemesAction::Require { scheme } => {
            let done = schemes::require(db, *scheme).await?;
            out += &format!(
                "{scheme} is required: {} revisions got their {scheme} key{}\n",
                done.recorded,
                if done.twins > 0 {
                    format!(
                        ", {} are twins of earlier ones (marked twin_of)",
                        done.twins
                    )
                } else {
                    String::new()
                }
            );
        }
        SchemesAction::Retire { scheme } => {
            schemes::retire(db, *scheme).await?;
            out += &format!("{scheme} is retired: no new revision is recorded under it\n");
        }
    }
    out += "scheme  state     created  recorded\n";
    for (scheme, state, created, recorded) in schemes::status(db).await? {
        out += &format!(
            "{:<7} {:<9} {created:>7}  {recorded:>8}\n",
            scheme.as_str(),
            state.as_str()
        );
    }
    Ok(out)
}

/// `samekey gc`.
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
    pub grace: std::time::Duration,
}

/// One gc pass; what it prints.
pub async fn gc(args: &GcArgs) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let objects = crate::store::objects::DataStore::open(&args.data_store)?;
    let db = Db::connect(&args.database, 2).await?;
    let report = crate::store::gc::collect(&db, &objects, args.grace).await;
    db.close().await;
    let r = report?;
    Ok(format!(
        "{} objects: {} deleted, {} named by revisions, {} uploading or being deleted by another gc, {} younger than {:?}, {} not contents (left alone)\n",
        r.listed, r.deleted, r.named, r.busy, r.young, args.grace, r.foreign
    ))
}
