//! Parsing a host's text into the core's values: ULIDs, RFC 3339 times, keys. Each was a
//! JNA round trip through uniffi's generated layer (43-77 µs) before.

use jni_sys::{jbyteArray, jclass, jlong, JNIEnv};

use super::entry::entry;

/// The 16 bytes of ULID text (either case).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_parseUlid(
    env: *mut JNIEnv,
    class: jclass,
    text: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let text = env.text(text, "the ULID text")?;
        env.new_bytes(&text.parse::<samekey::Ulid>()?.to_bytes())
    })
}

/// The same 16 bytes, or `invalid_ulid` for another length (the rule of uniffi's
/// `ulid_from_bytes`).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_ulidFromBytes(
    env: *mut JNIEnv,
    class: jclass,
    bytes: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let bytes = env.bytes(bytes, "the ULID bytes")?.unwrap_or_default();
        let raw: [u8; 16] = bytes
            .as_slice()
            .try_into()
            .map_err(|_| samekey::Error::InvalidUlid(format!("{} bytes, not 16", bytes.len())))?;
        env.new_bytes(&samekey::Ulid::from_bytes(raw).to_bytes())
    })
}

/// The milliseconds of an RFC 3339 time as the core reads it (spec §4.2).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_parseRfc3339(
    env: *mut JNIEnv,
    class: jclass,
    text: jbyteArray,
) -> jlong {
    entry(env, class, 0, |env| {
        let text = env.text(text, "the RFC 3339 text")?;
        Ok(samekey::parse_rfc3339(&text)? as jlong)
    })
}

/// A content hash or revision key, parsed: "kind\nscheme\ncanonical" (ASCII).
#[no_mangle]
pub extern "system" fn Java_io_github_samekey_Jni_parseKey(
    env: *mut JNIEnv,
    class: jclass,
    text: jbyteArray,
) -> jbyteArray {
    entry(env, class, std::ptr::null_mut(), |env| {
        let key: samekey::Key = env.text(text, "the key")?.parse()?;
        let parsed = format!("{}\n{}\n{}", key.kind(), key.scheme().as_str(), key);
        env.new_bytes(parsed.as_bytes())
    })
}
