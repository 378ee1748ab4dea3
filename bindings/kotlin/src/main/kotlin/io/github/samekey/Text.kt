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
