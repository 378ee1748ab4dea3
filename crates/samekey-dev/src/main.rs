//! `cargo xtask`: every file the repository generates and every version it pins, written
//! or checked by one tool (the pattern of ruff's `generate-all --mode check`).
//!
//! ```text
//! cargo xtask generate-all                # write every generated file, check the pins
//! cargo xtask generate-all --mode check   # CI: fail on a stale file, saying what to run
//! cargo xtask generate <name> [--mode check]
//! cargo xtask kotlin-sources               # the uniffi Kotlin sources, into target/uniffi/kotlin
//! cargo xtask swift-release VERSION SUM    # the release commit's Package.swift
//! ```

mod c_header;
mod code_names;
mod docs_errors;
mod docs_errors_registry;
mod docs_http_api;
mod docs_http_examples;
mod generated;
mod go_errors;
mod process;
mod swift_errors;
mod swift_release;
mod ts_errors;
mod uniffi;
mod vectors;
mod versions;

use generated::{Generator, Mode};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Every generator, in the order `generate-all` runs them (cheap ones first).
const GENERATORS: &[Generator] = &[
    Generator {
        name: "versions",
        what: "one version for every package, generators pinned",
        run: versions::run,
    },
    Generator {
        name: "ts-errors",
        what: "the ErrorCode union of the TypeScript declarations",
        run: ts_errors::run,
    },
    Generator {
        name: "go-errors",
        what: "the Go package's error sentinels",
        run: go_errors::run,
    },
    Generator {
        name: "docs-errors",
        what: "the documentation's error-code table",
        run: docs_errors::run,
    },
    Generator {
        name: "docs-http-api",
        what: "the documentation's page of the registry's HTTP API",
        run: docs_http_api::run,
    },
    Generator {
        name: "c-header",
        what: "the C ABI's header (cbindgen)",
        run: c_header::run,
    },
    Generator {
        name: "vectors",
        what: "the shared test vectors, from the reference",
        run: vectors::run,
    },
    Generator {
        name: "swift-errors",
        what: "the Swift package's ErrorCode, from the core's codes",
        run: swift_errors::run,
    },
];

fn usage() -> String {
    let mut text = String::from(
        "usage: cargo xtask generate-all [--mode write|check]\n       cargo xtask generate <name> [--mode write|check]\n       cargo xtask kotlin-sources\n       cargo xtask swift-release <vX.Y.Z> <checksum>\n\ngenerators:\n",
    );
    for g in GENERATORS {
        text.push_str(&format!("  {:<10} {}\n", g.name, g.what));
    }
    text
}

fn root() -> PathBuf {
    // crates/samekey-dev -> the repository.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the crate sits two levels down")
        .to_path_buf()
}

fn parse_mode(args: &[String]) -> Result<Mode, String> {
    match args {
        [] => Ok(Mode::Write),
        [flag, mode] if flag == "--mode" => match mode.as_str() {
            "write" => Ok(Mode::Write),
            "check" => Ok(Mode::Check),
            other => Err(format!("unknown mode {other:?}: write or check")),
        },
        [flag] if flag == "--check" => Ok(Mode::Check),
        other => Err(format!("unexpected arguments {other:?}")),
    }
}

/// A command's failure is its message alone (not a usage error).
fn report(outcome: Result<(), String>) -> bool {
    outcome
        .map_err(|message| eprintln!("xtask: {message}"))
        .is_ok()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = root();
    let outcome = match args.split_first() {
        Some((cmd, rest)) if cmd == "generate-all" => {
            parse_mode(rest).map(|mode| generated::run_all(&root, GENERATORS, mode))
        }
        Some((cmd, rest)) if cmd == "generate" => match rest.split_first() {
            Some((name, rest)) => match GENERATORS.iter().find(|g| g.name == name) {
                Some(g) => parse_mode(rest)
                    .map(|mode| generated::run_all(&root, std::slice::from_ref(g), mode)),
                None => Err(format!("no generator named {name:?}")),
            },
            None => Err("generate needs a generator's name".into()),
        },
        Some((cmd, [])) if cmd == "kotlin-sources" => {
            Ok(report(uniffi::kotlin_sources(&root).map(|dir| {
                println!(
                    "xtask: wrote the uniffi Kotlin sources to {}",
                    dir.display()
                );
            })))
        }
        Some((cmd, [release, checksum])) if cmd == "swift-release" => {
            Ok(report(swift_release::run(&root, release, checksum)))
        }
        _ => Err(String::new()),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("xtask: {message}");
            }
            eprint!("{}", usage());
            ExitCode::from(2)
        }
    }
}
