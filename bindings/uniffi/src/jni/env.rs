//! The JNI calls the entry points make, typed: each returns a `Result`, so a missing table
//! entry, a null the contract excludes or a pending exception is a [`Failure`], never
//! undefined behaviour or a panic.

use std::ffi::CStr;

use jni_sys::{
    jarray, jboolean, jbyteArray, jcharArray, jclass, jintArray, jlongArray, jobject, jvalue,
    JNIEnv,
};

use super::failure::{argument, Failure};
use super::hooks::{copy_sections, hook, Stage};

/// The bytes hashed per critical section of a pinned array: the longest the JVM's
/// collector can be held up by one (about 0.6 ms of SHA-256 with SHA-NI).
pub(super) const SECTION: usize = 1 << 20;

/// An entry point's `JNIEnv`.
pub(super) struct Env {
    raw: *mut JNIEnv,
}

/// The function `$name` of the JNI table, or a failure naming it.
macro_rules! jni {
    ($env:expr, $name:ident) => {
        $env.table()?
            .$name
            .ok_or_else(|| argument(concat!("the JVM has no JNI function ", stringify!($name))))?
    };
}

impl Env {
    /// SAFETY: `raw` is the JNIEnv the JVM passed to the running entry point.
    pub(super) unsafe fn new(raw: *mut JNIEnv) -> Env {
        Env { raw }
    }

    fn table(&self) -> Result<&jni_sys::JNINativeInterface_, Failure> {
        // SAFETY: a JVM's env points at its function table for the thread's lifetime.
        unsafe { self.raw.as_ref().and_then(|t| t.as_ref()) }
            .ok_or_else(|| argument("a null JNIEnv"))
    }

    /// Whether a Java exception is pending.
    pub(super) fn pending(&self) -> bool {
        (|| -> Result<bool, Failure> {
            // SAFETY: a JNI call on the entry point's thread.
            Ok(unsafe { jni!(self, ExceptionCheck)(self.raw) } != 0)
        })()
        .unwrap_or(true)
    }

    /// `Failure::Pending` when the last call left an exception.
    fn checked(&self) -> Result<(), Failure> {
        if self.pending() {
            Err(Failure::Pending)
        } else {
            Ok(())
        }
    }

    /// The length of a non-null array.
    fn len(&self, array: jarray, what: &str) -> Result<usize, Failure> {
        if array.is_null() {
            return Err(argument(&format!("{what} is null")));
        }
        // SAFETY: a live local reference to an array.
        let n = unsafe { jni!(self, GetArrayLength)(self.raw, array) };
        usize::try_from(n).map_err(|_| argument("a negative array length"))
    }

    /// A `byte[]` copied out; `None` for null.
    pub(super) fn bytes(&self, array: jbyteArray, what: &str) -> Result<Option<Vec<u8>>, Failure> {
        hook(Stage::Arguments);
        if array.is_null() {
            return Ok(None);
        }
        let mut out = vec![0u8; self.len(array, what)?];
        // SAFETY: `out` holds the array's length.
        unsafe {
            jni!(self, GetByteArrayRegion)(
                self.raw,
                array,
                0,
                out.len() as i32,
                out.as_mut_ptr().cast(),
            )
        };
        self.checked()?;
        Ok(Some(out))
    }

    /// A non-null `byte[]` of UTF-8 (the JVM side encoded and checked it).
    pub(super) fn text(&self, array: jbyteArray, what: &str) -> Result<String, Failure> {
        let raw = self
            .bytes(array, what)?
            .ok_or_else(|| argument(&format!("{what} is null")))?;
        String::from_utf8(raw).map_err(|_| argument(&format!("{what} is not UTF-8")))
    }

    /// A `byte[]` of UTF-8 or null (`None`).
    pub(super) fn optional_text(
        &self,
        array: jbyteArray,
        what: &str,
    ) -> Result<Option<String>, Failure> {
        if array.is_null() {
            return Ok(None);
        }
        self.text(array, what).map(Some)
    }

    /// The length of an array; 0 for null when `nullable`.
    pub(super) fn length(
        &self,
        array: jarray,
        what: &str,
        nullable: bool,
    ) -> Result<usize, Failure> {
        if nullable && array.is_null() {
            return Ok(0);
        }
        self.len(array, what)
    }

    /// Copies `array[at..at + out.len()]` into `out` (the JVM checks the bounds).
    pub(super) fn get_longs(
        &self,
        array: jlongArray,
        at: usize,
        out: &mut [i64],
    ) -> Result<(), Failure> {
        hook(Stage::Arguments);
        let (at, n) = region(at, out.len())?;
        // SAFETY: `out` holds `n` longs; the JVM throws for a region out of bounds.
        unsafe { jni!(self, GetLongArrayRegion)(self.raw, array, at, n, out.as_mut_ptr()) };
        self.checked()
    }

    /// Copies `array[at..at + out.len()]` into `out` (the JVM checks the bounds).
    pub(super) fn get_ints(
        &self,
        array: jintArray,
        at: usize,
        out: &mut [i32],
    ) -> Result<(), Failure> {
        hook(Stage::Arguments);
        let (at, n) = region(at, out.len())?;
        // SAFETY: `out` holds `n` ints; the JVM throws for a region out of bounds.
        unsafe { jni!(self, GetIntArrayRegion)(self.raw, array, at, n, out.as_mut_ptr()) };
        self.checked()
    }

    /// Copies `array[at..at + out.len()]` into `out` (the JVM checks the bounds).
    pub(super) fn get_chars(
        &self,
        array: jcharArray,
        at: usize,
        out: &mut [u16],
    ) -> Result<(), Failure> {
        hook(Stage::Arguments);
        if out.is_empty() {
            return Ok(());
        }
        let (at, n) = region(at, out.len())?;
        // SAFETY: `out` holds `n` chars; the JVM throws for a region out of bounds.
        unsafe { jni!(self, GetCharArrayRegion)(self.raw, array, at, n, out.as_mut_ptr()) };
        self.checked()
    }

    /// Writes `data` into `array` from `at` (the JVM checks the bounds).
    pub(super) fn put_longs(
        &self,
        array: jlongArray,
        at: usize,
        data: &[i64],
    ) -> Result<(), Failure> {
        hook(Stage::Results);
        let (at, n) = region(at, data.len())?;
        // SAFETY: `data` holds `n` longs; the JVM throws for a region out of bounds.
        unsafe { jni!(self, SetLongArrayRegion)(self.raw, array, at, n, data.as_ptr()) };
        self.checked()
    }

    /// A new `byte[]` holding `data`.
    pub(super) fn new_bytes(&self, data: &[u8]) -> Result<jbyteArray, Failure> {
        hook(Stage::Results);
        self.new_bytes_unhooked(data)
    }

    /// [`Env::new_bytes`] for the failure path, which a test's panic must not reach.
    pub(super) fn new_bytes_unhooked(&self, data: &[u8]) -> Result<jbyteArray, Failure> {
        let n = i32::try_from(data.len()).map_err(|_| argument("a result beyond a Java array"))?;
        // SAFETY: JNI calls on the entry point's thread; the new array holds `n` bytes.
        let array = unsafe { jni!(self, NewByteArray)(self.raw, n) };
        if array.is_null() {
            return Err(Failure::Pending);
        }
        unsafe { jni!(self, SetByteArrayRegion)(self.raw, array, 0, n, data.as_ptr().cast()) };
        self.checked()?;
        Ok(array)
    }

    /// The address of a direct `ByteBuffer` (0 for any other buffer).
    pub(super) fn direct_address(&self, buffer: jobject) -> Result<i64, Failure> {
        hook(Stage::Arguments);
        if buffer.is_null() {
            return Err(argument("the buffer is null"));
        }
        // SAFETY: a live local reference; a heap buffer gives null.
        Ok(unsafe { jni!(self, GetDirectBufferAddress)(self.raw, buffer) } as i64)
    }

    /// Feeds the first `length` bytes of a `byte[]` to `sink`, [`SECTION`] bytes at a time,
    /// each inside its own critical section: no copy where the JVM pins (HotSpot), and
    /// the collector is never held up longer than one section's work. A JVM that copies
    /// for a critical section (its `isCopy`) is read by copies of a section instead.
    pub(super) fn read_sections(
        &self,
        array: jbyteArray,
        length: Option<usize>,
        mut sink: impl FnMut(&[u8]),
    ) -> Result<(), Failure> {
        hook(Stage::Arguments);
        let all = self.len(array, "the data")?;
        let len = match length {
            Some(n) if n > all => return Err(argument("a length beyond the array")),
            Some(n) => n,
            None => all,
        };
        let critical = jni!(self, GetPrimitiveArrayCritical);
        let release = jni!(self, ReleasePrimitiveArrayCritical);
        let region = jni!(self, GetByteArrayRegion);
        let mut copy: Option<Vec<u8>> = None;
        let mut at = 0;
        while at < len {
            let n = (len - at).min(SECTION);
            if let Some(buf) = copy.as_mut() {
                // SAFETY: `buf` holds SECTION >= n bytes; at + n <= the array's length.
                unsafe {
                    region(
                        self.raw,
                        array,
                        at as i32,
                        n as i32,
                        buf.as_mut_ptr().cast(),
                    )
                };
                self.checked()?;
                sink(&buf[..n]);
                at += n;
                continue;
            }
            let mut is_copy: jboolean = 0;
            // SAFETY: a live array; no other JNI call until the section is dropped.
            let data = unsafe { critical(self.raw, array, &mut is_copy) };
            if data.is_null() {
                self.checked()?;
                return Err(argument("the JVM could not pin an array"));
            }
            let section = Section {
                env: self.raw,
                release,
                array,
                data,
            };
            if is_copy != 0 || copy_sections() {
                drop(section);
                copy = Some(vec![0; SECTION.min(len - at)]);
                continue;
            }
            hook(Stage::Pinned);
            // SAFETY: the JVM keeps the array's bytes at `data` until the release in drop.
            sink(unsafe { std::slice::from_raw_parts(data.cast::<u8>().add(at), n) });
            drop(section);
            at += n;
        }
        Ok(())
    }

    /// `class.name(args)` of the static method `name` with signature `sig`.
    pub(super) fn call_static_object(
        &self,
        class: jclass,
        name: &CStr,
        sig: &CStr,
        args: &[jvalue],
    ) -> Result<jobject, Failure> {
        // SAFETY: JNI calls with a live class and a signature matching `args`.
        unsafe {
            let method =
                jni!(self, GetStaticMethodID)(self.raw, class, name.as_ptr(), sig.as_ptr());
            if method.is_null() {
                return Err(Failure::Pending);
            }
            let made = jni!(self, CallStaticObjectMethodA)(self.raw, class, method, args.as_ptr());
            self.checked()?;
            if made.is_null() {
                return Err(argument("a null object"));
            }
            Ok(made)
        }
    }

    /// Leaves `throwable` pending.
    pub(super) fn throw(&self, throwable: jobject) {
        let _ = (|| -> Result<(), Failure> {
            // SAFETY: a live Throwable reference.
            unsafe { jni!(self, Throw)(self.raw, throwable) };
            Ok(())
        })();
    }
}

/// One critical section of a pinned array, released (nothing written back) when dropped,
/// also by a panic unwinding through it.
struct Section {
    env: *mut JNIEnv,
    release: unsafe extern "system" fn(*mut JNIEnv, jarray, *mut std::ffi::c_void, i32),
    array: jarray,
    data: *mut std::ffi::c_void,
}

impl Drop for Section {
    fn drop(&mut self) {
        // SAFETY: the pointer GetPrimitiveArrayCritical gave for this array.
        unsafe { (self.release)(self.env, self.array, self.data, jni_sys::JNI_ABORT) };
    }
}

/// A frame in a direct buffer: `length` bytes at `address`.
///
/// SAFETY: the JVM side passes its live direct buffer's address and a length within its
/// capacity, keeps the buffer reachable during the call, and reads it only after.
pub(super) unsafe fn frame<'a>(address: i64, length: i32) -> Result<&'a mut [u8], Failure> {
    hook(Stage::Arguments);
    let length = usize::try_from(length).map_err(|_| argument("a negative frame length"))?;
    if address == 0 || length < samekey_wire::jvm::FRAME_HEAD {
        return Err(argument("a frame without its head"));
    }
    Ok(std::slice::from_raw_parts_mut(address as *mut u8, length))
}

/// A region's start and length as JNI takes them.
fn region(at: usize, n: usize) -> Result<(i32, i32), Failure> {
    let fits = |x: usize| i32::try_from(x).map_err(|_| argument("a region beyond a Java array"));
    Ok((fits(at)?, fits(n)?))
}
