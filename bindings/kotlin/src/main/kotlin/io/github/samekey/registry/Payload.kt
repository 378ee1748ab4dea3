package io.github.samekey.registry

import io.github.samekey.Jni
import io.github.samekey.Scheme
import io.github.samekey.contentHash
import io.github.samekey.revisionKey
import java.io.InputStream
import java.io.OutputStream
import java.net.http.HttpRequest.BodyPublisher
import java.net.http.HttpRequest.BodyPublishers
import java.util.function.Supplier

internal const val JSON = "application/json"
internal const val BYTES = "application/octet-stream"

/**
 * A registration's body: [size] bytes stored and hashed ([hashes]: a content hash per
 * scheme of the ring, null until a one-shot stream was sent), and a publisher per attempt.
 */
internal abstract class Payload(val mediaType: String) {
    abstract val size: Long?
    abstract val hashes: Map<Scheme, String>?
    open val rewindable: Boolean get() = true

    /** One attempt's body; throws `not_rewindable` when it cannot be sent again. */
    abstract fun publisher(): BodyPublisher

    /** After the answer: a stream hashed while sent has its hashes now. */
    open fun done() {}

    /** Whether nothing of a one-shot stream was read yet. */
    open fun unread(): Boolean = true

    /** Frees what hashes the payload's attempts (after the registration, whatever its end). */
    open fun abandon() {}
}

internal class Memory(accepted: List<Scheme>, mediaType: String, data: ByteArray, private val body: ByteArray = data) : Payload(mediaType) {
    override val size: Long = data.size.toLong()
    override val hashes: Map<Scheme, String> = accepted.associateWith { contentHash(data, it) }

    override fun publisher(): BodyPublisher = BodyPublishers.ofByteArray(body)
}

/**
 * A source that opens the same bytes anew each call (a file), sent again on a retry. With
 * [hashAbove] set and its size ([known], or unknown) above it, it is hashed in a first
 * pass (its key is known before the upload, to look it up); otherwise each attempt hashes
 * what it sends, and the answered attempt's hashes count.
 */
internal class Reopenable(private val accepted: List<Scheme>, private val open: Supplier<InputStream>, known: Long?, hashAbove: Long?) : Payload(BYTES) {
    override var size: Long? = known
    override var hashes: Map<Scheme, String>? = null
    private val hashFirst = hashAbove != null && (known == null || known > hashAbove)

    @Volatile private var sending: Hashing? = null

    init {
        if (hashFirst) {
            // One read for every scheme of the ring: a large file is read once here, once sent.
            val first = Hashing(accepted, open.get())
            try {
                first.use { it.transferTo(OutputStream.nullOutputStream()) }
                hashes = first.hashers.finish()
                size = first.count
            } finally {
                first.hashers.abandon()
            }
        }
    }

    override fun publisher(): BodyPublisher {
        if (size == 0L) {
            // The HTTP client refuses a known length of 0 (fromPublisher wants a positive
            // one): an empty payload is sent as no body, its hashes those of nothing.
            if (hashes == null) hashes = Hashers(accepted).finish()
            return BodyPublishers.noBody()
        }
        val stream = if (hashFirst) {
            BodyPublishers.ofInputStream(open)
        } else {
            BodyPublishers.ofInputStream { Hashing(accepted, open.get()).also { sending?.hashers?.abandon(); sending = it } }
        }
        return size?.let { BodyPublishers.fromPublisher(stream, it) } ?: stream
    }

    override fun done() {
        val last = sending ?: return
        sending = null
        hashes = last.hashers.finish()
        size = last.count
    }

    override fun abandon() {
        sending?.hashers?.abandon()
        sending = null
    }
}

/**
 * An attempt's body: [inner]'s bytes, hashed and counted as they are read; closing it
 * closes [inner] when [closes] (a caller's one-shot stream is left open).
 */
private class Hashing(accepted: List<Scheme>, private val inner: InputStream, private val closes: Boolean = true) : InputStream() {
    val hashers = Hashers(accepted)

    /** Written by the HTTP client's thread, read after the answer or by the next attempt. */
    @Volatile var count = 0L
        private set

    override fun read(): Int {
        val one = ByteArray(1)
        return if (read(one, 0, 1) < 0) -1 else one[0].toInt() and 0xff
    }

    override fun read(b: ByteArray, off: Int, len: Int): Int {
        val n = inner.read(b, off, len)
        if (n > 0) {
            hashers.update(if (off == 0) b else b.copyOfRange(off, off + n), n)
            count += n
        }
        return n
    }

    override fun close() {
        if (closes) inner.close()
    }
}

/** A one-shot stream: hashed while it is sent, never resent once a byte was read. */
internal class OneShot(accepted: List<Scheme>, input: InputStream) : Payload(BYTES) {
    override val size: Long? = null
    override var hashes: Map<Scheme, String>? = null
    override val rewindable: Boolean get() = false
    private val body = Hashing(accepted, input, closes = false)

    override fun publisher(): BodyPublisher {
        if (body.count > 0) {
            throw RegistryException(RegistryException.NOT_REWINDABLE, "the stream was partly sent and cannot be read again; register a file or a Supplier that opens the stream anew to have it retried")
        }
        return BodyPublishers.ofInputStream { body }
    }

    /** Frees the hashers; after a whole send, their hashes are [hashes]. */
    override fun done() {
        if (hashes == null) hashes = body.hashers.finish()
    }

    override fun abandon() {
        body.hashers.abandon()
        if (hashes == null) hashes = emptyMap()
    }

    override fun unread(): Boolean = body.count == 0L
}

/**
 * A streaming hasher per scheme, each freed once: by [finish] or [abandon]. Synchronized:
 * a failed attempt's body may still be read by the HTTP client's thread when the next
 * attempt abandons it (a freed native handle is never fed).
 */
private class Hashers(accepted: List<Scheme>) {
    private var handles: Map<Scheme, Long>? = accepted.associateWith { Jni.hasherNew(it.id.toByteArray(Charsets.UTF_8)) }

    @Synchronized
    fun update(chunk: ByteArray, length: Int) {
        handles?.values?.forEach { Jni.hasherUpdate(it, chunk, length) }
    }

    @Synchronized
    fun finish(): Map<Scheme, String> {
        val done = handles ?: throw IllegalStateException("the hashes were abandoned")
        handles = null
        return done.mapValues { String(Jni.hasherFinish(it.value, true)!!, Charsets.ISO_8859_1) }
    }

    @Synchronized
    fun abandon() {
        handles?.values?.forEach { Jni.hasherFinish(it, false) }
        handles = null
    }
}

private fun mismatch(expected: String, answered: String, why: String) =
    RegistryException(RegistryException.KEY_MISMATCH, "the registry answered $answered, this client derived $expected: $why", expected = expected, answered = answered)

/** The key this client derives: the ring's primary over [parent]. */
internal fun expectedKey(accepted: List<Scheme>, hashes: Map<Scheme, String>, parent: String?): String =
    revisionKey(hashes.getValue(accepted.first()), parent, accepted.first())

/** The scheme of the ring a key names ("rev:<scheme>:..."), or null. */
private fun schemeOf(accepted: List<Scheme>, key: String): Scheme? = accepted.firstOrNull { key.startsWith("rev:${it.id}:") }

/**
 * The answer, if its key is one this client derives for the payload under a scheme of its
 * ring (a revision created under an older scheme of the ring is checked under that scheme;
 * a parent named by another of its keys is checked as the registry resolved it). The
 * scheme is read from the key's prefix: the key derived under it is the proof.
 */
internal fun check(accepted: List<Scheme>, p: Payload, parent: String?, rev: Revision): Revision {
    val hashes = p.hashes ?: error("a payload's hashes are known once it was sent")
    val expected by lazy { expectedKey(accepted, hashes, parent) }
    val scheme = schemeOf(accepted, rev.key) ?: throw mismatch(expected, rev.key, "its scheme is not one of this client's ring $accepted")
    if ((rev.parent == null) != (parent == null)) throw mismatch(expected, rev.key, "its parent is ${rev.parent}, not $parent")
    if (rev.parent != parent && schemeOf(accepted, rev.parent!!) == null) {
        throw mismatch(expected, rev.key, "its parent ${rev.parent} is not a key of this client's ring")
    }
    val want = hashes.getValue(scheme)
    if (rev.contentHash != want) throw mismatch(expected, rev.key, "its content hash is ${rev.contentHash}, this client's $want")
    val key = revisionKey(want, rev.parent, scheme)
    if (rev.key != key) throw mismatch(key, rev.key, "derived under $scheme over parent ${rev.parent}")
    if (p.size != null && rev.size != p.size) throw mismatch(expected, rev.key, "its size is ${rev.size} bytes, the payload's ${p.size}")
    return rev
}
