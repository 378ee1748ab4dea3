@file:JvmName("Samekey")
@file:JvmMultifileClass

package io.github.samekey

import java.io.IOException
import java.io.InputStream
import java.nio.file.Files
import java.nio.file.Path
import java.time.Instant

/** "sha256:<hex>" (v1) or "blake3:<hex>" (v2) of [data]. */
@JvmOverloads
public fun contentHash(data: ByteArray, scheme: Scheme = Scheme.V1): String =
    ascii(Jni.contentHash(scheme.id.toByteArray(Charsets.UTF_8), data))

/**
 * The content hash of everything [input] yields, read in 64 KiB chunks; the stream is
 * read to its end, not closed. An [IOException] of the stream propagates as it is.
 */
@JvmOverloads
public fun contentHash(input: InputStream, scheme: Scheme = Scheme.V1): String =
    Jni.hasherNew(scheme.id.toByteArray(Charsets.UTF_8)).let { hasher ->
        var finished = false
        try {
            val chunk = ByteArray(64 * 1024)
            while (true) {
                val n = input.read(chunk)
                if (n < 0) break
                if (n > 0) Jni.hasherUpdate(hasher, chunk, n)
            }
            finished = true
            ascii(Jni.hasherFinish(hasher, true)!!)
        } finally {
            if (!finished) Jni.hasherFinish(hasher, false)
        }
    }

private fun ascii(text: ByteArray): String = String(text, Charsets.ISO_8859_1)

/** The content hash of the file at [path], streamed. */
@JvmOverloads
public fun contentHash(path: Path, scheme: Scheme = Scheme.V1): String =
    Files.newInputStream(path).use { contentHash(it, scheme) }

/** The RFC 8785 canonical form of JSON text, parsed strictly (duplicate keys refused). */
public fun canonicalJson(json: String): String = String(Jni.canonicalJson(utf8(json, "JSON text")), Charsets.UTF_8)

/** The content hash of JSON text's canonical form: equal for equal data, whatever the key order. */
@JvmOverloads
public fun contentHashJson(json: String, scheme: Scheme = Scheme.V1): String =
    ascii(Jni.contentHashJson(scheme.id.toByteArray(Charsets.UTF_8), utf8(json, "JSON text")))

/**
 * The revision key "rev:<scheme>:<hex>" of content on a [parent] revision (null: a root).
 * The same content on the same parent is the same revision, so a retried or concurrent
 * identical request creates nothing new. [scheme] defaults to the content hash's own.
 */
@JvmOverloads
public fun revisionKey(contentHash: String, parent: String? = null, scheme: Scheme? = null, secret: ByteArray? = null): String =
    ascii(Jni.revisionKey(scheme?.id?.toByteArray(Charsets.UTF_8), utf8(contentHash, "content hash"), parent?.let { utf8(it, "parent") }, secret))

/** The exact bytes hashed for a revision key. */
@JvmOverloads
public fun revisionMessage(contentHash: String, parent: String? = null, scheme: Scheme? = null): ByteArray =
    Jni.revisionMessage(scheme?.id?.toByteArray(Charsets.UTF_8), utf8(contentHash, "content hash"), parent?.let { utf8(it, "parent") })

/** Whether [incoming] content must be written over [stored] (null: nothing stored). */
public fun needsWrite(stored: String?, incoming: String): Boolean =
    Jni.needsWrite(stored?.let { utf8(it, "stored hash") }, utf8(incoming, "incoming hash"))

/** An RFC 3339 time ("2024-05-01T12:00:00Z") as the core reads it (spec §4.2). */
public fun parseRfc3339(text: String): Instant =
    Instant.ofEpochMilli(Jni.parseRfc3339(utf8(text, "RFC 3339 text")))
