package io.github.samekey

import java.io.ByteArrayInputStream
import java.time.Instant
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/**
 * A panic in any stage of any kind of JNI entry point reaches the caller as a
 * [SamekeyException] with code "panic", and the JVM carries on: the library's test hook
 * ([Jni.panicAt]) makes the next call that passes a stage panic there.
 */
class JniPanicTest {
    private val at = Instant.parse("2024-05-01T12:00:00Z")
    private val data = ByteArray(3 shl 20) { it.toByte() } // three critical sections
    private val hash = contentHash(data)
    private val id = UlidDeriver("posts").derive(at, "hello-world", "en")

    private fun utf8(s: String) = s.toByteArray(Charsets.UTF_8)

    @AfterEach
    fun disarm() = Jni.panicAt(0)

    /** Arms [stage], runs [call], expects the panic's exception, then a working library. */
    private fun panics(what: String, stage: Int, call: () -> Any?) {
        Jni.panicAt(stage)
        val e = assertThrows<SamekeyException>("$what, stage $stage") { call() }
        assertEquals("panic", e.code, "$what, stage $stage")
        assertTrue(e.message!!.contains("test hook"), e.message)
        Jni.panicAt(0)
        // A pinned section left held would stall this collection for good.
        System.gc()
        assertEquals(hash, contentHash(data))
        assertEquals(id, UlidDeriver("posts").derive(at, "hello-world", "en"))
    }

    @Test
    fun handleMakers() {
        for (stage in 1..2) {
            panics("deriverNew", stage) { Jni.deriverNew(utf8("v1"), utf8("posts"), null) }
            panics("hasherNew", stage) { Jni.hasherNew(utf8("v1")) }
            panics("ringNew", stage) { KeyRing(Scheme.V2, listOf(Scheme.V1)) }
        }
        // The ring's constructor reads its accepted list back: a result array.
        for (stage in listOf(4)) panics("ringAccepted", stage) { KeyRing(Scheme.V2, listOf(Scheme.V1)) }
    }

    @Test
    fun handleFreers() {
        val deriver = Jni.deriverNew(utf8("v1"), utf8("posts"), null)
        panics("deriverFree", 1) { Jni.deriverFree(deriver) }
        Jni.deriverFree(deriver) // not freed by the call that panicked first
        val hasher = Jni.hasherNew(utf8("v1"))
        panics("hasherFinish", 1) { Jni.hasherFinish(hasher, false) }
        Jni.hasherFinish(hasher, false)
        val ring = Frame.of(listOf(utf8("v1"))).read { address, length -> Jni.ringNew(address, length) }
        panics("ringFree", 1) { Jni.ringFree(ring) }
        Jni.ringFree(ring)
    }

    @Test
    fun keyRings() {
        val ring = KeyRing(Scheme.V2, listOf(Scheme.V1))
        val old = deriveUlid(at, "hello-world", "en", namespace = "posts")
        for (stage in listOf(1, 2, 4)) {
            panics("ringVerify", stage) { ring.verify(old, at, "hello-world", "en", namespace = "posts") }
            panics("ringCandidates", stage) { ring.candidates(at, "hello-world", "en", namespace = "posts") }
            panics("ringRevisionKey", stage) { ring.revisionKey(hash) }
            panics("ulidMessage", stage) { ulidMessage(listOf(utf8("a")), "posts", Scheme.V2) }
        }
        // An index answers: no result array to write (stage 4).
        for (stage in 1..2) panics("ringSchemeOf", stage) { ring.schemeOf(hash) }
        for (stage in listOf(1, 4)) panics("version", stage) { samekeyVersion }
    }

    @Test
    fun theFramePath() {
        val deriver = UlidDeriver("posts")
        for (stage in listOf(1, 2, 4)) panics("derive", stage) { deriver.derive(at, "hello-world", "en") }
        // A frame above the thread's kept size takes a new buffer, whose address is asked.
        val long = "x".repeat(70_000)
        for (stage in 1..2) panics("address", stage) { deriver.derive(at, long) }
    }

    @Test
    fun theBatchPath() {
        val deriver = UlidDeriver("posts")
        for (stage in listOf(1, 2, 4)) {
            panics("deriveBatch", stage) { deriver.deriveMany(listOf(at, at), listOf(listOf("a", "b"))) }
        }
    }

    @Test
    fun hashesOfArraysAndStreams() {
        for (stage in 1..4) panics("contentHash", stage) { contentHash(data) }
        // Stage 3 is inside hasherUpdate's pinned section, stage 4 hasherFinish's result.
        for (stage in 1..4) panics("hasher", stage) { contentHash(ByteArrayInputStream(data)) }
    }

    @Test
    fun textCalls() {
        for (stage in listOf(1, 2, 4)) {
            panics("canonicalJson", stage) { canonicalJson("""{"b":1,"a":[true]}""") }
            panics("revisionKey", stage) { revisionKey(contentHash(data), null, Scheme.V2) }
            panics("contentHashJson", stage) { contentHashJson("""{"b":1,"a":[true]}""", Scheme.V2) }
            panics("parseUlid", stage) { Ulid.parse(id.text.lowercase()) }
            panics("ulidFromBytes", stage) { Ulid.fromBytes(id.bytes) }
            panics("parseKey", stage) { parseKey(hash) }
            panics("revisionMessage", stage) { revisionMessage(hash, "rev:v1:" + "0".repeat(64)) }
        }
        // A boolean or a number answers: no result array to write (stage 4).
        for (stage in 1..2) {
            panics("needsWrite", stage) { needsWrite(hash, contentHash(data, Scheme.V2)) }
            panics("parseRfc3339", stage) { parseRfc3339("2024-05-01T12:00:00Z") }
        }
    }
}
