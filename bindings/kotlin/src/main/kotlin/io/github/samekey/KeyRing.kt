@file:JvmName("Samekey")
@file:JvmMultifileClass

package io.github.samekey

import io.github.samekey.uniffi.KeyRing as FfiRing
import io.github.samekey.uniffi.version as ffiVersion
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
public class KeyRing private constructor(private val ring: FfiRing) {
    /** A ring deriving with [primary] and recognising [primary] and [accepted]. */
    @JvmOverloads
    public constructor(primary: Scheme, accepted: List<Scheme> = emptyList()) :
        this(core { FfiRing(primary.id, accepted.map { it.id }) })

    public companion object {
        /**
         * The ring of [accept], newest first: the first is the primary. An empty list is
         * `unknown_scheme`.
         */
        @JvmStatic
        public fun of(accept: List<Scheme>): KeyRing = KeyRing(core { FfiRing.fromAccept(accept.map { it.id }) })
    }

    /** The schemes, primary first, then newest to oldest. */
    public val accepted: List<Scheme> get() = ring.accepted().map(::Scheme)

    /** The id under the primary scheme. */
    @JvmOverloads
    public fun deriveUlid(at: Instant, vararg fields: String, namespace: String = "", secret: ByteArray? = null): Ulid =
        derive(at, Frame.of(fields), namespace, primary, secret)

    /** The id of byte fields under the primary scheme. */
    @JvmOverloads
    public fun deriveUlid(at: Instant, fields: List<ByteArray>, namespace: String = "", secret: ByteArray? = null): Ulid =
        derive(at, Frame.of(fields), namespace, primary, secret)

    // A ring derives as its primary scheme does (spec §9.1): the same native path as deriveUlid.
    private val primary: Scheme = Scheme(ring.accepted().first())

    /**
     * The accepted scheme that derived [id] from these inputs; `identity_mismatch` when
     * none did: the guard before a write that would orphan the stored document.
     */
    @JvmOverloads
    public fun verify(id: Ulid, at: Instant, vararg fields: String, namespace: String = "", secret: ByteArray? = null): Scheme =
        verify(id, at, textFields(fields), namespace, secret)

    /** [verify] of byte fields. */
    @JvmOverloads
    public fun verify(id: Ulid, at: Instant, fields: List<ByteArray>, namespace: String = "", secret: ByteArray? = null): Scheme =
        Scheme(core { ring.verifyUlid(id.text, millis(at), checked(namespace, "namespace"), fields, secret) })

    /**
     * The id under every accepted scheme that can take these inputs, primary first, then
     * newest to oldest: look a document up by all of them while older ids remain.
     */
    @JvmOverloads
    public fun candidates(at: Instant, vararg fields: String, namespace: String = "", secret: ByteArray? = null): List<Pair<Scheme, Ulid>> =
        candidates(at, textFields(fields), namespace, secret)

    /** [candidates] of byte fields. */
    @JvmOverloads
    public fun candidates(at: Instant, fields: List<ByteArray>, namespace: String = "", secret: ByteArray? = null): List<Pair<Scheme, Ulid>> =
        core { ring.candidateUlids(millis(at), checked(namespace, "namespace"), fields, secret) }
            .map { Scheme(it.scheme) to Ulid.of(it.ulid.bytes) }

    /**
     * The revision key of content on [parent] (null: a root) under the scheme of
     * [contentHash], which the ring must accept (`scheme_not_accepted`).
     */
    @JvmOverloads
    public fun revisionKey(contentHash: String, parent: String? = null, secret: ByteArray? = null): String =
        core { ring.revisionKey(checked(contentHash, "content hash"), parent?.let { checked(it, "parent") }, secret) }

    /** The accepted scheme of a content hash or revision key; `scheme_not_accepted` otherwise. */
    public fun schemeOf(key: String): Scheme = Scheme(core { ring.schemeOfKey(checked(key, "key")) })
}

/** A content hash or revision key, parsed: [kind] is "content" or "revision". */
public data class ParsedKey(val kind: String, val scheme: Scheme, val canonical: String)

/** Parses a content hash ("sha256:…", "blake3:…") or revision key ("rev:v1:…"). */
public fun parseKey(text: String): ParsedKey =
    String(Jni.parseKey(utf8(text, "key")), Charsets.US_ASCII).split('\n').let { (kind, scheme, canonical) -> ParsedKey(kind, Scheme(scheme), canonical) }

/** The version of the samekey core inside this library. */
public val samekeyVersion: String get() = ffiVersion()
