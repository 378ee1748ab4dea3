//! Chunks of whole lines, keyed on worker threads, written in input order.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use samekey::Error;

use super::{BatchConfig, BatchSummary, Keyer, LineError, Scratch};

/// Bytes of input a worker takes at a time (whole lines: a chunk grows to the end of a
/// longer line). Large enough that handing chunks between threads costs nothing
/// measurable, small enough that output starts at once and memory stays bounded.
const CHUNK: usize = 1 << 20;

/// What the caller sees of the work as it is written out.
pub trait Progress {
    /// `bytes` more of the input and `lines` more lines are done.
    fn advance(&self, bytes: u64, lines: u64);
}

impl Progress for () {
    fn advance(&self, _: u64, _: u64) {}
}

pub struct RunOptions<'p> {
    /// Report every bad record and go on, instead of stopping at the first.
    pub keep_going: bool,
    /// Worker threads; one keys the chunks on the calling thread.
    pub threads: NonZeroUsize,
    pub progress: &'p dyn Progress,
}

/// A chunk of input: whole lines, and its place in the input.
struct Chunk {
    seq: u64,
    data: Vec<u8>,
}

/// A chunk keyed: its output lines, its bad lines, and whether it stopped at one.
struct Keyed {
    seq: u64,
    out: Vec<u8>,
    /// Bytes of input and lines the output covers (up to a stop, if it stopped).
    bytes: u64,
    lines: u64,
    written: u64,
    errors: Vec<LineError>,
    stopped: bool,
}

/// Streams records from `input` to `output`, one line each, in order. Stops at the first
/// bad record unless `keep_going`, in which case every bad record is reported to
/// `on_error`; stops quietly when the output's reader has gone.
pub fn run(
    config: &BatchConfig,
    input: impl Read + Send,
    mut output: impl Write,
    options: RunOptions<'_>,
    mut on_error: impl FnMut(&LineError),
) -> Result<BatchSummary, Error> {
    let keyer = Keyer::new(config.clone())?;
    let mut summary = BatchSummary::default();
    // Lines before the chunk being written: its errors' line numbers are relative.
    let mut lines_before = 0;
    let mut write = |mut keyed: Keyed| -> Result<bool, Error> {
        match output.write_all(&keyed.out) {
            Ok(()) => {}
            Err(e) if reader_gone(&e) => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        options.progress.advance(keyed.bytes, keyed.lines);
        summary.written += keyed.written;
        summary.failed += keyed.errors.len() as u64;
        for e in &mut keyed.errors {
            e.line += lines_before;
            on_error(e);
        }
        lines_before += keyed.lines;
        Ok(!keyed.stopped)
    };
    let keep_going = options.keep_going;
    if options.threads.get() == 1 {
        let mut chunks = Chunks::new(input);
        let mut scratch = Scratch::default();
        while let Some(chunk) = chunks.next_chunk()? {
            if !write(key_chunk(&keyer, chunk, keep_going, &mut scratch))? {
                break;
            }
        }
    } else {
        parallel(&keyer, input, options.threads, keep_going, &mut write)?;
    }
    match output.flush() {
        Err(e) if !reader_gone(&e) => Err(e.into()),
        _ => Ok(summary),
    }
}

/// One reader thread cuts chunks, `threads` workers key them, and the calling thread
/// writes them in order. Every channel is bounded, so memory is too; a stop (a bad
/// record, a reader gone) drops the receivers, which ends the other threads.
fn parallel(
    keyer: &Keyer,
    input: impl Read + Send,
    threads: NonZeroUsize,
    keep_going: bool,
    write: &mut dyn FnMut(Keyed) -> Result<bool, Error>,
) -> Result<(), Error> {
    let n = threads.get();
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let (chunk_tx, chunk_rx) = sync_channel::<Chunk>(n * 2);
        let (keyed_tx, keyed_rx) = sync_channel::<Keyed>(n * 2);
        let chunk_rx = Arc::new(Mutex::new(chunk_rx));
        let reader = s.spawn(|| read_chunks(input, chunk_tx, &stop));
        for _ in 0..n {
            let (rx, tx) = (Arc::clone(&chunk_rx), keyed_tx.clone());
            s.spawn(move || work(keyer, &rx, &tx, keep_going));
        }
        drop((keyed_tx, chunk_rx));
        let written = write_in_order(&keyed_rx, write);
        stop.store(true, Ordering::Relaxed);
        drop(keyed_rx);
        let read = reader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        written.and(read)
    })
}

fn read_chunks(input: impl Read, tx: SyncSender<Chunk>, stop: &AtomicBool) -> Result<(), Error> {
    let mut chunks = Chunks::new(input);
    while !stop.load(Ordering::Relaxed) {
        let Some(chunk) = chunks.next_chunk()? else {
            break;
        };
        if tx.send(chunk).is_err() {
            break;
        }
    }
    Ok(())
}

fn work(keyer: &Keyer, rx: &Mutex<Receiver<Chunk>>, tx: &SyncSender<Keyed>, keep_going: bool) {
    let mut scratch = Scratch::default();
    loop {
        // The lock is held only to take a chunk, not while keying it.
        let chunk = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(chunk) = chunk else { return };
        if tx
            .send(key_chunk(keyer, chunk, keep_going, &mut scratch))
            .is_err()
        {
            return;
        }
    }
}

fn write_in_order(
    rx: &Receiver<Keyed>,
    write: &mut dyn FnMut(Keyed) -> Result<bool, Error>,
) -> Result<(), Error> {
    let mut next = 0;
    let mut waiting = BTreeMap::new();
    for keyed in rx {
        waiting.insert(keyed.seq, keyed);
        while let Some(keyed) = waiting.remove(&next) {
            next += 1;
            if !write(keyed)? {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Keys every line of a chunk; a chunk that meets a bad line stops there unless
/// `keep_going`. Errors carry line numbers within the chunk, made global by the writer.
fn key_chunk(keyer: &Keyer, chunk: Chunk, keep_going: bool, scratch: &mut Scratch) -> Keyed {
    let data = &chunk.data;
    let mut keyed = Keyed {
        seq: chunk.seq,
        out: Vec::with_capacity(data.len() + data.len() / 2),
        bytes: 0,
        lines: 0,
        written: 0,
        errors: Vec::new(),
        stopped: false,
    };
    let mut start = 0;
    while start < data.len() {
        let end = memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |i| start + i + 1);
        let raw = &data[start..end];
        start = end;
        keyed.bytes += raw.len() as u64;
        keyed.lines += 1;
        let line = raw.strip_suffix(b"\n").unwrap_or(raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let result = match std::str::from_utf8(line) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => {
                let at = keyed.out.len();
                let r = keyer.key_line(text, scratch, &mut keyed.out);
                if r.is_err() {
                    keyed.out.truncate(at);
                }
                r
            }
            Err(_) => Err(("invalid_string", "the line is not valid UTF-8".into())),
        };
        match result {
            Ok(()) => {
                keyed.out.push(b'\n');
                keyed.written += 1;
            }
            Err((code, message)) => {
                keyed.errors.push(LineError {
                    line: keyed.lines,
                    code,
                    message,
                });
                if !keep_going {
                    keyed.stopped = true;
                    return keyed;
                }
            }
        }
    }
    keyed
}

/// Cuts input into chunks of whole lines (the last one may lack its newline).
struct Chunks<R> {
    input: R,
    /// Bytes read past the last whole line, which start the next chunk.
    carry: Vec<u8>,
    seq: u64,
    done: bool,
}

impl<R: Read> Chunks<R> {
    fn new(input: R) -> Self {
        Chunks {
            input,
            carry: Vec::new(),
            seq: 0,
            done: false,
        }
    }

    fn next_chunk(&mut self) -> Result<Option<Chunk>, Error> {
        if self.done && self.carry.is_empty() {
            return Ok(None);
        }
        let mut data = std::mem::take(&mut self.carry);
        data.reserve(CHUNK + CHUNK / 8);
        let mut end = None;
        while !self.done {
            let filled = data.len();
            if filled >= CHUNK {
                end = memchr::memrchr(b'\n', &data).map(|i| i + 1);
                if end.is_some() {
                    break;
                }
            }
            // Into the spare capacity: no zeroing of a buffer the read overwrites.
            let want = (filled.max(CHUNK) + CHUNK / 8 - filled) as u64;
            let n = (&mut self.input).take(want).read_to_end(&mut data)?;
            self.done = (n as u64) < want;
        }
        let end = end.unwrap_or(data.len());
        self.carry = data.split_off(end);
        let chunk = Chunk {
            seq: self.seq,
            data,
        };
        self.seq += 1;
        Ok((!chunk.data.is_empty()).then_some(chunk))
    }
}

/// The reader of the output went away (`samekey batch ... | head -1`): a filter stops
/// there quietly, with what it wrote, rather than failing with a broken pipe.
fn reader_gone(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
}
