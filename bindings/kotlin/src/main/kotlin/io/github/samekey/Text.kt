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

/** A batch's fields for [Jni.deriveBatch], a column after another (`crates/samekey-wire/src/jvm` describes them). */
internal class Packed(@JvmField val chars: CharArray, @JvmField val ends: IntArray)

/**
 * Text values packed as their UTF-16 code units into one array, with each value's end,
 * for the native side to check and encode: `String.getChars` copies a compact string's
 * bytes in a vector loop, where checking each character for ASCII here cost a
 * 20-character value 8 ns. The array starts at [units] characters and grows as it must.
 */
internal class CharPacker(values: Int, units: Long) {
    private var chars = CharArray(sizeOrFail(units).toInt())
    private val ends = IntArray(values)
    private var at = 0
    private var count = 0

    /**
     * Appends `values[from until until]`. One loop over locals, as the JIT keeps them in
     * registers (a call a value cost a fifth more).
     */
    fun addAll(values: List<String>, from: Int, until: Int) {
        var chars = chars
        var at = at
        var count = count
        val ends = ends
        var last: String? = null
        var lastStart = 0
        try {
            for (i in from until until) {
                val value = values[i]
                val start = at
                // A column's repeated value (a language, a tenant) is copied from the one before.
                val length = if (value === last) at - lastStart else value.length
                if (chars.size - at < length) chars = grown(chars, at.toLong() + length)
                if (value !== last) {
                    value.toCharArray(chars, at, 0, length)
                } else if (length <= SHORT) {
                    for (k in 0 until length) chars[at + k] = chars[lastStart + k]
                } else {
                    System.arraycopy(chars, lastStart, chars, at, length)
                }
                at += length
                last = value
                lastStart = start
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

    /** The values, once every one was added (the characters after the last one's end are not read). */
    fun packed(): Packed {
        check(count == ends.size) { "$count of ${ends.size} values packed" }
        return Packed(chars, ends)
    }

    private companion object {
        const val LIMIT = Int.MAX_VALUE - 8L

        /** Repeated values this long or shorter are copied by a loop, not a call. */
        const val SHORT = 8

        fun sizeOrFail(size: Long): Long {
            require(size <= LIMIT) { "fields of $size characters or more exceed a Java array: derive them in smaller batches" }
            return size
        }
    }
}
