package io.github.samekey

import java.nio.ByteBuffer
import java.nio.CharBuffer
import java.nio.charset.CharacterCodingException
import java.nio.charset.CodingErrorAction

/**
 * The UTF-8 bytes of [text], refusing a lone UTF-16 surrogate with `invalid_string`
 * (spec §2.2). `String.toByteArray()` and the generated bindings would replace it with
 * `?`, silently deriving the key of different text.
 */
internal fun utf8(text: String, what: String): ByteArray {
    val encoder = Charsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
    val out: ByteBuffer = try {
        encoder.encode(CharBuffer.wrap(text))
    } catch (e: CharacterCodingException) {
        throw SamekeyException("invalid_string", "$what is not valid Unicode text (a lone UTF-16 surrogate)", e)
    }
    return ByteArray(out.remaining()).also { out.get(it) }
}

/** [text] itself, once checked as [utf8] checks it: for arguments passed on as strings. */
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
