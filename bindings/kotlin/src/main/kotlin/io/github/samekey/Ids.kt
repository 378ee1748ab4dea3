@file:JvmName("Samekey")
@file:JvmMultifileClass

package io.github.samekey

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
@JvmOverloads
public fun deriveUlid(
    at: Instant,
    vararg fields: String,
    namespace: String = "",
    scheme: Scheme = Scheme.V1,
    secret: ByteArray? = null,
): Ulid = derive(at, Frame.of(fields), namespace, scheme, secret)

/** [deriveUlid] of byte fields. */
@JvmOverloads
public fun deriveUlid(
    at: Instant,
    fields: List<ByteArray>,
    namespace: String = "",
    scheme: Scheme = Scheme.V1,
    secret: ByteArray? = null,
): Ulid = derive(at, Frame.of(fields), namespace, scheme, secret)

// Text fields are checked before the namespace, and both before the scheme's checks (spec
// §2.2: a host's conversion of its strings comes first).
internal fun derive(at: Instant, fields: Frame, namespace: String, scheme: Scheme, secret: ByteArray?): Ulid {
    val deriver = if (secret == null) NativeDeriver.unkeyed(scheme, namespace) else NativeDeriver(scheme, namespace, secret)
    return deriver.derive(millis(at), fields)
}

/** The exact bytes hashed for an id, to debug a mismatch between implementations. */
@JvmOverloads
public fun ulidMessage(fields: List<ByteArray>, namespace: String = "", scheme: Scheme = Scheme.V1): ByteArray {
    val frame = Frame.of(fields)
    val ns = utf8(namespace, "namespace")
    return frame.read { address, length -> Jni.ulidMessage(scheme.id.toByteArray(Charsets.UTF_8), ns, address, length) }
}

@JvmSynthetic
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
public class UlidDeriver @JvmOverloads constructor(
    namespace: String = "",
    public val scheme: Scheme = Scheme.V1,
    secret: ByteArray? = null,
) : AutoCloseable {
    private val prepared = NativeDeriver(scheme, namespace, secret)

    /** The id of text fields at [at]. */
    public fun derive(at: Instant, vararg fields: String): Ulid = prepared.derive(millis(at), Frame.of(fields))

    /** The id of byte fields at [at]. */
    public fun derive(at: Instant, fields: List<ByteArray>): Ulid = prepared.derive(millis(at), Frame.of(fields))

    /**
     * The id of byte [fields] at [epochMillis] (milliseconds since the Unix epoch) as its 26
     * ASCII characters: [derive]'s id, with no `Instant`, `Ulid` or `String` made, for
     * engines that keep text as UTF-8 bytes (Spark's `UTF8String.fromBytes` takes it as is).
     */
    public fun deriveTextBytes(epochMillis: Long, vararg fields: ByteArray): ByteArray =
        prepared.deriveText(epochMillis, Frame.of(fields))

    /**
     * The ids of many rows at once, in row order: row `i` is the fields `columns[c][i]` at
     * `times[i]`. The same ids, and on a bad row the same error, as [derive] row by row.
     * A batch of a few thousand rows or more is split over up to [maxThreads] threads of
     * the common `ForkJoinPool` (0: one per core; 1 keeps it on the calling thread, as a
     * Spark task or any caller that is one of many threads may want).
     *
     * ```
     * val ids = posts.deriveMany(times, listOf(slugs, langs))
     * ```
     */
    @JvmOverloads
    public fun deriveMany(times: List<Instant>, columns: List<List<String>>, maxThreads: Int = 0): List<Ulid> =
        deriveRows(prepared, times, columns, maxThreads)

    /**
     * Ends this deriver's use: later calls throw `IllegalStateException`. Its native state
     * is freed once nothing refers to the deriver (never under a call still running).
     */
    override fun close(): Unit = prepared.close()
}
