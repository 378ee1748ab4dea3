package io.github.samekey

import java.io.File
import java.time.Instant
import org.json.JSONObject

/**
 * Kotlin's column of `just bench-matrix` (bench/matrix/protocol.md): the public API as
 * Kotlin calls it (`JavaMatrixRunner` is Java's).
 */
object MatrixRunner {
    /** The cases file's inputs. */
    private class Cases(path: String) {
        private val json = JSONObject(File(path).readText())
        val at: Instant = Instant.ofEpochMilli(json.getLong("time_ms"))
        val namespace: String = json.getString("namespace")
        val fields: List<String> = json.getJSONArray("fields").map { it as String }
        val ulid: String = json.getString("ulid")
        val json_: String = json.getString("json")
        val small: ByteArray = json.getString("small").toByteArray()
        val large: ByteArray = ByteArray(json.getInt("large_bytes")) { (it * 131).toByte() }
        val rfc3339: String = json.getString("rfc3339")
        val parent: String = json.getString("parent")
        val ring: List<Scheme> = json.getJSONArray("ring").map { Scheme(it as String) }
    }

    /** A line of milliseconds a round answered by a JSON line of ns per call, until EOF. */
    private fun serve(ops: List<Pair<String, () -> Any?>>) {
        var sink = 0
        while (true) {
            val line = readLine() ?: return
            val budget = line.trim().toLong() * 1_000_000
            val cells = ops.map { (name, op) ->
                var n = 1L
                var took: Long
                while (true) {
                    val start = System.nanoTime()
                    for (i in 0 until n) sink += op().hashCode()
                    took = System.nanoTime() - start
                    if (took >= budget) break
                    n *= 2
                }
                "\"$name\":%.1f".format(took.toDouble() / n)
            }
            println("{${cells.joinToString(",")},\"sink\":${sink and 1}}")
            System.out.flush()
        }
    }

    @JvmStatic
    fun main(args: Array<String>) {
        val c = Cases(System.getenv("SAMEKEY_MATRIX_CASES"))
        val fields = c.fields.toTypedArray()
        val deriver = UlidDeriver(c.namespace)
        val ring = KeyRing.of(c.ring)
        val stored = contentHash(c.small)
        val incoming = contentHashJson(c.json_)
        val old = deriveUlid(c.at, *fields, namespace = c.namespace)
        val id = Ulid.parse(c.ulid)
        serve(listOf(
            "crossing" to { Ulid.fromBytes(id.bytes) },
            "ulid" to { deriveUlid(c.at, *fields, namespace = c.namespace) },
            "ulid_v2" to { deriveUlid(c.at, *fields, namespace = c.namespace, scheme = Scheme.V2) },
            "ulid_prepared" to { deriver.derive(c.at, *fields) },
            "ulid_parse" to { Ulid.parse(c.ulid) },
            "ulid_text" to { Ulid.fromUuid(id.toUuid()).text },
            "ulid_bytes" to { id.bytes },
            "hash_40" to { contentHash(c.small) },
            "hash_1m" to { contentHash(c.large) },
            "content_json" to { contentHashJson(c.json_) },
            "canonical_json" to { canonicalJson(c.json_) },
            "revision_key" to { revisionKey(stored, c.parent) },
            "key_parse" to { parseKey(stored) },
            "ring_verify" to { ring.verify(old, c.at, *fields, namespace = c.namespace) },
            "ring_candidates" to { ring.candidates(c.at, *fields, namespace = c.namespace) },
            "needs_write" to { needsWrite(stored, incoming) },
            "rfc3339" to { parseRfc3339(c.rfc3339) },
        ))
    }
}
