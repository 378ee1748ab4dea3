//! The registry alone (`samekey serve` is the same server inside the samekey CLI), with
//! the upkeep of its storage (`samekey registry gc|move-data` in the CLI) as subcommands,
//! so that a host that runs only this binary can run them too.

use clap::Parser;

#[derive(Parser)]
#[command(
    version,
    about = "The samekey revision registry: idempotent registration over HTTP",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<samekey_registry::maintenance::RegistryCommand>,
    #[command(flatten)]
    serve: samekey_registry::ServeArgs,
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let done = match cli.command {
        Some(command) => samekey_registry::maintenance::run(&command)
            .await
            .map(|out| print!("{out}")),
        None => samekey_registry::serve(cli.serve).await,
    };
    if let Err(e) = done {
        eprintln!("samekey-registry: {e}");
        std::process::exit(1);
    }
}
