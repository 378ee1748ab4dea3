package io.github.samekey.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import scala.collection.immutable.Seq;

/** What the functions share: their arguments as a Java list, type checks, refusals. */
final class Arguments {
    private Arguments() {}

    static List<Expression> list(Seq<Expression> args) {
        List<Expression> out = new ArrayList<>(args.length());
        for (int i = 0; i < args.length(); i++) out.add(args.apply(i));
        return out;
    }

    /** An argument's failure, naming the function: at analysis (a type), or in a row (a null). */
    static IllegalArgumentException refuse(String function, String message) {
        return new IllegalArgumentException(function + ": " + message);
    }

    /**
     * Refuses a value Spark cannot hash as its bytes: only text (UTF-8, as Spark stores
     * it) and binary are accepted.
     */
    static void requireBytes(String function, String what, DataType type) {
        if (type instanceof StringType || type instanceof BinaryType) return;
        throw refuse(function, what + " is " + type.simpleString() + "; pass a string or binary (cast it: CAST(x AS STRING))");
    }

    /** Text arguments are the scheme and the namespace: text only, never null. */
    static DataType textType(String function, String what, DataType type) {
        if (type instanceof StringType) return type;
        throw refuse(function, what + " is " + type.simpleString() + "; pass a string");
    }

    /** A null argument fails the row: an id of nothing would be the id of something else. */
    static IllegalArgumentException nulled(String function, String what) {
        return refuse(function, what + " is null; coalesce it, or filter the row out");
    }
}
