package io.github.samekey

/**
 * The UTF-8 bytes of [text], refusing a lone UTF-16 surrogate with `invalid_string`
 * (spec §2.2). `String.toByteArray()` and the generated bindings would replace it with
 * `?`, silently deriving the key of different text; once [checked], nothing is replaced.
 */
internal fun utf8(text: String, what: String): ByteArray = utf8OrNull(text) ?: throw loneSurrogate(text, what)

/** [text] itself, refused with `invalid_string` if it holds a lone UTF-16 surrogate. */
internal fun checked(text: String, what: String): String {
    if (utf8Length(text) < 0) throw loneSurrogate(text, what)
    return text
}

/** The `invalid_string` failure of [text] (which holds a lone surrogate), naming where. */
internal fun loneSurrogate(text: String, what: String): SamekeyException {
    var i = 0
    while (i < text.length) {
        val c = text[i]
        if (Character.isHighSurrogate(c) && i + 1 < text.length && Character.isLowSurrogate(text[i + 1])) {
            i += 2
        } else if (Character.isSurrogate(c)) {
            break
        } else {
            i++
        }
    }
    return SamekeyException("invalid_string", "$what is not valid Unicode text (a lone UTF-16 surrogate at index $i)")
}

/** Fields as one buffer of UTF-8 and each field's end offset: the shape [Jni] takes. */
internal class Packed(@JvmField val bytes: ByteArray, @JvmField val ends: IntArray)

/** UTF-8 [fields] (whose sizes add up to [total]) in one buffer. */
internal fun pack(fields: Array<ByteArray>, total: Int): Packed {
    val bytes = ByteArray(total)
    val ends = IntArray(fields.size)
    var at = 0
    for (i in fields.indices) {
        fields[i].copyInto(bytes, at)
        at += fields[i].size
        ends[i] = at
    }
    return Packed(bytes, ends)
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
