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
 * else the repository's. scripts/test-kotlin-repo.sh copies this file into a fresh project
 * that depends on the published artifact.
 */
class VectorsTest {
    private fun hex(b: ByteArray): String = b.joinToString("") { "%02x".format(it) }

    private fun unhex(s: String): ByteArray = ByteArray(s.length / 2) { s.substring(2 * it, 2 * it + 2).toInt(16).toByte() }

    private fun at(v: JSONObject): Instant = Instant.ofEpochMilli(v.getLong("timestamp_ms"))

    private fun secret(v: JSONObject): ByteArray? = if (v.has("secret_hex")) unhex(v.getString("secret_hex")) else null

    /** The fields as bytes, and as text when every field is text (to run the text API too). */
    private fun fields(v: JSONObject): Pair<List<ByteArray>, List<String>?> {
        val arr = v.getJSONArray("fields")
        val raw = (0 until arr.length()).map { arr.get(it) }
        val bytes = raw.map { if (it is String) it.toByteArray(Charsets.UTF_8) else unhex((it as JSONObject).getString("hex")) }
        return bytes to if (raw.all { it is String }) raw.map { it as String } else null
    }

    private fun ring(v: JSONObject): KeyRing {
        val names = v.getJSONArray("accepted").let { a -> (0 until a.length()).map { Scheme(a.getString(it)) } }
        return KeyRing(names[0], names.drop(1))
    }

    private fun run(v: JSONObject): Map<String, Any> = when (v.getString("op")) {
        "ulid" -> {
            val scheme = Scheme(v.getString("scheme"))
            val ns = v.getString("namespace")
            val (bytes, texts) = fields(v)
            val id = deriveUlid(at(v), bytes, namespace = ns, scheme = scheme, secret = secret(v))
            if (texts != null) {
                val byText = deriveUlid(at(v), *texts.toTypedArray(), namespace = ns, scheme = scheme, secret = secret(v))
                check(byText == id) { "text fields gave $byText, byte fields $id" }
            }
            val prepared = UlidDeriver(namespace = ns, scheme = scheme, secret = secret(v)).derive(at(v), bytes)
            check(prepared == id) { "UlidDeriver gave $prepared, deriveUlid $id" }
            mapOf("ulid" to id.text, "uuid" to id.uuid, "message_hex" to hex(ulidMessage(bytes, ns, scheme)))
        }
        "content" -> {
            val data = unhex(v.getString("data_hex"))
            val scheme = Scheme(v.getString("scheme"))
            val hash = contentHash(data, scheme)
            check(contentHash(ByteArrayInputStream(data), scheme) == hash) { "the stream's hash differs" }
            mapOf("hash" to hash)
        }
        "content_json" -> mapOf(
            "canonical" to canonicalJson(v.getString("json")),
            "hash" to contentHashJson(v.getString("json"), Scheme(v.getString("scheme"))),
        )
        "revision" -> {
            val parent = if (v.isNull("parent")) null else v.getString("parent")
            val scheme = if (v.isNull("scheme")) null else Scheme(v.getString("scheme"))
            val hash = v.getString("content_hash")
            mapOf(
                "key" to revisionKey(hash, parent, scheme, secret(v)),
                "message_hex" to hex(revisionMessage(hash, parent, scheme)),
            )
        }
        "timestamp" -> mapOf("timestamp_ms" to parseRfc3339(v.getString("rfc3339")).toEpochMilli())
        "ulid_parse" -> Ulid.parse(v.getString("text")).let {
            mapOf("ulid" to it.text, "uuid" to it.uuid, "timestamp_ms" to it.timestampMs)
        }
        "key_parse" -> {
            val k = parseKey(v.getString("text"))
            val scheme = if (v.has("accepted")) ring(v).schemeOf(v.getString("text")) else k.scheme
            mapOf("kind" to k.kind, "scheme" to scheme.id, "canonical" to k.canonical)
        }
        "verify" -> mapOf(
            "scheme" to ring(v).verify(
                Ulid.parse(v.getString("ulid")), at(v), fields(v).first, namespace = v.getString("namespace"), secret = secret(v),
            ).id,
        )
        else -> error("unknown op ${v.getString("op")}")
    }

    /** The expectation as plain Kotlin values (numbers as Long), comparable with run()'s. */
    private fun expected(o: JSONObject): Map<String, Any> = o.keySet().associateWith { k ->
        when (val x = o.get(k)) {
            is Int -> x.toLong()
            else -> x
        }
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
            val got = try {
                run(v)
            } catch (e: SamekeyException) {
                mapOf("error" to e.code)
            }
            val want = expected(v.getJSONObject("expect"))
            if (got != want) failures += "${v.getString("id")}: expected $want, got $got"
        }
        assertTrue(failures.isEmpty(), failures.joinToString("\n"))
        assertTrue(vectors.length() > 0)
        println("${vectors.length()} vectors from $path")
    }
}
