package io.github.samekey

/**
 * A derivation scheme: the algorithm and framing of an id or key. Released schemes never
 * change their output; a change of output is a new scheme. The core checks the name, so
 * `Scheme("v9")` fails with `unknown_scheme` where it is used.
 */
// A class, not a value class: Java sees functions taking a Scheme under their own names.
public class Scheme(public val id: String) {
    init {
        // A lone surrogate is invalid_string here (spec §2.2): passed on, JNA would send
        // it as '?' and the core would report another code.
        checked(id, "scheme")
    }

    override fun toString(): String = id

    override fun equals(other: Any?): Boolean = other is Scheme && other.id == id

    override fun hashCode(): Int = id.hashCode()

    public companion object {
        /** SHA-256 (HMAC-SHA-256 when keyed): the default. */
        @JvmField public val V1: Scheme = Scheme("v1")

        /** BLAKE3 (keyed BLAKE3 when keyed). */
        @JvmField public val V2: Scheme = Scheme("v2")

        /** The legacy scheme, kept to recognise ids made before v1. */
        @JvmField public val V0: Scheme = Scheme("v0")
    }
}
