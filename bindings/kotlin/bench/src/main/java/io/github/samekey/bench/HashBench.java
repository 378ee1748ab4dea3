package io.github.samekey.bench;

import io.github.samekey.Samekey;
import io.github.samekey.Scheme;
import java.security.MessageDigest;
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

/** µs per content hash of 1 MiB: samekey against MessageDigest SHA-256 (the JDK's SHA intrinsics). */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 2)
// Three JVMs: each compiles a benchmark its own way, and one fork's result moved by up to
// 19% from one run to the next.
@Fork(3)
@State(Scope.Thread)
public class HashBench {
    byte[] data = new byte[1 << 20];

    @Setup
    public void setUp() throws Exception {
        for (int k = 0; k < data.length; k++) data[k] = (byte) (k * 131);
        String peer = "sha256:" + toHex(MessageDigest.getInstance("SHA-256").digest(data));
        if (!peer.equals(Samekey.contentHash(data))) throw new IllegalStateException("the peer and samekey differ");
    }

    private static String toHex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }

    @Benchmark
    public byte[] hash_messageDigest() throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }

    @Benchmark
    public String hash_contentHashV1() {
        return Samekey.contentHash(data);
    }

    @Benchmark
    public String hash_contentHashV2() {
        return Samekey.contentHash(data, Scheme.V2);
    }
}
