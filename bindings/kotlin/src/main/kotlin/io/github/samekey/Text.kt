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
