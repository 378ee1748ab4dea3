package io.github.samekey.spark;

import io.github.samekey.Samekey;
import io.github.samekey.Scheme;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.ApplyFunctionExpression;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import scala.collection.immutable.Seq;

/**
 * {@code samekey_content_hash([scheme, ] value)}: "sha256:&lt;hex&gt;" (v1, the default) or
 * "blake3:&lt;hex&gt;" (v2) of a binary value, or of a string's UTF-8. A null value fails
 * the row.
 */
final class ContentHashFunction extends TextFunction {
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
        DataType[] inputs = {
            Arguments.textType(NAME, "the scheme", list.get(0).dataType()),
            Arguments.bytesType(NAME, "the value", list.get(1).dataType()),
        };
        return new ApplyFunctionExpression(new ContentHashFunction(inputs), scala.jdk.javaapi.CollectionConverters.asScala(list).toList());
    }

    @Override
    public UTF8String produceResult(InternalRow row) {
        Arguments.notNull(NAME, row, 0, "the scheme");
        Arguments.notNull(NAME, row, 1, "the value");
        UTF8String s = row.getUTF8String(0);
        if (scheme == null || !s.equals(schemeText)) {
            scheme = new Scheme(s.toString());
            schemeText = s.clone();
        }
        return UTF8String.fromString(Samekey.contentHash(Arguments.bytes(row, 1, inputs[1]), scheme));
    }
}
