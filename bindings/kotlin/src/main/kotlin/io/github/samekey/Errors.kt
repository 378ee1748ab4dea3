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
public class SamekeyException(
    public val code: String,
    message: String,
    cause: Throwable? = null,
) : RuntimeException("$code: $message", cause)

/** Runs a call into the core, turning its failure into a [SamekeyException]. */
internal inline fun <T> core(block: () -> T): T = try {
    NativeLibrary.path // loaded by us first, so that JNA maps the same file
    block()
} catch (e: FfiException.Failure) {
    throw SamekeyException(e.codeText, e.message ?: e.codeText, e)
}
