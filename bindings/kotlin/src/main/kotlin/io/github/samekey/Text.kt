package io.github.samekey

/**
 * The UTF-8 bytes of [text], refusing a lone UTF-16 surrogate with `invalid_string`
 * (spec §2.2). `String.toByteArray()` and the generated bindings would replace it with
 * `?`, silently deriving the key of different text; once [checked], nothing is replaced.
 */
internal fun utf8(text: String, what: String): ByteArray = utf8OrNull(text) ?: throw loneSurrogate(text, what)

/** [text] itself, refused with `invalid_string` if it holds a lone UTF-16 surrogate. */
internal fun checked(text: String, what: String): String {
    if (loneSurrogateAt(text) >= 0) throw loneSurrogate(text, what)
    return text
}

/**
 * The UTF-8 of [text], or null if it holds a lone UTF-16 surrogate. `toByteArray` is the
 * JVM's fast encoder but writes `?` for a lone surrogate: where that could have happened
 * (a `?` in the output of text that is one byte a character, or any non-ASCII text) the
 * text is scanned.
 */
internal fun utf8OrNull(text: String): ByteArray? {
    val bytes = text.toByteArray(Charsets.UTF_8)
    if (bytes.size == text.length && QUESTION !in bytes) return bytes
    return if (loneSurrogateAt(text) >= 0) null else bytes
}

private const val QUESTION = '?'.code.toByte()

/** The `invalid_string` failure of [text] (which holds a lone surrogate), naming where. */
internal fun loneSurrogate(text: String, what: String): SamekeyException =
    SamekeyException("invalid_string", "$what is not valid Unicode text (a lone UTF-16 surrogate at index ${loneSurrogateAt(text)})")

/** Whether [text] holds no lone UTF-16 surrogate. */
internal fun isValidText(text: String): Boolean = loneSurrogateAt(text) < 0

/** The index of the first lone UTF-16 surrogate of [text], or -1. */
private fun loneSurrogateAt(text: String): Int {
    var i = 0
    while (i < text.length) {
        val c = text[i]
        if (Character.isHighSurrogate(c) && i + 1 < text.length && Character.isLowSurrogate(text[i + 1])) {
            i += 2
        } else if (Character.isSurrogate(c)) {
            return i
        } else {
            i++
        }
    }
    return -1
}

/** A batch's fields for [Jni.deriveBatch], a column after another (`crates/samekey-wire/src/jvm.rs` describes them). */
internal class Packed(@JvmField val bytes: ByteArray, @JvmField val ends: IntArray)

/** Whether [text] is ASCII: an OR of its characters, a loop the JIT unrolls. */
internal fun isAscii(text: String): Boolean {
    var any = 0
    for (i in 0 until text.length) any = any or text[i].code
    return any < 0x80
}

/**
 * Writes ASCII [text] into [dst] from [at], a byte a character: the JDK copies a compact
 * string's bytes as they are (a loop over the characters cost a 10,000-row batch 6 ns a
 * row more). [dst] has room for them.
 */
internal fun copyAscii(text: String, dst: ByteArray, at: Int) {
    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    (text as java.lang.String).getBytes(0, text.length, dst, at)
}

/**
 * Text values packed as UTF-8 into one array, with each value's end: an ASCII value is
 * copied a character a byte, with no array of its own; any other through [utf8OrNull],
 * checked. The array starts at [units] bytes (the values' UTF-16 lengths added up fit
 * ASCII) and grows as it must.
 */
internal class TextPacker(values: Int, units: Long) {
    private var bytes = ByteArray(sizeOrFail(units).toInt())
    private val ends = IntArray(values)
    private var at = 0
    private var count = 0

    /**
     * Appends `values[from until until]`, stopping before the first that holds a lone
     * surrogate: its index, or -1 once all are appended. One loop over locals, as the JIT
     * keeps them in registers (a call a value cost a fifth more).
     */
    fun addAll(values: List<String>, from: Int, until: Int): Int {
        var bytes = bytes
        var at = at
        var count = count
        val ends = ends
        var last: String? = null
        var lastStart = 0
        try {
            for (i in from until until) {
                val value = values[i]
                val start = at
                if (value === last) {
                    // A column's repeated value (a language, a tenant) is checked once.
                    val length = at - lastStart
                    if (bytes.size - at < length) bytes = grown(bytes, at.toLong() + length)
                    System.arraycopy(bytes, lastStart, bytes, at, length)
                    at += length
                } else if (isAscii(value)) {
                    if (bytes.size - at < value.length) bytes = grown(bytes, at.toLong() + value.length)
                    copyAscii(value, bytes, at)
                    at += value.length
                } else {
                    val utf8 = utf8OrNull(value) ?: return i
                    if (bytes.size - at < utf8.size) bytes = grown(bytes, at.toLong() + utf8.size)
                    utf8.copyInto(bytes, at)
                    at += utf8.size
                }
                last = value
                lastStart = start
                ends[count++] = at
            }
            return -1
        } finally {
            this.bytes = bytes
            this.at = at
            this.count = count
        }
    }

    private fun grown(bytes: ByteArray, size: Long): ByteArray =
        bytes.copyOf(sizeOrFail(maxOf(size, 2L * bytes.size).coerceAtMost(LIMIT)).toInt())

    /** The values, once every one was added (the bytes after the last one's end are not read). */
    fun packed(): Packed {
        check(count == ends.size) { "$count of ${ends.size} values packed" }
        return Packed(bytes, ends)
    }

    private companion object {
        const val LIMIT = Int.MAX_VALUE - 8L

        fun sizeOrFail(size: Long): Long {
            require(size <= LIMIT) { "fields of $size bytes or more exceed a Java array: derive them in smaller batches" }
            return size
        }
    }
}
