package io.github.samekey

import java.io.ByteArrayInputStream
import java.io.File
import java.time.Instant
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Every shared vector through the public Kotlin API: the file named by SAMEKEY_VECTORS,
 * else the repository's. bindings/kotlin/scripts/test-repo.sh copies this file into a fresh project
 * that depends on the published artifact.
 */
class VectorsTest {
    private fun hex(b: ByteArray): String = b.joinToString("") { "%02x".format(it) }

    private fun unhex(s: String): ByteArray = ByteArray(s.length / 2) { s.substring(2 * it, 2 * it + 2).toInt(16).toByte() }

    /**
     * A vector's time as the Kotlin API takes it, an Instant. A fraction of a millisecond
     * (spec §10.1) is not a millisecond count, and Kotlin's API takes no floating-point
     * time, so it fails here with the code of that host conversion (spec §8.2).
     */
    private fun at(v: JSONObject): Instant {
        val t = v.getBigDecimal("timestamp_ms")
        if (t.stripTrailingZeros().scale() > 0) throw SamekeyException("invalid_timestamp", "$t is not an integer number of milliseconds")
        // Beyond Long: the bound of the same sign, out of range as the value is (spec §10.1).
        val ms = t.toBigInteger().max(Long.MIN_VALUE.toBigInteger()).min(Long.MAX_VALUE.toBigInteger()).toLong()
        return Instant.ofEpochMilli(ms)
    }

    /**
     * The vector's time once its strings are converted (spec §2.2: strings first). The API
     * checks the strings it is given; when one is not valid Unicode, a valid instant goes
     * with it, so that the API itself must refuse the text.
     */
    private fun atAfter(v: JSONObject, vararg strings: String?): Instant =
        if (strings.all { it == null || isWellFormed(it) }) at(v) else Instant.EPOCH

    private fun secret(v: JSONObject): ByteArray? = if (v.has("secret_hex")) unhex(v.getString("secret_hex")) else null

    /** The fields as bytes, and as text when every field is text (to run the text API too). */
    /** Text, or `{"utf16": ...}` code units (spec §10.1) as the String Java makes of them, lone surrogates included. */
    private fun text(t: Any): String = when (t) {
        is String -> t
        else -> String(unhex((t as JSONObject).getString("utf16")).toList().chunked(2) { (hi, lo) ->
            ((hi.toInt() and 0xFF shl 8) or (lo.toInt() and 0xFF)).toChar()
        }.toCharArray())
    }

    private fun isWellFormed(s: String): Boolean = s.codePoints().noneMatch { it in 0xD800..0xDFFF }

    /**
     * The fields as bytes, and as text when every field is text. Text that is not valid
     * Unicode has no UTF-8 bytes (Java would write '?'), so then only the text API, which
     * must refuse it, is run.
     */
    private fun fields(v: JSONObject): Pair<List<ByteArray>?, List<String>?> {
        val arr = v.getJSONArray("fields")
        val raw = (0 until arr.length()).map { arr.get(it) }
        val isBytes = { f: Any -> f is JSONObject && f.has("hex") }
        val texts = if (raw.none(isBytes)) raw.map(::text) else null
        val bytes = if (texts?.all(::isWellFormed) == false) null else raw.map {
            if (isBytes(it)) unhex((it as JSONObject).getString("hex")) else text(it).toByteArray(Charsets.UTF_8)
        }
        return bytes to texts
    }

    private fun ring(v: JSONObject): KeyRing =
        KeyRing.of(v.getJSONArray("accepted").let { a -> (0 until a.length()).map { text(a.get(it)) } }.map(::Scheme))

    private fun str(v: JSONObject, key: String): String = text(v.get(key))

    private fun scheme(v: JSONObject): Scheme = Scheme(str(v, "scheme"))

    private fun parent(v: JSONObject): String? = if (v.isNull("parent")) null else text(v.get("parent"))

    private fun namespace(v: JSONObject): String = text(v.get("namespace"))

    private fun run(v: JSONObject): Map<String, Any> = when (v.getString("op")) {
        "ulid" -> {
            val scheme = scheme(v)
            val ns = namespace(v)
            val (bytes, texts) = fields(v)
            val at = atAfter(v, ns, *(texts ?: emptyList()).toTypedArray())
            val byText = texts?.let { deriveUlid(at, *it.toTypedArray(), namespace = ns, scheme = scheme, secret = secret(v)) }
            val id = bytes?.let { deriveUlid(at, it, namespace = ns, scheme = scheme, secret = secret(v)) }
                ?: error("text that is not valid Unicode derived $byText")
            check(byText == null || byText == id) { "text fields gave $byText, byte fields $id" }
            val prepared = UlidDeriver(namespace = ns, scheme = scheme, secret = secret(v)).derive(at, bytes!!)
            check(prepared == id) { "UlidDeriver gave $prepared, deriveUlid $id" }
            mapOf("ulid" to id.text, "uuid" to id.uuid, "message_hex" to hex(ulidMessage(bytes!!, ns, scheme)))
        }
        "content" -> {
            val data = unhex(v.getString("data_hex"))
            val scheme = scheme(v)
            val hash = contentHash(data, scheme)
            check(contentHash(ByteArrayInputStream(data), scheme) == hash) { "the stream's hash differs" }
            mapOf("hash" to hash)
        }
        "content_json" -> {
            // The hash first: it checks the scheme before the text (spec §6.1).
            val json = str(v, "json")
            val hash = contentHashJson(json, scheme(v))
            mapOf("canonical" to canonicalJson(json), "hash" to hash)
        }
        "revision" -> {
            val parent = parent(v)
            val scheme = if (v.isNull("scheme")) null else scheme(v)
            val hash = str(v, "content_hash")
            mapOf(
                "key" to revisionKey(hash, parent, scheme, secret(v)),
                "message_hex" to hex(revisionMessage(hash, parent, scheme)),
            )
        }
        "timestamp" -> mapOf("timestamp_ms" to parseRfc3339(str(v, "rfc3339")).toEpochMilli())
        "ulid_parse" -> Ulid.parse(str(v, "text")).let {
            mapOf("ulid" to it.text, "uuid" to it.uuid, "timestamp_ms" to it.timestampMs)
        }
        "key_parse" -> {
            // A ring is checked when it is made, before it parses anything (spec §9.1).
            val ring = if (v.has("accepted")) ring(v) else null
            val k = parseKey(str(v, "text"))
            val scheme = ring?.schemeOf(str(v, "text")) ?: k.scheme
            mapOf("kind" to k.kind, "scheme" to scheme.id, "canonical" to k.canonical)
        }
        "verify" -> {
            val ring = ring(v)
            val (bytes, texts) = fields(v)
            // The id first, as a host with an id type parses it before the call: its text's
            // conversion comes before the time's (spec §9.2).
            val id = Ulid.parse(str(v, "ulid"))
            val at = atAfter(v, namespace(v), *(texts ?: emptyList()).toTypedArray())
            val scheme = if (texts != null) {
                ring.verify(id, at, *texts.toTypedArray(), namespace = namespace(v), secret = secret(v))
            } else {
                ring.verify(id, at, bytes!!, namespace = namespace(v), secret = secret(v))
            }
            mapOf("scheme" to scheme.id)
        }
        "candidates" -> {
            val ring = ring(v)
            val (bytes, texts) = fields(v)
            val at = atAfter(v, namespace(v), *(texts ?: emptyList()).toTypedArray())
            val found = if (texts != null) {
                ring.candidates(at, *texts.toTypedArray(), namespace = namespace(v), secret = secret(v))
            } else {
                ring.candidates(at, bytes!!, namespace = namespace(v), secret = secret(v))
            }
            mapOf("candidates" to found.map { (s, id) -> mapOf("scheme" to s.id, "ulid" to id.text) })
        }
        "ring_revision" -> mapOf("key" to ring(v).let { r -> r.revisionKey(str(v, "content_hash"), parent(v), secret(v)) })
        "needs_write" -> mapOf(
            "needs_write" to needsWrite(if (v.isNull("stored")) null else str(v, "stored"), str(v, "incoming")),
        )
        else -> error("unknown op ${v.getString("op")}")
    }

    /** The expectation as plain Kotlin values (numbers as Long), comparable with run()'s. */
    private fun expected(o: JSONObject): Map<String, Any> = o.keySet().associateWith { k -> plain(o.get(k)) }

    private fun plain(x: Any): Any = when (x) {
        is Int -> x.toLong()
        is JSONObject -> expected(x)
        is org.json.JSONArray -> (0 until x.length()).map { plain(x.get(it)) }
        else -> x
    }

    @Test
    fun everyVector() {
        val path = System.getenv("SAMEKEY_VECTORS") ?: System.getenv("SAMEKEY_VECTORS_DEFAULT")
            ?: error("set SAMEKEY_VECTORS to a vector file")
        val doc = JSONObject(File(path).readText())
        assertEquals("samekey-test-vectors/1", doc.getString("schema"))
        val vectors = doc.getJSONArray("vectors")
        val failures = mutableListOf<String>()
        val ids = HashSet<String>()
        for (i in 0 until vectors.length()) {
            val v = vectors.getJSONObject(i)
            check(ids.add(v.getString("id"))) { "duplicate vector id ${v.getString("id")}" }
            // Anything a vector throws fails that vector alone (spec §10.1): the run goes on.
            val got = try {
                run(v)
            } catch (e: SamekeyException) {
                mapOf("error" to e.code)
            } catch (e: Exception) {
                mapOf("exception" to e.toString())
            }
            val want = expected(v.getJSONObject("expect"))
            if (got != want) failures += "${v.getString("id")}: expected $want, got $got"
        }
        assertTrue(failures.isEmpty(), failures.joinToString("\n"))
        assertTrue(vectors.length() > 0)
        println("${vectors.length()} vectors from $path")
    }
}
