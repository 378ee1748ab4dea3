//! `samekey schemes`: where a change of scheme stands in a registry's database, and the
//! rollout's two database steps (see [`crate::store::schemes`]).

use samekey::Scheme;

use crate::store::objects::DataStore;
use crate::store::schemes;
use crate::Db;

/// `samekey schemes`.
#[derive(Debug, Clone, clap::Args)]
pub struct SchemesArgs {
    /// The registry's database: sqlite:PATH or postgres://USER@HOST/DB.
    #[arg(long, env = "SAMEKEY_DATABASE_URL")]
    pub database: String,
    /// The registry's data store, as `samekey serve --data-store`: `require` hashes the
    /// data of every revision, and reads it from there where it is not in the database.
    #[arg(long, env = "SAMEKEY_DATA_STORE", default_value = "database")]
    pub data_store: String,
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
    let objects = match args.data_store.as_str() {
        "database" => None,
        url => Some(DataStore::open(url)?),
    };
    let db = Db::connect(&args.database, 2).await?;
    let result = act(&db, objects.as_ref(), &args.action).await;
    db.close().await;
    result
}

async fn act(
    db: &Db,
    objects: Option<&DataStore>,
    action: &SchemesAction,
) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let mut out = String::new();
    match action {
        SchemesAction::Status => {}
        SchemesAction::Require { scheme } => {
            let done = schemes::require(db, *scheme, objects).await?;
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
