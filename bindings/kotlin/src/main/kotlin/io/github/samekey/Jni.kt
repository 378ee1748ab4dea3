package io.github.samekey

/**
 * The hand-written JNI of the hot paths (bindings/uniffi/src/jni.rs): one native call per
 * id, UTF-8 that [Frame] or [pack] encoded and checked, results written back into the
 * frame or the caller's arrays.
 * A call that fails returns its status and leaves the failure for [lastError].
 */
internal object Jni {
    init {
        NativeLibrary.path
    }

    /** A prepared deriver's handle, or 0. */
    @JvmStatic external fun deriverNew(scheme: ByteArray, namespace: ByteArray, secret: ByteArray?): Long

    @JvmStatic external fun deriverFree(handle: Long)

    /** The address of a direct buffer ([Frame]'s), asked once. */
    @JvmStatic external fun address(buffer: java.nio.ByteBuffer): Long

    /**
     * The id of the [Frame] of [length] bytes at [address] at [ms], written into the frame's
     * first bytes: its 26 characters, or unless [text] its halves (most significant first)
     * as two little-endian longs.
     */
    @JvmStatic external fun derive(handle: Long, ms: Long, address: Long, length: Int, text: Boolean): Boolean

    /** Rows of [width] fields into [out] (an id's halves, most significant first): -1, or the first failing row. */
    @JvmStatic external fun deriveBatch(handle: Long, times: LongArray, packed: ByteArray, ends: IntArray, width: Int, out: LongArray): Int

    /** The content hash text (ASCII) of [data], or null. */
    @JvmStatic external fun contentHash(scheme: ByteArray, data: ByteArray): ByteArray?

    /** A streaming hasher's handle, or 0. */
    @JvmStatic external fun hasherNew(scheme: ByteArray): Long

    @JvmStatic external fun hasherUpdate(handle: Long, chunk: ByteArray, length: Int): Boolean

    /** The hash text of everything fed (null when not [finish]); frees the handle either way. */
    @JvmStatic external fun hasherFinish(handle: Long, finish: Boolean): ByteArray?

    /** UTF-8 "code\nmessage" of the failure the last call on this thread left. */
    @JvmStatic external fun lastError(): ByteArray

    /** Throws the failure the last call on this thread left. */
    fun fail(): Nothing {
        val text = String(lastError(), Charsets.UTF_8)
        val code = text.substringBefore('\n')
        val message = text.substringAfter('\n')
        // Not a samekey failure of the input: a broken contract between this layer and the library.
        if (code == "panic" || code == "invalid_argument") throw IllegalStateException("samekey: $message")
        throw SamekeyException(code, message)
    }
}
