//! What a generator gives back (files, or a check's findings) and how the two modes treat it.

use std::fs;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Write every stale file.
    Write,
    /// Write nothing; a stale file is a failure that names the command to run.
    Check,
}

/// A generator: its name on the command line, what it makes, and the code that makes it.
pub struct Generator {
    pub name: &'static str,
    pub what: &'static str,
    pub run: fn(&Path, Mode) -> Result<Output, String>,
}

/// A generator's result: the files it made (compared with the tree here, not by the
/// generator), or the problems a check-only generator found.
pub enum Output {
    Files(Vec<File>),
    /// Consistency checks that write nothing: empty when everything holds.
    Findings {
        problems: Vec<String>,
        summary: String,
    },
    /// A generator that compared and wrote by itself (the reference's own --check).
    Done {
        fresh: bool,
        summary: String,
    },
}

/// One generated file: its path under the repository and its full contents.
pub struct File {
    pub path: PathBuf,
    pub contents: String,
}

/// Runs the generators in order; true when every file is fresh (after writing, in write
/// mode) and every check holds.
pub fn run_all(root: &Path, generators: &[Generator], mode: Mode) -> bool {
    let mut ok = true;
    for g in generators {
        let fix = if generators.len() == 1 {
            format!("cargo xtask generate {}", g.name)
        } else {
            "cargo xtask generate-all".into()
        };
        match (g.run)(root, mode) {
            Err(message) => {
                eprintln!("xtask {}: failed: {message}", g.name);
                ok = false;
            }
            Ok(Output::Findings { problems, summary }) => {
                if problems.is_empty() {
                    println!("xtask {}: {summary}", g.name);
                }
                for p in &problems {
                    eprintln!("xtask {}: {p}", g.name);
                }
                ok &= problems.is_empty();
            }
            Ok(Output::Done { fresh, summary }) => {
                if fresh {
                    println!("xtask {}: {summary}", g.name);
                } else {
                    eprintln!("xtask {}: stale; run `{fix}`", g.name);
                }
                ok &= fresh;
            }
            Ok(Output::Files(files)) => ok &= compare(root, g.name, &files, mode, &fix),
        }
    }
    ok
}

fn compare(root: &Path, name: &str, files: &[File], mode: Mode, fix: &str) -> bool {
    let mut ok = true;
    for file in files {
        let full = root.join(&file.path);
        let current = fs::read_to_string(&full).ok();
        if current.as_deref() == Some(file.contents.as_str()) {
            println!("xtask {name}: {} is fresh", file.path.display());
            continue;
        }
        match mode {
            Mode::Write => match fs::write(&full, &file.contents) {
                Ok(()) => println!("xtask {name}: wrote {}", file.path.display()),
                Err(e) => {
                    eprintln!("xtask {name}: cannot write {}: {e}", full.display());
                    ok = false;
                }
            },
            Mode::Check => {
                eprintln!(
                    "xtask {name}: {} is stale; run `{fix}`",
                    file.path.display()
                );
                if let Some(current) = current {
                    eprint!("{}", first_difference(&current, &file.contents));
                }
                ok = false;
            }
        }
    }
    ok
}

/// The first line that differs, committed then generated: enough to see why.
fn first_difference(current: &str, fresh: &str) -> String {
    let (mut a, mut b) = (current.lines(), fresh.lines());
    for n in 1.. {
        match (a.next(), b.next()) {
            (None, None) => return "  (they differ only in line endings)\n".into(),
            (x, y) if x == y => continue,
            (x, y) => {
                return format!(
                    "  line {n}:\n  - {}\n  + {}\n",
                    x.unwrap_or("(end of file)"),
                    y.unwrap_or("(end of file)")
                );
            }
        }
    }
    unreachable!()
}
