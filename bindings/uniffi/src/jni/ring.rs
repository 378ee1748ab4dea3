//! Key rings (spec §9) behind a JNI handle: the rollout recipe's per-document calls
//! (`verify`, `candidates`, `schemeOf`) were JNA round trips through uniffi's generated
//! layer (tens of microseconds each). A scheme crosses back as its index in the ring's
//! accepted list, which the JVM side reads once when it makes the ring.

use jni_sys::{jbyteArray, jclass, jint, jlong, jlongArray, JNIEnv};
use samekey::timestamp::Millis;
use samekey::{KeyRing, Scheme};

use super::entry::entry;
use super::env::{self, Env};
use super::failure::{argument, Failure};
use super::handle;
use super::hooks::{hook, Stage};

/// A ring of scheme names, newest first, as a frame's fields (`samekey_wire::jvm`: no
/// separator that a name could hold), under `samekey::host::ring`'s rules.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ringNew(
    env: *mut JNIEnv,
    class: jclass,
    address: jlong,
    length: jint,
) -> jlong {
    entry(env, class, 0, |_| {
        let frame = unsafe { env::frame(address, length)? };
        let ring = samekey_wire::jvm::with_frame_fields(frame, |names| {
            let names = names
                .iter()
                .map(|n| std::str::from_utf8(n))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| {
                    samekey_wire::WireError::Malformed("a scheme name that is not UTF-8")
                })?;
            Ok(samekey::host::ring(&names)?)
        })?;
        Ok(handle::make(ring))
    })
}

/// Frees a handle of `ringNew` (once: the JVM side's Cleaner).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ringFree(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
) {
    // SAFETY: a handle of ringNew, freed once (the JVM side's Cleaner).
    entry(env, class, (), |_| unsafe {
        handle::free::<KeyRing>(handle)
    })
}

/// SAFETY: `handle` is a live handle of `ringNew`.
unsafe fn ring<'a>(handle: jlong) -> Result<&'a KeyRing, Failure> {
    handle::get(handle, "a freed key ring")
}

/// The index of `scheme` in the ring's accepted list: what crosses back to the JVM.
fn index(ring: &KeyRing, scheme: Scheme) -> Result<jint, Failure> {
    let found = ring.accepted().iter().position(|&s| s == scheme);
    found
        .map(|i| i as jint)
        .ok_or_else(|| argument("a scheme outside the ring"))
}

/// The accepted schemes, primary first, one a line.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ringAccepted(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let ring = unsafe { ring(handle)? };
        let names: Vec<&str> = ring.accepted().iter().map(|s| s.as_str()).collect();
        env.new_bytes(names.join("\n").as_bytes())
    })
}

/// The settings and time of an id's derivation under the ring, checked in uniffi's order
/// (spec §4.4: the primary's namespace and secret rules, then the range).
struct Inputs {
    ms: u64,
    namespace: String,
    secret: Option<Vec<u8>>,
}

fn inputs(
    env: &Env,
    ring: &KeyRing,
    ms: jlong,
    namespace: jbyteArray,
    secret: jbyteArray,
) -> Result<Inputs, Failure> {
    let namespace = env.text(namespace, "the namespace")?;
    let secret = env.bytes(secret, "the secret")?;
    let ms = Millis::from(ms).check_for(ring.primary(), &namespace, secret.as_deref())?;
    Ok(Inputs {
        ms,
        namespace,
        secret,
    })
}

/// The index of the accepted scheme that derived the id (its halves, most significant
/// first) from a frame's fields (`samekey_wire::jvm`), or `identity_mismatch`.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ringVerify(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    most: jlong,
    least: jlong,
    ms: jlong,
    address: jlong,
    length: jint,
    namespace: jbyteArray,
    secret: jbyteArray,
) -> jint {
    entry(env, class, 0, |env| {
        let ring = unsafe { ring(handle)? };
        let id = samekey_wire::jvm::from_halves(most, least);
        let at = inputs(env, ring, ms, namespace, secret)?;
        let frame = unsafe { env::frame(address, length)? };
        let scheme = samekey_wire::jvm::with_frame_fields(frame, |fields| {
            Ok(ring.verify_ulid(&id, at.ms, &at.namespace, fields, at.secret.as_deref())?)
        })?;
        hook(Stage::Results);
        index(ring, scheme)
    })
}

/// The id under every accepted scheme that can take a frame's fields, primary first,
/// into `out` as three longs each (the scheme's index, the id's halves); their count.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ringCandidates(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    ms: jlong,
    address: jlong,
    length: jint,
    namespace: jbyteArray,
    secret: jbyteArray,
    out: jlongArray,
) -> jint {
    entry(env, class, 0, |env| {
        let ring = unsafe { ring(handle)? };
        let at = inputs(env, ring, ms, namespace, secret)?;
        let frame = unsafe { env::frame(address, length)? };
        let found = samekey_wire::jvm::with_frame_fields(frame, |fields| {
            Ok(ring.candidate_ulids(at.ms, &at.namespace, fields, at.secret.as_deref())?)
        })?;
        let mut longs = Vec::with_capacity(3 * found.len());
        for (scheme, id) in &found {
            let [most, least] = samekey_wire::jvm::halves(*id);
            longs.extend([i64::from(index(ring, *scheme)?), most, least]);
        }
        env.put_longs(out, 0, &longs)?;
        Ok(found.len() as jint)
    })
}

/// The revision key (ASCII) of a content hash on a parent (null: a root), under the
/// content hash's scheme, which the ring must accept.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ringRevisionKey(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    content_hash: jbyteArray,
    parent: jbyteArray,
    secret: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let ring = unsafe { ring(handle)? };
        let content: samekey::ContentHash = env.text(content_hash, "the content hash")?.parse()?;
        let parent = env.optional_text(parent, "the parent")?;
        let secret = env.bytes(secret, "the secret")?;
        let key = ring.derive_revision(parent.as_deref(), &content, secret.as_deref())?;
        env.new_bytes(key.to_string().as_bytes())
    })
}

/// The index of the accepted scheme of a content hash or revision key.
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ringSchemeOf(
    env: *mut JNIEnv,
    class: jclass,
    handle: jlong,
    key: jbyteArray,
) -> jint {
    entry(env, class, 0, |env| {
        let ring = unsafe { ring(handle)? };
        let scheme = ring.scheme_of_key(&env.text(key, "the key")?)?;
        index(ring, scheme)
    })
}
