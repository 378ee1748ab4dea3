//! What each subcommand does; parsing is in main.rs, behaviour in the core.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use samekey::timestamp::Millis;
use samekey::{derive_revision, ulid_message, KeyRing, Scheme, Ulid, UlidDeriver};
use samekey_cli::batch::{self, BatchConfig};

use crate::error::{CliError, Result};
use crate::hashing::hash_stream;
use crate::{
    BatchArgs, Command, IdentityArgs, RevisionArgs, SecretArgs, TimeArgs, UlidArgs, VectorsArgs,
    VerifyArgs,
};

pub fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Ulid(a) => ulid(a),
        Command::Hash(a) => return crate::checksums::hash(a),
        Command::Revision(a) => revision(a),
        Command::Verify(a) => verify(a),
        Command::Batch(a) => run_batch(a),
        Command::Vectors(a) => run_vectors(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve(*a),
        #[cfg(feature = "serve")]
        Command::Schemes(a) => schemes(a),
        #[cfg(feature = "serve")]
        Command::Registry(a) => registry(a),
    }
    .map(|()| ExitCode::SUCCESS)
}

#[cfg(feature = "serve")]
fn serve(args: samekey_registry::ServeArgs) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| CliError::io(std::path::Path::new("tokio runtime"), e))?;
    runtime
        .block_on(samekey_registry::serve(args))
        .map_err(|e| CliError {
            code: "serve_failed",
            message: e.to_string(),
            exit: 1,
        })
}

#[cfg(feature = "serve")]
fn schemes(args: samekey_registry::SchemesArgs) -> Result<()> {
    admin(samekey_registry::admin::run(&args), "schemes_failed")
}

#[cfg(feature = "serve")]
fn registry(args: samekey_registry::RegistryArgs) -> Result<()> {
    let code = match args.command {
        samekey_registry::maintenance::RegistryCommand::Gc(_) => "gc_failed",
        samekey_registry::maintenance::RegistryCommand::MoveData(_) => "move_data_failed",
    };
    admin(samekey_registry::maintenance::run(&args.command), code)
}

/// Runs a registry administration command and prints what it says.
#[cfg(feature = "serve")]
fn admin(
    run: impl std::future::Future<Output = std::result::Result<String, samekey_registry::BoxError>>,
    code: &'static str,
) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| CliError::io(std::path::Path::new("tokio runtime"), e))?;
    let out = runtime.block_on(run).map_err(|e| CliError {
        code,
        message: e.to_string(),
        exit: 1,
    })?;
    print!("{out}");
    Ok(())
}

/// The id is valid, so a time that looks like seconds is a warning (samekey::host).
fn warn_if_seconds(ms: u64) {
    if let Some(warning) = samekey::host::seconds_warning(ms) {
        eprintln!("samekey: warning: --ms: {warning}");
    }
}

/// The time argument, converted but not range-checked: text that is no RFC 3339 time fails
/// here, first; the range is checked in spec §4.4's place ([`Millis::check_for`]).
fn timestamp(t: &TimeArgs) -> Result<Millis> {
    match (&t.time, &t.ms) {
        (Some(text), _) => Ok(samekey::timestamp::rfc3339_millis(text)?),
        (None, Some(text)) => {
            let ms = Millis::parse_integer(text)?;
            if let Ok(ms) = u64::try_from(ms.as_i128()) {
                warn_if_seconds(ms);
            }
            Ok(ms)
        }
        (None, None) => unreachable!("clap requires --time or --ms"),
    }
}

fn read_secret(args: &SecretArgs) -> Result<Option<Vec<u8>>> {
    args.secret_file
        .as_ref()
        .map(|p| std::fs::read(p).map_err(|e| CliError::io(p, e)))
        .transpose()
}

fn field_bytes(identity: &IdentityArgs) -> Result<Vec<Vec<u8>>> {
    identity
        .fields
        .iter()
        .map(|f| {
            if !identity.hex {
                return Ok(f.as_bytes().to_vec());
            }
            let bad = || CliError {
                code: "invalid_hex",
                message: format!("field {f:?} is not hex"),
                exit: 2,
            };
            if f.len() % 2 != 0 {
                return Err(bad());
            }
            (0..f.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&f[i..i + 2], 16).map_err(|_| bad()))
                .collect()
        })
        .collect()
}

fn ulid(a: UlidArgs) -> Result<()> {
    let t = timestamp(&a.time)?;
    let secret = read_secret(&a.key.secret)?;
    let ns = &a.identity.namespace;
    let deriver = UlidDeriver::new(a.key.scheme, ns, secret.as_deref())?;
    let t = t.check()?;
    let fields = field_bytes(&a.identity)?;
    let id = deriver.derive(t, &fields)?;
    if a.json {
        let message = ulid_message(a.key.scheme, ns, &fields)?;
        let out = serde_json::json!({
            "ulid": id.to_string(),
            "uuid": id.to_uuid_string(),
            "timestamp_ms": t,
            "scheme": a.key.scheme.as_str(),
            "message_hex": message.iter().map(|b| format!("{b:02x}")).collect::<String>(),
        });
        println!("{out}");
    } else if a.uuid {
        println!("{}", id.to_uuid_string());
    } else {
        println!("{id}");
    }
    Ok(())
}

/// The input, its name for messages, and its length when it is a regular file.
type Input = (Box<dyn Read + Send>, PathBuf, Option<u64>);

fn open_input(path: &Option<PathBuf>) -> Result<Input> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let f = File::open(p).map_err(|e| CliError::io(p, e))?;
            let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            Ok((Box::new(f), p.clone(), len))
        }
        _ => Ok((Box::new(io::stdin()), PathBuf::from("<stdin>"), None)),
    }
}

fn revision(a: RevisionArgs) -> Result<()> {
    let secret = read_secret(&a.secret)?;
    let content = match (&a.content_hash, &a.file) {
        (Some(text), _) => text.parse()?,
        (None, file) => hash_stream(a.scheme, file, true)?,
    };
    let key = derive_revision(a.scheme, a.parent.as_deref(), &content, secret.as_deref())?;
    println!("{key}");
    Ok(())
}

fn verify(a: VerifyArgs) -> Result<()> {
    // The ring, the host's conversions, the id, then the derivation's checks (spec §9.2).
    let ring = KeyRing::from_accept(&a.accept)?;
    let t = timestamp(&a.time)?;
    let secret = read_secret(&a.secret)?;
    let fields = field_bytes(&a.identity)?;
    let id: Ulid = a.id.parse()?;
    let ns = &a.identity.namespace;
    let t = t.check_for(ring.primary(), ns, secret.as_deref())?;
    let scheme = ring.verify_ulid(&id, t, ns, &fields, secret.as_deref())?;
    println!("{scheme}");
    Ok(())
}

fn run_batch(a: BatchArgs) -> Result<()> {
    let config = BatchConfig {
        scheme: a.key.scheme,
        namespace: a.namespace,
        secret: read_secret(&a.key.secret)?,
        id_fields: a.fields,
        time_field: a.time_field,
        id_output: a.id_field,
        hash_output: a.hash_field,
        content_scheme: a.content_scheme.unwrap_or(match a.key.scheme {
            Scheme::V0 => Scheme::V1,
            s => s,
        }),
    };
    let (reader, name, len) = open_input(&a.input)?;
    let threads = a
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .unwrap_or(std::num::NonZeroUsize::MIN);
    let progress = BatchProgress::new(len, !a.no_progress && io::stderr().is_terminal());
    let stdout = io::stdout().lock();
    let options = batch::RunOptions {
        keep_going: a.keep_going,
        threads,
        progress: &progress,
    };
    let summary = batch::run(
        &config,
        reader,
        io::BufWriter::with_capacity(1 << 20, stdout),
        options,
        |e| {
            progress
                .bar
                .suspend(|| eprintln!("samekey: {}: {e}", name.display()));
        },
    );
    progress.bar.finish_and_clear();
    let summary = summary?;
    if summary.failed > 0 {
        return Err(CliError {
            code: "invalid_record",
            message: format!(
                "{} record(s) written, {} failed",
                summary.written, summary.failed
            ),
            exit: 65,
        });
    }
    Ok(())
}

/// `samekey batch`'s progress on a terminal: bytes of a file, lines of a pipe.
struct BatchProgress {
    bar: ProgressBar,
    bytes: bool,
}

impl BatchProgress {
    fn new(len: Option<u64>, enabled: bool) -> Self {
        if !enabled {
            return BatchProgress {
                bar: ProgressBar::hidden(),
                bytes: false,
            };
        }
        let (bar, template) = match len {
            Some(n) => (
                ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            ),
            None => (
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
                "{spinner} {human_pos} lines {per_sec} {elapsed}",
            ),
        };
        bar.set_style(
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        BatchProgress {
            bar,
            bytes: len.is_some(),
        }
    }
}

impl batch::Progress for BatchProgress {
    fn advance(&self, bytes: u64, lines: u64) {
        self.bar.inc(if self.bytes { bytes } else { lines });
    }
}

fn run_vectors(a: VectorsArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.file).map_err(|e| CliError::io(&a.file, e))?;
    let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| CliError {
        code: "invalid_json",
        message: format!("{}: {e}", a.file.display()),
        exit: 65,
    })?;
    let outcomes = samekey_vectors::run_document(&doc).map_err(|m| CliError {
        code: "invalid_vectors",
        message: m,
        exit: 65,
    })?;
    let failed: Vec<_> = outcomes.iter().filter(|o| !o.passed).collect();
    let mut out = io::stdout().lock();
    for o in &failed {
        if a.verbose {
            let _ = writeln!(out, "FAIL {}: {}", o.id, o.detail);
        } else {
            let _ = writeln!(out, "FAIL {}", o.id);
        }
    }
    let _ = writeln!(
        out,
        "{} passed, {} failed",
        outcomes.len() - failed.len(),
        failed.len()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CliError {
            code: "vectors_failed",
            message: format!("{} vector(s) failed", failed.len()),
            exit: 1,
        })
    }
}
