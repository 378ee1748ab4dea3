package io.github.samekey

import java.nio.ByteBuffer
import java.nio.ByteOrder

/**
 * One id's fields for [Jni.derive] as a frame (`crates/samekey-wire/src/jvm` describes
 * it), in the calling thread's direct buffer. The native call reads the buffer at its
 * address, so nothing is pinned or copied across JNI; a thread reuses its buffer for
 * every id.
 */
internal class Frame private constructor(capacity: Int) {
    private val buffer: ByteBuffer = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN)

    /** The buffer's native address, asked once. */
    @JvmField val address: Long = Jni.address(buffer)

    /** The bytes written: the frame's length for the native call. */
    @JvmField var length: Int = 0

    /**
     * Where [writeText] encodes before one copy into [buffer] (a heap array's stores are
     * the JVM's cheapest); made for a kept frame's first text fields.
     */
    private var scratch: ByteArray? = null

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

    /**
     * Text [fields], which fit in the capacity at 3 bytes a UTF-16 unit (UTF-8's most): an
     * ASCII field is copied a character a byte with no array of its own (most identity
     * fields are slugs, codes and numbers); any other goes through [utf8], checked.
     */
    private fun writeText(fields: Array<out String>): Frame {
        val scratch = scratch ?: ByteArray(buffer.capacity()).also { scratch = it }
        putInt(scratch, 26, fields.size)
        var at = HEAD + 4 * fields.size
        for (i in fields.indices) {
            val field = fields[i]
            val n = if (isAscii(field)) {
                copyAscii(field, scratch, at)
                field.length
            } else {
                val bytes = utf8(field, "field $i")
                bytes.copyInto(scratch, at)
                bytes.size
            }
            putInt(scratch, HEAD + 4 * i, n)
            at += n
        }
        // Lengths too are written on the heap, so the direct buffer takes one bulk copy:
        // its own puts each check bounds and scope (8 ns an id in crossed JMH runs).
        buffer.clear()
        buffer.position(26)
        buffer.put(scratch, 26, at - 26)
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

    /** The id the native call wrote as its two halves (the buffer's byte order). */
    fun ulid(): Ulid = Ulid.ofBits(buffer.getLong(0), buffer.getLong(8))

    /** Keeps the buffer (and its memory) alive up to here: after the native call. */
    fun fence(): Unit = java.lang.ref.Reference.reachabilityFence(buffer)

    /** A native call that reads the frame at ([address], [length]), the buffer kept alive through it. */
    inline fun <T> read(call: (address: Long, length: Int) -> T): T = try {
        call(address, length)
    } finally {
        fence()
    }

    companion object {
        private const val HEAD = 26 + 4

        private fun putInt(array: ByteArray, at: Int, value: Int) {
            array[at] = value.toByte()
            array[at + 1] = (value ushr 8).toByte()
            array[at + 2] = (value ushr 16).toByte()
            array[at + 3] = (value ushr 24).toByte()
        }

        /** A thread keeps a buffer up to this size; a larger frame gets its own. */
        private const val KEPT = 1 shl 16

        private val local = ThreadLocal<Frame>()

        /** Text [fields], each checked for lone surrogates (`invalid_string`, naming its index). */
        fun of(fields: Array<out String>): Frame {
            var units = 0L
            for (f in fields) units += f.length
            val bound = HEAD + 4L * fields.size + 3 * units
            if (bound > KEPT) return of(Array(fields.size) { i -> utf8(fields[i], "field $i") })
            val kept = local.get()
            if (kept != null && kept.buffer.capacity() >= bound) return kept.writeText(fields)
            return Frame(capacityFor(bound)).also { local.set(it) }.writeText(fields)
        }

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
            return Frame(capacityFor(size)).also { local.set(it) }.write(fields)
        }

        /** A kept buffer's capacity for [size] bytes (at most [KEPT]): a power of two from 256. */
        private fun capacityFor(size: Long): Int {
            var capacity = 256
            while (capacity < size) capacity *= 2
            return capacity
        }
    }
}
