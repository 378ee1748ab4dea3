package io.github.samekey.spark;

import io.github.samekey.Scheme;
import io.github.samekey.UlidDeriver;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Coalesce;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.V2ExpressionUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code samekey_ulid(scheme, time, namespace, field, ...)}: the ULID text of the fields
 * at the time, as {@code Samekey.deriveUlid} and every other binding derive it.
 *
 * <p>The time is a {@code TIMESTAMP} (an instant: Spark keeps microseconds since the epoch
 * in UTC, floored here to the millisecond; the session time zone does not change it) or a
 * {@code BIGINT} of milliseconds since the epoch. {@code TIMESTAMP_NTZ} has no instant and
 * is refused, as is text (parse it with {@code to_timestamp} and an explicit offset).
 * Fields are strings (their UTF-8) or binary. A null argument fails the row.
 *
 * <p>Public for Spark's generated code only, which calls {@code invoke} (Spark's "magic
 * method") for a call of up to {@value #FAST_FIELDS} fields; more fields go through
 * {@link #produceResult}.
 */
public final class UlidFunction extends TextFunction {
    static final String NAME = "samekey_ulid";
    static final int FAST_FIELDS = 8;
    private static final long serialVersionUID = 1L;

    private final boolean micros;
    // The arguments as the query wrote them, for the error of a null one.
    private final String[] names;
    // One deriver per task and (scheme, namespace): they are literals in almost every query.
    private transient UTF8String scheme;
    private transient UTF8String namespace;
    private transient UlidDeriver deriver;

    private UlidFunction(DataType[] inputs, String[] names) {
        super(NAME, inputs);
        this.micros = inputs[1] instanceof TimestampType;
        this.names = names;
    }

    /**
     * The expression of a call with these arguments, or why Spark must refuse the query.
     * The function sees (scheme, time, time is null, namespace, field, ...): a null time
     * would otherwise make Spark answer null without calling it (a primitive argument), and
     * every field as BINARY (Spark casts a string to its UTF-8 bytes).
     */
    static Expression expression(Seq<Expression> args) {
        List<Expression> list = Arguments.list(args);
        if (list.size() < 3) {
            throw Arguments.refuse(NAME, "takes (scheme, time, namespace, field, ...), got " + list.size() + " arguments");
        }
        // No field is the core's no_fields, reported in the core's order (after the scheme's).
        int width = list.size() + 1;
        DataType[] inputs = new DataType[width];
        String[] names = new String[width];
        inputs[0] = Arguments.textType(NAME, "the scheme", list.get(0).dataType());
        inputs[1] = timeType(list.get(1).dataType());
        inputs[2] = DataTypes.BooleanType;
        inputs[3] = Arguments.textType(NAME, "the namespace", list.get(2).dataType());
        for (int i = 3; i < list.size(); i++) {
            Arguments.requireBytes(NAME, "field " + (i - 3), list.get(i).dataType());
            inputs[i + 1] = DataTypes.BinaryType;
            names[i + 1] = "field " + (i - 3) + " (" + written(list.get(i)) + ")";
        }
        names[0] = "the scheme";
        names[1] = "the time (" + written(list.get(1)) + ")";
        names[3] = "the namespace";
        Expression time = list.get(1);
        List<Expression> called = new ArrayList<>(list);
        called.set(1, new Coalesce(CollectionConverters.asScala(List.of(time, new Literal(0L, inputs[1]))).toList()));
        called.add(2, new IsNull(time));
        return V2ExpressionUtils.resolveScalarFunction(new UlidFunction(inputs, names), CollectionConverters.asScala(called).toList());
    }

    /** An argument as the query wrote it: a column's name, or the expression's SQL. */
    private static String written(Expression e) {
        return e instanceof NamedExpression named ? named.name() : e.sql();
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

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0) {
        return derive(s, t, tNull, ns, f0);
    }

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0, byte[] f1) {
        return derive(s, t, tNull, ns, f0, f1);
    }

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0, byte[] f1, byte[] f2) {
        return derive(s, t, tNull, ns, f0, f1, f2);
    }

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0, byte[] f1, byte[] f2, byte[] f3) {
        return derive(s, t, tNull, ns, f0, f1, f2, f3);
    }

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0, byte[] f1, byte[] f2, byte[] f3,
                             byte[] f4) {
        return derive(s, t, tNull, ns, f0, f1, f2, f3, f4);
    }

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0, byte[] f1, byte[] f2, byte[] f3,
                             byte[] f4, byte[] f5) {
        return derive(s, t, tNull, ns, f0, f1, f2, f3, f4, f5);
    }

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0, byte[] f1, byte[] f2, byte[] f3,
                             byte[] f4, byte[] f5, byte[] f6) {
        return derive(s, t, tNull, ns, f0, f1, f2, f3, f4, f5, f6);
    }

    public UTF8String invoke(UTF8String s, long t, boolean tNull, UTF8String ns, byte[] f0, byte[] f1, byte[] f2, byte[] f3,
                             byte[] f4, byte[] f5, byte[] f6, byte[] f7) {
        return derive(s, t, tNull, ns, f0, f1, f2, f3, f4, f5, f6, f7);
    }

    /** A call of more than {@value #FAST_FIELDS} fields (Spark has no method of their arity). */
    @Override
    public UTF8String produceResult(InternalRow row) {
        byte[][] fields = new byte[inputs.length - 4][];
        for (int i = 4; i < inputs.length; i++) fields[i - 4] = row.isNullAt(i) ? null : row.getBinary(i);
        return derive(row.isNullAt(0) ? null : row.getUTF8String(0), row.getLong(1), row.getBoolean(2),
                row.isNullAt(3) ? null : row.getUTF8String(3), fields);
    }

    private UTF8String derive(UTF8String s, long time, boolean timeNull, UTF8String ns, byte[]... fields) {
        notNull(s, 0);
        if (timeNull) throw nulled(1);
        notNull(ns, 3);
        for (int i = 0; i < fields.length; i++) notNull(fields[i], i + 4);
        if (deriver == null || !s.equals(scheme) || !ns.equals(namespace)) {
            deriver = new UlidDeriver(ns.toString(), new Scheme(s.toString()), null);
            scheme = s.clone();
            namespace = ns.clone();
        }
        long ms = micros ? Math.floorDiv(time, 1000L) : time;
        // The id's ASCII is its UTF-8: Spark takes the bytes as they are.
        return UTF8String.fromBytes(deriver.deriveTextBytes(ms, fields));
    }

    private void notNull(Object value, int argument) {
        if (value == null) throw nulled(argument);
    }

    private IllegalArgumentException nulled(int argument) {
        return Arguments.nulled(NAME, names[argument]);
    }
}
