# Sourced by the consumer tests (scripts/test-repo.sh, spark/scripts/test-consumer.sh): a
# fresh Maven project outside the repository that gets samekey's artifacts only from the
# file:// repository target/dist/maven and the rest from Maven Central, with a local
# repository that has never held samekey (Central's artifacts stay cached between runs in
# target/m2-consumer; samekey's never do).
#
#   consumer_app ARTIFACT TEMPLATE  $app: a copy of the TEMPLATE project (outside the
#                                   repository, removed on exit), its pom.xml's @REPO@
#                                   and @VERSION@ filled in, and a line @DEPENDENCY@
#                                   replaced by the site's Maven dependency
#   consumer_mvn [VAR=value...] [-- ARG...]
#                                   `mvn test` (or mvn ARG...) in $app with no cargo on
#                                   PATH and no LD_LIBRARY_PATH: natives come out of
#                                   samekey's JAR
#   consumer_java [VAR=value...] -- MAIN [ARG...]
#                                   MAIN run by `java` on the compiled project's classpath,
#                                   in the same environment
consumer_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
consumer_repo="$consumer_root/target/dist/maven"
consumer_version=$(grep -m1 '^version = ' "$consumer_root/Cargo.toml" | cut -d'"' -f2)
consumer_local="$consumer_root/target/m2-consumer"

consumer_app() {
  [ -d "$consumer_repo/io/github/samekey/$1/$consumer_version" ] ||
    { echo "no $1 $consumer_version in $consumer_repo: run just jvm::dist linux-x86-64" >&2; exit 1; }
  consumer_work=$(mktemp -d)
  trap 'rm -rf "$consumer_work"' EXIT
  rm -rf "$consumer_local/io/github/samekey"
  app="$consumer_work/app"
  cp -r "$2" "$app"
  sed -i -e "s|@REPO@|file://$consumer_repo|" -e "s|@VERSION@|$consumer_version|" \
    -e "/@DEPENDENCY@/{r $consumer_root/docs/examples/install/maven.xml" -e 'd}' "$app/pom.xml"
}

# Maven's classpath is asked once per app.
consumer_java() {
  local vars=()
  while (($#)) && [ "$1" != -- ]; do vars+=("$1"); shift; done
  (($#)) && shift
  [ -s "$consumer_work/classpath" ] ||
    consumer_mvn -- org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile="$consumer_work/classpath" -Dmdep.includeScope=runtime > /dev/null
  consumer_env "${vars[@]}" java -cp "target/classes:$(cat "$consumer_work/classpath")" "$@"
}

consumer_mvn() {
  local vars=()
  while (($#)) && [ "$1" != -- ]; do vars+=("$1"); shift; done
  (($#)) && shift
  (($#)) || set -- test
  consumer_env "${vars[@]}" mvn -B -q -Dmaven.repo.local="$consumer_local" "$@"
}

# consumer_env [VAR=value...] COMMAND...: COMMAND in $app with no cargo on PATH and no
# LD_LIBRARY_PATH (natives come out of samekey's JAR), as env(1) takes its arguments.
consumer_env() {
  (cd "$app" && unset LD_LIBRARY_PATH JAVA_TOOL_OPTIONS && env PATH=/usr/local/bin:/usr/bin:/bin "$@")
}
