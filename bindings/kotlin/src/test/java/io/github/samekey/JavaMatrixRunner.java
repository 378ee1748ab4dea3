package io.github.samekey;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Supplier;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The Java column of `just bench-matrix` (bench/matrix/protocol.md): the public API as
 * Java calls it. (Kotlin's runner is MatrixRunner; javac compiles the Java tests before
 * Kotlin's, so this one reads the cases and times by itself.)
 */
public final class JavaMatrixRunner {
    private JavaMatrixRunner() {}

    public static void main(String[] args) throws Exception {
        JSONObject c = new JSONObject(Files.readString(Path.of(System.getenv("SAMEKEY_MATRIX_CASES"))));
        Instant at = Instant.ofEpochMilli(c.getLong("time_ms"));
        String namespace = c.getString("namespace"), ulid = c.getString("ulid"), json = c.getString("json");
        String rfc3339 = c.getString("rfc3339"), parent = c.getString("parent");
        byte[] small = c.getString("small").getBytes(StandardCharsets.UTF_8);
        byte[] large = new byte[c.getInt("large_bytes")];
        for (int i = 0; i < large.length; i++) large[i] = (byte) (i * 131);
        List<byte[]> fields = new ArrayList<>();
        for (Object f : c.getJSONArray("fields")) fields.add(((String) f).getBytes(StandardCharsets.UTF_8));
        List<Scheme> accept = new ArrayList<>();
        JSONArray names = c.getJSONArray("ring");
        for (int i = 0; i < names.length(); i++) accept.add(new Scheme(names.getString(i)));

        UlidDeriver deriver = new UlidDeriver(namespace);
        KeyRing ring = KeyRing.of(accept);
        String stored = Samekey.contentHash(small);
        String incoming = Samekey.contentHashJson(json);
        Ulid old = Samekey.deriveUlid(at, fields, namespace);
        Ulid id = Ulid.parse(ulid);
        Map<String, Supplier<Object>> ops = new LinkedHashMap<>();
        ops.put("crossing", () -> Ulid.fromBytes(id.getBytes()));
        ops.put("ulid", () -> Samekey.deriveUlid(at, fields, namespace));
        ops.put("ulid_v2", () -> Samekey.deriveUlid(at, fields, namespace, Scheme.V2));
        ops.put("ulid_prepared", () -> deriver.derive(at, fields));
        ops.put("ulid_parse", () -> Ulid.parse(ulid));
        ops.put("ulid_text", () -> Ulid.fromUuid(id.toUuid()).getText());
        ops.put("ulid_bytes", id::getBytes);
        ops.put("hash_40", () -> Samekey.contentHash(small));
        ops.put("hash_1m", () -> Samekey.contentHash(large));
        ops.put("content_json", () -> Samekey.contentHashJson(json));
        ops.put("canonical_json", () -> Samekey.canonicalJson(json));
        ops.put("revision_key", () -> Samekey.revisionKey(stored, parent));
        ops.put("key_parse", () -> Samekey.parseKey(stored));
        ops.put("ring_verify", () -> ring.verify(old, at, fields, namespace));
        ops.put("ring_candidates", () -> ring.candidates(at, fields, namespace));
        ops.put("needs_write", () -> Samekey.needsWrite(stored, incoming));
        ops.put("rfc3339", () -> Samekey.parseRfc3339(rfc3339));

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int sink = 0;
        for (String line; (line = in.readLine()) != null; ) {
            long budget = Long.parseLong(line.trim()) * 1_000_000;
            StringJoiner row = new StringJoiner(",", "{", "}");
            for (Map.Entry<String, Supplier<Object>> op : ops.entrySet()) {
                for (long n = 1; ; n *= 2) {
                    long start = System.nanoTime();
                    for (long i = 0; i < n; i++) sink += op.getValue().get().hashCode();
                    long took = System.nanoTime() - start;
                    if (took >= budget) {
                        row.add(String.format("\"%s\":%.1f", op.getKey(), (double) took / n));
                        break;
                    }
                }
            }
            System.out.println(row.add("\"sink\":" + (sink & 1)));
        }
    }
}
