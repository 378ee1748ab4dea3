package io.github.samekey

import java.nio.file.Files
import java.time.Instant
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class ApiTest {
    private val published = Instant.parse("2024-05-01T12:00:00.999999Z")

    @Test
    fun idsComeFromTheirInputsAndTimesFloorToTheMillisecond() {
        val id = deriveUlid(published, "hello-world", "en", namespace = "posts")
        assertEquals(id, deriveUlid(Instant.ofEpochMilli(published.toEpochMilli()), "hello-world", "en", namespace = "posts"))
        assertEquals(published.toEpochMilli(), id.timestamp.toEpochMilli())
        assertNotEquals(id, deriveUlid(published, "hello-world", "de", namespace = "posts"))
        assertEquals(id, Ulid.parse(id.text.lowercase()))
        assertEquals(id, Ulid.fromBytes(id.bytes))
        assertEquals(36, id.uuid.length)
    }

    @Test
    fun loneSurrogatesAreRefusedNotReplaced() {
        for (bad in listOf("\uD800", "a\uDC00b", "x\uD83D")) {
            val e = assertThrows<SamekeyException> { deriveUlid(published, bad) }
            assertEquals("invalid_string", e.code)
            assertEquals("invalid_string", assertThrows<SamekeyException> { deriveUlid(published, "a", namespace = bad) }.code)
            assertEquals("invalid_string", assertThrows<SamekeyException> { canonicalJson("\"$bad\"") }.code)
            // Parsed text too: the host conversion comes before the parser (spec §2.2).
            for (parsed in listOf<() -> Any>(
                { Scheme("v$bad") },
                { Ulid.parse(bad.repeat(26)) },
                { parseKey("sha256:$bad") },
                { needsWrite(null, "sha256:$bad") },
                { revisionKey(contentHash(byteArrayOf()), parent = bad) },
            )) {
                assertEquals("invalid_string", assertThrows<SamekeyException> { parsed() }.code)
            }
        }
        // A pair is one character, not two lone halves.
        deriveUlid(published, "\uD83D\uDE00", namespace = "\uD83D\uDE00")
    }

    @Test
    fun textIsItsUtf8WhateverItsShape() {
        // Text and its UTF-8 bytes give one id: a literal '?' (what the JVM's encoder writes
        // for a lone surrogate), non-ASCII text (after ASCII too, which is written a byte a
        // character until it), and fields within and far beyond a thread's kept frame.
        val big = "\u00e9".repeat(70_000)
        val cases = listOf(
            listOf("a?", "?"), listOf("\u00e9?", "\uD83D\uDE00"), listOf("slug-\u00e9-end", "\u007f\u0080"),
            listOf(big, "x"), listOf("a".repeat(20_000), "b".repeat(1_000)), listOf("a".repeat(30_000), "x"), listOf("", ""),
        )
        for (fields in cases) {
            val bytes = fields.map { it.toByteArray(Charsets.UTF_8) }
            assertEquals(deriveUlid(published, bytes), deriveUlid(published, *fields.toTypedArray()), "$fields")
            assertEquals(deriveUlid(published, bytes), UlidDeriver().derive(published, *fields.toTypedArray()))
        }
        for (bad in listOf("?\uD800", "\uDC00?", "\u00e9\uD800")) {
            val e = assertThrows<SamekeyException> { deriveUlid(published, "ok", bad) }
            assertEquals("invalid_string", e.code)
            assertTrue("field 1" in e.message!!, e.message)
        }
    }

    @Test
    fun aListThatDerivesWhileReadIsReadFirst() {
        // A list's own code runs before the thread's frame is written: it may derive too.
        val inner = listOf("inner".toByteArray())
        val reentrant = object : java.util.AbstractList<ByteArray>() {
            override val size: Int get() = 2
            override fun get(index: Int): ByteArray = deriveUlid(published, inner).text.toByteArray()
        }
        val expected = deriveUlid(published, inner).text.toByteArray()
        assertEquals(deriveUlid(published, listOf(expected, expected)), deriveUlid(published, reentrant))
    }

    @Test
    fun errorsCarryTheCoresCode() {
        assertEquals("invalid_ulid", assertThrows<SamekeyException> { Ulid.parse("8ZZZZZZZZZZZZZZZZZZZZZZZZZ") }.code)
        assertEquals("invalid_ulid", assertThrows<SamekeyException> { Ulid.fromBytes(ByteArray(15)) }.code)
        assertEquals("unknown_scheme", assertThrows<SamekeyException> { deriveUlid(published, "a", scheme = Scheme("v9")) }.code)
        assertEquals("timestamp_out_of_range", assertThrows<SamekeyException> { deriveUlid(Instant.MAX, "a") }.code)
        assertEquals("timestamp_out_of_range", assertThrows<SamekeyException> { deriveUlid(Instant.ofEpochMilli(-1), "a") }.code)
        assertEquals("empty_secret", assertThrows<SamekeyException> { UlidDeriver(secret = ByteArray(0)) }.code)
    }

    @Test
    fun streamsAndFilesHashAsTheirBytes() {
        val data = ByteArray(300_000) { (it * 31).toByte() }
        val file = Files.createTempFile("samekey", ".bin")
        try {
            Files.write(file, data)
            for (scheme in listOf(Scheme.V1, Scheme.V2)) {
                assertEquals(contentHash(data, scheme), contentHash(file, scheme))
                assertEquals(contentHash(data, scheme), contentHash(data.inputStream(), scheme))
            }
        } finally {
            Files.delete(file)
        }
    }

    @Test
    fun keyRingsRecogniseOlderSchemesAndRefuseChangedIdentities() {
        val old = deriveUlid(published, "slug", "en", scheme = Scheme.V1)
        val ring = KeyRing(Scheme.V2, listOf(Scheme.V1))
        assertEquals(listOf(Scheme.V2, Scheme.V1), ring.accepted)
        assertEquals(Scheme.V1, ring.verify(old, published, "slug", "en"))
        assertEquals(Scheme.V2, ring.verify(ring.deriveUlid(published, "slug", "en"), published, "slug", "en"))
        assertEquals("identity_mismatch", assertThrows<SamekeyException> { ring.verify(old, published, "renamed", "en") }.code)
    }

    @Test
    fun guardsAndRevisions() {
        val a = contentHashJson("""{"title":"Hello","tags":["x"]}""")
        val b = contentHashJson("""{"tags":["x"],"title":"Hello"}""")
        assertFalse(needsWrite(a, b))
        assertTrue(needsWrite(null, b))
        val root = revisionKey(a)
        assertEquals(root, revisionKey(b))
        assertNotEquals(root, revisionKey(a, parent = root))
        assertEquals(Scheme.V1, parseKey(root).scheme)
    }

    @Test
    fun manyRowsGiveTheIdsAndTheErrorOfRowByRow() {
        val posts = UlidDeriver(namespace = "posts", scheme = Scheme.V2)
        // 2,600 rows: three of the native side's sections (1,024 rows each).
        val n = 2600
        val times = List(n) { published.plusMillis(it * 997L) }
        // Latin-1 text is not ASCII: only the first 128 characters are one byte each; and
        // U+0141's low byte is ASCII 'A', which a copy of the low bytes would write.
        val slugs = List(n) {
            when (it % 4) {
                0 -> "post-$it"
                1 -> "post-$it-\u00e9"
                2 -> "post-$it-\u0141"
                else -> "post-$it-\u00e9\uD83D\uDE00"
            }
        }
        val langs = List(n) { if (it % 2 == 0) "en" else "" }
        val many = posts.deriveMany(times, listOf(slugs, langs))
        assertEquals(List(n) { posts.derive(times[it], slugs[it], langs[it]) }, many)
        assertEquals(List(n) { posts.derive(times[it], listOf(slugs[it].toByteArray(), langs[it].toByteArray())) }, many)
        // Values repeated from row to row (the same String), long and short, ASCII or
        // not, across sections.
        val tenants = List(n) { if (it < 1500) "tenant-\u00fcber-a-long-name" else if (it < 2000) "t\uD83D\uDE00" else "acme" }
        assertEquals(
            List(n) { posts.derive(times[it], slugs[it], langs[it], tenants[it]) },
            posts.deriveMany(times, listOf(slugs, langs, tenants)),
        )
        assertEquals(emptyList<Ulid>(), posts.deriveMany(emptyList(), listOf(emptyList(), emptyList())))
        // Row 2,100's time is out of range and row 2,300 holds a lone surrogate: row 2,100
        // fails first, in the third section; either alone fails with its own code.
        val late = times.toMutableList().also { it[2100] = Instant.ofEpochMilli(-1) }
        val bad = slugs.toMutableList().also { it[2300] = "\uD800" }
        assertEquals("timestamp_out_of_range", assertThrows<SamekeyException> { posts.deriveMany(late, listOf(bad, langs)) }.code)
        assertEquals("timestamp_out_of_range", assertThrows<SamekeyException> { posts.deriveMany(late, listOf(slugs, langs)) }.code)
        assertEquals("invalid_string", assertThrows<SamekeyException> { posts.deriveMany(times, listOf(bad, langs)) }.code)
        assertThrows<IllegalArgumentException> { posts.deriveMany(times, listOf(slugs, langs.drop(1))) }
        // Packed a column at a time, the failure is still row by row's first: row 40's
        // field 1 before row 90's field 0, and row 40's field 0 before its field 1.
        fun failure(s: List<String>, l: List<String>) =
            assertThrows<SamekeyException> { posts.deriveMany(times, listOf(s, l)) }.message!!
        val lang40 = langs.toMutableList().also { it[40] = "\uD800x" }
        assertTrue("row 40, field 1" in failure(slugs.toMutableList().also { it[90] = "\uDC00" }, lang40))
        assertTrue("row 40, field 0" in failure(slugs.toMutableList().also { it[40] = "\uDC00" }, lang40))
        assertTrue("row 90, field 1" in failure(slugs, langs.toMutableList().also { it[90] = "\uDC00" }))
        // Row 70's time and slug are both bad: the batch fails as that row does alone.
        val both = times.toMutableList().also { it[70] = Instant.ofEpochMilli(-1) }
        val alone = assertThrows<SamekeyException> { posts.derive(both[70], "\uD800", langs[70]) }.code
        assertEquals(alone, assertThrows<SamekeyException> { posts.deriveMany(both, listOf(slugs.toMutableList().also { it[70] = "\uD800" }, langs)) }.code)
    }

    @Test
    fun aBatchSplitOverThreadsGivesTheIdsAndTheErrorOfRowByRow() {
        val posts = UlidDeriver(namespace = "posts")
        // Parts of at least half the threshold: three or more parts wherever there are cores.
        val n = 3 * PARALLEL_MIN_ROWS + 7
        val times = List(n) { published.plusMillis(it * 13L) }
        val slugs = List(n) { if (it % 3 == 0) "post-$it-\u00e9" else "post-$it" }
        val langs = List(n) { "en" }
        val one = posts.deriveMany(times, listOf(slugs, langs), maxThreads = 1)
        assertEquals(List(n) { posts.derive(times[it], slugs[it], langs[it]) }, one)
        for (threads in 0..4) assertEquals(one, posts.deriveMany(times, listOf(slugs, langs), threads), "maxThreads $threads")
        // A failure in the first part and one in the last: the first row's wins, whichever it is.
        val (early, late) = 10 to n - 5
        fun timeAt(row: Int) = times.toMutableList().also { it[row] = Instant.ofEpochMilli(-1) }
        fun surrogateAt(row: Int) = slugs.toMutableList().also { it[row] = "\uD800" }
        for (threads in listOf(0, 1, 3)) {
            fun code(t: List<Instant>, s: List<String>) =
                assertThrows<SamekeyException> { posts.deriveMany(t, listOf(s, langs), threads) }.code
            assertEquals("timestamp_out_of_range", code(timeAt(early), surrogateAt(late)))
            assertEquals("invalid_string", code(timeAt(late), surrogateAt(early)))
            assertEquals("invalid_string", code(times, surrogateAt(late)))
            assertEquals("timestamp_out_of_range", code(timeAt(late), slugs))
        }
        assertThrows<IllegalArgumentException> { posts.deriveMany(times, listOf(slugs, langs), -1) }
    }

    @Test
    fun textBytesAreTheIdsCharacters() {
        val posts = UlidDeriver(namespace = "posts", scheme = Scheme.V2)
        val fields = arrayOf("a\u0000b".toByteArray(), ByteArray(0), "\u00e9\uD83D\uDE00".toByteArray())
        val text = posts.deriveTextBytes(published.toEpochMilli(), *fields)
        assertEquals(posts.derive(published, fields.toList()).text, String(text, Charsets.US_ASCII))
        assertEquals("timestamp_out_of_range", assertThrows<SamekeyException> { posts.deriveTextBytes(-1, *fields) }.code)
        assertEquals("no_fields", assertThrows<SamekeyException> { posts.deriveTextBytes(0) }.code)
    }

    @Test
    fun theNativePathAgreesWithTheGeneratedLayer() {
        val secret = "k".repeat(32).toByteArray()
        for (scheme in listOf(Scheme.V0, Scheme.V1, Scheme.V2)) {
            for (key in listOf(null, secret)) {
                val fields = listOf("a\u0000b".toByteArray(), ByteArray(0), "\uD83D\uDE00".toByteArray())
                val generated = runCatching {
                    io.github.samekey.uniffi.deriveUlid(scheme.id, published.toEpochMilli(), "ns", fields, key).ulid
                }
                val native = runCatching { deriveUlid(published, fields, namespace = "ns", scheme = scheme, secret = key).text }
                assertEquals(generated.getOrNull(), native.getOrNull(), "$scheme keyed=${key != null}")
                assertEquals(generated.isFailure, native.isFailure)
            }
        }
    }

    @Test
    fun aClosedDeriverRefusesToDerive() {
        val deriver = UlidDeriver()
        deriver.derive(published, "a")
        deriver.close()
        assertThrows<IllegalStateException> { deriver.derive(published, "a") }
    }

    @Test
    fun oneCopyOfTheLibraryServesBothWaysIn() {
        val maps = java.io.File("/proc/self/maps")
        org.junit.jupiter.api.Assumptions.assumeTrue(maps.exists(), "Linux only")
        deriveUlid(published, "a")
        Ulid.parse("01HWT0D7G0NXVJZMMA9TW58EBH") // the generated layer (JNA)
        val files = maps.readLines().map { it.substringAfterLast(' ') }.filter { "samekey_uniffi" in it }.toSet()
        assertEquals(setOf(NativeLibrary.path), files)
    }

    @Test
    fun deriversShareAcrossThreadsAndAreFreedWhenUnreachable() {
        val shared = UlidDeriver(namespace = "posts")
        val expected = List(200) { shared.derive(published.plusMillis(it.toLong()), "slug-$it") }
        val pool = java.util.concurrent.Executors.newFixedThreadPool(4)
        try {
            val results = List(8) {
                pool.submit<List<Ulid>> { List(200) { shared.derive(published.plusMillis(it.toLong()), "slug-$it") } }
            }
            for (r in results) assertEquals(expected, r.get())
        } finally {
            pool.shutdown()
        }
        // Thousands of keyed derivers made and dropped: the Cleaner frees their native
        // state as the collector finds them, with no call on a freed one.
        val secret = ByteArray(32) { it.toByte() }
        val keyed = UlidDeriver(secret = secret).derive(published, "a")
        repeat(5_000) {
            assertEquals(keyed, UlidDeriver(secret = secret).derive(published, "a"))
            if (it % 1_000 == 0) System.gc()
        }
    }
}
