package io.github.samekey

import java.io.ByteArrayInputStream
import java.security.MessageDigest
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * A `byte[]` is hashed 1 MiB at a time, in place or (on a JVM whose critical sections
 * copy) by copies of a section; both ways give `MessageDigest`'s hash at every size
 * around the section's bounds.
 */
class JniSectionsTest {
    private fun sha256(data: ByteArray) =
        "sha256:" + MessageDigest.getInstance("SHA-256").digest(data).joinToString("") { "%02x".format(it) }

    @Test
    fun bothWaysOfReadingGiveTheSameHash() {
        val mib = 1 shl 20
        val data = ByteArray(3 * mib + 5) { (it * 7 + 3).toByte() }
        for (copies in listOf(false, true)) {
            Jni.copySections(copies)
            try {
                for (size in listOf(0, 1, mib - 1, mib, mib + 1, 2 * mib, data.size)) {
                    val part = data.copyOf(size)
                    assertEquals(sha256(part), contentHash(part), "$size bytes, copies=$copies")
                    assertEquals(sha256(part), contentHash(ByteArrayInputStream(part)), "stream of $size bytes, copies=$copies")
                }
                assertEquals(contentHash(data, Scheme.V2), contentHash(ByteArrayInputStream(data), Scheme.V2))
            } finally {
                Jni.copySections(false)
            }
        }
    }
}
