package io.github.samekey.spark;

import io.github.samekey.Scheme;
import io.github.samekey.UlidDeriver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.ApplyFunctionExpression;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;
import scala.collection.immutable.Seq;

/**
 * {@code samekey_ulid(scheme, time, namespace, field, ...)}: the ULID text of the fields
 * at the time, as {@code Samekey.deriveUlid} and every other binding derive it.
 *
 * <p>The time is a {@code TIMESTAMP} (an instant: Spark keeps microseconds since the epoch
 * in UTC, floored here to the millisecond; the session time zone does not change it) or a
 * {@code BIGINT} of milliseconds since the epoch. {@code TIMESTAMP_NTZ} has no instant and
 * is refused, as is text (parse it with {@code to_timestamp} and an explicit offset).
 * Fields are strings (their UTF-8) or binary. A null argument fails the row.
 */
final class UlidFunction extends TextFunction {
    static final String NAME = "samekey_ulid";
    private static final long serialVersionUID = 1L;

    private final boolean micros;
    // One deriver per task and (scheme, namespace): they are literals in almost every query.
    private transient UTF8String scheme;
    private transient UTF8String namespace;
    private transient UlidDeriver deriver;

    private UlidFunction(DataType[] inputs) {
        super(NAME, inputs);
        this.micros = inputs[1] instanceof TimestampType;
    }

    /** The expression of a call with these arguments, or why Spark must refuse the query. */
    static Expression expression(Seq<Expression> args) {
        List<Expression> list = Arguments.list(args);
        if (list.size() < 3) {
            throw Arguments.refuse(NAME, "takes (scheme, time, namespace, field, ...), got " + list.size() + " arguments");
        }
        // No field is the core's no_fields, reported in the core's order (after the scheme's).
        DataType[] inputs = new DataType[list.size()];
        inputs[0] = Arguments.textType(NAME, "the scheme", list.get(0).dataType());
        inputs[1] = timeType(list.get(1).dataType());
        inputs[2] = Arguments.textType(NAME, "the namespace", list.get(2).dataType());
        for (int i = 3; i < inputs.length; i++) {
            inputs[i] = Arguments.bytesType(NAME, "field " + (i - 3), list.get(i).dataType());
        }
        return new ApplyFunctionExpression(new UlidFunction(inputs), args);
    }

    private static DataType timeType(DataType type) {
        if (type instanceof TimestampType) return type;
        if (type instanceof LongType || type instanceof IntegerType) return DataTypes.LongType;
        if (type instanceof TimestampNTZType) {
            throw Arguments.refuse(NAME, "invalid_timestamp: a TIMESTAMP_NTZ has no instant; convert it with to_utc_timestamp(time, zone) or pass a TIMESTAMP");
        }
        throw Arguments.refuse(NAME, "the time is " + type.simpleString()
                + "; pass a TIMESTAMP or BIGINT milliseconds (text: to_timestamp(text) with an explicit offset)");
    }

    @Override
    public UTF8String produceResult(InternalRow row) {
        Arguments.notNull(NAME, row, 0, "the scheme");
        Arguments.notNull(NAME, row, 1, "the time");
        Arguments.notNull(NAME, row, 2, "the namespace");
        UTF8String s = row.getUTF8String(0);
        UTF8String ns = row.getUTF8String(2);
        if (deriver == null || !s.equals(scheme) || !ns.equals(namespace)) {
            deriver = new UlidDeriver(ns.toString(), new Scheme(s.toString()), null);
            scheme = s.clone();
            namespace = ns.clone();
        }
        long time = row.getLong(1);
        long ms = micros ? Math.floorDiv(time, 1000L) : time;
        List<byte[]> fields = new ArrayList<>(inputs.length - 3);
        for (int i = 3; i < inputs.length; i++) {
            Arguments.notNull(NAME, row, i, "field " + (i - 3));
            fields.add(Arguments.bytes(row, i, inputs[i]));
        }
        return UTF8String.fromString(deriver.derive(Instant.ofEpochMilli(ms), fields).getText());
    }
}
