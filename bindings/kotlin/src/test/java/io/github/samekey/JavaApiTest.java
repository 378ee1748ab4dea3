package io.github.samekey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The API as a Java program calls it: plain names (no mangled value-class functions),
 * overloads for the options, {@code Ulid} and {@code Scheme} as ordinary classes, and
 * {@code getCode()} on the exception. Scala calls the same methods.
 */
class JavaApiTest {
    private final Instant published = Instant.parse("2024-05-01T12:00:00Z");

    @Test
    void derivesWithDefaultsAndWithOptions() {
        Ulid id = Samekey.deriveUlid(published, "hello-world", "en");
        assertEquals(26, id.getText().length());
        assertEquals(id, Ulid.parse(id.toString().toLowerCase()));
        assertEquals(published, id.getTimestamp());
        assertArrayEquals(id.getBytes(), Ulid.fromBytes(id.getBytes()).getBytes());
        java.util.UUID uuid = id.toUuid();
        assertEquals(id.getUuid(), uuid.toString());
        assertEquals(id, Ulid.fromUuid(uuid));
        assertEquals(uuid.getMostSignificantBits(), id.getMostSignificantBits());
        assertEquals(uuid.getLeastSignificantBits(), id.getLeastSignificantBits());

        try (UlidDeriver posts = new UlidDeriver("posts", Scheme.V2)) {
            Ulid v2 = posts.derive(published, "hello-world", "en");
            assertNotEquals(id, v2);
            assertEquals(v2, new UlidDeriver("posts", Scheme.V2, null).derive(published, "hello-world", "en"));
            List<Ulid> many = posts.deriveMany(Arrays.asList(published, published.plusMillis(1)),
                    Arrays.asList(Arrays.asList("hello-world", "second"), Arrays.asList("en", "en")));
            assertEquals(v2, many.get(0));
            assertEquals(posts.derive(published.plusMillis(1), "second", "en"), many.get(1));
        }
        assertEquals(new UlidDeriver().derive(published, "hello-world", "en"), id);
        byte[] text = new UlidDeriver().deriveTextBytes(published.toEpochMilli(),
                "hello-world".getBytes(StandardCharsets.UTF_8), "en".getBytes(StandardCharsets.UTF_8));
        assertEquals(id.getText(), new String(text, StandardCharsets.US_ASCII));
    }

    @Test
    void failuresCarryTheirCode() {
        SamekeyException e = assertThrows(SamekeyException.class, () -> Ulid.parse("not a ulid"));
        assertEquals("invalid_ulid", e.getCode());
        assertEquals("unknown_scheme",
                assertThrows(SamekeyException.class, () -> new UlidDeriver("", new Scheme("v9"))).getCode());
        assertEquals("invalid_string",
                assertThrows(SamekeyException.class, () -> Samekey.deriveUlid(published, "\uD800")).getCode());
    }

    @Test
    void contentHashesKeysAndRings() {
        String a = Samekey.contentHashJson("{\"title\":\"Hello\",\"tags\":[\"x\"]}");
        assertEquals(a, Samekey.contentHashJson("{\"tags\":[\"x\"],\"title\":\"Hello\"}"));
        assertEquals(a, Samekey.contentHash(Samekey.canonicalJson("{\"title\":\"Hello\",\"tags\":[\"x\"]}").getBytes(StandardCharsets.UTF_8)));
        String root = Samekey.revisionKey(a);
        assertNotEquals(root, Samekey.revisionKey(a, root));
        assertTrue(Samekey.needsWrite(null, a));

        KeyRing ring = new KeyRing(Scheme.V2, Arrays.asList(Scheme.V1));
        Ulid old = Samekey.deriveUlid(published, "slug");
        assertEquals(Scheme.V1, ring.verify(old, published, "slug"));
        assertEquals(Scheme.V2, ring.verify(ring.deriveUlid(published, "slug"), published, "slug"));
    }
}
