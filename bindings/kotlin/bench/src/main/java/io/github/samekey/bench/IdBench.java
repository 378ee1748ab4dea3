package io.github.samekey.bench;

import io.github.samekey.Samekey;
import io.github.samekey.Scheme;
import io.github.samekey.Ulid;
import io.github.samekey.UlidDeriver;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ns per id: samekey against the ~30 lines a Java developer would write instead
 * (MessageDigest SHA-256 over v1's tag block and framing, then a Crockford loop), for one
 * id (a 20-byte slug and "en"), keyed (HMAC-SHA-256 with a prepared {@code Mac}) and for a
 * batch of 10,000 (on every core, and on the calling thread alone: what one core or a busy
 * host gives). Setup checks that both sides give the same ids before anything is timed. Every benchmark runs in three forks of its own, in
 * JMH's order, on the same machine.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 2)
// Three JVMs: each compiles a benchmark its own way, and one fork's result moved by up to
// 19% from one run to the next.
@Fork(3)
@State(Scope.Thread)
public class IdBench {
    static final int BATCH = 10_000;
    private static final char[] CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final byte[] TAG = new byte[64];

    static {
        byte[] tag = "samekey/v1/ulid".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(tag, 0, TAG, 0, tag.length);
    }

    long[] times = new long[BATCH];
    String[] slugs = new String[BATCH];
    List<Instant> instants = new ArrayList<>();
    List<List<String>> columns;
    UlidDeriver deriver = new UlidDeriver();
    static final byte[] SECRET = "a 32-byte secret for the bench..".getBytes(StandardCharsets.US_ASCII);
    UlidDeriver keyedDeriver = new UlidDeriver("", Scheme.V1, SECRET);
    Mac mac;
    int i;

    /** The pure-JVM peer: v1, no namespace, text fields. */
    static String pureJvm(long ms, String... fields) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(TAG);
            sha.update(frame(fields));
            return crockford(ms, sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The keyed pure-JVM peer: HMAC-SHA-256 of the same message, with a prepared Mac. */
    static String pureJvmKeyed(Mac mac, long ms, String... fields) {
        mac.update(TAG);
        mac.update(frame(fields));
        return crockford(ms, mac.doFinal());
    }

    static byte[] frame(String... fields) {
        int size = 8;
        byte[][] utf8 = new byte[fields.length][];
        for (int f = 0; f < fields.length; f++) {
            utf8[f] = fields[f].getBytes(StandardCharsets.UTF_8);
            size += 4 + utf8[f].length;
        }
        ByteBuffer frame = ByteBuffer.allocate(size).putInt(0).putInt(fields.length);
        for (byte[] b : utf8) frame.putInt(b.length).put(b);
        return frame.array();
    }

    static String crockford(long ms, byte[] d) {
        long hi = ms << 16 | (d[0] & 0xffL) << 8 | (d[1] & 0xffL);
        long lo = 0;
        for (int k = 2; k < 10; k++) lo = lo << 8 | (d[k] & 0xffL);
        char[] out = new char[26];
        for (int k = 25; k >= 0; k--) {
            out[k] = CROCKFORD[(int) (lo & 31)];
            lo = lo >>> 5 | hi << 59;
            hi >>>= 5;
        }
        return new String(out);
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
        for (int k = 0; k < BATCH; k++) {
            times[k] = 1714564800000L + k;
            slugs[k] = String.format("my-first-post-%06d", k);
            instants.add(Instant.ofEpochMilli(times[k]));
        }
        columns = List.of(List.of(slugs), Collections.nCopies(BATCH, "en"));
        List<Ulid> many = deriver.deriveMany(instants, columns);
        for (int k = 0; k < BATCH; k++) {
            String peer = pureJvm(times[k], slugs[k], "en");
            if (!peer.equals(many.get(k).getText()) || !peer.equals(Samekey.deriveUlid(instants.get(k), slugs[k], "en").getText())) {
                throw new IllegalStateException("the peer and samekey differ at row " + k);
            }
            if (!pureJvmKeyed(mac, times[k], slugs[k], "en").equals(keyedDeriver.derive(instants.get(k), slugs[k], "en").getText())) {
                throw new IllegalStateException("the keyed peer and samekey differ at row " + k);
            }
        }
    }

    private int next() {
        i = (i + 1) % BATCH;
        return i;
    }

    @Benchmark
    public String single_pureJvm() {
        int k = next();
        return pureJvm(times[k], slugs[k], "en");
    }

    @Benchmark
    public Ulid single_deriveUlid() {
        int k = next();
        return Samekey.deriveUlid(instants.get(k), slugs[k], "en");
    }

    @Benchmark
    public Ulid single_ulidDeriver() {
        int k = next();
        return deriver.derive(instants.get(k), slugs[k], "en");
    }

    /** The id as its text, for storing as a string: what the peer returns. */
    @Benchmark
    public String single_ulidDeriverText() {
        int k = next();
        return deriver.derive(instants.get(k), slugs[k], "en").getText();
    }

    @Benchmark
    public String keyed_pureJvm() {
        int k = next();
        return pureJvmKeyed(mac, times[k], slugs[k], "en");
    }

    @Benchmark
    public Ulid keyed_ulidDeriver() {
        int k = next();
        return keyedDeriver.derive(instants.get(k), slugs[k], "en");
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public String[] batch_pureJvm() {
        String[] out = new String[BATCH];
        for (int k = 0; k < BATCH; k++) out[k] = pureJvm(times[k], slugs[k], "en");
        return out;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public List<Ulid> batch_deriveMany() {
        return deriver.deriveMany(instants, columns);
    }

    /** The batch on the calling thread alone ({@code maxThreads = 1}), as the peer runs. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public List<Ulid> batch_deriveManyOneThread() {
        return deriver.deriveMany(instants, columns, 1);
    }
}
