//! `samekey hash` with the manners of `sha256sum` and `b3sum`: `digest  name` lines for
//! many inputs (`-` is standard input), and `--check LIST` to verify such lines.

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use samekey::{content_hash_json_text, ContentHash, Scheme};

use crate::error::{CliError, Result};
use crate::hashing::hash_stream;
use crate::HashArgs;

const STDIN: &str = "-";

pub fn hash(a: HashArgs) -> Result<ExitCode> {
    if let Some(list) = &a.check {
        return check(list, !a.no_progress);
    }
    let inputs = if a.files.is_empty() {
        vec![PathBuf::from(STDIN)]
    } else {
        a.files.clone()
    };
    for input in &inputs {
        let hash = if a.json {
            json_hash(a.scheme, input, a.print_canonical)?
        } else {
            hash_stream(a.scheme, &Some(input.clone()), !a.no_progress)?
        };
        if a.no_names {
            println!("{hash}");
        } else {
            println!("{}", line(&hash.to_string(), input));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn json_hash(scheme: Scheme, input: &Path, print_canonical: bool) -> Result<ContentHash> {
    let mut bytes = Vec::new();
    let read = if input.as_os_str() == STDIN {
        io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(input).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| CliError::io(input, e))?;
    // Not UTF-8 is invalid_string, with the offset of the first bad byte (spec §6.1).
    let text = samekey::text::from_utf8(&bytes)?;
    let (canonical, hash) = content_hash_json_text(scheme, text)?;
    if print_canonical {
        println!("{canonical}");
    }
    Ok(hash)
}

/// `digest  name`, escaped as GNU coreutils does: a name holding a backslash or a newline
/// has them written `\\` and `\n`, and the line starts with `\`.
fn line(digest: &str, name: &Path) -> String {
    let name = name.to_string_lossy();
    if name.contains(['\\', '\n']) {
        format!(
            "\\{digest}  {}",
            name.replace('\\', "\\\\").replace('\n', "\\n")
        )
    } else {
        format!("{digest}  {name}")
    }
}

/// A line of a checksum list: the expected hash and the file's name.
fn parse_line(text: &str) -> Option<(ContentHash, PathBuf)> {
    let (escaped, text) = match text.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (digest, name) = text.split_once("  ")?;
    let name = if escaped {
        unescape(name)?
    } else {
        name.to_owned()
    };
    Some((digest.parse().ok()?, PathBuf::from(name)))
}

fn unescape(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next()? {
                '\\' => out.push('\\'),
                'n' => out.push('\n'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Checks every `digest  name` line of `list` (`-`: standard input) under the scheme its
/// digest names; prints `name: OK` or `name: FAILED` and a summary; exit 1 on any failure.
fn check(list: &Path, progress: bool) -> Result<ExitCode> {
    let reader: Box<dyn BufRead> = if list.as_os_str() == STDIN {
        Box::new(BufReader::new(io::stdin().lock()))
    } else {
        Box::new(BufReader::new(
            std::fs::File::open(list).map_err(|e| CliError::io(list, e))?,
        ))
    };
    let (mut checked, mut mismatched, mut unreadable, mut malformed) =
        (0usize, 0usize, 0usize, 0usize);
    for (number, text) in reader.lines().enumerate() {
        let text = text.map_err(|e| CliError::io(list, e))?;
        if text.trim().is_empty() {
            continue;
        }
        let Some((want, name)) = parse_line(&text) else {
            malformed += 1;
            eprintln!(
                "samekey: {}:{}: not a `digest  name` line of sha256:<hex> or blake3:<hex>",
                list.display(),
                number + 1
            );
            continue;
        };
        checked += 1;
        match hash_stream(want.scheme(), &Some(name.clone()), progress) {
            Ok(got) if got == want => println!("{}: OK", name.display()),
            Ok(_) => {
                mismatched += 1;
                println!("{}: FAILED", name.display());
            }
            Err(e) => {
                unreadable += 1;
                eprintln!("samekey: {e}");
                println!("{}: FAILED open or read", name.display());
            }
        }
    }
    let plural = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    if malformed > 0 {
        eprintln!(
            "samekey: WARNING: {malformed} {} improperly formatted",
            plural(malformed, "line is", "lines are")
        );
    }
    if unreadable > 0 {
        eprintln!(
            "samekey: WARNING: {unreadable} listed {} could not be read",
            plural(unreadable, "file", "files")
        );
    }
    if mismatched > 0 {
        eprintln!(
            "samekey: WARNING: {mismatched} computed {} did NOT match",
            plural(mismatched, "checksum", "checksums")
        );
    }
    let ok = checked > 0 && mismatched == 0 && unreadable == 0 && malformed == 0;
    if checked == 0 {
        eprintln!(
            "samekey: {}: no properly formatted checksum lines found",
            list.display()
        );
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_names_with_newlines_and_backslashes() {
        let h = samekey::content_hash(Scheme::V1, b"x").unwrap();
        for name in ["plain.txt", "two  spaces", "back\\slash", "new\nline"] {
            let text = line(&h.to_string(), Path::new(name));
            assert!(!text.contains('\n'), "{text:?}");
            assert_eq!(parse_line(&text), Some((h, PathBuf::from(name))));
        }
        assert_eq!(parse_line("sha256:00  x"), None);
        assert_eq!(parse_line(&format!("{h} x")), None);
    }
}
