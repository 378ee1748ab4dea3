package io.github.samekey.spark;

import org.junit.jupiter.api.Test;

/** SparkSqlTest (copied from samekey's spark/src/test) as a JUnit test of this project. */
class SparkVectorsTest {
    @Test
    void vectorsJobTimesAndRefusals() throws Exception {
        SparkSqlTest.main(new String[] {System.getenv("SAMEKEY_VECTORS"), System.getenv("SAMEKEY_SPARK_ROWS")});
    }
}
