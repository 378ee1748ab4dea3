//! The JVM's hot paths as hand-written JNI (feature `jni`), beside the uniffi exports in
//! the same library: one call per id, no JNA marshalling, no per-call allocation of the
//! Java objects uniffi's records need. The JVM side (bindings/kotlin, `Jni.kt`) passes
//! UTF-8 it encoded and checked itself, never `GetStringUTFChars` (modified UTF-8 would
//! change the key of text holding NUL or an astral character).
//!
//! Every function returns a status and leaves a failure in a thread-local slot that
//! `lastError` hands over; no panic unwinds into the JVM.

#![allow(non_snake_case)] // JNI's symbol names

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use jni_sys::{
    jboolean, jbyteArray, jclass, jint, jintArray, jlong, jlongArray, jobject, JNIEnv, JNI_FALSE,
    JNI_TRUE,
};
use samekey::timestamp::Millis;
use samekey::{ContentHasher, Scheme, Ulid, UlidDeriver};

/// A failure the JVM side turns into its exception: a core error code (`samekey::Error`'s
/// codes) and message, "invalid_argument" for arrays that break the call's contract (a
/// bug of the JVM side), or "panic".
struct Failure {
    code: &'static str,
    message: String,
}

impl From<samekey::Error> for Failure {
    fn from(e: samekey::Error) -> Self {
        Failure {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

fn argument(message: &str) -> Failure {
    Failure {
        code: "invalid_argument",
        message: message.into(),
    }
}

thread_local! {
    static LAST: RefCell<Option<Failure>> = const { RefCell::new(None) };
}

/// Runs `body`; a failure or a panic is left for `lastError` and `fallback` returned.
fn guarded<T>(fallback: T, body: impl FnOnce() -> Result<T, Failure>) -> T {
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => return value,
        Ok(Err(failure)) => failure,
        Err(_) => Failure {
            code: "panic",
            message: "samekey panicked; this is a bug".into(),
        },
    };
    LAST.with(|last| *last.borrow_mut() = Some(failure));
    fallback
}

/// The JNI function table: every entry is filled by a JVM (JNI 1.2+).
unsafe fn table(env: *mut JNIEnv) -> &'static jni_sys::JNINativeInterface_ {
    &**env
}

unsafe fn len(env: *mut JNIEnv, array: jni_sys::jarray) -> usize {
    if array.is_null() {
        return 0;
    }
    (table(env).GetArrayLength.unwrap_unchecked())(env, array) as usize
}

/// A Java `byte[]` copied out (`None` for null).
unsafe fn bytes(env: *mut JNIEnv, array: jbyteArray) -> Option<Vec<u8>> {
    if array.is_null() {
        return None;
    }
    let mut out = vec![0u8; len(env, array)];
    (table(env).GetByteArrayRegion.unwrap_unchecked())(
        env,
        array,
        0,
        out.len() as i32,
        out.as_mut_ptr().cast(),
    );
    Some(out)
}

unsafe fn ints(env: *mut JNIEnv, array: jintArray) -> Vec<i32> {
    let mut out = vec![0i32; len(env, array)];
    if !out.is_empty() {
        (table(env).GetIntArrayRegion.unwrap_unchecked())(
            env,
            array,
            0,
            out.len() as i32,
            out.as_mut_ptr(),
        );
    }
    out
}

unsafe fn longs(env: *mut JNIEnv, array: jlongArray) -> Vec<i64> {
    let mut out = vec![0i64; len(env, array)];
    if !out.is_empty() {
        (table(env).GetLongArrayRegion.unwrap_unchecked())(
            env,
            array,
            0,
            out.len() as i32,
            out.as_mut_ptr(),
        );
    }
    out
}

unsafe fn put(env: *mut JNIEnv, array: jbyteArray, data: &[u8]) {
    (table(env).SetByteArrayRegion.unwrap_unchecked())(
        env,
        array,
        0,
        data.len() as i32,
        data.as_ptr().cast(),
    );
}

unsafe fn put_longs(env: *mut JNIEnv, array: jlongArray, data: &[i64]) {
    (table(env).SetLongArrayRegion.unwrap_unchecked())(
        env,
        array,
        0,
        data.len() as i32,
        data.as_ptr(),
    );
}

/// A Java primitive array pinned for a short call (`GetPrimitiveArrayCritical`): no other
/// JNI call may run until it is dropped.
struct Pinned {
    env: *mut JNIEnv,
    array: jni_sys::jarray,
    data: *mut u8,
    len: usize,
}

impl Pinned {
    unsafe fn new(env: *mut JNIEnv, array: jbyteArray) -> Result<Pinned, Failure> {
        let len = len(env, array);
        let data =
            (table(env).GetPrimitiveArrayCritical.unwrap_unchecked())(env, array, ptr::null_mut());
        if data.is_null() {
            return Err(argument("the JVM could not pin an array"));
        }
        Ok(Pinned {
            env,
            array,
            data: data.cast(),
            len,
        })
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: the JVM keeps `len` bytes at `data` until the release in `drop`.
        unsafe { std::slice::from_raw_parts(self.data, self.len) }
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        // Mode JNI_ABORT: nothing to copy back (pinned arrays are only read).
        unsafe {
            (table(self.env)
                .ReleasePrimitiveArrayCritical
                .unwrap_unchecked())(
                self.env, self.array, self.data.cast(), jni_sys::JNI_ABORT
            )
        }
    }
}

/// The fields packed in one buffer: field `i` is `packed[ends[i - 1]..ends[i]]`.
fn fields<'a>(packed: &'a [u8], ends: &[i32], out: &mut Vec<&'a [u8]>) -> Result<(), Failure> {
    let mut start = 0usize;
    for &end in ends {
        let end = usize::try_from(end).map_err(|_| argument("a negative field end"))?;
        out.push(
            packed
                .get(start..end)
                .ok_or_else(|| argument("field ends out of order or beyond the bytes"))?,
        );
        start = end;
    }
    Ok(())
}

fn text(env: *mut JNIEnv, array: jbyteArray, what: &str) -> Result<String, Failure> {
    let raw = unsafe { bytes(env, array) }.unwrap_or_default();
    String::from_utf8(raw).map_err(|_| argument(&format!("{what} is not UTF-8")))
}

/// A prepared deriver (`Box<UlidDeriver>` as a handle), or 0 with the failure left.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_deriverNew(
    env: *mut JNIEnv,
    _: jclass,
    scheme: jbyteArray,
    namespace: jbyteArray,
    secret: jbyteArray,
) -> jlong {
    guarded(0, || {
        let scheme: Scheme = text(env, scheme, "the scheme")?.parse()?;
        let namespace = text(env, namespace, "the namespace")?;
        let secret = unsafe { bytes(env, secret) };
        let deriver = UlidDeriver::new(scheme, &namespace, secret.as_deref())?;
        Ok(Box::into_raw(Box::new(deriver)) as jlong)
    })
}

/// Frees a handle of `deriverNew` (once: the JVM side guarantees it).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_deriverFree(
    _: *mut JNIEnv,
    _: jclass,
    handle: jlong,
) {
    if handle != 0 {
        // SAFETY: made by Box::into_raw in deriverNew, freed once.
        drop(unsafe { Box::from_raw(handle as *mut UlidDeriver) });
    }
}

/// SAFETY: `handle` is a live handle of `deriverNew`.
unsafe fn deriver<'a>(handle: jlong) -> Result<&'a UlidDeriver, Failure> {
    (handle as *const UlidDeriver)
        .as_ref()
        .ok_or_else(|| argument("a closed deriver"))
}

/// An id's halves, most significant first: the two longs `Ulid` holds.
fn halves(id: Ulid) -> [i64; 2] {
    let bits = u128::from_be_bytes(*id.as_bytes());
    [(bits >> 64) as i64, bits as i64]
}

/// Bytes of a single id's frame before its fields: room for the id's 26 characters
/// (written back), then the field count, little-endian.
const FRAME_HEAD: usize = 26 + 4;

/// Fields of a frame read without an allocation: most ids have a few.
const STACK_FIELDS: usize = 8;

/// The fields of a frame (a count, that many lengths as u32 little-endian, the bytes),
/// handed to `body` as one slice.
fn with_frame_fields<T>(
    frame: &[u8],
    body: impl FnOnce(&[&[u8]]) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let bad = || argument("a malformed frame");
    let u32_at = |at: usize| -> Option<usize> {
        Some(u32::from_le_bytes(frame.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    let count = u32_at(26).ok_or_else(bad)?;
    let mut data = count
        .checked_mul(4)
        .and_then(|n| n.checked_add(FRAME_HEAD))
        .ok_or_else(bad)?;
    let mut field = |i: usize| -> Result<&[u8], Failure> {
        let len = u32_at(FRAME_HEAD + 4 * i).ok_or_else(bad)?;
        let bytes = frame.get(data..data + len).ok_or_else(bad)?;
        data += len;
        Ok(bytes)
    };
    if count <= STACK_FIELDS {
        let mut list: [&[u8]; STACK_FIELDS] = [&[]; STACK_FIELDS];
        for (i, slot) in list[..count].iter_mut().enumerate() {
            *slot = field(i)?;
        }
        body(&list[..count])
    } else {
        let list = (0..count).map(field).collect::<Result<Vec<_>, _>>()?;
        body(&list)
    }
}

/// The address of a direct `ByteBuffer` (0 if it is not one): the JVM side's per-thread
/// frame, asked once when the buffer is made.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_address(
    env: *mut JNIEnv,
    _: jclass,
    buffer: jobject,
) -> jlong {
    // SAFETY: a JNI call with the JVM's env; a null or heap buffer gives null.
    unsafe { (table(env).GetDirectBufferAddress.unwrap_unchecked())(env, buffer) as jlong }
}

/// One id from a frame (`Frame.kt`) of `length` bytes at `address`, in the
/// calling thread's direct buffer: its fields at `ms`, the id written into the frame's
/// first bytes (its 26 characters, or unless `text` its halves as two little-endian
/// longs, most significant first). Only primitives cross:
/// no JNI call back into the JVM (pinning an array took two, each a thread-state
/// transition, a third of the call's time besides the hash).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_derive(
    _: *mut JNIEnv,
    _: jclass,
    handle: jlong,
    ms: jlong,
    address: jlong,
    length: jint,
    text: jboolean,
) -> jboolean {
    guarded(JNI_FALSE, || {
        let deriver = unsafe { deriver(handle)? };
        let length = usize::try_from(length).map_err(|_| argument("a negative frame length"))?;
        if address == 0 || length < FRAME_HEAD {
            return Err(argument("a frame without its head"));
        }
        // SAFETY: the JVM side passes its live direct buffer's address and a length within
        // its capacity, keeps the buffer reachable during the call, and reads it only after.
        let frame = unsafe { std::slice::from_raw_parts_mut(address as *mut u8, length) };
        // Checked when the deriver was made: only the range is left (spec §4.4).
        let id = with_frame_fields(frame, |fields| {
            Ok(deriver.derive(Millis::from(ms).check()?, fields)?)
        })?;
        if text == JNI_FALSE {
            // Little-endian, as the JVM side's buffer reads them.
            let [most, least] = halves(id);
            frame[..8].copy_from_slice(&most.to_le_bytes());
            frame[8..16].copy_from_slice(&least.to_le_bytes());
        } else {
            frame[..26].copy_from_slice(&id.to_text_bytes());
        }
        Ok(JNI_TRUE)
    })
}

/// Rows of `width` fields at `times` into `out` (two longs per row, the id's halves): -1,
/// or the first failing row with its failure left (the rows before it are written).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_deriveBatch(
    env: *mut JNIEnv,
    _: jclass,
    handle: jlong,
    times: jlongArray,
    packed: jbyteArray,
    ends: jintArray,
    width: jint,
    out: jlongArray,
) -> jint {
    // Copied, not pinned: a batch runs long enough that pinning would hold up the GC.
    let (times, packed, ends) = unsafe {
        (
            longs(env, times),
            bytes(env, packed).unwrap_or_default(),
            ints(env, ends),
        )
    };
    let mut ids = Vec::with_capacity(times.len());
    let failed = guarded(0, || {
        let deriver = unsafe { deriver(handle)? };
        let width = usize::try_from(width).map_err(|_| argument("a negative width"))?;
        if ends.len() != width * times.len() || unsafe { len(env, out) } != 2 * times.len() {
            return Err(argument("width fields and two output longs for every time"));
        }
        let mut list = Vec::with_capacity(ends.len());
        fields(&packed, &ends, &mut list)?;
        let mut checked = Vec::with_capacity(times.len());
        for (row, &ms) in times.iter().enumerate() {
            match Millis::from(ms).check() {
                Ok(ms) => checked.push(ms),
                Err(e) => {
                    // The rows before it are derived, as row by row.
                    deriver.derive_batch(&checked, &list[..row * width], width, None, &mut ids)?;
                    return Err(e.into());
                }
            }
        }
        deriver.derive_batch(&checked, &list, width, None, &mut ids)?;
        Ok(1)
    }) == 0;
    let halves: Vec<i64> = ids.iter().flat_map(|id| halves(*id)).collect();
    unsafe { put_longs(env, out, &halves) };
    if failed {
        ids.len() as jint
    } else {
        -1
    }
}

/// A new Java `byte[]` holding `data`, or null (an OutOfMemoryError is then pending).
unsafe fn new_bytes(env: *mut JNIEnv, data: &[u8]) -> jbyteArray {
    let array = (table(env).NewByteArray.unwrap_unchecked())(env, data.len() as i32);
    if !array.is_null() {
        put(env, array, data);
    }
    array
}

/// The content hash text of `data[..length]` (pinned: no copy of large data), or null
/// with the failure left.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_contentHash(
    env: *mut JNIEnv,
    _: jclass,
    scheme: jbyteArray,
    data: jbyteArray,
) -> jbyteArray {
    let hash = guarded(None, || {
        let scheme: Scheme = text(env, scheme, "the scheme")?.parse()?;
        let data = unsafe { Pinned::new(env, data)? };
        Ok(Some(
            samekey::content_hash(scheme, data.bytes())?.to_string(),
        ))
    });
    match hash {
        Some(text) => unsafe { new_bytes(env, text.as_bytes()) },
        None => ptr::null_mut(),
    }
}

/// A streaming content hasher's handle, or 0 with the failure left.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_hasherNew(
    env: *mut JNIEnv,
    _: jclass,
    scheme: jbyteArray,
) -> jlong {
    guarded(0, || {
        let scheme: Scheme = text(env, scheme, "the scheme")?.parse()?;
        Ok(Box::into_raw(Box::new(ContentHasher::new(scheme)?)) as jlong)
    })
}

/// Feeds `chunk[..length]`; false with the failure left on a bad length.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_hasherUpdate(
    env: *mut JNIEnv,
    _: jclass,
    handle: jlong,
    chunk: jbyteArray,
    length: jint,
) -> jboolean {
    guarded(JNI_FALSE, || {
        // SAFETY: a live handle of hasherNew, used by one thread (the JVM side's contract).
        let hasher = unsafe { (handle as *mut ContentHasher).as_mut() }
            .ok_or_else(|| argument("a finished hasher"))?;
        let chunk = unsafe { Pinned::new(env, chunk)? };
        let part = usize::try_from(length)
            .ok()
            .and_then(|n| chunk.bytes().get(..n));
        hasher.update(part.ok_or_else(|| argument("a chunk length beyond the chunk"))?);
        Ok(JNI_TRUE)
    })
}

/// The hash text of everything fed; frees the handle (`finish` false: only frees it).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_hasherFinish(
    env: *mut JNIEnv,
    _: jclass,
    handle: jlong,
    finish: jboolean,
) -> jbyteArray {
    if handle == 0 {
        return ptr::null_mut();
    }
    // SAFETY: made by Box::into_raw in hasherNew, freed once here.
    let hasher = unsafe { Box::from_raw(handle as *mut ContentHasher) };
    if finish == JNI_FALSE {
        return ptr::null_mut();
    }
    let text = hasher.finalize().to_string();
    unsafe { new_bytes(env, text.as_bytes()) }
}

/// The failure the last call on this thread left, as UTF-8 "code\nmessage".
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_lastError(
    env: *mut JNIEnv,
    _: jclass,
) -> jbyteArray {
    let text = LAST
        .with(|last| last.borrow_mut().take())
        .map(|f| format!("{}\n{}", f.code, f.message))
        .unwrap_or_else(|| "panic\nno failure was recorded; this is a bug".into());
    unsafe { new_bytes(env, text.as_bytes()) }
}
