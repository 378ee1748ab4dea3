package io.github.samekey.spark;

import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

/** A function of samekey's that gives text, never null, for the argument types it was bound to. */
abstract class TextFunction implements ScalarFunction<UTF8String> {
    private static final long serialVersionUID = 1L;

    private final String name;
    final DataType[] inputs;

    TextFunction(String name, DataType[] inputs) {
        this.name = name;
        this.inputs = inputs;
    }

    @Override
    public DataType[] inputTypes() {
        return inputs;
    }

    @Override
    public DataType resultType() {
        return DataTypes.StringType;
    }

    @Override
    public boolean isResultNullable() {
        return false;
    }

    @Override
    public String name() {
        return name;
    }
}
