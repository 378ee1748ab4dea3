package io.github.samekey

/**
 * A part of a batch's fields for [Jni.deriveBatch]: [rows] rows of [width] fields, a
 * column after another (`crates/samekey-wire/src/jvm` describes them), in arrays that
 * may be longer.
 */
internal class Packed(@JvmField val chars: CharArray, @JvmField val ends: IntArray, @JvmField val rows: Int, @JvmField val width: Int)

/**
 * A thread's arrays for the parts of batches it derives, kept for its next part while they
 * hold at most [KEEP_BYTES] (a 10,000-row batch of a slug and a language on one thread
 * takes about 0.8 MiB), rather than allocated and zeroed for every part (a tenth of a
 * 10,000-row batch's time on one thread, measured with the change that let the native
 * call read arrays longer than its rows). [take] takes them from the thread while in use,
 * so that a `List` whose `get` derives a batch itself gets arrays of its own.
 */
internal class Scratch private constructor() {
    @JvmField var chars = CharArray(0)
    @JvmField var ends = IntArray(0)
    private var ms = LongArray(0)
    private var halves = LongArray(0)

    /** Room for [rows] times. */
    fun ms(rows: Int): LongArray = (if (ms.size >= rows) ms else LongArray(rows)).also { ms = it }

    /** Room for [rows] ids as halves. */
    fun halves(rows: Int): LongArray = (if (halves.size >= 2 * rows) halves else LongArray(2 * rows)).also { halves = it }

    companion object {
        private const val KEEP_BYTES = 1L shl 20

        private val kept = ThreadLocal<Scratch>()

        /** This thread's arrays, or new ones. */
        fun take(): Scratch = kept.get()?.also { kept.set(null) } ?: Scratch()

        /** Keeps [scratch] for this thread's next part, if it is small enough. */
        fun keep(scratch: Scratch) {
            val bytes = 2L * scratch.chars.size + 4L * scratch.ends.size + 8L * (scratch.ms.size + scratch.halves.size)
            if (bytes <= KEEP_BYTES) kept.set(scratch)
        }
    }
}

/**
 * Text values packed as their UTF-16 code units into one array, with each value's end,
 * for the native side to check and encode: `String.getChars` copies a compact string's
 * bytes in a vector loop, where checking each character for ASCII here cost a
 * 20-character value 8 ns. The arrays are [scratch]'s, grown as they must be (the
 * characters from [units]).
 */
internal class CharPacker(private val scratch: Scratch, private val values: Int, units: Long) {
    private var chars = if (scratch.chars.size >= units) scratch.chars else CharArray(sizeOrFail(units).toInt())
    private val ends = (if (scratch.ends.size >= values) scratch.ends else IntArray(values)).also { scratch.ends = it }
    private var at = 0
    private var count = 0

    /**
     * Appends `values[from until until]`. One loop over locals, as the JIT keeps them in
     * registers (a call a value cost a fifth more); a value repeated from the row before
     * is copied like any other (copying it from the array was slower: 10.6 against 7.3 ns
     * a row of a slug and a language).
     */
    fun addAll(values: List<String>, from: Int, until: Int) {
        var chars = chars
        var at = at
        var count = count
        val ends = ends
        try {
            for (i in from until until) {
                val value = values[i]
                val length = value.length
                if (chars.size - at < length) chars = grown(chars, at.toLong() + length)
                value.toCharArray(chars, at, 0, length)
                at += length
                ends[count++] = at
            }
        } finally {
            this.chars = chars
            this.at = at
            this.count = count
        }
    }

    private fun grown(chars: CharArray, size: Long): CharArray =
        chars.copyOf(sizeOrFail(maxOf(size, 2L * chars.size).coerceAtMost(LIMIT)).toInt())

    /** The values as [rows] rows of [width], once every one was added (what follows the last is not read). */
    fun packed(rows: Int, width: Int): Packed {
        check(count == values && values == rows * width) { "$count of $values values packed" }
        scratch.chars = chars
        return Packed(chars, ends, rows, width)
    }

    private companion object {
        const val LIMIT = Int.MAX_VALUE - 8L

        fun sizeOrFail(size: Long): Long {
            require(size <= LIMIT) { "fields of $size characters or more exceed a Java array: derive them in smaller batches" }
            return size
        }
    }
}
