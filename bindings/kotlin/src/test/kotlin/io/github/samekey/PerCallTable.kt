package io.github.samekey

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import io.github.samekey.uniffi.contentHashJsonText as ffiContentHashJson
import io.github.samekey.uniffi.needsWrite as ffiNeedsWrite
import io.github.samekey.uniffi.parseKey as ffiParseKey
import io.github.samekey.uniffi.parseRfc3339 as ffiParseRfc3339
import io.github.samekey.uniffi.parseUlid as ffiParseUlid
import io.github.samekey.uniffi.ulidMessage as ffiUlidMessage
import io.github.samekey.uniffi.KeyRing as FfiRing
import java.time.Instant

/**
 * ns per call of the per-document calls that moved from uniffi's generated layer (JNA) to
 * the library's JNI, against that generated call in the same run: interleaved rounds, each
 * contender's median. Runs with SAMEKEY_BENCH_ROUNDS=N (`just jvm::bench-calls`); left
 * out of ordinary test runs.
 */
class PerCallTable {
    @Test
    fun perCallTable() {
        val rounds = System.getenv("SAMEKEY_BENCH_ROUNDS")?.toInt() ?: 0
        assumeTrue(rounds > 0, "the per-call table runs with SAMEKEY_BENCH_ROUNDS=N (just jvm::bench-calls)")
        val json = """{"title":"Hello, world","n":[1,2]}"""
        val stored = contentHash(json.toByteArray())
        val incoming = contentHash("x".toByteArray())
        val text = "01hwt0d7g0nxvjzmma9tw58ebh"
        val time = "2024-05-01T12:00:00.123+02:00"
        val ring = KeyRing(Scheme.V2, listOf(Scheme.V1))
        val ffiRing = FfiRing("v2", listOf("v1"))
        val at = Instant.parse("2024-05-01T12:00:00Z")
        val fields = listOf("hello-world".toByteArray(), "en".toByteArray())
        val old = deriveUlid(at, fields, namespace = "posts")
        val calls = listOf<Triple<String, () -> Any, () -> Any>>(
            Triple("contentHashJson (a ${json.length}-byte document)", { contentHashJson(json) }, { ffiContentHashJson("v1", json) }),
            Triple("needsWrite", { needsWrite(stored, incoming) }, { ffiNeedsWrite(stored, incoming) }),
            Triple("Ulid.parse", { Ulid.parse(text) }, { ffiParseUlid(text) }),
            Triple("parseKey (a content hash)", { parseKey(stored) }, { ffiParseKey(stored) }),
            Triple("parseRfc3339", { parseRfc3339(time) }, { ffiParseRfc3339(time) }),
            Triple("KeyRing.verify (a v1 id, ring v2+v1)", { ring.verify(old, at, fields, namespace = "posts") },
                { ffiRing.verifyUlid(old.text, at.toEpochMilli(), "posts", fields, null) }),
            Triple("KeyRing.candidates", { ring.candidates(at, fields, namespace = "posts") },
                { ffiRing.candidateUlids(at.toEpochMilli(), "posts", fields, null) }),
            Triple("KeyRing.schemeOf", { ring.schemeOf(stored) }, { ffiRing.schemeOfKey(stored) }),
            Triple("ulidMessage", { ulidMessage(fields, "posts") }, { ffiUlidMessage("v1", "posts", fields) }),
        )
        // Both ways give the same answer before either is timed.
        assertEquals(contentHashJson(json), ffiContentHashJson("v1", json))
        assertEquals(needsWrite(stored, incoming), ffiNeedsWrite(stored, incoming))
        assertEquals(Ulid.parse(text).bytes.toList(), ffiParseUlid(text).bytes.toList())
        assertEquals(parseKey(stored).canonical, ffiParseKey(stored).canonical)
        assertEquals(parseRfc3339(time).toEpochMilli(), ffiParseRfc3339(time))
        assertEquals(ring.verify(old, at, fields, namespace = "posts").id, ffiRing.verifyUlid(old.text, at.toEpochMilli(), "posts", fields, null))
        assertEquals(ring.candidates(at, fields, namespace = "posts").map { it.second.text }, ffiRing.candidateUlids(at.toEpochMilli(), "posts", fields, null).map { it.ulid.ulid })
        assertEquals(ring.schemeOf(stored).id, ffiRing.schemeOfKey(stored))
        assertEquals(ulidMessage(fields, "posts").toList(), ffiUlidMessage("v1", "posts", fields).toList())
        val perRound = 20_000
        var sink = 0
        val samples = calls.map { List(2) { mutableListOf<Double>() } }
        repeat(rounds) {
            calls.forEachIndexed { c, (_, jni, jna) ->
                listOf(jni, jna).forEachIndexed { way, call ->
                    val start = System.nanoTime()
                    repeat(perRound) { sink += call().hashCode() }
                    samples[c][way] += (System.nanoTime() - start).toDouble() / perRound
                }
            }
        }
        val table = StringBuilder("\n$rounds rounds of $perRound calls each, medians; ratio = generated ns / JNI ns\n\n")
        table.append("| call | JNI (the public API) | uniffi over JNA (generated) | ratio |\n|---|---:|---:|---:|\n")
        calls.forEachIndexed { c, (name, _, _) ->
            val (jni, jna) = samples[c].map { it.sorted()[it.size / 2] }
            table.append("| $name | %,.0f ns | %,.0f ns | %.0fx |\n".format(jni, jna, jna / jni))
        }
        println(table)
        println("(sink $sink)")
    }
}
