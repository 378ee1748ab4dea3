#!/usr/bin/env bash
# samekey-spark against a real Spark: compiled against, and run on, pyspark's jars (the
# Python engines' venv installs pyspark from PyPI, the same Spark as Maven Central's),
# with samekey's JAR from the file:// repository (just kotlin::dist). The JAR is written
# to target/spark; SparkSqlTest runs on master local[2].
#
# Then PySpark (PYTHON: a venv with samekey and pyspark) loads the JARs through spark.jars
# and its ids and hashes are compared with samekey.spark's (src/test/python).
#
#   scripts/test.sh PYTHON [ROWS]
set -euo pipefail
python=$1
rows=${2:-1000000}
. "$(dirname "$0")/env.sh"
test -f "$samekey" || { echo "spark: no $samekey; run just kotlin::dist linux-x86-64" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/classes" "$out/test-classes"

# samekey's own dependencies (kotlin-stdlib, JNA) and the tests' JSON reader, as Maven
# resolves them for the samekey project.
(cd "$kotlin" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/samekey.classpath")
cp=$(classpath)

javac "${javac_flags[@]}" -cp "$cp:$jars/*" -d "$out/classes" \
  $(find "$spark_dir/src/main/java" -name '*.java')
jar --create --file "$spark_jar" -C "$out/classes" .
javac "${javac_flags[@]}" -cp "$out/classes:$cp:$jars/*" -d "$out/test-classes" \
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
