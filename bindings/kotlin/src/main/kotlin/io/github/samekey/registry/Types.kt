package io.github.samekey.registry

import io.github.samekey.SamekeyException
import java.time.Duration
import java.time.Instant

/** A registered revision; [created] is whether this call created it (HTTP 201). */
public data class Revision(
    val key: String,
    val parent: String?,
    val scheme: String,
    val contentHash: String,
    val mediaType: String,
    val size: Long,
    val createdAt: Instant,
    val created: Boolean,
) {
    internal companion object {
        fun of(answer: Any?, created: Boolean): Revision {
            val m = answer as? Map<*, *> ?: throw unexpected("not a revision: $answer")
            fun text(name: String) = m[name] as? String ?: throw unexpected("a revision without its $name")
            return Revision(
                key = text("key"),
                parent = m["parent"] as String?,
                scheme = text("scheme"),
                contentHash = text("content_hash"),
                mediaType = text("media_type"),
                size = (m["size"] as? Number ?: throw unexpected("a revision without its size")).toLong(),
                createdAt = Instant.parse(text("created_at")),
                created = created,
            )
        }
    }
}

/**
 * A failed request. [code] is the registry's problem code (`unknown_parent`,
 * `database_unavailable`, ...) or the client's own (`connection_failed`,
 * `deadline_exceeded`, `not_rewindable`, `key_mismatch`, `unexpected_response`); [status]
 * is the HTTP status when there was an answer. For `key_mismatch`, [expected] and
 * [answered] are both keys.
 */
public class RegistryException internal constructor(
    code: String,
    message: String,
    public val status: Int? = null,
    public val detail: String = message,
    public val expected: String? = null,
    public val answered: String? = null,
    cause: Throwable? = null,
) : SamekeyException(code, message, cause) {
    /** The client's own codes (the registry's are in its README and on the error page). */
    public companion object {
        /** No answer: every attempt failed to connect, was cut or timed out. */
        public const val CONNECTION_FAILED: String = "connection_failed"

        /** The retries' total deadline passed before an answer. */
        public const val DEADLINE_EXCEEDED: String = "deadline_exceeded"

        /** A one-shot stream failed after a byte of it was sent: it cannot be sent again. */
        public const val NOT_REWINDABLE: String = "not_rewindable"

        /** The registry answered a key this client does not derive for the data. */
        public const val KEY_MISMATCH: String = "key_mismatch"

        /** An answer that is not the registry's (not JSON, or missing a field). */
        public const val UNEXPECTED_RESPONSE: String = "unexpected_response"
    }
}

internal fun unexpected(message: String, status: Int? = null) = RegistryException(RegistryException.UNEXPECTED_RESPONSE, message, status)

/**
 * When a request is tried again: after a connection failure or a timeout (before or after
 * its body was sent: a registration is keyed by its content, so a retry creates nothing
 * new) and on [statuses]; never after another 4xx. The wait before retry `n` (from 0) is
 * a random fraction of `min(maxDelay, initialDelay * 2^n)` ("full jitter"), or exactly an
 * answer's `Retry-After`. No wait ends past [deadline] from the call's start; the last
 * error is thrown instead.
 */
public data class Retry @JvmOverloads constructor(
    val maxRetries: Int = 2,
    val initialDelay: Duration = Duration.ofMillis(500),
    val maxDelay: Duration = Duration.ofSeconds(5),
    val deadline: Duration = Duration.ofSeconds(60),
    val statuses: Set<Int> = setOf(429, 500, 502, 503, 504),
) {
    init {
        require(maxRetries >= 0 && !initialDelay.isNegative && !maxDelay.isNegative && !deadline.isNegative && !deadline.isZero) {
            "Retry: counts and delays must not be negative, and the deadline must be positive"
        }
    }
}
