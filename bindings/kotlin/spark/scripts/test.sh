#!/usr/bin/env bash
# samekey-spark on a real Spark: the JARs of samekey and samekey-spark from the file://
# repository (just jvm::dist; samekey-spark compiled by Maven against Spark 4.2.0 from
# Maven Central) run on pyspark's Spark (the Python engines' venv, from PyPI), against
# which the test classes are compiled here (target/spark); SparkSqlTest runs on master
# local[2].
#
# Then PySpark (PYTHON: a venv with samekey and pyspark) loads the JARs through spark.jars
# and its ids and hashes are compared with samekey.spark's (src/test/python).
#
#   scripts/test.sh PYTHON [ROWS]
set -euo pipefail
python=$1
rows=${2:-1000000}
. "$(dirname "$0")/env.sh"
test -f "$spark_jar" || { echo "spark: no $spark_jar; run just jvm::dist linux-x86-64" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/test-classes"

# samekey's own dependencies (kotlin-stdlib, JNA) and the tests' JSON reader, as Maven
# resolves them for the samekey project.
(cd "$kotlin" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/samekey.classpath")
cp=$(classpath)

javac "${javac_flags[@]}" -cp "$spark_jar:$cp:$jars/*" -d "$out/test-classes" \
  $(find "$spark_dir/src/test/java" -name '*.java')
cp -r "$spark_dir/src/test/resources/." "$out/test-classes/"

# What spark-submit adds on Java 17 (org.apache.spark.launcher.JavaModuleOptions).
opens=()
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
         java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  opens+=("--add-opens=java.base/$p=ALL-UNNAMED")
done
java "${opens[@]}" -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true \
  -cp "$out/test-classes:$spark_jar:$cp:$jars/*" \
  io.github.samekey.spark.SparkSqlTest "$repo/test-vectors/samekey.json" "$rows"

SAMEKEY_SPARK_JARS="$spark_jar,${cp//:/,}" "$python" -m pytest -q -p no:cacheprovider "$spark_dir/src/test/python"
