package io.github.samekey.spark;

import io.github.samekey.Ulid;
import io.github.samekey.UlidDeriver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The job both Spark tests run: row i is post-i in "en" at START + i ms, namespace "posts". */
final class Job {
    static final long START = 1714564800000L;

    private Job() {}

    /** The SQL of the job over `rows` rows in `partitions`, ordered by row, with `extra` columns. */
    static String sql(int rows, int partitions, String extra) {
        return "SELECT id, samekey_ulid('v1', timestamp_millis(" + START + " + id), 'posts', concat('post-', id), 'en')" + extra
                + " FROM range(0, " + rows + ", 1, " + partitions + ") ORDER BY id";
    }

    /** The same ids from the driver's local batch. */
    static List<Ulid> local(int rows) {
        List<Instant> times = new ArrayList<>(rows);
        List<String> slugs = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            times.add(Instant.ofEpochMilli(START + i));
            slugs.add("post-" + i);
        }
        try (UlidDeriver deriver = new UlidDeriver("posts")) {
            return deriver.deriveMany(times, List.of(slugs, Collections.nCopies(rows, "en")));
        }
    }
}
