package io.github.samekey

/**
 * The UTF-8 bytes of [text], refusing a lone UTF-16 surrogate with `invalid_string`
 * (spec §2.2). `String.toByteArray()` and the generated bindings would replace it with
 * `?`, silently deriving the key of different text; once [checked], nothing is replaced.
 */
internal fun utf8(text: String, what: String): ByteArray = checked(text, what).toByteArray(Charsets.UTF_8)

/** [text] itself, refused with `invalid_string` if it holds a lone UTF-16 surrogate. */
internal fun checked(text: String, what: String): String {
    for (i in text.indices) {
        val c = text[i]
        val paired = when {
            Character.isHighSurrogate(c) -> i + 1 < text.length && Character.isLowSurrogate(text[i + 1])
            Character.isLowSurrogate(c) -> i > 0 && Character.isHighSurrogate(text[i - 1])
            else -> true
        }
        if (!paired) throw SamekeyException("invalid_string", "$what is not valid Unicode text (a lone UTF-16 surrogate at index $i)")
    }
    return text
}

/** Fields as one buffer of UTF-8 and each field's end offset: the shape [Jni] takes. */
internal class Packed(@JvmField val bytes: ByteArray, @JvmField val ends: IntArray)

/**
 * Text [fields], already checked by [utf8Length] (whose lengths add up to [total]),
 * encoded to UTF-8 in one buffer.
 */
internal fun pack(fields: Array<out String>, total: Int): Packed {
    val bytes = ByteArray(total)
    val ends = IntArray(fields.size)
    var at = 0
    for (i in fields.indices) {
        at = encode(fields[i], bytes, at)
        ends[i] = at
    }
    return Packed(bytes, ends)
}

/** Where a frame's fields start: room for the id the native call writes back, the count. */
private const val FRAME_HEAD = 26 + 4

/**
 * Text [fields] as one frame for [Jni.derive]: 26 bytes the id is written into, the field
 * count and each field's UTF-8 length (u32, little-endian), then the UTF-8, checked for
 * lone surrogates as it is written. One array: one pinned array in the native call.
 */
internal fun frame(fields: Array<out String>): ByteArray {
    var total = 0
    for (i in fields.indices) {
        val n = utf8Length(fields[i])
        if (n < 0) checked(fields[i], "field $i") // throws, naming the index
        total += n
    }
    val frame = ByteArray(FRAME_HEAD + 4 * fields.size + total)
    putInt(frame, 26, fields.size)
    var at = FRAME_HEAD + 4 * fields.size
    for (i in fields.indices) {
        val end = encode(fields[i], frame, at)
        putInt(frame, FRAME_HEAD + 4 * i, end - at)
        at = end
    }
    return frame
}

/** Byte [fields] as one frame for [Jni.derive]. */
internal fun frame(fields: List<ByteArray>): ByteArray {
    var total = 0L
    for (f in fields) total += f.size
    require(FRAME_HEAD + 4L * fields.size + total <= Int.MAX_VALUE - 8) { "fields of $total bytes exceed a Java array" }
    val frame = ByteArray(FRAME_HEAD + 4 * fields.size + total.toInt())
    putInt(frame, 26, fields.size)
    var at = FRAME_HEAD + 4 * fields.size
    for (i in fields.indices) {
        putInt(frame, FRAME_HEAD + 4 * i, fields[i].size)
        fields[i].copyInto(frame, at)
        at += fields[i].size
    }
    return frame
}

private fun putInt(into: ByteArray, at: Int, value: Int) {
    into[at] = value.toByte()
    into[at + 1] = (value shr 8).toByte()
    into[at + 2] = (value shr 16).toByte()
    into[at + 3] = (value shr 24).toByte()
}

/** The UTF-8 length of [text], or -1 if it holds a lone surrogate (see [checked]). */
internal fun utf8Length(text: String): Int {
    var n = 0
    var i = 0
    while (i < text.length) {
        val c = text[i]
        n += when {
            c.code < 0x80 -> 1
            c.code < 0x800 -> 2
            Character.isHighSurrogate(c) && i + 1 < text.length && Character.isLowSurrogate(text[i + 1]) -> { i++; 4 }
            Character.isSurrogate(c) -> return -1
            else -> 3
        }
        i++
    }
    return n
}

/** [text] (checked) as UTF-8 at [at] in [out]; the offset after it. */
private fun encode(text: String, out: ByteArray, at: Int): Int {
    var p = at
    var i = 0
    while (i < text.length) {
        val c = text[i].code
        when {
            c < 0x80 -> out[p++] = c.toByte()
            c < 0x800 -> {
                out[p++] = (0xC0 or (c shr 6)).toByte()
                out[p++] = (0x80 or (c and 0x3F)).toByte()
            }
            Character.isHighSurrogate(text[i]) -> {
                val cp = Character.toCodePoint(text[i], text[++i])
                out[p++] = (0xF0 or (cp shr 18)).toByte()
                out[p++] = (0x80 or ((cp shr 12) and 0x3F)).toByte()
                out[p++] = (0x80 or ((cp shr 6) and 0x3F)).toByte()
                out[p++] = (0x80 or (cp and 0x3F)).toByte()
            }
            else -> {
                out[p++] = (0xE0 or (c shr 12)).toByte()
                out[p++] = (0x80 or ((c shr 6) and 0x3F)).toByte()
                out[p++] = (0x80 or (c and 0x3F)).toByte()
            }
        }
        i++
    }
    return p
}
