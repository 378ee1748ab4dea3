package io.github.samekey.bench;

import io.github.samekey.KeyRing;
import io.github.samekey.Samekey;
import io.github.samekey.Scheme;
import io.github.samekey.Ulid;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ns per call of the per-document calls a pipeline makes (the guards' and the rollout
 * recipe's), each one JNI call into the core; a 40-byte content hash against
 * MessageDigest's SHA-256 and hex of the same bytes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(2)
@State(Scope.Thread)
public class CallBench {
    final byte[] small = "a 40-byte document, the same everywhere.".getBytes(StandardCharsets.UTF_8);
    final String json = "{\"title\":\"Hello, world\",\"n\":[1,2]}";
    final Instant at = Instant.parse("2024-05-01T12:00:00Z");
    final List<byte[]> fields = List.of("hello-world".getBytes(StandardCharsets.UTF_8), "en".getBytes(StandardCharsets.UTF_8));
    final KeyRing ring = new KeyRing(Scheme.V2, List.of(Scheme.V1));
    String stored;
    String incoming;
    Ulid old;
    String text;

    @Setup
    public void setUp() throws Exception {
        stored = Samekey.contentHash(small);
        incoming = Samekey.contentHash(new byte[] {1});
        old = Samekey.deriveUlid(at, fields, "posts");
        text = old.getText().toLowerCase();
        String peer = "sha256:" + hex(MessageDigest.getInstance("SHA-256").digest(small));
        if (!peer.equals(stored) || small.length != 40) throw new IllegalStateException("the peer and samekey differ");
    }

    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** Lower-case hex, a table lookup a nibble (the peer's fastest way on Java 11). */
    static String hex(byte[] bytes) {
        byte[] out = new byte[2 * bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 15];
            out[2 * i + 1] = DIGITS[bytes[i] & 15];
        }
        return new String(out, StandardCharsets.US_ASCII);
    }

    @Benchmark
    public String hash40_messageDigest() throws Exception {
        return "sha256:" + hex(MessageDigest.getInstance("SHA-256").digest(small));
    }

    @Benchmark
    public String hash40_contentHash() {
        return Samekey.contentHash(small);
    }

    @Benchmark
    public String call_contentHashJson() {
        return Samekey.contentHashJson(json);
    }

    @Benchmark
    public boolean call_needsWrite() {
        return Samekey.needsWrite(stored, incoming);
    }

    @Benchmark
    public Ulid call_ulidParse() {
        return Ulid.parse(text);
    }

    @Benchmark
    public Object call_parseKey() {
        return Samekey.parseKey(stored);
    }

    @Benchmark
    public Instant call_parseRfc3339() {
        return Samekey.parseRfc3339("2024-05-01T12:00:00.123+02:00");
    }

    @Benchmark
    public Scheme call_ringVerify() {
        return ring.verify(old, at, fields, "posts");
    }

    @Benchmark
    public Object call_ringCandidates() {
        return ring.candidates(at, fields, "posts");
    }

    @Benchmark
    public Scheme call_ringSchemeOf() {
        return ring.schemeOf(stored);
    }

    @Benchmark
    public String call_revisionKey() {
        return ring.revisionKey(stored);
    }
}
