package io.github.samekey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import kotlin.Pair;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

/**
 * Every shared vector through the API as Java calls it (the Kotlin runner, VectorsTest,
 * does the same through Kotlin's): the file named by SAMEKEY_VECTORS, else the
 * repository's. bindings/kotlin/scripts/test-repo.sh runs it in a fresh project too.
 */
class JavaVectorsTest {
    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }

    private static byte[] unhex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return out;
    }

    /** Text, or {"utf16": ...} code units (spec §10.1) as the String Java makes of them. */
    private static String text(Object t) {
        if (t instanceof String) return (String) t;
        byte[] units = unhex(((JSONObject) t).getString("utf16"));
        char[] chars = new char[units.length / 2];
        for (int i = 0; i < chars.length; i++) chars[i] = (char) ((units[2 * i] & 0xff) << 8 | (units[2 * i + 1] & 0xff));
        return new String(chars);
    }

    private static boolean wellFormed(String s) {
        return s.codePoints().noneMatch(c -> c >= 0xD800 && c <= 0xDFFF);
    }

    /** The vector's time; a fraction of a millisecond fails as Java's API takes no fractions (spec §8.2). */
    private static Instant at(JSONObject v) {
        BigDecimal t = v.getBigDecimal("timestamp_ms");
        if (t.stripTrailingZeros().scale() > 0) throw new SamekeyException("invalid_timestamp", t + " is not whole milliseconds", null);
        BigInteger ms = t.toBigInteger().max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE));
        return Instant.ofEpochMilli(ms.longValue());
    }

    /** The time once the strings are converted (spec §2.2: strings first). */
    private static Instant atAfter(JSONObject v, String namespace, List<String> texts) {
        if (!wellFormed(namespace) || (texts != null && !texts.stream().allMatch(JavaVectorsTest::wellFormed))) return Instant.EPOCH;
        return at(v);
    }

    private static byte[] secret(JSONObject v) {
        return v.has("secret_hex") ? unhex(v.getString("secret_hex")) : null;
    }

    private static Scheme scheme(JSONObject v) {
        return new Scheme(text(v.get("scheme")));
    }

    private static String parent(JSONObject v) {
        return v.isNull("parent") ? null : text(v.get("parent"));
    }

    private static KeyRing ring(JSONObject v) {
        JSONArray a = v.getJSONArray("accepted");
        List<Scheme> schemes = new ArrayList<>();
        for (int i = 0; i < a.length(); i++) schemes.add(new Scheme(text(a.get(i))));
        return KeyRing.of(schemes);
    }

    /** Texts when every field is text; null otherwise. */
    private static List<String> texts(JSONObject v) {
        JSONArray a = v.getJSONArray("fields");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.length(); i++) {
            Object f = a.get(i);
            if (f instanceof JSONObject && ((JSONObject) f).has("hex")) return null;
            out.add(text(f));
        }
        return out;
    }

    /** Bytes of every field; null when a text field is not valid Unicode (it has no UTF-8). */
    private static List<byte[]> bytes(JSONObject v) {
        JSONArray a = v.getJSONArray("fields");
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < a.length(); i++) {
            Object f = a.get(i);
            if (f instanceof JSONObject && ((JSONObject) f).has("hex")) {
                out.add(unhex(((JSONObject) f).getString("hex")));
            } else {
                String s = text(f);
                if (!wellFormed(s)) return null;
                out.add(s.getBytes(StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static Map<String, Object> run(JSONObject v) throws Exception {
        switch (v.getString("op")) {
            case "ulid": {
                Scheme scheme = scheme(v);
                String ns = text(v.get("namespace"));
                List<String> texts = texts(v);
                List<byte[]> bytes = bytes(v);
                Instant at = atAfter(v, ns, texts);
                Ulid byText = texts == null ? null : Samekey.deriveUlid(at, texts.toArray(new String[0]), ns, scheme, secret(v));
                if (bytes == null) throw new IllegalStateException("text that is not valid Unicode derived " + byText);
                Ulid id = Samekey.deriveUlid(at, bytes, ns, scheme, secret(v));
                if (byText != null && !byText.equals(id)) throw new IllegalStateException("text fields gave " + byText + ", bytes " + id);
                try (UlidDeriver prepared = new UlidDeriver(ns, scheme, secret(v))) {
                    if (!prepared.derive(at, bytes).equals(id)) throw new IllegalStateException("UlidDeriver differs");
                }
                return map("ulid", id.getText(), "uuid", id.getUuid(), "message_hex", hex(Samekey.ulidMessage(bytes, ns, scheme)));
            }
            case "content": {
                byte[] data = unhex(v.getString("data_hex"));
                String hash = Samekey.contentHash(data, scheme(v));
                if (!Samekey.contentHash(new ByteArrayInputStream(data), scheme(v)).equals(hash)) throw new IllegalStateException("the stream's hash differs");
                return map("hash", hash);
            }
            case "content_json": {
                String json = text(v.get("json"));
                String hash = Samekey.contentHashJson(json, scheme(v)); // the scheme before the text (spec §6.1)
                return map("canonical", Samekey.canonicalJson(json), "hash", hash);
            }
            case "revision": {
                Scheme scheme = v.isNull("scheme") ? null : scheme(v);
                String hash = text(v.get("content_hash"));
                return map("key", Samekey.revisionKey(hash, parent(v), scheme, secret(v)),
                        "message_hex", hex(Samekey.revisionMessage(hash, parent(v), scheme)));
            }
            case "timestamp":
                return map("timestamp_ms", Samekey.parseRfc3339(text(v.get("rfc3339"))).toEpochMilli());
            case "ulid_parse": {
                Ulid id = Ulid.parse(text(v.get("text")));
                return map("ulid", id.getText(), "uuid", id.getUuid(), "timestamp_ms", id.getTimestampMs());
            }
            case "key_parse": {
                KeyRing ring = v.has("accepted") ? ring(v) : null; // a ring is checked first (spec §9.1)
                ParsedKey k = Samekey.parseKey(text(v.get("text")));
                Scheme scheme = ring == null ? k.getScheme() : ring.schemeOf(text(v.get("text")));
                return map("kind", k.getKind(), "scheme", scheme.getId(), "canonical", k.getCanonical());
            }
            case "verify": {
                KeyRing ring = ring(v);
                String ns = text(v.get("namespace"));
                List<String> texts = texts(v);
                // The id first, parsed before the call: its text's conversion comes
                // before the time's (spec §9.2).
                Ulid id = Ulid.parse(text(v.get("ulid")));
                Instant at = atAfter(v, ns, texts);
                Scheme s = texts != null
                        ? ring.verify(id, at, texts.toArray(new String[0]), ns, secret(v))
                        : ring.verify(id, at, bytes(v), ns, secret(v));
                return map("scheme", s.getId());
            }
            case "candidates": {
                KeyRing ring = ring(v);
                String ns = text(v.get("namespace"));
                List<String> texts = texts(v);
                Instant at = atAfter(v, ns, texts);
                List<Pair<Scheme, Ulid>> found = texts != null
                        ? ring.candidates(at, texts.toArray(new String[0]), ns, secret(v))
                        : ring.candidates(at, bytes(v), ns, secret(v));
                List<Object> out = new ArrayList<>();
                for (Pair<Scheme, Ulid> p : found) out.add(map("scheme", p.getFirst().getId(), "ulid", p.getSecond().getText()));
                return map("candidates", out);
            }
            case "ring_revision":
                return map("key", ring(v).revisionKey(text(v.get("content_hash")), parent(v), secret(v)));
            case "needs_write":
                return map("needs_write", Samekey.needsWrite(v.isNull("stored") ? null : text(v.get("stored")), text(v.get("incoming"))));
            default:
                throw new IllegalStateException("unknown op " + v.getString("op"));
        }
    }

    /** JSON as plain Java values, numbers as Long, to compare with run()'s. */
    private static Object plain(Object x) {
        if (x instanceof Integer) return ((Integer) x).longValue();
        if (x instanceof JSONObject) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (String k : ((JSONObject) x).keySet()) m.put(k, plain(((JSONObject) x).get(k)));
            return m;
        }
        if (x instanceof JSONArray) {
            List<Object> l = new ArrayList<>();
            for (Object o : (JSONArray) x) l.add(plain(o));
            return l;
        }
        return x;
    }

    @Test
    void everyVector() throws Exception {
        String path = System.getenv("SAMEKEY_VECTORS") != null ? System.getenv("SAMEKEY_VECTORS") : System.getenv("SAMEKEY_VECTORS_DEFAULT");
        if (path == null) throw new IllegalStateException("set SAMEKEY_VECTORS to a vector file");
        JSONObject doc = new JSONObject(Files.readString(Path.of(path)));
        assertEquals("samekey-test-vectors/1", doc.getString("schema"));
        JSONArray vectors = doc.getJSONArray("vectors");
        List<String> failures = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < vectors.length(); i++) {
            JSONObject v = vectors.getJSONObject(i);
            if (!ids.add(v.getString("id"))) throw new IllegalStateException("duplicate vector id " + v.getString("id"));
            Object got;
            // Anything a vector throws fails that vector alone (spec §10.1).
            try {
                got = run(v);
            } catch (SamekeyException e) {
                got = map("error", e.getCode());
            } catch (Exception e) {
                got = map("exception", e.toString());
            }
            Object want = plain(v.getJSONObject("expect"));
            if (!got.equals(want)) failures.add(v.getString("id") + ": expected " + want + ", got " + got);
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertTrue(vectors.length() > 0);
        System.out.println(vectors.length() + " vectors from " + path + " (Java)");
    }
}
