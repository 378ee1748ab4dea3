package io.github.samekey.registry

import io.github.samekey.KeyRing
import io.github.samekey.SamekeyException
import io.github.samekey.Scheme
import io.github.samekey.contentHash
import io.github.samekey.contentHashJson
import io.github.samekey.revisionKey
import java.io.ByteArrayInputStream
import java.io.File
import java.io.InputStream
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import java.time.Duration
import java.util.UUID
import kotlin.random.Random
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.assertThrows

/**
 * The JVM registry client against `samekey serve` (SAMEKEY_BIN, else the workspace's
 * debug build) and the HTTP fault proxy (crates/samekey-registry/tests/clients).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegistryTest {
    private val repo = File("../..").canonicalFile
    private val processes = mutableListOf<Process>()
    private lateinit var url: String
    private lateinit var proxy: String
    private val http = HttpClient.newHttpClient()

    private fun start(prefix: String, vararg command: String): String {
        val process = ProcessBuilder(*command).redirectError(ProcessBuilder.Redirect.DISCARD).start()
        processes += process
        val line = process.inputStream.bufferedReader().readLine() ?: error("${command[0]} printed nothing")
        check(line.startsWith(prefix)) { "${command[0]}: $line" }
        return line.removePrefix(prefix).trim()
    }

    @BeforeAll
    fun startRegistry() {
        val bin = System.getenv("SAMEKEY_BIN") ?: File(repo, "target/debug/samekey").path
        val db = Files.createTempDirectory("samekey-jvm-registry").resolve("r.db")
        url = start("listening on ", bin, "serve", "--database", "sqlite:$db", "--listen", "127.0.0.1:0")
        val script = File(repo, "crates/samekey-registry/tests/clients/httpfaults.py").path
        proxy = "http://" + start("listening ", "python3", script, "--target", url.removePrefix("http://"))
    }

    @AfterAll
    fun stop() = processes.forEach { it.destroy() }

    private fun control(path: String, body: String? = null): String {
        val b = HttpRequest.newBuilder(URI.create(proxy + path))
        val request = if (body == null) b.GET().build() else b.POST(HttpRequest.BodyPublishers.ofString(body)).build()
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body()
    }

    private fun statuses(): List<Int?> =
        (Json.parse(control("/__log")) as List<*>).map { ((it as Map<*, *>)["status"] as Number?)?.toInt() }

    private fun random(n: Int) = Random.nextBytes(n)

    private val fast = Retry(3, Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofSeconds(20))

    @Test
    fun jsonInAnySpellingIsOneRevisionWithTheKeyDerivedHere() {
        val id = UUID.randomUUID()
        val registry = Registry(url)
        val text = """{"title":"Grüße 😀","n":1500,"tags":["a","b"],"id":"$id"}"""
        val first = registry.registerJson(text)
        assertTrue(first.created)
        assertEquals(revisionKey(contentHashJson(text)), first.key)
        val again = registry.registerJson("""{ "tags": ["a","b"], "n": 1.5e3, "id": "$id", "title": "Gr\u00fc\u00dfe \ud83d\ude00" }""")
        assertEquals(first.key to false, again.key to again.created)
        assertEquals(again, registry.revision(first.key))
    }

    @Test
    fun bytesFilesAndStreamsOfTheSameDataAreOneRevision() {
        val registry = Registry(url)
        val data = random(3 shl 20)
        val root = registry.registerJson("""{"root":"${UUID.randomUUID()}"}""")
        val first = registry.registerBytes(data, root.key)
        assertEquals(revisionKey(contentHash(data), root.key), first.key)
        val file = Files.createTempFile("samekey", ".bin").also { Files.write(it, data) }
        for (rev in listOf(
            registry.registerFile(file, root.key),
            registry.registerStream({ ByteArrayInputStream(data) }, root.key),
            registry.registerStream(ByteArrayInputStream(data) as InputStream, root.key),
        )) {
            assertEquals(first.key to false, rev.key to rev.created)
        }
        assertTrue(registry.data(first.key).use { it.readAllBytes() }.contentEquals(data))
        assertEquals(listOf(first.key, root.key), registry.history(first.key).map { it.key })
        assertEquals(listOf(first.key), registry.history(first.key, 1).map { it.key })
        val missing = revisionKey(contentHash(random(16)))
        for ((call, code, status) in listOf(
            Triple({ registry.revision(missing) }, "not_found", 404),
            Triple({ registry.data(missing) }, "not_found", 404),
            Triple({ registry.registerJson("{}", missing) }, "unknown_parent", 422),
            Triple({ registry.history(missing, 0) }, "invalid_query", 400),
        )) {
            val e = assertThrows<RegistryException> { call() }
            assertEquals(code to status, e.code to e.status)
            assertTrue(e is SamekeyException && e.detail.isNotEmpty())
        }
    }

    @Test
    fun aKeyOfAnotherRingIsRefusedAndAnOlderSchemeOfTheRingAccepted() {
        val text = """{"ring":"${UUID.randomUUID()}"}"""
        val e = assertThrows<RegistryException> { Registry(url, ring = KeyRing(Scheme.V2)).registerJson(text) }
        assertEquals("key_mismatch", e.code)
        assertTrue(e.answered!!.startsWith("rev:v1:") && e.expected!!.startsWith("rev:v2:"))
        val found = Registry(url, ring = KeyRing(Scheme.V2, listOf(Scheme.V1))).registerJson(text)
        assertEquals("v1" to false, found.scheme to found.created)
    }

    @Test
    fun aLargePayloadTheRegistryHasIsNotUploadedAgain() {
        val data = random(2 shl 20)
        val registry = Registry(proxy)
        control("/__reset", "{}")
        val first = registry.registerBytes(data)
        assertEquals(listOf(404, 201), statuses())
        control("/__reset", "{}")
        val again = registry.registerBytes(data)
        assertEquals(first.key to false, again.key to again.created)
        val log = Json.parse(control("/__log")) as List<*>
        assertEquals(1, log.size)
        assertEquals(0L, (log[0] as Map<*, *>)["body_bytes"])
    }

    @Test
    fun emptyFilesAndStreamsRegisterAsEmptyBytesDo() {
        val registry = Registry(url)
        val bytes = registry.registerBytes(ByteArray(0))
        val file = registry.registerFile(Files.createTempFile("empty", ".bin"))
        val reopened = registry.registerStream(java.util.function.Supplier<InputStream> { ByteArrayInputStream(ByteArray(0)) })
        val oneShot = registry.registerStream(ByteArrayInputStream(ByteArray(0)))
        assertEquals(listOf(bytes.key, bytes.key, bytes.key), listOf(file.key, reopened.key, oneShot.key))
        assertEquals(listOf(0L, 0L, 0L), listOf(file.size, reopened.size, oneShot.size))
    }

    @Test
    fun theReadmeExampleRunsTwiceAndCreatesNothingTheSecondTime() {
        val file = Files.createTempFile("data", ".csv").also { Files.writeString(it, "id,name\n1,${UUID.randomUUID()}\n") }
        val first = publish(url, file)
        val second = publish(url, file)
        assertEquals(Triple(true, false, first.key), Triple(first.created, second.created, second.key))
        val readme = File("README.md").readText()
        val block = Regex("<!-- tested: bindings/kotlin/src/test/kotlin/io/github/samekey/registry/RegistryTest.kt -->\n```kotlin\n([\\s\\S]*?)```").find(readme)?.groupValues?.get(1)
        val example = File("src/test/kotlin/io/github/samekey/registry/RegistryExample.kt").readText()
        assertTrue(block != null && example.contains(block), "README.md's registry block is not a part of RegistryExample.kt")
    }

    /**
     * The JVM side of the cross-language test (crates/samekey-registry/tests/clients/
     * test_cross.sh): with -Dsamekey.cross=URL, registers payloads.json's payloads there in
     * order and writes one key a line to -Dsamekey.cross.out.
     */
    @Test
    fun crossLanguage() {
        val target = System.getProperty("samekey.cross")
        assumeTrue(target != null, "run by test_cross.sh with -Dsamekey.cross=URL")
        val payloads = (Json.parse(File(repo, "crates/samekey-registry/tests/clients/payloads.json").readText()) as Map<*, *>)["payloads"] as List<*>
        val registry = Registry(target)
        val keys = payloads.map { p ->
            val m = p as Map<*, *>
            when {
                m["json"] != null -> registry.registerJson(m["json"] as String)
                m["value"] != null -> registry.registerJson(m["value"] as String) // the JVM has no JSON value type
                else -> registry.registerBytes(hex(m["hex"] as String))
            }.key
        }
        File(System.getProperty("samekey.cross.out")).writeText(keys.joinToString("\n", postfix = "\n"))
    }

    private fun hex(s: String) = ByteArray(s.length / 2) { s.substring(2 * it, 2 * it + 2).toInt(16).toByte() }

    @Test
    fun `a certificate that does not verify fails the first attempt, not retried`() {
        val dir = Files.createTempDirectory("samekey-jvm-tls")
        val (key, cert) = dir.resolve("key.pem").toString() to dir.resolve("cert.pem").toString()
        val openssl = ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", cert)
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
        assertEquals(0, openssl.waitFor())
        val bin = System.getenv("SAMEKEY_BIN") ?: File(repo, "target/debug/samekey").path
        val tls = start("listening on ", bin, "serve", "--database", "sqlite:${dir.resolve("r.db")}", "--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key)
        val patient = Retry(3, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(20))
        val started = System.nanoTime()
        val e = assertThrows<RegistryException> { Registry(tls.replace("127.0.0.1", "localhost"), retry = patient).registerJson("""{"rows": 3}""") }
        assertEquals("connection_failed", e.code)
        assertTrue("certificate did not verify" in e.message!! && "not retried" in e.message!!, e.message)
        assertTrue(System.nanoTime() - started < 1_000_000_000, "took ${(System.nanoTime() - started) / 1_000_000} ms: retried")
    }

    @Test
    fun `an answer that trickles in a byte at a time stops at the deadline`() {
        control("/__reset", "{}")
        control("/__faults", List(4) { """{"kind":"trickle","interval":0.3,"method":"POST"}""" }.joinToString(",", "[", "]"))
        val data = random(4096)
        val patient = Registry(proxy, retry = Retry(3, Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofSeconds(6)), timeout = Duration.ofSeconds(2))
        val started = System.nanoTime()
        val e = assertThrows<RegistryException> { patient.registerBytes(data) }
        val took = (System.nanoTime() - started) / 1_000_000
        assertTrue(e.code in setOf(RegistryException.DEADLINE_EXCEEDED, RegistryException.CONNECTION_FAILED), e.code)
        assertTrue(took in 5500..7500, "$took ms for a 6 s deadline")
        control("/__reset", "{}")
        assertFalse(Registry(proxy).registerBytes(data).created)
    }

    @Test
    fun `input samekey refuses throws its own exception, and nothing is sent`() {
        // No registry on port 9: a request would fail with connection_failed.
        val registry = Registry("http://127.0.0.1:9", retry = Retry(0, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofSeconds(1)))
        for ((text, code) in listOf(
            """{"a": 1, "a": 2}""" to "duplicate_key",
            """{"a": 1e400}""" to "number_out_of_range",
            "{\"a\": \"\\ud800\"}" to "invalid_json",
            "\"\uD800\"" to "invalid_string",
        )) {
            val e = assertThrows<SamekeyException> { registry.registerJson(text) }
            assertEquals(code to false, e.code to (e is RegistryException), text)
        }
    }

    @Test
    fun faults() {
        val registry = Registry(proxy, retry = fast)
        for ((faults, want, created) in listOf(
            Triple("""[{"kind":"drop_response","method":"POST"}]""", listOf(null, 200), false),
            Triple("""[{"kind":"cut_body","after":1000,"method":"POST"}]""", listOf(null, 201), true),
            // Committed, then the answer cut mid-way: retried as a lost answer, found.
            Triple("""[{"kind":"cut_answer","after":5,"method":"POST"}]""", listOf(201, 200), false),
            Triple("""[{"kind":"status","status":503},{"kind":"status","status":429,"code":"too_many_requests","retry_after":"1"}]""", listOf(503, 429, 201), true),
        )) {
            control("/__reset", "{}")
            control("/__faults", faults)
            val started = System.nanoTime()
            val rev = registry.registerBytes(random(4096))
            assertEquals(want to created, statuses() to rev.created)
            if (429 in want) assertTrue(System.nanoTime() - started >= 1_000_000_000)
        }
        // Below skipUploadAbove (or with it null) a file or a Supplier's stream is hashed
        // while sent: each attempt hashes anew (a cut body, then a lost answer, then found).
        val cutThenLost = """[{"kind":"cut_body","after":1000,"method":"POST"},{"kind":"drop_response","method":"POST"}]"""
        val data0 = random(4096)
        val file = Files.createTempFile("samekey", ".bin").also { Files.write(it, data0) }
        for ((client, call) in listOf<Pair<Registry, (Registry) -> Revision>>(
            registry to { r -> r.registerFile(file) },
            Registry(proxy, retry = fast, skipUploadAbove = null) to { r -> r.registerStream({ ByteArrayInputStream(data0) }) },
        )) {
            control("/__reset", "{}")
            control("/__faults", cutThenLost)
            val rev = call(client)
            assertEquals(listOf(null, null, 200) to false, statuses() to rev.created)
            assertEquals(revisionKey(contentHash(data0)) to data0.size.toLong(), rev.key to rev.size)
        }
        Files.delete(file)
        control("/__reset", "{}")
        control("/__faults", """[{"kind":"status","status":409,"code":"conflict"}]""")
        assertEquals("conflict", assertThrows<RegistryException> { registry.registerBytes(random(64)) }.code)
        assertEquals(listOf(409), statuses())
        control("/__reset", "{}")
        control("/__faults", """[{"kind":"drop_response","method":"POST"}]""")
        assertEquals("not_rewindable", assertThrows<RegistryException> { registry.registerStream(ByteArrayInputStream(random(4096)) as InputStream) }.code)
        assertEquals(listOf<Int?>(null), statuses())
        control("/__reset", "{}")
        control("/__faults", """[{"kind":"delay","seconds":3,"method":"POST"},{"kind":"delay","seconds":3,"method":"POST"},{"kind":"delay","seconds":3,"method":"POST"}]""")
        val data = random(4096)
        val impatient = Registry(proxy, retry = Retry(5, Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofMillis(1200)), timeout = Duration.ofMillis(500))
        val started = System.nanoTime()
        val e = assertThrows<RegistryException> { impatient.registerBytes(data) }
        assertTrue(e.code in setOf("deadline_exceeded", "connection_failed"), e.code)
        assertTrue(System.nanoTime() - started < 2_500_000_000, "${(System.nanoTime() - started) / 1_000_000} ms")
        Thread.sleep(3000)
        control("/__reset", "{}")
        assertFalse(Registry(proxy).registerBytes(data).created)
    }
}
