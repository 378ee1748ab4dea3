package io.github.samekey.spark;

import io.github.samekey.SamekeyException;
import io.github.samekey.Ulid;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * samekey's SQL functions in a real Spark (pyspark's jars, master local[2]): every ulid
 * vector of the file (SAMEKEY_VECTORS, else the one given) that SQL can express, a
 * 1M-row job against the local batch, the time types and zones, and the refusals.
 * A plain program: it exits non-zero on the first failure, naming it.
 */
public final class SparkSqlTest {
    private static int checks;

    public static void main(String[] args) throws Exception {
        String file = System.getenv().getOrDefault("SAMEKEY_VECTORS", args[0]);
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        SparkSession spark = SparkSession.builder()
                .master("local[2]")
                .appName("samekey-spark-test")
                .config("spark.sql.extensions", SamekeyExtensions.class.getName())
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        try {
            vectors(spark, Path.of(file));
            batch(spark, rows);
            times(spark);
            refusals(spark);
            contentHash(spark);
            arities(spark);
            dataFrameApi(spark);
        } finally {
            spark.stop();
        }
        System.out.println("spark: " + checks + " checks passed");
    }

    private static void expect(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
        checks++;
    }

    private static byte[] unhex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return out;
    }

    /** The code of a failure: a SamekeyException's anywhere in the chain Spark wraps it in. */
    private static String code(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SamekeyException) return ((SamekeyException) t).getCode();
        }
        throw new AssertionError("not a samekey failure", e);
    }

    /**
     * Every ulid vector SQL can express, as named parameters (exact values, no quoting):
     * text, or binary for {"hex"} fields; the time as BIGINT milliseconds. Not expressible:
     * a secret (the SQL function is unkeyed), a lone surrogate (Spark strings are UTF-8),
     * a fraction of a millisecond (BIGINT).
     */
    private static void vectors(SparkSession spark, Path file) throws Exception {
        JSONArray all = new JSONObject(Files.readString(file)).getJSONArray("vectors");
        Map<String, Integer> skipped = new TreeMap<>();
        int ran = 0;
        for (int n = 0; n < all.length(); n++) {
            JSONObject v = all.getJSONObject(n);
            if (!v.getString("op").equals("ulid")) continue;
            String why = inexpressible(v);
            if (why != null) {
                skipped.merge(why, 1, Integer::sum);
                continue;
            }
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("scheme", v.getString("scheme"));
            params.put("ms", millis(v));
            params.put("namespace", v.getString("namespace"));
            StringBuilder call = new StringBuilder("SELECT samekey_ulid(:scheme, :ms, :namespace");
            JSONArray fields = v.getJSONArray("fields");
            for (int i = 0; i < fields.length(); i++) {
                Object f = fields.get(i);
                params.put("f" + i, f instanceof String ? f : unhex(((JSONObject) f).getString("hex")));
                call.append(", :f").append(i);
            }
            call.append(")");
            JSONObject expect = v.getJSONObject("expect");
            String id = v.getString("id");
            try {
                String got = spark.sql(call.toString(), params).collectAsList().get(0).getString(0);
                expect(expect.has("ulid") && got.equals(expect.getString("ulid")), id + ": got " + got + ", expected " + expect);
            } catch (RuntimeException e) {
                if (!expect.has("error")) throw new AssertionError(id + ": failed", e);
                expect(code(e).equals(expect.getString("error")), id + ": " + code(e) + ", expected " + expect.getString("error"));
            }
            ran++;
        }
        expect(ran > 0, "no ulid vector could be expressed in SQL");
        System.out.println("spark: " + ran + " ulid vectors through SQL; not expressible: " + skipped);
    }

    private static String inexpressible(JSONObject v) {
        if (v.has("secret_hex")) return "secret";
        if (!(v.get("scheme") instanceof String) || !(v.get("namespace") instanceof String)) return "lone surrogate";
        JSONArray fields = v.getJSONArray("fields");
        for (int i = 0; i < fields.length(); i++) {
            Object f = fields.get(i);
            if (!(f instanceof String) && !((JSONObject) f).has("hex")) return "lone surrogate";
        }
        if (v.getBigDecimal("timestamp_ms").stripTrailingZeros().scale() > 0) return "fraction of a millisecond";
        return null;
    }

    /** The time as BIGINT: a value beyond its range as its bound, out of range like itself. */
    private static long millis(JSONObject v) {
        BigInteger ms = v.getBigDecimal("timestamp_ms").toBigInteger();
        return ms.max(BigInteger.valueOf(Long.MIN_VALUE)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    }

    /** A job of `rows` rows on the executors equals the local batch of the same rows. */
    private static void batch(SparkSession spark, int rows) {
        List<Row> got = spark.sql(Job.sql(rows, 8, "")).collectAsList();
        List<Ulid> local = Job.local(rows);
        expect(got.size() == rows, "rows: " + got.size());
        for (int i = 0; i < rows; i++) {
            if (!got.get(i).getString(1).equals(local.get(i).getText())) throw new AssertionError("row " + i + ": " + got.get(i) + " vs " + local.get(i));
        }
        checks++;
        System.out.println("spark: " + rows + " rows on local[2] (8 partitions) equal the local batch");
    }

    /** TIMESTAMP is an instant (floored to the millisecond) in any session zone; BIGINT is milliseconds. */
    private static void times(SparkSession spark) {
        String query = "SELECT samekey_ulid('v1', to_timestamp('2024-05-01T12:00:00.999999Z'), '', 'a'), "
                + "samekey_ulid('v1', 1714564800999, '', 'a'), samekey_ulid('v1', timestamp_millis(1714564800999), '', 'a')";
        for (String zone : List.of("UTC", "America/New_York", "Asia/Kolkata")) {
            spark.conf().set("spark.sql.session.timeZone", zone);
            Row r = spark.sql(query).collectAsList().get(0);
            expect(r.getString(0).equals(r.getString(1)) && r.getString(1).equals(r.getString(2)), zone + ": " + r);
        }
        spark.conf().set("spark.sql.session.timeZone", "UTC");
        Row i = spark.sql("SELECT samekey_ulid('v1', CAST(5 AS INT), '', 'a'), samekey_ulid('v1', 5L, '', 'a')").collectAsList().get(0);
        expect(i.getString(0).equals(i.getString(1)), "INT milliseconds are BIGINT's: " + i);
        Row r = spark.sql("SELECT samekey_ulid('v1', 1, '', CAST('x' AS BINARY)), samekey_ulid('v1', 1, '', 'x'), samekey_ulid('v1', 1, '', X'78')").collectAsList().get(0);
        expect(r.getString(0).equals(r.getString(1)) && r.getString(1).equals(r.getString(2)), "a string is its UTF-8: " + r);
    }

    private static void refusals(SparkSession spark) {
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("SELECT samekey_ulid('v1', TIMESTAMP_NTZ '2024-05-01 12:00:00', '', 'a')", "invalid_timestamp");
        refused.put("SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', '', 'a')", "to_timestamp");
        refused.put("SELECT samekey_ulid('v1', 1, '', 42)", "field 0 is int");
        refused.put("SELECT samekey_ulid('v1', 1)", "got 2 arguments");
        refused.put("SELECT samekey_content_hash('v1', 'a', 'b')", "got 3 arguments");
        for (Map.Entry<String, String> q : refused.entrySet()) {
            String message = failure(spark, q.getKey());
            expect(message.contains(q.getValue()), q.getKey() + " failed with " + message);
        }
        String nulls = failure(spark, "SELECT samekey_ulid('v1', 1, '', slug) FROM VALUES ('a'), (NULL) AS t(slug)");
        expect(nulls.contains("field 0 (slug) is null"), "a null field: " + nulls);
        // A null time fails too (a primitive argument Spark would otherwise answer null for),
        // as does a null field of a call too wide for the generated path.
        String time = failure(spark, "SELECT samekey_ulid('v1', t, '', 'a') FROM VALUES (TIMESTAMP '2024-05-01 12:00:00Z'), (NULL) AS v(t)");
        expect(time.contains("the time (t) is null"), "a null time: " + time);
        String wide = failure(spark, "SELECT samekey_ulid('v1', 1, '', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', slug) FROM VALUES ('a'), (NULL) AS t(slug)");
        expect(wide.contains("field 9 (slug) is null"), "a null field of ten: " + wide);
        expect(failure(spark, "SELECT samekey_content_hash(CAST(NULL AS STRING))").contains("the value is null"), "a null value");
        expect(code(failureOf(spark, "SELECT samekey_ulid('v9', 1, '', 'a')")).equals("unknown_scheme"), "unknown scheme");
        expect(code(failureOf(spark, "SELECT samekey_ulid('v1', 1, '')")).equals("no_fields"), "no fields");
    }

    /**
     * Up to eight fields Spark calls the generated path (invoke); more go through
     * produceResult: both give the core's ids, and a plan shows which ran.
     */
    private static void arities(SparkSession spark) {
        for (int width = 1; width <= 10; width++) {
            StringBuilder call = new StringBuilder("samekey_ulid('v1', t, 'posts'");
            List<byte[]> fields = new java.util.ArrayList<>();
            for (int i = 0; i < width; i++) {
                call.append(i % 2 == 0 ? ", slug" : ", CAST(lang AS BINARY)");
                fields.add((i % 2 == 0 ? "post-é" : "en").getBytes(StandardCharsets.UTF_8));
            }
            String query = "SELECT " + call + ") FROM VALUES ('post-é', 'en', TIMESTAMP '2024-05-01 12:00:00.5Z') AS v(slug, lang, t)";
            String got = spark.sql(query).collectAsList().get(0).getString(0);
            try (io.github.samekey.UlidDeriver posts = new io.github.samekey.UlidDeriver("posts")) {
                String want = posts.derive(java.time.Instant.parse("2024-05-01T12:00:00.500Z"), fields).getText();
                expect(got.equals(want), width + " fields: " + got + " vs " + want);
            }
            String plan = spark.sql(query).queryExecution().executedPlan().toString();
            expect(plan.contains("invoke(") == (width <= 8), width + " fields ran " + plan);
        }
    }

    private static Throwable failureOf(SparkSession spark, String query) {
        try {
            spark.sql(query).collectAsList();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError(query + " did not fail");
    }

    private static String failure(SparkSession spark, String query) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failureOf(spark, query); t != null; t = t.getCause()) all.append(t.getMessage()).append(" | ");
        return all.toString();
    }

    /** The functions by name from the DataFrame API (Java here; Scala's call is the same). */
    private static void dataFrameApi(SparkSession spark) {
        List<Row> api = spark.range(3).select(functions.call_function("samekey_ulid",
                functions.lit("v1"), functions.col("id"), functions.lit("posts"), functions.lit("a"))).collectAsList();
        List<Row> sql = spark.sql("SELECT samekey_ulid('v1', id, 'posts', 'a') FROM range(3)").collectAsList();
        expect(api.equals(sql), "call_function gives SQL's ids: " + api + " vs " + sql);
    }

    private static void contentHash(SparkSession spark) {
        Row r = spark.sql("SELECT samekey_content_hash('héllo'), samekey_content_hash('v1', CAST('héllo' AS BINARY)), samekey_content_hash('v2', X'00')").collectAsList().get(0);
        expect(r.getString(0).equals(io.github.samekey.Samekey.contentHash("héllo".getBytes(StandardCharsets.UTF_8))), "v1 of text: " + r);
        expect(r.getString(0).equals(r.getString(1)), "text is its UTF-8: " + r);
        expect(r.getString(2).equals(io.github.samekey.Samekey.contentHash(new byte[] {0}, io.github.samekey.Scheme.V2)), "v2: " + r);
    }
}
