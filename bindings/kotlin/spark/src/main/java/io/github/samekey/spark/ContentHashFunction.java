package io.github.samekey.spark;

import io.github.samekey.Samekey;
import io.github.samekey.Scheme;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.V2ExpressionUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code samekey_content_hash([scheme, ] value)}: "sha256:&lt;hex&gt;" (v1, the default) or
 * "blake3:&lt;hex&gt;" (v2) of a binary value, or of a string's UTF-8. A null value fails
 * the row.
 *
 * <p>Public for Spark's generated code only, which calls {@code invoke} (Spark's "magic
 * method"); the value is BINARY to it (Spark casts a string to its UTF-8 bytes).
 */
public final class ContentHashFunction extends TextFunction {
    static final String NAME = "samekey_content_hash";
    private static final long serialVersionUID = 1L;

    private transient UTF8String schemeText;
    private transient Scheme scheme;

    private ContentHashFunction(DataType[] inputs) {
        super(NAME, inputs);
    }

    static Expression expression(Seq<Expression> args) {
        List<Expression> list = Arguments.list(args);
        if (list.size() == 1) {
            // The default scheme, v1, as its own argument: one shape for the function.
            list.add(0, Literal.create("v1", DataTypes.StringType));
        } else if (list.size() != 2) {
            throw Arguments.refuse(NAME, "takes ([scheme, ] value), got " + list.size() + " arguments");
        }
        Arguments.textType(NAME, "the scheme", list.get(0).dataType());
        Arguments.requireBytes(NAME, "the value", list.get(1).dataType());
        DataType[] inputs = {DataTypes.StringType, DataTypes.BinaryType};
        return V2ExpressionUtils.resolveScalarFunction(new ContentHashFunction(inputs), CollectionConverters.asScala(list).toList());
    }

    public UTF8String invoke(UTF8String s, byte[] value) {
        if (s == null) throw Arguments.nulled(NAME, "the scheme");
        if (value == null) throw Arguments.nulled(NAME, "the value");
        if (scheme == null || !s.equals(schemeText)) {
            scheme = new Scheme(s.toString());
            schemeText = s.clone();
        }
        return UTF8String.fromString(Samekey.contentHash(value, scheme));
    }
}
