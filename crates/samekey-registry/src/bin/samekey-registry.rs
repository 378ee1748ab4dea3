//! The registry alone (`samekey serve` is the same server inside the samekey CLI).

use clap::Parser;

#[derive(Parser)]
#[command(
    version,
    about = "The samekey revision registry: idempotent registration over HTTP"
)]
struct Cli {
    #[command(flatten)]
    serve: samekey_registry::ServeArgs,
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    if let Err(e) = samekey_registry::serve(cli.serve).await {
        eprintln!("samekey-registry: {e}");
        std::process::exit(1);
    }
}
