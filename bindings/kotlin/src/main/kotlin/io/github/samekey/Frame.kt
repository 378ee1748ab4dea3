package io.github.samekey

import java.nio.ByteBuffer
import java.nio.ByteOrder

/**
 * One id's fields for [Jni.derive], in the calling thread's direct buffer: 26 bytes the id
 * is written back into, the field count and each field's UTF-8 length (u32,
 * little-endian), then the UTF-8. The native call reads the buffer at its address, so
 * nothing is pinned or copied across JNI; a thread reuses its buffer for every id.
 */
internal class Frame private constructor(capacity: Int) {
    private val buffer: ByteBuffer = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN)

    /** The buffer's native address, asked once. */
    @JvmField val address: Long = Jni.address(buffer)

    /** The bytes written: the frame's length for the native call. */
    @JvmField var length: Int = 0

    private fun write(fields: Array<out ByteArray>): Frame {
        buffer.clear()
        buffer.putInt(26, fields.size)
        var at = HEAD + 4 * fields.size
        buffer.position(at)
        for (i in fields.indices) {
            buffer.putInt(HEAD + 4 * i, fields[i].size)
            buffer.put(fields[i])
            at += fields[i].size
        }
        length = at
        return this
    }

    /** The id the native call wrote: its 26 ASCII characters. */
    fun text(): ByteArray {
        val text = ByteArray(26)
        buffer.position(0)
        buffer.get(text)
        return text
    }

    fun ulid(): Ulid = ulidOfText(text())

    /** Keeps the buffer (and its memory) alive up to here: after the native call. */
    fun fence(): Unit = java.lang.ref.Reference.reachabilityFence(buffer)

    companion object {
        private const val HEAD = 26 + 4

        /** A thread keeps a buffer up to this size; a larger frame gets its own. */
        private const val KEPT = 1 shl 16

        private val local = ThreadLocal<Frame>()

        /** Text [fields], each checked for lone surrogates (`invalid_string`, naming its index). */
        fun of(fields: Array<out String>): Frame =
            of(Array(fields.size) { i -> utf8(fields[i], "field $i") })

        /** Byte [fields], read once (a list's own code runs before the frame is written). */
        fun of(fields: List<ByteArray>): Frame = of(fields.toTypedArray())

        /** Byte [fields] (an array the caller does not change during the call). */
        fun of(fields: Array<out ByteArray>): Frame {
            var size = HEAD + 4L * fields.size
            for (f in fields) size += f.size
            require(size <= Int.MAX_VALUE - 8) { "fields of $size bytes exceed a Java array" }
            val kept = local.get()
            if (kept != null && kept.buffer.capacity() >= size) return kept.write(fields)
            if (size > KEPT) return Frame(size.toInt()).write(fields)
            var capacity = 256
            while (capacity < size) capacity *= 2
            return Frame(capacity).also { local.set(it) }.write(fields)
        }
    }
}
