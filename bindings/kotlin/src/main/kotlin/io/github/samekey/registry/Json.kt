package io.github.samekey.registry

/**
 * Reads the registry's JSON answers (objects of strings, numbers, booleans and nulls, and
 * arrays of them): the artifact depends on no JSON library. Numbers are read as Long when
 * integral, else Double. Not a general parser: a malformed answer is an
 * `IllegalArgumentException`, which the client reports as `unexpected_response`.
 */
internal class Json private constructor(private val text: String) {
    private var at = 0

    companion object {
        fun parse(text: String): Any? = Json(text).run {
            val value = value()
            space()
            require(at == text.length) { "text after the JSON value" }
            value
        }
    }

    private fun space() {
        while (at < text.length && text[at] in " \t\r\n") at++
    }

    private fun value(): Any? {
        space()
        require(at < text.length) { "the JSON text ends early" }
        return when (val c = text[at]) {
            '{' -> obj()
            '[' -> array()
            '"' -> string()
            't' -> literal("true", true)
            'f' -> literal("false", false)
            'n' -> literal("null", null)
            else -> if (c == '-' || c.isDigit()) number() else throw IllegalArgumentException("unexpected '$c' at $at")
        }
    }

    private fun literal(word: String, value: Any?): Any? {
        require(text.startsWith(word, at)) { "unexpected text at $at" }
        at += word.length
        return value
    }

    private fun obj(): Map<String, Any?> {
        val out = LinkedHashMap<String, Any?>()
        at++
        space()
        if (text.getOrNull(at) == '}') return out.also { at++ }
        while (true) {
            space()
            val key = string()
            space()
            require(text.getOrNull(at) == ':') { "expected ':' at $at" }
            at++
            out[key] = value()
            space()
            when (text.getOrNull(at)) {
                ',' -> at++
                '}' -> return out.also { at++ }
                else -> throw IllegalArgumentException("expected ',' or '}' at $at")
            }
        }
    }

    private fun array(): List<Any?> {
        val out = ArrayList<Any?>()
        at++
        space()
        if (text.getOrNull(at) == ']') return out.also { at++ }
        while (true) {
            out += value()
            space()
            when (text.getOrNull(at)) {
                ',' -> at++
                ']' -> return out.also { at++ }
                else -> throw IllegalArgumentException("expected ',' or ']' at $at")
            }
        }
    }

    private fun string(): String {
        require(text.getOrNull(at) == '"') { "expected a string at $at" }
        at++
        val out = StringBuilder()
        while (true) {
            require(at < text.length) { "an unterminated string" }
            when (val c = text[at++]) {
                '"' -> return out.toString()
                '\\' -> {
                    when (val e = text[at++]) {
                        'u' -> out.append(text.substring(at, at + 4).toInt(16).toChar()).also { at += 4 }
                        'n' -> out.append('\n')
                        't' -> out.append('\t')
                        'r' -> out.append('\r')
                        'b' -> out.append('\b')
                        'f' -> out.append('\u000c')
                        else -> out.append(e)
                    }
                }
                else -> out.append(c)
            }
        }
    }

    private fun number(): Number {
        val start = at
        while (at < text.length && (text[at].isDigit() || text[at] in "+-.eE")) at++
        val literal = text.substring(start, at)
        return literal.toLongOrNull() ?: literal.toDouble()
    }
}
