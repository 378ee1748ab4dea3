//! The `samekey` command.

mod checksums;
mod commands;
mod error;
mod hashing;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use samekey::Scheme;

/// Deterministic ULIDs, content hashes and revision keys, identical in every language.
#[derive(Parser, Debug)]
#[command(name = "samekey", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Derive the deterministic ULID of identity fields at a time.
    ///
    /// Example: samekey ulid --time 2024-05-01T12:00:00Z --namespace posts hello-world en
    Ulid(UlidArgs),
    /// Hash files or standard input: `sha256:<hex>  name` (v1) or `blake3:<hex>  name` (v2)
    /// lines, as sha256sum and b3sum print them; --check verifies such a list.
    ///
    /// Example: samekey hash *.tar > SUMS && samekey hash --check SUMS
    Hash(HashArgs),
    /// Derive the revision key of content on a parent revision.
    Revision(RevisionArgs),
    /// Check that an id was derived from these inputs under an accepted scheme.
    ///
    /// Prints the matching scheme and exits 0, or exits 1 with identity_mismatch: the
    /// guard that refuses a write which would orphan the document stored under the id.
    Verify(VerifyArgs),
    /// Add a deterministic id and a content hash to every JSONL record.
    Batch(BatchArgs),
    /// Run a test-vector file through the core and print "N passed, M failed".
    Vectors(VectorsArgs),
    /// Serve the revision registry over HTTP (SQLite file by default, or PostgreSQL).
    ///
    /// Example: samekey serve --database sqlite:registry.db --listen 127.0.0.1:8080
    #[cfg(feature = "serve")]
    Serve(Box<samekey_registry::ServeArgs>),
    /// Where a registry's change of scheme stands, and its database steps (require, retire).
    ///
    /// Example: samekey schemes --database sqlite:registry.db require v2
    #[cfg(feature = "serve")]
    Schemes(samekey_registry::SchemesArgs),
    /// A registry's storage: gc of its object store, and its data moved into one.
    ///
    /// Example: samekey registry move-data --database sqlite:registry.db --to s3://bucket/revisions
    #[cfg(feature = "serve")]
    Registry(samekey_registry::RegistryArgs),
}

#[derive(Args, Debug)]
pub struct TimeArgs {
    /// The immutable natural time, as RFC 3339 text with an offset (e.g. publishedAt).
    #[arg(long, conflicts_with = "ms", required_unless_present = "ms")]
    pub time: Option<String>,
    /// The time as integer milliseconds since the Unix epoch (not seconds: a value that
    /// reads as seconds gets a warning).
    #[arg(long, allow_hyphen_values = true)]
    pub ms: Option<String>,
}

#[derive(Args, Debug)]
pub struct KeyArgs {
    /// v0 (legacy sha256(f1:f2..)), v1 (SHA-256) or v2 (BLAKE3).
    #[arg(long, default_value = "v1", value_parser = parse_scheme)]
    pub scheme: Scheme,
    #[command(flatten)]
    pub secret: SecretArgs,
}

#[derive(Args, Debug)]
pub struct SecretArgs {
    /// Read the secret for a keyed derivation from this file (its exact bytes; a
    /// trailing newline is part of the secret, so write it with printf, not echo).
    #[arg(long, value_name = "FILE")]
    pub secret_file: Option<std::path::PathBuf>,
}

/// What identifies a document: its namespace and identity fields.
#[derive(Args, Debug)]
pub struct IdentityArgs {
    /// Namespace separating id spaces (e.g. a collection name).
    #[arg(long, default_value = "")]
    pub namespace: String,
    /// Read each field as hex-encoded bytes instead of text.
    #[arg(long)]
    pub hex: bool,
    /// The identity fields, in order (e.g. slug lang).
    #[arg(required = true, num_args = 1..)]
    pub fields: Vec<String>,
}

#[derive(Args, Debug)]
pub struct UlidArgs {
    #[command(flatten)]
    pub time: TimeArgs,
    #[command(flatten)]
    pub key: KeyArgs,
    #[command(flatten)]
    pub identity: IdentityArgs,
    /// Print the id as a UUID string instead of ULID text.
    #[arg(long, conflicts_with = "json")]
    pub uuid: bool,
    /// Print a JSON object with the ULID, UUID, timestamp and hashed message.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct HashArgs {
    /// The files to hash, each on its line; standard input when none is given, or for "-".
    pub files: Vec<std::path::PathBuf>,
    /// v1 (SHA-256, as sha256sum) or v2 (BLAKE3, as b3sum).
    #[arg(long, default_value = "v1", value_parser = parse_content_scheme)]
    pub scheme: Scheme,
    /// Print each digest alone, without the file name.
    #[arg(long)]
    pub no_names: bool,
    /// Verify the `digest  name` lines of LIST ("-": standard input), each under the
    /// scheme its digest names; prints "name: OK" or "name: FAILED" and exits 1 if any
    /// file differs, cannot be read, or a line is malformed.
    #[arg(long, value_name = "LIST", conflicts_with_all = ["files", "json", "no_names"])]
    pub check: Option<std::path::PathBuf>,
    /// Hash the RFC 8785 canonical form of the JSON input instead of its bytes.
    #[arg(long)]
    pub json: bool,
    /// Print the canonical JSON too (with --json).
    #[arg(long, requires = "json")]
    pub print_canonical: bool,
    /// Never draw a progress bar (one is drawn on a terminal for inputs over 64 MiB).
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Args, Debug)]
pub struct RevisionArgs {
    /// v1 (SHA-256) or v2 (BLAKE3); revision keys have no v0.
    #[arg(long, default_value = "v1", value_parser = parse_content_scheme)]
    pub scheme: Scheme,
    #[command(flatten)]
    pub secret: SecretArgs,
    /// The parent revision; absent for a root revision.
    #[arg(long)]
    pub parent: Option<String>,
    /// The content hash of the data (sha256:... for v1, blake3:... for v2).
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    pub content_hash: Option<String>,
    /// Hash this file with the scheme instead of passing --content-hash.
    #[arg(long)]
    pub file: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The id to check (ULID text).
    pub id: String,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Accepted schemes, newest first (e.g. v2,v1,v0).
    #[arg(long, value_delimiter = ',', default_value = "v1", value_parser = parse_scheme)]
    pub accept: Vec<Scheme>,
    #[command(flatten)]
    pub secret: SecretArgs,
    #[command(flatten)]
    pub identity: IdentityArgs,
}

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// JSONL input; standard input when absent or "-".
    pub input: Option<std::path::PathBuf>,
    /// Identity members, comma-separated, in order (e.g. slug,lang).
    #[arg(long, value_delimiter = ',', required = true)]
    pub fields: Vec<String>,
    /// Member holding the time: RFC 3339 text or integer milliseconds.
    #[arg(long)]
    pub time_field: String,
    #[command(flatten)]
    pub key: KeyArgs,
    #[arg(long, default_value = "")]
    pub namespace: String,
    /// Member the id is written to; a record that already has it must match.
    #[arg(long, default_value = "_id")]
    pub id_field: String,
    /// Member the content hash is written to.
    #[arg(long, default_value = "contentHash")]
    pub hash_field: String,
    /// Scheme of the content hash; defaults to the id scheme (v1 for v0 ids).
    #[arg(long, value_parser = parse_scheme)]
    pub content_scheme: Option<Scheme>,
    /// Report every bad record and go on, instead of stopping at the first.
    #[arg(long)]
    pub keep_going: bool,
    /// Threads keying records (the output keeps the input's order; about 8 MiB of
    /// buffers each); default: one per core.
    #[arg(long, value_name = "N")]
    pub threads: Option<std::num::NonZeroUsize>,
    /// Never draw a progress bar (one is drawn when standard error is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Args, Debug)]
pub struct VectorsArgs {
    /// The vector file (test-vectors/samekey.json).
    pub file: std::path::PathBuf,
    /// Print every failing vector with what was expected.
    #[arg(long, short)]
    pub verbose: bool,
}

fn parse_scheme(s: &str) -> Result<Scheme, String> {
    s.parse().map_err(|e: samekey::Error| e.to_string())
}

/// A scheme that hashes content and keys revisions: v0 makes ULIDs only.
fn parse_content_scheme(s: &str) -> Result<Scheme, String> {
    let scheme = parse_scheme(s)?;
    scheme
        .require_hashing("content hashes and revision keys")
        .map_err(|e| e.to_string())?;
    Ok(scheme)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Text arguments are UTF-8 in every binding: the same code as theirs, not clap's.
        Err(e) if e.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            let e = error::CliError::from(samekey::Error::InvalidString(None));
            eprintln!("samekey: {e}");
            return e.exit_code();
        }
        Err(e) => e.exit(),
    };
    match commands::run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("samekey: {e}");
            e.exit_code()
        }
    }
}
