#!/usr/bin/env bash
# samekey-spark against a real Spark: compiled against, and run on, pyspark's jars (the
# Python engines' venv installs pyspark from PyPI, the same Spark as Maven Central's),
# with samekey's JAR from the file:// repository (just kotlin::dist). The JAR is written
# to target/spark; SparkSqlTest runs on master local[2].
#
#   scripts/test.sh SPARK_JARS_DIR [ROWS] [PYTHON]
#
# With PYTHON (a venv with samekey and pyspark), PySpark loads the JARs through spark.jars
# and its ids and hashes are compared with samekey.spark's (src/test/python).
set -euo pipefail
spark_dir=$(cd "$(dirname "$0")/.." && pwd)
kotlin=$(cd "$spark_dir/.." && pwd)
repo=$(cd "$kotlin/../.." && pwd)
jars=$1
rows=${2:-1000000}
python=${3:-}
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' "$kotlin/pom.xml" | head -1)
samekey=$repo/target/dist/maven/io/github/samekey/samekey/$version/samekey-$version.jar
test -f "$samekey" || { echo "spark: no $samekey; run just kotlin::dist linux-x86-64" >&2; exit 1; }
out=$repo/target/spark
rm -rf "$out" && mkdir -p "$out/classes" "$out/test-classes"

# samekey's own dependencies (kotlin-stdlib, JNA) and the tests' JSON reader, as Maven
# resolves them for the samekey project.
(cd "$kotlin" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/samekey.classpath")
cp="$samekey:$(cat "$out/samekey.classpath")"

javac --release 17 -Xlint:all,-processing,-path -Werror -cp "$cp:$jars/*" -d "$out/classes" \
  $(find "$spark_dir/src/main/java" -name '*.java')
jar --create --file "$out/samekey-spark-$version.jar" -C "$out/classes" .
javac --release 17 -Xlint:all,-processing,-path -Werror -cp "$out/classes:$cp:$jars/*" -d "$out/test-classes" \
  $(find "$spark_dir/src/test/java" -name '*.java')
cp -r "$spark_dir/src/test/resources/." "$out/test-classes/"

# What spark-submit adds on Java 17 (org.apache.spark.launcher.JavaModuleOptions).
opens=()
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
         java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  opens+=("--add-opens=java.base/$p=ALL-UNNAMED")
done
java "${opens[@]}" -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true \
  -cp "$out/test-classes:$out/samekey-spark-$version.jar:$cp:$jars/*" \
  io.github.samekey.spark.SparkSqlTest "$repo/test-vectors/samekey.json" "$rows"

if [ -n "$python" ]; then
  SAMEKEY_SPARK_JARS="$out/samekey-spark-$version.jar,${cp//:/,}" \
    "$python" -m pytest -q -p no:cacheprovider "$spark_dir/src/test/python"
fi
