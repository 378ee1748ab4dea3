@file:JvmName("Samekey")
@file:JvmMultifileClass

package io.github.samekey

import java.lang.ref.Cleaner
import java.lang.ref.Reference
import java.time.Instant

/**
 * Derives under the newest scheme and recognises ids and keys of the older ones: how an
 * application changes its algorithm without orphaning what it stored.
 *
 * ```
 * val ring = KeyRing(Scheme.V2, listOf(Scheme.V1))
 * val id = ring.deriveUlid(publishedAt, "hello-world", "en", namespace = "posts")
 * ring.verify(storedId, publishedAt, "hello-world", "en", namespace = "posts") // Scheme.V1 or V2
 * ```
 */
public class KeyRing private constructor(names: List<Scheme>) {
    // The core's ring behind a JNI handle, freed by a Cleaner once the ring is unreachable
    // (a KeyRing has no close: it is shared and long-lived, as a configuration is).
    private val handle: Long

    /** The schemes, primary first, then newest to oldest. */
    public val accepted: List<Scheme>

    init {
        val frame = Frame.of(names.map { it.id.toByteArray(Charsets.UTF_8) })
        handle = frame.read { address, length -> Jni.ringNew(address, length) }
        CLEANER.register(this, Free(handle))
        accepted = String(Jni.ringAccepted(handle), Charsets.US_ASCII).split('\n').map(::Scheme)
    }

    /** A ring deriving with [primary] and recognising [primary] and [accepted]. */
    @JvmOverloads
    public constructor(primary: Scheme, accepted: List<Scheme> = emptyList()) : this(listOf(primary) + accepted)

    public companion object {
        /**
         * The ring of [accept], newest first: the first is the primary. An empty list is
         * `unknown_scheme`.
         */
        @JvmStatic
        public fun of(accept: List<Scheme>): KeyRing = KeyRing(accept)

        private val CLEANER: Cleaner = Cleaner.create()
    }

    private class Free(private val handle: Long) : Runnable {
        override fun run() = Jni.ringFree(handle)
    }

    /** The id under the primary scheme. */
    @JvmOverloads
    public fun deriveUlid(at: Instant, vararg fields: String, namespace: String = "", secret: ByteArray? = null): Ulid =
        derive(at, Frame.of(fields), namespace, primary, secret)

    /** The id of byte fields under the primary scheme. */
    @JvmOverloads
    public fun deriveUlid(at: Instant, fields: List<ByteArray>, namespace: String = "", secret: ByteArray? = null): Ulid =
        derive(at, Frame.of(fields), namespace, primary, secret)

    // A ring derives as its primary scheme does (spec §9.1): the same native path as deriveUlid.
    private val primary: Scheme get() = accepted.first()

    /**
     * The accepted scheme that derived [id] from these inputs; `identity_mismatch` when
     * none did: the guard before a write that would orphan the stored document.
     */
    @JvmOverloads
    public fun verify(id: Ulid, at: Instant, vararg fields: String, namespace: String = "", secret: ByteArray? = null): Scheme =
        verify(id, at, Frame.of(fields), namespace, secret)

    /** [verify] of byte fields. */
    @JvmOverloads
    public fun verify(id: Ulid, at: Instant, fields: List<ByteArray>, namespace: String = "", secret: ByteArray? = null): Scheme =
        verify(id, at, Frame.of(fields), namespace, secret)

    private fun verify(id: Ulid, at: Instant, fields: Frame, namespace: String, secret: ByteArray?): Scheme {
        val ms = millis(at)
        val ns = utf8(namespace, "namespace")
        val found = fields.read { address, length ->
            live { Jni.ringVerify(handle, id.mostSignificantBits, id.leastSignificantBits, ms, address, length, ns, secret) }
        }
        return accepted[found]
    }

    /**
     * The id under every accepted scheme that can take these inputs, primary first, then
     * newest to oldest: look a document up by all of them while older ids remain.
     */
    @JvmOverloads
    public fun candidates(at: Instant, vararg fields: String, namespace: String = "", secret: ByteArray? = null): List<Pair<Scheme, Ulid>> =
        candidates(at, Frame.of(fields), namespace, secret)

    /** [candidates] of byte fields. */
    @JvmOverloads
    public fun candidates(at: Instant, fields: List<ByteArray>, namespace: String = "", secret: ByteArray? = null): List<Pair<Scheme, Ulid>> =
        candidates(at, Frame.of(fields), namespace, secret)

    private fun candidates(at: Instant, fields: Frame, namespace: String, secret: ByteArray?): List<Pair<Scheme, Ulid>> {
        val ms = millis(at)
        val ns = utf8(namespace, "namespace")
        val out = LongArray(3 * accepted.size)
        val n = fields.read { address, length -> live { Jni.ringCandidates(handle, ms, address, length, ns, secret, out) } }
        return List(n) { i -> accepted[out[3 * i].toInt()] to Ulid.ofBits(out[3 * i + 1], out[3 * i + 2]) }
    }

    /**
     * The revision key of content on [parent] (null: a root) under the scheme of
     * [contentHash], which the ring must accept (`scheme_not_accepted`).
     */
    @JvmOverloads
    public fun revisionKey(contentHash: String, parent: String? = null, secret: ByteArray? = null): String {
        val content = utf8(contentHash, "content hash")
        val on = parent?.let { utf8(it, "parent") }
        return String(live { Jni.ringRevisionKey(handle, content, on, secret) }, Charsets.US_ASCII)
    }

    /** The accepted scheme of a content hash or revision key; `scheme_not_accepted` otherwise. */
    public fun schemeOf(key: String): Scheme = accepted[live { Jni.ringSchemeOf(handle, utf8(key, "key")) }]

    /** A native call on [handle], this ring (and so its native memory) kept alive through it. */
    private inline fun <T> live(call: () -> T): T = try {
        call()
    } finally {
        Reference.reachabilityFence(this)
    }
}

/** A content hash or revision key, parsed: [kind] is "content" or "revision". */
public data class ParsedKey(val kind: String, val scheme: Scheme, val canonical: String)

/** Parses a content hash ("sha256:…", "blake3:…") or revision key ("rev:v1:…"). */
public fun parseKey(text: String): ParsedKey =
    String(Jni.parseKey(utf8(text, "key")), Charsets.US_ASCII).split('\n').let { (kind, scheme, canonical) -> ParsedKey(kind, Scheme(scheme), canonical) }

/** The version of the samekey core inside this library. */
public val samekeyVersion: String get() = String(Jni.version(), Charsets.US_ASCII)
