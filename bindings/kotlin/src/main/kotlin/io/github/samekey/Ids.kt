@file:JvmName("Samekey")
@file:JvmMultifileClass

package io.github.samekey

import io.github.samekey.uniffi.deriveUlid as ffiDeriveUlid
import io.github.samekey.uniffi.ulidMessage as ffiUlidMessage
import io.github.samekey.uniffi.UlidDeriver as FfiDeriver
import java.time.Instant

/**
 * The deterministic ULID of text [fields] at [at] (floored to the millisecond): the
 * same on every retry and in every samekey language, so an insert keyed by it cannot
 * duplicate a document.
 *
 * ```
 * val id = deriveUlid(publishedAt, "hello-world", "en", namespace = "posts")
 * ```
 *
 * A field with a lone UTF-16 surrogate is refused with `invalid_string`.
 */
public fun deriveUlid(
    at: Instant,
    vararg fields: String,
    namespace: String = "",
    scheme: Scheme = Scheme.V1,
    secret: ByteArray? = null,
): Ulid = deriveUlid(at, textFields(fields), namespace, scheme, secret)

/** [deriveUlid] of byte fields. */
public fun deriveUlid(
    at: Instant,
    fields: List<ByteArray>,
    namespace: String = "",
    scheme: Scheme = Scheme.V1,
    secret: ByteArray? = null,
): Ulid = Ulid.of(core { ffiDeriveUlid(scheme.id, millis(at), checked(namespace, "namespace"), fields, secret) })

/** The exact bytes hashed for an id, to debug a mismatch between implementations. */
public fun ulidMessage(fields: List<ByteArray>, namespace: String = "", scheme: Scheme = Scheme.V1): ByteArray =
    core { ffiUlidMessage(scheme.id, checked(namespace, "namespace"), fields) }

internal fun textFields(fields: Array<out String>): List<ByteArray> =
    fields.mapIndexed { i, f -> utf8(f, "field $i") }

/**
 * Derives ids for one scheme, namespace and secret, checked once; safe for concurrent use.
 *
 * ```
 * val posts = UlidDeriver(namespace = "posts", scheme = Scheme.V2)
 * val id = posts.derive(publishedAt, "hello-world", "en")
 * ```
 */
public class UlidDeriver(
    namespace: String = "",
    public val scheme: Scheme = Scheme.V1,
    secret: ByteArray? = null,
) {
    private val prepared = core { FfiDeriver(scheme.id, checked(namespace, "namespace"), secret?.copyOf()) }

    /** The id of text fields at [at]. */
    public fun derive(at: Instant, vararg fields: String): Ulid = derive(at, textFields(fields))

    /** The id of byte fields at [at]. */
    public fun derive(at: Instant, fields: List<ByteArray>): Ulid = Ulid.of(core { prepared.derive(millis(at), fields) })
}
