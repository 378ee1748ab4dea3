package io.github.samekey

import java.nio.ByteBuffer
import java.security.MessageDigest
import java.time.Instant
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import io.github.samekey.uniffi.deriveUlid as ffiDeriveUlid

/**
 * ns per id for each way to make one, against the pure-JVM peer in the same run:
 * interleaved rounds, each contender's median. Runs with SAMEKEY_BENCH_ROUNDS=N
 * (`just jvm::bench`); left out of ordinary test runs.
 */
class SpeedTable {
    /** The ~30 lines a JVM developer would write instead: MessageDigest and a Crockford loop. */
    private fun pureJvm(ms: Long, vararg fields: String): String {
        val sha = MessageDigest.getInstance("SHA-256")
        sha.update(ByteArray(64).also { "samekey/v1/ulid".toByteArray().copyInto(it) })
        val frame = ByteBuffer.allocate(8 + fields.sumOf { 4 + it.length * 3 })
        frame.putInt(0).putInt(fields.size) // empty namespace, field count
        for (f in fields) {
            val b = f.toByteArray(Charsets.UTF_8)
            frame.putInt(b.size).put(b)
        }
        sha.update(frame.array(), 0, frame.position())
        val digest = sha.digest()
        var hi = ms shl 16 or ((digest[0].toLong() and 0xff) shl 8) or (digest[1].toLong() and 0xff)
        var lo = 0L
        for (i in 2 until 10) lo = lo shl 8 or (digest[i].toLong() and 0xff)
        val out = CharArray(26)
        for (i in 25 downTo 0) {
            out[i] = CROCKFORD[(lo and 31).toInt()]
            lo = lo ushr 5 or (hi shl 59)
            hi = hi ushr 5
        }
        return String(out)
    }

    @Test
    fun speedTable() {
        val rounds = System.getenv("SAMEKEY_BENCH_ROUNDS")?.toInt() ?: 0
        assumeTrue(rounds > 0, "the speed table runs with SAMEKEY_BENCH_ROUNDS=N (just jvm::bench)")
        val n = 1024
        val times = LongArray(n) { 1714564800000L + it }
        val slugs = Array(n) { "my-first-post-%06d".format(it) }
        for (i in 0 until n) {
            assertEquals(deriveUlid(Instant.ofEpochMilli(times[i]), slugs[i], "en").text, pureJvm(times[i], slugs[i], "en"))
        }
        val deriver = UlidDeriver()
        val instants = List(n) { Instant.ofEpochMilli(times[it]) }
        val langs = List(n) { "en" }
        assertEquals(List(n) { pureJvm(times[it], slugs[it], "en") }, deriver.deriveMany(instants, listOf(slugs.asList(), langs)).map { it.text })
        val en = "en".toByteArray()
        var sink = 0
        val perRound = 50 * n
        val contenders = listOf<Pair<String, (Int) -> Unit>>(
            "pure JVM (MessageDigest SHA-256 + Crockford loop)" to { i -> sink += pureJvm(times[i], slugs[i], "en").length },
            "deriveUlid(at, slug, \"en\")" to { i -> sink += deriveUlid(Instant.ofEpochMilli(times[i]), slugs[i], "en").text.length },
            "UlidDeriver.derive(at, slug, \"en\")" to { i -> sink += deriver.derive(Instant.ofEpochMilli(times[i]), slugs[i], "en").text.length },
            // One call per 1,024 ids; its time is spread over them.
            "UlidDeriver.deriveMany(1,024 rows) per id" to { i ->
                if (i == 0) sink += deriver.deriveMany(instants, listOf(slugs.asList(), langs)).size
            },
            "generated uniffi deriveUlid (byte fields)" to { i ->
                sink += ffiDeriveUlid("v1", times[i], "", listOf(slugs[i].toByteArray(), en), null).ulid.length
            },
        )
        val samples = contenders.map { mutableListOf<Double>() }
        repeat(rounds) {
            contenders.forEachIndexed { c, (_, run) ->
                val start = System.nanoTime()
                for (k in 0 until perRound) run(k % n)
                samples[c] += (System.nanoTime() - start).toDouble() / perRound
            }
        }
        val medians = samples.map { it.sorted()[it.size / 2] }
        val table = StringBuilder("\n$rounds rounds of $perRound ids each (after the equality check warmed the JIT), medians; ratio = pure-JVM ns / ns\n\n")
        table.append("| way to make an id | ns / id | x pure JVM |\n|---|---:|---:|\n")
        contenders.forEachIndexed { c, (name, _) ->
            val ratio = if (c == 0) "" else "%.2fx".format(medians[0] / medians[c])
            table.append("| $name | %.0f | $ratio |\n".format(medians[c]))
        }
        println(table)
        println("(sink $sink)")
    }

    private companion object {
        const val CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    }
}
