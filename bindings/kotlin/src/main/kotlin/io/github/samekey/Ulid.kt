package io.github.samekey

import io.github.samekey.uniffi.UlidText
import io.github.samekey.uniffi.parseUlid
import io.github.samekey.uniffi.ulidFromBytes
import java.time.Instant

/**
 * A ULID: a 48-bit millisecond timestamp and 80 bits, held as its canonical 26-character
 * text (uppercase), so equal ids are equal values and sort by time.
 *
 * ```
 * val id = Ulid.parse("01hwt0d7g0nxvjzmma9tw58ebh")
 * id.toString()   // "01HWT0D7G0NXVJZMMA9TW58EBH"
 * id.timestamp    // 2024-05-01T12:00:00Z
 * ```
 */
// A class, not a value class: Java sees functions taking or returning a Ulid under their
// own names (a value class would mangle them), and uses it as any other class.
public class Ulid private constructor(public val text: String) : Comparable<Ulid> {
    /** The 16 bytes, big-endian. */
    public val bytes: ByteArray get() = details().bytes

    /** The same 128 bits as lowercase 8-4-4-4-12 UUID text. */
    public val uuid: String get() = details().uuid

    /** The timestamp in the first 48 bits. */
    public val timestamp: Instant get() = Instant.ofEpochMilli(timestampMs)

    /** The timestamp in milliseconds since the epoch. */
    public val timestampMs: Long get() = details().timestampMs

    private fun details(): UlidText = core { parseUlid(text) }

    override fun compareTo(other: Ulid): Int = text.compareTo(other.text)

    override fun toString(): String = text

    override fun equals(other: Any?): Boolean = other is Ulid && other.text == text

    override fun hashCode(): Int = text.hashCode()

    public companion object {
        /** Parses ULID text in either case; `invalid_ulid` otherwise. */
        @JvmStatic
        public fun parse(text: String): Ulid = of(core { parseUlid(checked(text, "ULID text")) })

        /** The ULID of 16 bytes; `invalid_ulid` for another length. */
        @JvmStatic
        public fun fromBytes(bytes: ByteArray): Ulid = of(core { ulidFromBytes(bytes) })

        internal fun of(made: UlidText): Ulid = Ulid(made.ulid)

        /** Canonical text the core wrote. */
        internal fun ofText(text: String): Ulid = Ulid(text)
    }
}

/** Milliseconds since the epoch, floored (Instant keeps nanoseconds). */
// An instant beyond Long milliseconds goes on as Long's bound of its sign, out of range
// like itself: the core reports it in the place of spec §4.4, after the scheme's checks.
internal fun millis(at: Instant): Long = try {
    at.toEpochMilli()
} catch (e: ArithmeticException) {
    if (at.isAfter(Instant.EPOCH)) Long.MAX_VALUE else Long.MIN_VALUE
}
