package io.github.samekey

import java.nio.ByteBuffer
import java.time.Instant
import java.util.UUID

/**
 * A ULID: a 48-bit millisecond timestamp and 80 bits, held as its 128 bits (two longs,
 * as `java.util.UUID` holds them), so equal ids are equal values and sort by time.
 *
 * ```
 * val id = Ulid.parse("01hwt0d7g0nxvjzmma9tw58ebh")
 * id.toString()   // "01HWT0D7G0NXVJZMMA9TW58EBH"
 * id.timestamp    // 2024-05-01T12:00:00Z
 * ```
 */
// A class, not a value class: Java sees functions taking or returning a Ulid under their
// own names (a value class would mangle them), and uses it as any other class.
public class Ulid private constructor(
    /** The first 64 bits, big-endian: the 48-bit timestamp, then 16 bits of the hash. */
    public val mostSignificantBits: Long,
    /** The last 64 bits, big-endian. */
    public val leastSignificantBits: Long,
) : Comparable<Ulid> {
    // Made on first use and kept: an id stored as 16 bytes never needs its text. Racing
    // threads may each make it; they make the same String.
    private var cachedText: String? = null

    /** The canonical 26-character text (uppercase Crockford base32). */
    public val text: String get() = cachedText ?: crockford(mostSignificantBits, leastSignificantBits).also { cachedText = it }

    /** The 16 bytes, big-endian. */
    public val bytes: ByteArray
        get() = ByteBuffer.allocate(16).putLong(mostSignificantBits).putLong(leastSignificantBits).array()

    /** The same 128 bits as lowercase 8-4-4-4-12 UUID text. */
    public val uuid: String get() = toUuid().toString()

    /** The timestamp in the first 48 bits. */
    public val timestamp: Instant get() = Instant.ofEpochMilli(timestampMs)

    /** The timestamp in milliseconds since the epoch. */
    public val timestampMs: Long get() = mostSignificantBits ushr 16

    /** The same 128 bits as a `java.util.UUID` (for a database's uuid column). */
    public fun toUuid(): UUID = UUID(mostSignificantBits, leastSignificantBits)

    // Unsigned: the order of the text, and of the bytes.
    override fun compareTo(other: Ulid): Int {
        val first = java.lang.Long.compareUnsigned(mostSignificantBits, other.mostSignificantBits)
        return if (first != 0) first else java.lang.Long.compareUnsigned(leastSignificantBits, other.leastSignificantBits)
    }

    override fun toString(): String = text

    override fun equals(other: Any?): Boolean =
        other is Ulid && other.mostSignificantBits == mostSignificantBits && other.leastSignificantBits == leastSignificantBits

    override fun hashCode(): Int = (mostSignificantBits xor leastSignificantBits).let { (it xor (it ushr 32)).toInt() }

    public companion object {
        /** Parses ULID text in either case; `invalid_ulid` otherwise. */
        @JvmStatic
        public fun parse(text: String): Ulid = of(Jni.parseUlid(utf8(text, "ULID text")))

        /** The ULID of 16 bytes; `invalid_ulid` for another length. */
        @JvmStatic
        public fun fromBytes(bytes: ByteArray): Ulid = of(Jni.ulidFromBytes(bytes))

        /** The ULID of a UUID's 128 bits (every 128 bits are a ULID). */
        @JvmStatic
        public fun fromUuid(uuid: UUID): Ulid = Ulid(uuid.mostSignificantBits, uuid.leastSignificantBits)

        /** The id of the core's 16 bytes (big-endian, a ByteBuffer's default order). */
        internal fun of(bytes: ByteArray): Ulid = ByteBuffer.wrap(bytes).let { Ulid(it.getLong(), it.getLong()) }

        /** The id of 128 bits a native call wrote. */
        internal fun ofBits(most: Long, least: Long): Ulid = Ulid(most, least)
    }
}

private val CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toByteArray(Charsets.US_ASCII)

/**
 * The text of an id, made on the JVM: `toString`, logs and JSON ask for it constantly and a
 * native call would cost more than the encoding. UlidTextTest holds it to the core's text
 * for 20,000 random ids and the halves' edges, VectorsTest for every vector.
 */
internal fun crockford(hi: Long, lo: Long): String {
    // Written out, not a loop (as in the core): constant shifts let the 26 lookups run in
    // parallel. Digit 0 holds the top 3 bits of 128, digit 13 spans both halves.
    val out = byteArrayOf(
        c(hi ushr 61),
        c(hi ushr 56),
        c(hi ushr 51),
        c(hi ushr 46),
        c(hi ushr 41),
        c(hi ushr 36),
        c(hi ushr 31),
        c(hi ushr 26),
        c(hi ushr 21),
        c(hi ushr 16),
        c(hi ushr 11),
        c(hi ushr 6),
        c(hi ushr 1),
        c(hi shl 4 or (lo ushr 60)),
        c(lo ushr 55),
        c(lo ushr 50),
        c(lo ushr 45),
        c(lo ushr 40),
        c(lo ushr 35),
        c(lo ushr 30),
        c(lo ushr 25),
        c(lo ushr 20),
        c(lo ushr 15),
        c(lo ushr 10),
        c(lo ushr 5),
        c(lo),
    )
    return String(out, Charsets.ISO_8859_1)
}

@Suppress("NOTHING_TO_INLINE")
private inline fun c(bits: Long): Byte = CROCKFORD[bits.toInt() and 31]

/** Milliseconds since the epoch, floored (Instant keeps nanoseconds). */
// An instant beyond Long milliseconds goes on as Long's bound of its sign, out of range
// like itself: the core reports it in the place of spec §4.4, after the scheme's checks.
internal fun millis(at: Instant): Long = try {
    at.toEpochMilli()
} catch (e: ArithmeticException) {
    if (at.isAfter(Instant.EPOCH)) Long.MAX_VALUE else Long.MIN_VALUE
}
