package io.github.samekey

import io.github.samekey.uniffi.SamekeyException as FfiException

/**
 * Every failure of samekey. [code] is the stable code every samekey implementation uses
 * ("invalid_ulid", "identity_mismatch", ...; the specification lists them), so a program
 * may branch on it; the message is for people.
 *
 * ```
 * try { Ulid.parse(text) } catch (e: SamekeyException) { if (e.code == "invalid_ulid") ... }
 * ```
 */
public open class SamekeyException(
    public val code: String,
    message: String,
    cause: Throwable? = null,
) : RuntimeException("$code: $message", cause)

/**
 * The exception of every failure the library reports, through JNI ([Jni.exception]) or
 * uniffi ([core]): a [SamekeyException] with the core's code, except "invalid_argument",
 * a broken contract between this layer and the library (a bug, not bad input).
 */
internal fun failure(code: String, message: String, cause: Throwable? = null): RuntimeException =
    if (code == "invalid_argument") IllegalStateException("samekey: $message", cause)
    else SamekeyException(code, message, cause)

/** Runs a generated (uniffi) call into the core, turning its failure into [failure]'s exception. */
internal inline fun <T> core(block: () -> T): T = try {
    NativeLibrary.path // loaded by us first, so that JNA maps the same file
    block()
} catch (e: FfiException.Failure) {
    throw failure(e.codeText, e.message ?: e.codeText, e)
}
