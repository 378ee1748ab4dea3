package io.github.samekey

import java.lang.ref.Cleaner
import java.lang.ref.Reference
import java.util.concurrent.ConcurrentHashMap

/**
 * A core deriver behind a JNI handle: scheme, namespace and secret checked and prepared
 * once. Safe for concurrent use. Its native memory is freed by a [Cleaner] once nothing
 * refers to it; [close] only ends its use, so that a `close()` racing a `derive()` on
 * another thread can never free memory a call is reading.
 */
internal class NativeDeriver(scheme: Scheme, private val namespace: String, secret: ByteArray?) {
    private val schemeId = scheme.id

    private val handle: Long

    @Volatile private var closed = false

    init {
        val made = Jni.deriverNew(scheme.id.toByteArray(Charsets.UTF_8), utf8(namespace, "namespace"), secret)
        handle = made
        CLEANER.register(this, Free(made))
    }

    /** The id of a [frame]'s fields at [ms]. */
    fun derive(ms: Long, frame: Frame): Ulid = run(ms, frame, false).ulid()

    /** The 26 ASCII characters of the id of a [frame]'s fields at [ms]. */
    fun deriveText(ms: Long, frame: Frame): ByteArray = run(ms, frame, true).text()

    /** The frame, with the id the native call wrote into it: its [text], or its halves. */
    private fun run(ms: Long, frame: Frame, text: Boolean): Frame {
        check(!closed) { "this UlidDeriver is closed" }
        try {
            Jni.derive(handle, ms, frame.address, frame.length, text)
        } finally {
            // The handle and the frame's memory must outlive the call: neither `this` nor
            // the buffer is collected (and freed) before here.
            Reference.reachabilityFence(this)
            frame.fence()
        }
        return frame
    }

    /**
     * Ids of the rows of [fields] at [times] into [out], two longs (the id's halves) a row:
     * -1, or the index in [fields] of the first field (in row order) holding a lone
     * surrogate, the rows before its row derived.
     */
    fun deriveBatch(times: LongArray, fields: Packed, out: LongArray): Int {
        check(!closed) { "this UlidDeriver is closed" }
        try {
            return Jni.deriveBatch(handle, fields.rows, times, fields.chars, fields.ends, fields.width, out)
        } finally {
            Reference.reachabilityFence(this)
        }
    }

    fun close() {
        closed = true
    }

    private class Free(private val handle: Long) : Runnable {
        override fun run() = Jni.deriverFree(handle)
    }

    companion object {
        private val CLEANER: Cleaner = Cleaner.create()

        /** Unkeyed derivers by scheme and namespace, for the top-level functions; bounded. */
        private val shared = ConcurrentHashMap<Pair<String, String>, NativeDeriver>()

        /** The last of them asked for: a caller's next id most often takes the same one. */
        @Volatile private var last: NativeDeriver? = null

        /** The deriver of [scheme] and [namespace] without a secret, prepared once (up to 256 kept). */
        fun unkeyed(scheme: Scheme, namespace: String): NativeDeriver {
            last?.let { if (it.schemeId == scheme.id && it.namespace == namespace) return it }
            val key = scheme.id to namespace
            val found = shared[key] ?: NativeDeriver(scheme, namespace, null).also {
                if (shared.size < 256) shared.putIfAbsent(key, it)
            }
            last = found
            return found
        }
    }
}
