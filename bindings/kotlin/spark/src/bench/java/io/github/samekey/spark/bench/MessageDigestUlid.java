package io.github.samekey.spark.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.spark.sql.api.java.UDF3;

/**
 * The peer a Spark user would write instead of samekey_ulid: a Java UDF of (milliseconds,
 * slug, lang) doing v1 by hand with MessageDigest SHA-256 and a Crockford loop (the same
 * ~30 lines as the JMH peer, IdBench.pureJvm; no namespace). bench_spark.py checks that
 * its ids equal samekey_ulid's before timing.
 */
public final class MessageDigestUlid implements UDF3<Long, String, String, String> {
    private static final long serialVersionUID = 1L;
    private static final char[] CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final byte[] TAG = new byte[64];

    static {
        byte[] tag = "samekey/v1/ulid".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(tag, 0, TAG, 0, tag.length);
    }

    @Override
    public String call(Long ms, String slug, String lang) throws NoSuchAlgorithmException {
        byte[] a = slug.getBytes(StandardCharsets.UTF_8);
        byte[] b = lang.getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(16 + a.length + b.length).putInt(0).putInt(2);
        frame.putInt(a.length).put(a).putInt(b.length).put(b);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(TAG);
        sha.update(frame.array());
        byte[] d = sha.digest();
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
}
