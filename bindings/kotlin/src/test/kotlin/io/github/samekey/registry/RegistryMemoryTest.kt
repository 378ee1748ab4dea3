package io.github.samekey.registry

import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import kotlin.random.Random
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

private const val FILE_MIB = 384
private const val HEAP_MIB = 64

/**
 * A file larger than the process may hold is sent in bounded memory, hashed while sent
 * and hashed first: each registration runs in a JVM of its own whose heap ([HEAP_MIB] MiB)
 * cannot hold the file (the probe checks that it cannot), so buffering it would fail.
 */
class RegistryMemoryTest {
    @Test
    fun aFileLargerThanTheHeapIsRegistered() {
        val dir = Files.createTempDirectory("samekey-jvm-memory")
        val file = dir.resolve("big.bin")
        Files.newOutputStream(file).use { out -> val block = Random.nextBytes(1 shl 20); repeat(FILE_MIB) { block[0] = it.toByte(); out.write(block) } }
        val bin = System.getenv("SAMEKEY_BIN") ?: File("../../target/debug/samekey").canonicalPath
        val server = ProcessBuilder(bin, "serve", "--database", "sqlite:${dir.resolve("r.db")}", "--listen", "127.0.0.1:0", "--body-limit", "${(FILE_MIB + 1) shl 20}")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start()
        try {
            val url = server.inputStream.bufferedReader().readLine().removePrefix("listening on ").trim()
            for (skip in listOf("none", "${1 shl 20}")) {
                val (size, peak) = probe(url, file, skip)
                println("registered $FILE_MIB MiB with a $HEAP_MIB MiB heap, skipUploadAbove $skip: peak RSS $peak MiB")
                assertEquals(FILE_MIB.toLong() shl 20, size)
            }
        } finally {
            server.destroy()
            dir.toFile().deleteRecursively()
        }
    }

    private fun probe(url: String, file: Path, skip: String): Pair<Long, Long> {
        val java = File(System.getProperty("java.home"), "bin/java").path
        val properties = System.getProperties().stringPropertyNames().filter { it.startsWith("samekey.") }.map { "-D$it=${System.getProperty(it)}" }
        val command = listOf(java, "-Xmx${HEAP_MIB}m") + properties +
            listOf("-cp", System.getProperty("java.class.path"), RegistryMemoryProbe::class.java.name, url, file.toString(), skip)
        val process = ProcessBuilder(command).redirectErrorStream(true).start()
        val output = process.inputStream.bufferedReader().readText()
        assertTrue(process.waitFor(300, TimeUnit.SECONDS) && process.exitValue() == 0, output)
        val line = output.lines().single { it.startsWith("size=") }.split(' ').associate { it.substringBefore('=') to it.substringAfter('=').toLong() }
        return line.getValue("size") to line.getValue("peak_mib")
    }
}

/** The child: checks that its heap cannot hold the file, then registers it. */
object RegistryMemoryProbe {
    @JvmStatic
    fun main(args: Array<String>) {
        val (url, file, skip) = args
        val fits = try {
            ByteArray(Files.size(Path.of(file)).toInt()).size > 0
        } catch (_: OutOfMemoryError) {
            false
        }
        check(!fits) { "the heap limit does not hold: the file fits in memory" }
        val registry = Registry(url, timeout = java.time.Duration.ofMinutes(5), skipUploadAbove = skip.toLongOrNull())
        val rev = registry.registerFile(Path.of(file))
        val peak = File("/proc/self/status").readLines().first { it.startsWith("VmHWM:") }.split(Regex("\\s+"))[1].toLong() shr 10
        println("size=${rev.size} peak_mib=$peak")
    }
}
