package io.github.samekey

/**
 * The hand-written JNI of the hot paths (bindings/uniffi/src/jni): one native call per
 * id, UTF-8 that [Frame] encoded and checked or the UTF-16 [CharPacker] packed, in the formats
 * `crates/samekey-wire/src/jvm` describes; results written back into the frame or the
 * caller's arrays. A call that fails throws what [exception] makes of its failure.
 */
internal object Jni {
    init {
        NativeLibrary.path
    }

    /** A prepared deriver's handle. */
    @JvmStatic external fun deriverNew(scheme: ByteArray, namespace: ByteArray, secret: ByteArray?): Long

    @JvmStatic external fun deriverFree(handle: Long)

    /** The address of a direct buffer ([Frame]'s), asked once. */
    @JvmStatic external fun address(buffer: java.nio.ByteBuffer): Long

    /** The id of the [Frame] of [length] bytes at [address] at [ms], written into the frame (its text when [text]). */
    @JvmStatic external fun derive(handle: Long, ms: Long, address: Long, length: Int, text: Boolean)

    /**
     * [rows] rows of [width] fields into [out] (an id's halves, most significant first);
     * the arrays may be longer. -1, or the index of the first field in row order that
     * holds a lone surrogate.
     */
    @JvmStatic external fun deriveBatch(handle: Long, rows: Int, times: LongArray, chars: CharArray, ends: IntArray, width: Int, out: LongArray): Int

    /** The content hash text (ASCII) of [data]. */
    @JvmStatic external fun contentHash(scheme: ByteArray, data: ByteArray): ByteArray

    /** A streaming hasher's handle. */
    @JvmStatic external fun hasherNew(scheme: ByteArray): Long

    @JvmStatic external fun hasherUpdate(handle: Long, chunk: ByteArray, length: Int)

    /** The hash text of everything fed (null when not [finish]); frees the handle either way. */
    @JvmStatic external fun hasherFinish(handle: Long, finish: Boolean): ByteArray?

    /** The canonical JSON (UTF-8) of JSON text (UTF-8). */
    @JvmStatic external fun canonicalJson(json: ByteArray): ByteArray

    /** The revision key (ASCII); a null scheme is the content hash's, a null parent a root. */
    @JvmStatic external fun revisionKey(scheme: ByteArray?, contentHash: ByteArray, parent: ByteArray?, secret: ByteArray?): ByteArray

    /** The content hash text (ASCII) of JSON text's (UTF-8) canonical form. */
    @JvmStatic external fun contentHashJson(scheme: ByteArray, json: ByteArray): ByteArray

    /** Whether [incoming] content must be written over [stored] (null: nothing stored). */
    @JvmStatic external fun needsWrite(stored: ByteArray?, incoming: ByteArray): Boolean

    /** The 16 bytes of ULID text. */
    @JvmStatic external fun parseUlid(text: ByteArray): ByteArray

    /** The same 16 bytes; `invalid_ulid` for another length. */
    @JvmStatic external fun ulidFromBytes(bytes: ByteArray): ByteArray

    /** The milliseconds of RFC 3339 text. */
    @JvmStatic external fun parseRfc3339(text: ByteArray): Long

    /** A parsed key: "kind\nscheme\ncanonical" (ASCII). */
    @JvmStatic external fun parseKey(text: ByteArray): ByteArray

    /** The bytes hashed for a revision key; a null scheme is the content hash's, a null parent a root. */
    @JvmStatic external fun revisionMessage(scheme: ByteArray?, contentHash: ByteArray, parent: ByteArray?): ByteArray

    /** A key ring of the scheme names in the [Frame] at [address] ([length] bytes), newest first. */
    @JvmStatic external fun ringNew(address: Long, length: Int): Long

    @JvmStatic external fun ringFree(handle: Long)

    /** The ring's accepted scheme names, primary first, one a line (ASCII). */
    @JvmStatic external fun ringAccepted(handle: Long): ByteArray

    /** The index in the accepted list of the scheme that derived the id ([most], [least]) from a [Frame]'s fields. */
    @JvmStatic external fun ringVerify(handle: Long, most: Long, least: Long, ms: Long, address: Long, length: Int, namespace: ByteArray, secret: ByteArray?): Int

    /** The candidates' count, written into [out] as three longs each: the scheme's index, the id's halves. */
    @JvmStatic external fun ringCandidates(handle: Long, ms: Long, address: Long, length: Int, namespace: ByteArray, secret: ByteArray?, out: LongArray): Int

    /** The revision key (ASCII) under the content hash's scheme, which the ring must accept. */
    @JvmStatic external fun ringRevisionKey(handle: Long, contentHash: ByteArray, parent: ByteArray?, secret: ByteArray?): ByteArray

    /** The index in the accepted list of a key's scheme. */
    @JvmStatic external fun ringSchemeOf(handle: Long, key: ByteArray): Int

    /** The bytes hashed for an id of a [Frame]'s fields. */
    @JvmStatic external fun ulidMessage(scheme: ByteArray, namespace: ByteArray, address: Long, length: Int): ByteArray

    /** The core's version (ASCII). */
    @JvmStatic external fun version(): ByteArray

    /**
     * Tests only: this thread's next native call that passes [stage] panics there (1: its
     * first step, 2: an argument's conversion, 3: inside a pinned section, 4: a result's
     * write; 0 disarms).
     */
    @JvmStatic external fun panicAt(stage: Int)

    /** Tests only: read arrays by copies of a section, as on a JVM whose critical sections copy. */
    @JvmStatic external fun copySections(on: Boolean)

    /** The exception of a failed native call, from its UTF-8 "code\nmessage" (called by the library). */
    @JvmStatic fun exception(failure: ByteArray): Throwable {
        val text = String(failure, Charsets.UTF_8)
        return failure(text.substringBefore('\n'), text.substringAfter('\n'))
    }
}
