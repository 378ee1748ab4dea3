package io.github.samekey.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import scala.Function1;
import scala.Tuple3;
import scala.collection.immutable.Seq;
import scala.runtime.BoxedUnit;

/**
 * samekey's SQL functions in every session of an application, after one setting:
 *
 * <pre>{@code
 * spark.sql.extensions=io.github.samekey.spark.SamekeyExtensions
 *
 * SELECT samekey_ulid('v1', published_at, 'posts', slug, lang) AS id,
 *        samekey_content_hash(body) AS body_hash
 * FROM posts
 * }</pre>
 *
 * From Scala, Java or PySpark the functions are called by name ({@code call_function}, or
 * {@code expr}); see the JVM README.
 */
public final class SamekeyExtensions implements Function1<SparkSessionExtensions, BoxedUnit> {
    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        inject(extensions, UlidFunction.NAME, UlidFunction.class,
                "_FUNC_(scheme, time, namespace, field, ...) - the ULID text of the fields at the time (TIMESTAMP, or BIGINT milliseconds).",
                UlidFunction::expression);
        inject(extensions, ContentHashFunction.NAME, ContentHashFunction.class,
                "_FUNC_([scheme, ] value) - the content hash of a binary value or of a string's UTF-8: sha256:<hex> (v1, the default) or blake3:<hex> (v2).",
                ContentHashFunction::expression);
        return BoxedUnit.UNIT;
    }

    private static void inject(SparkSessionExtensions extensions, String name, Class<?> implementation, String usage,
                               Function1<Seq<Expression>, Expression> builder) {
        // DESCRIBE FUNCTION shows the usage; a Java function of the hash group.
        ExpressionInfo info = new ExpressionInfo(implementation.getName(), null, name, usage, "", "", "", "hash_funcs", "", "", "java_udf");
        extensions.injectFunction(new Tuple3<>(FunctionIdentifier.apply(name), info, builder));
    }
}
