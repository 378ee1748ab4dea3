//! The JVM's hot paths as hand-written JNI (feature `jni`), beside the uniffi exports in
//! the same library: one call per id, no JNA marshalling, no per-call allocation of the
//! Java objects uniffi's records need. The JVM side (bindings/kotlin, `Jni.kt`) passes
//! UTF-8 it encoded and checked itself, never `GetStringUTFChars` (modified UTF-8 would
//! change the key of text holding NUL or an astral character), and the two formats
//! `samekey_wire::jvm` describes.
//!
//! Every entry point is one call of [`entry::entry`] (its whole body inside: arguments,
//! work, results), which throws the JVM side's exception for a failure or a panic; JNI
//! calls go through [`env::Env`]'s typed conversions.

#![allow(non_snake_case)] // JNI's symbol names

mod entry;
mod env;
mod failure;
mod handle;
mod hooks;
mod parse;
mod ring;

use jni_sys::{
    jboolean, jbyteArray, jcharArray, jclass, jint, jintArray, jlong, jlongArray, jobject, JNIEnv,
};
use samekey::{ContentHash, ContentHasher, Scheme, UlidDeriver};

use entry::entry;
use env::Env;
use failure::{argument, Failure};
use hooks::{hook, Stage};

/// A prepared deriver (`Box<UlidDeriver>` as a handle).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_deriverNew(
    env: *mut JNIEnv,
    class: jclass,
    scheme: jbyteArray,
    namespace: jbyteArray,
    secret: jbyteArray,
) -> jlong {
    entry(env, class, 0, |env| {
        let scheme: Scheme = env.text(scheme, "the scheme")?.parse()?;
        let namespace = env.text(namespace, "the namespace")?;
        let secret = env.bytes(secret, "the secret")?;
        Ok(handle::make(UlidDeriver::new(
            scheme,
            &namespace,
            secret.as_deref(),
        )?))
    })
}

/// Frees a handle of `deriverNew` (once: the JVM side guarantees it).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_deriverFree(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
) {
    // SAFETY: a handle of deriverNew, freed once (the JVM side's Cleaner).
    entry(env, class, (), |_| unsafe {
        handle::free::<UlidDeriver>(handle)
    })
}

/// SAFETY: `handle` is a live handle of `deriverNew`.
unsafe fn deriver<'a>(handle: jlong) -> Result<&'a UlidDeriver, Failure> {
    handle::get(handle, "a closed deriver")
}

/// The address of a direct `ByteBuffer` (0 if it is not one): the JVM side's per-thread
/// frame, asked once when the buffer is made.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_address(
    env: *mut JNIEnv,
    class: jclass,
    buffer: jobject,
) -> jlong {
    entry(env, class, 0, |env| env.direct_address(buffer))
}

/// One id from a frame (`samekey_wire::jvm`) of `length` bytes at `address`, in the
/// calling thread's direct buffer, at `ms`; the id is written into the frame's first
/// bytes (its text when `text`, else its halves). Only primitives cross: no JNI call back
/// into the JVM unless it fails (pinning an array took two, each a thread-state
/// transition, a third of the call's time besides the hash).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_derive(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    ms: jlong,
    address: jlong,
    length: jint,
    text: jboolean,
) {
    entry(env, class, (), |_| {
        let deriver = unsafe { deriver(handle)? };
        let frame = unsafe { env::frame(address, length)? };
        samekey_wire::jvm::derive_frame(deriver, ms, frame, text != 0)?;
        hook(Stage::Results);
        Ok(())
    })
}

/// Rows a section of a batch: rows go through buffers this size, reused section after
/// section, so the copies stay in the cache and no allocation grows with the batch (the
/// whole-array copies and the rows' slices made five batch-sized allocations a call).
const SECTION_ROWS: usize = 1024;

/// `rows` rows of `width` fields (`samekey_wire::jvm`'s columns, UTF-16) at `times` into
/// `out`, an id's halves a row; the arrays may be longer (the JVM side reuses them). A
/// failing time throws its error, after the rows before it are written; a field holding
/// a lone surrogate is returned (its index in the columns, `c * rows + r`: the JVM side
/// names it), after the rows before its row are derived, as row by row; -1 once every row
/// is derived.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_deriveBatch(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    rows: jint,
    times: jlongArray,
    chars: jcharArray,
    ends: jintArray,
    width: jint,
    out: jlongArray,
) -> jint {
    entry(env, class, 0, |env| {
        let deriver = unsafe { deriver(handle)? };
        let (Ok(rows), Ok(width)) = (usize::try_from(rows), usize::try_from(width)) else {
            return Err(argument("a negative row count or width"));
        };
        let room = |array, len| env.length(array, "an array", false).map(|n| n >= len);
        let fits = room(times, rows)?
            && room(out, 2 * rows)?
            && rows.checked_mul(width).map(|n| room(ends, n)).transpose()? == Some(true);
        if !fits {
            return Err(argument(
                "arrays shorter than the rows: a time, width field ends and two output longs a row",
            ));
        }
        let units = env.length(chars, "the fields", true)?;
        let section = rows.min(SECTION_ROWS);
        let (mut ms, mut field_ends) = (vec![0i64; section], vec![0i32; section * width]);
        let (mut halves, mut scratch, mut text) = (vec![0i64; 2 * section], Vec::new(), Vec::new());
        for first in (0..rows).step_by(SECTION_ROWS) {
            let n = SECTION_ROWS.min(rows - first);
            let (ms, field_ends) = (&mut ms[..n], &mut field_ends[..n * width]);
            env.get_longs(times, first, ms)?;
            // The section's part of each column, one after another, as UTF-8: its own
            // columns, stopped at the first field that is not Unicode text.
            text.clear();
            let mut lone: Option<(usize, usize)> = None;
            for (c, column) in field_ends.chunks_exact_mut(n).enumerate() {
                let at = c * rows + first;
                let mut start = [0i32];
                if at > 0 {
                    env.get_ints(ends, at - 1, &mut start)?;
                }
                env.get_ints(ends, at, column)?;
                let (start, end) = (start[0], column[n - 1]);
                let range = usize::try_from(start)
                    .ok()
                    .zip(usize::try_from(end).ok())
                    .filter(|&(start, end)| start <= end && end <= units);
                let Some((start, end)) = range else {
                    return Err(samekey_wire::WireError::Malformed(
                        "field ends out of order or beyond the text",
                    )
                    .into());
                };
                scratch.resize(end - start, 0);
                env.get_chars(chars, start, &mut scratch)?;
                let lone_at = samekey_wire::jvm::utf8_column(&scratch, start, column, &mut text)?;
                if let Some(row) = lone_at {
                    // Row by row, the first row's first such field fails.
                    if lone.is_none_or(|(r, _)| row < r) {
                        lone = Some((row, c));
                    }
                }
            }
            let good = lone.map_or(n, |(row, _)| row);
            let halves = &mut halves[..2 * good];
            halves.fill(0);
            let derived = samekey_wire::jvm::derive_rows(
                deriver,
                &ms[..good],
                &text,
                field_ends,
                (n, width),
                halves,
            );
            env.put_longs(out, 2 * first, halves)?;
            derived?;
            if let Some((row, c)) = lone {
                return i32::try_from(c * rows + first + row)
                    .map_err(|_| argument("a field beyond a Java array"));
            }
        }
        Ok(-1)
    })
}

/// The content hash text of `data`, read a section at a time (`env::SECTION`).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_contentHash(
    env: *mut JNIEnv,
    class: jclass,
    scheme: jbyteArray,
    data: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let scheme: Scheme = env.text(scheme, "the scheme")?.parse()?;
        let mut hasher = ContentHasher::new(scheme)?;
        env.read_sections(data, None, |part| {
            hasher.update(part);
        })?;
        env.new_bytes(hasher.finalize().to_string().as_bytes())
    })
}

/// A streaming content hasher's handle.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_hasherNew(
    env: *mut JNIEnv,
    class: jclass,
    scheme: jbyteArray,
) -> jlong {
    entry(env, class, 0, |env| {
        let scheme: Scheme = env.text(scheme, "the scheme")?.parse()?;
        Ok(handle::make(ContentHasher::new(scheme)?))
    })
}

/// Feeds `chunk[..length]`.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_hasherUpdate(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    chunk: jbyteArray,
    length: jint,
) {
    entry(env, class, (), |env| {
        // SAFETY: a live handle of hasherNew, used by one thread (the JVM side's contract).
        let hasher = unsafe { (handle as *mut ContentHasher).as_mut() }
            .ok_or_else(|| argument("a finished hasher"))?;
        let length = usize::try_from(length).map_err(|_| argument("a negative length"))?;
        env.read_sections(chunk, Some(length), |part| {
            hasher.update(part);
        })
    })
}

/// The hash text of everything fed (null when not `finish`); frees the handle either way.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_hasherFinish(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    finish: jboolean,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        if handle == 0 {
            return Err(argument("a finished hasher"));
        }
        // SAFETY: made by Box::into_raw in hasherNew, freed once here.
        let hasher = unsafe { Box::from_raw(handle as *mut ContentHasher) };
        if finish == 0 {
            return Ok(std::ptr::null_mut());
        }
        env.new_bytes(hasher.finalize().to_string().as_bytes())
    })
}

/// The canonical form (RFC 8785) of JSON text, both UTF-8: the registry client's
/// per-registration call, a JNA round trip through uniffi before.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_canonicalJson(
    env: *mut JNIEnv,
    class: jclass,
    json: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let json = env.text(json, "the JSON text")?;
        env.new_bytes(samekey::canonicalize_json_text(&json)?.as_bytes())
    })
}

/// The revision key (spec §7) of a content hash on a parent (null: a root), under a
/// scheme (null: the content hash's own), keyed by a secret (null: none).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_revisionKey(
    env: *mut JNIEnv,
    class: jclass,
    scheme: jbyteArray,
    content_hash: jbyteArray,
    parent: jbyteArray,
    secret: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let (scheme, content, parent) = revision_args(env, scheme, content_hash, parent)?;
        let secret = env.bytes(secret, "the secret")?;
        let key = samekey::derive_revision(scheme, parent.as_deref(), &content, secret.as_deref())?;
        env.new_bytes(key.to_string().as_bytes())
    })
}

/// A revision's inputs as the JVM side passes them (revisionKey, revisionMessage): the
/// scheme (null: the content hash's own), the content hash, the parent (null: a root).
fn revision_args(
    env: &Env,
    scheme: jbyteArray,
    content_hash: jbyteArray,
    parent: jbyteArray,
) -> Result<(Scheme, ContentHash, Option<String>), Failure> {
    let scheme = env.optional_text(scheme, "the scheme")?;
    let content_hash = env.text(content_hash, "the content hash")?;
    let parent = env.optional_text(parent, "the parent")?;
    let (scheme, content) = samekey::host::revision_inputs(&content_hash, scheme.as_deref())?;
    Ok((scheme, content, parent))
}

/// The content hash text of JSON text's canonical form: the guards' per-document call
/// (81 µs through uniffi's JNA layer).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_contentHashJson(
    env: *mut JNIEnv,
    class: jclass,
    scheme: jbyteArray,
    json: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let scheme: Scheme = env.text(scheme, "the scheme")?.parse()?;
        let json = env.text(json, "the JSON text")?;
        let (_, hash) = samekey::content_hash_json_text(scheme, &json)?;
        env.new_bytes(hash.to_string().as_bytes())
    })
}

/// Whether incoming content must be written over stored content (null: nothing stored).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_needsWrite(
    env: *mut JNIEnv,
    class: jclass,
    stored: jbyteArray,
    incoming: jbyteArray,
) -> jboolean {
    entry(env, class, 0, |env| {
        let stored = env.optional_text(stored, "the stored hash")?;
        let incoming = env.text(incoming, "the incoming hash")?;
        let write = samekey::host::needs_write(stored.as_deref(), &incoming)?;
        Ok(jboolean::from(write))
    })
}

/// The exact bytes hashed for a revision key (null scheme: the content hash's own).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_revisionMessage(
    env: *mut JNIEnv,
    class: jclass,
    scheme: jbyteArray,
    content_hash: jbyteArray,
    parent: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let (scheme, content, parent) = revision_args(env, scheme, content_hash, parent)?;
        let message = samekey::revision_message(scheme, parent.as_deref(), &content)?;
        env.new_bytes(&message)
    })
}

/// The exact bytes hashed for an id of a frame's fields (`samekey_wire::jvm`): what a
/// mismatch between implementations is debugged with.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ulidMessage(
    env: *mut JNIEnv,
    class: jclass,
    scheme: jbyteArray,
    namespace: jbyteArray,
    address: jlong,
    length: jint,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let scheme: Scheme = env.text(scheme, "the scheme")?.parse()?;
        let namespace = env.text(namespace, "the namespace")?;
        let frame = unsafe { env::frame(address, length)? };
        let message = samekey_wire::jvm::with_frame_fields(frame, |fields| {
            Ok(samekey::ulid_message(scheme, &namespace, fields)?)
        })?;
        env.new_bytes(&message)
    })
}

/// The version of the core inside this library.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_version(
    env: *mut JNIEnv,
    class: jclass,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        env.new_bytes(samekey::VERSION.as_bytes())
    })
}

/// Arms a panic at a stage of this thread's next entry point that passes it (1: its
/// first step, 2: an argument's conversion, 3: inside a pinned section, 4: a result's
/// write; 0 disarms): the tests' proof that no stage of any entry point is outside
/// [`entry::entry`]. Costs the other calls one relaxed load once armed, none before.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_panicAt(
    env: *mut JNIEnv,
    class: jclass,
    stage: jint,
) {
    entry(env, class, (), |_| {
        hooks::arm(stage);
        Ok(())
    })
}

/// Tests only: whether arrays are read by copies of a section (`GetByteArrayRegion`), as
/// on a JVM whose critical sections copy, instead of in place.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_copySections(
    env: *mut JNIEnv,
    class: jclass,
    on: jboolean,
) {
    entry(env, class, (), |_| {
        hooks::set_copy_sections(on != 0);
        Ok(())
    })
}
