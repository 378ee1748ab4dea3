package io.github.samekey.registry

import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import kotlin.random.Random
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test

/**
 * `just registry::bench-clients`: the client against bare `java.net.http` on the same
 * HttpClient (kept-alive), interleaved rounds, medians: a small JSON registration and a
 * 256 MiB file streamed; skipped without -Dsamekey.bench=URL.
 */
class RegistryBench {
    @Test
    fun clientAgainstBareHttp() {
        val url = System.getProperty("samekey.bench")
        assumeTrue(url != null, "a benchmark: -Dsamekey.bench=URL")
        val rounds = Integer.getInteger("samekey.bench.rounds", 9)
        val n = Integer.getInteger("samekey.bench.small", 2000)
        val http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
        val registry = Registry(url, http = http, skipUploadAbove = null)
        val text = """{"n":3,"tags":["a","b"],"title":"Hello"}"""
        registry.registerJson(text)
        val post = { body: HttpRequest.BodyPublisher, type: String ->
            http.send(HttpRequest.newBuilder(URI.create("$url/v1/revisions")).header("Content-Type", type).POST(body).build(), HttpResponse.BodyHandlers.ofString())
        }
        val bare = mutableListOf<Double>()
        val ours = mutableListOf<Double>()
        repeat(rounds) {
            var t = System.nanoTime()
            repeat(n) { check(post(HttpRequest.BodyPublishers.ofString(text), JSON).statusCode() == 200) }
            bare += (System.nanoTime() - t) / 1e3 / n
            t = System.nanoTime()
            repeat(n) { registry.registerJson(text) }
            ours += (System.nanoTime() - t) / 1e3 / n
        }
        val mib = Integer.getInteger("samekey.bench.mib", 256)
        val file = Files.createTempFile("samekey-bench", ".bin")
        Files.newOutputStream(file).use { out -> val block = Random.nextBytes(1 shl 20); repeat(mib) { block[0] = it.toByte(); out.write(block) } }
        // New data each run (every run stores it; the lookup finds nothing): its last bytes.
        val renew = {
            java.io.RandomAccessFile(file.toFile(), "rw").use { it.seek((mib.toLong() shl 20) - 16); it.write(Random.nextBytes(16)) }
        }
        val lookup = Registry(url, http = http) // the default: hashed, looked up, then sent
        val bareBig = mutableListOf<Double>()
        val oursBig = mutableListOf<Double>()
        val lookupBig = mutableListOf<Double>()
        repeat(3) {
            renew()
            var t = System.nanoTime()
            check(post(HttpRequest.BodyPublishers.ofFile(file), BYTES).statusCode() < 300)
            bareBig += (System.nanoTime() - t) / 1e9
            for ((client, times) in listOf(registry to oursBig, lookup to lookupBig)) {
                renew()
                t = System.nanoTime()
                check(client.registerFile(file).created)
                times += (System.nanoTime() - t) / 1e9
            }
        }
        Files.delete(file)
        fun median(xs: List<Double>) = xs.sorted()[xs.size / 2]
        val (b, o, bb, ob) = listOf(median(bare), median(ours), median(bareBig), median(oursBig))
        val lb = median(lookupBig)
        val rss = Runtime.getRuntime().let { (it.totalMemory() - it.freeMemory()) shr 20 }
        println("| JVM ${System.getProperty("java.version")} (java.net.http) | bare | Registry | ratio (bare / client) |")
        println("|---|---:|---:|---:|")
        println("| small JSON registration, kept-alive, median of $rounds rounds of $n | %.0f µs | %.0f µs | %.2fx |".format(b, o, b / o))
        println("| $mib MiB file, hashed while sent (`skipUploadAbove = null`; heap in use after: $rss MiB) | %.0f MiB/s | %.0f MiB/s | %.2fx |".format(mib / bb, mib / ob, bb / ob))
        println("| $mib MiB, hashed, looked up (not there), then sent (the default) | %.0f MiB/s | %.0f MiB/s | %.2fx |".format(mib / bb, mib / lb, bb / lb))
    }
}
