package io.github.samekey.spark;

import io.github.samekey.Ulid;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.api.java.UDF0;
import org.apache.spark.sql.types.DataTypes;

/**
 * Run by spark-submit on a standalone cluster (scripts/test-cluster.sh): the SQL function
 * in executors that are not the driver, each its own JVM loading samekey's native library
 * from the JAR that spark.jars shipped to it. Their ids must equal the driver's local batch.
 */
public final class ClusterCheck {
    public static void main(String[] args) throws Exception {
        int rows = Integer.parseInt(args[0]);
        int executors = Integer.parseInt(args[1]);
        SparkSession spark = SparkSession.builder().appName("samekey-cluster-check").getOrCreate();
        try {
            long deadline = System.nanoTime() + 120_000_000_000L;
            // The driver counts as one: wait until every worker's executor has registered.
            while (spark.sparkContext().statusTracker().getExecutorInfos().length < executors + 1) {
                if (System.nanoTime() > deadline) throw new AssertionError("executors did not register");
                Thread.sleep(200);
            }
            // Nondeterministic, so that Spark evaluates it in each task rather than folding it once.
            spark.udf().register("executor_pid", functions.udf((UDF0<Long>) () -> ProcessHandle.current().pid(), DataTypes.LongType).asNondeterministic());
            List<Row> got = spark.sql(Job.sql(rows, 16, ", executor_pid()")).collectAsList();
            List<Ulid> local = Job.local(rows);
            Set<Long> pids = new HashSet<>();
            for (int i = 0; i < rows; i++) {
                Row r = got.get(i);
                if (!r.getString(1).equals(local.get(i).getText())) throw new AssertionError("row " + i + ": " + r + " vs " + local.get(i));
                pids.add(r.getLong(2));
            }
            if (got.size() != rows) throw new AssertionError("rows: " + got.size());
            if (pids.contains(ProcessHandle.current().pid())) throw new AssertionError("the driver ran a task");
            if (pids.size() < 2) throw new AssertionError("one executor ran every task: " + pids);
            System.out.println("cluster: " + rows + " rows in " + pids.size() + " executor JVMs (pids " + pids
                    + ", not the driver's) equal the driver's local batch");
        } finally {
            spark.stop();
        }
    }
}
