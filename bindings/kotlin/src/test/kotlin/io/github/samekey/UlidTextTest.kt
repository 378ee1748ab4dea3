package io.github.samekey

import io.github.samekey.uniffi.ulidFromBytes
import java.util.SplittableRandom
import java.util.UUID
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * `Ulid` keeps an id as two longs and makes its text, UUID and timestamp on the JVM: held
 * here to the core's (uniffi's `ulidFromBytes`) for random ids and the edges of each half.
 * VectorsTest holds the text of every derived vector to the reference.
 */
class UlidTextTest {
    init {
        // The generated layer is called directly here: it must load the library the
        // idiomatic layer extracted (ApiTest checks that one copy serves both).
        NativeLibrary.path
    }

    private fun bytes(most: Long, least: Long): ByteArray =
        java.nio.ByteBuffer.allocate(16).putLong(most).putLong(least).array()

    private fun assertLikeTheCore(most: Long, least: Long) {
        val raw = bytes(most, least)
        val core = ulidFromBytes(raw)
        val id = Ulid.fromUuid(UUID(most, least))
        assertEquals(core.ulid, id.text)
        assertEquals(core.uuid, id.uuid)
        assertEquals(core.timestampMs, id.timestampMs)
        assertArrayEquals(raw, id.bytes)
        assertEquals(id, Ulid.fromBytes(raw))
        assertEquals(id, Ulid.parse(core.ulid))
        assertEquals(id.hashCode(), Ulid.parse(core.ulid).hashCode())
    }

    @Test
    fun textUuidAndTimeAreTheCores() {
        val edges = listOf(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0F0F0F0F0F0F0F0FL, 1L shl 60, (1L shl 60) - 1)
        for (most in edges) for (least in edges) assertLikeTheCore(most, least)
        val random = SplittableRandom(20261205)
        repeat(20_000) { assertLikeTheCore(random.nextLong(), random.nextLong()) }
    }

    @Test
    fun idsSortAsTheirText() {
        val random = SplittableRandom(7)
        val ids = List(20_000) { Ulid.fromUuid(UUID(random.nextLong(), random.nextLong())) } +
            listOf(Ulid.fromUuid(UUID(-1, -1)), Ulid.fromUuid(UUID(0, 0)), Ulid.fromUuid(UUID(Long.MIN_VALUE, 0)))
        assertEquals(ids.map { it.text }.sorted(), ids.sorted().map { it.text })
    }
}
