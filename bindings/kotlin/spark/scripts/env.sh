# Sourced by the Spark scripts, after PYTHON is set (a venv with pyspark, and samekey for
# the PySpark tests): where things are, pyspark's jars, and the javac flags.
spark_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kotlin=$(cd "$spark_dir/.." && pwd)
repo=$(cd "$kotlin/../.." && pwd)
out=$repo/target/spark
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' "$kotlin/pom.xml" | head -1)
samekey=$repo/target/dist/maven/io/github/samekey/samekey/$version/samekey-$version.jar
spark_jar=$repo/target/dist/maven/io/github/samekey/samekey-spark/$version/samekey-spark-$version.jar
jars=$("$python" -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')
javac_flags=(--release 17 -Xlint:all,-processing,-path -Werror)
# samekey's JAR and its own dependencies (kotlin-stdlib, JNA, the tests' JSON reader), as
# scripts/test.sh had Maven resolve them; empty before.
classpath() { echo "$samekey:$(cat "$out/samekey.classpath")"; }
