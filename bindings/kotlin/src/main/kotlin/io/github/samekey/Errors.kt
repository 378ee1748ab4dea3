package io.github.samekey

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
 * The exception of every failure the library reports ([Jni.exception]): a
 * [SamekeyException] with the core's code, except "invalid_argument",
 * a broken contract between this layer and the library (a bug, not bad input).
 */
internal fun failure(code: String, message: String, cause: Throwable? = null): RuntimeException =
    if (code == "invalid_argument") IllegalStateException("samekey: $message", cause)
    else SamekeyException(code, message, cause)
