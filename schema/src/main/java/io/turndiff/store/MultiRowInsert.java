package io.turndiff.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertValuesStepN;
import org.jooq.Query;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * An insert of many rows into one table as multi-row statements ({@code INSERT INTO t (a, b) VALUES
 * (?, ?), (?, ?), ..}) of up to {@link #ROWS} rows each, every row count prepared once per
 * connection and kept. For the rows a big turn writes at once (a many-path snapshot call's log
 * rows, a finish's snapshots and blobs), where a statement per row pays the driver's and the
 * database's cost of one statement (bind, step, reset; on PostgreSQL a round trip) once per row.
 *
 * <p>64 rows a statement: the widest table written this way has 27 columns, so a statement has at
 * most 1,728 parameters, far below SQLite's limit (32,766) and PostgreSQL's (65,535), and a turn of
 * a thousand files takes 17 statements a table instead of a thousand; more rows a statement save
 * little more and make each prepared statement bigger.
 */
final class MultiRowInsert<R> {

  static final int ROWS = 64;

  private final String name;
  private final Table<?> table;
  private final List<Field<?>> columns;
  private final boolean ignoreConflicts;
  private final List<Field<?>> conflictKey;
  private final String[] parameters;

  /**
   * @param name the prepared statements' key ({@link PreparedQueries}), the row count appended
   * @param columns the columns each row gives a value for, in the order {@link #insert} binds them
   * @param ignoreConflicts whether a row that conflicts with a stored one is skipped ({@code ON
   *     CONFLICT DO NOTHING}), as a content stored twice is
   */
  MultiRowInsert(String name, Table<?> table, List<Field<?>> columns, boolean ignoreConflicts) {
    this(name, table, columns, ignoreConflicts, List.of());
  }

  private MultiRowInsert(
      String name,
      Table<?> table,
      List<Field<?>> columns,
      boolean ignoreConflicts,
      List<Field<?>> conflictKey) {
    this.name = name;
    this.table = table;
    this.columns = List.copyOf(columns);
    this.ignoreConflicts = ignoreConflicts;
    this.conflictKey = List.copyOf(conflictKey);
    this.parameters = new String[ROWS * this.columns.size()];
    for (int i = 0; i < parameters.length; i++) {
      parameters[i] = "r" + i / this.columns.size() + "c" + i % this.columns.size();
    }
  }

  /**
   * An upsert: a row whose {@code key} a stored row has replaces that row's other columns ({@code
   * ON CONFLICT (key) DO UPDATE SET c = excluded.c}), as an index's entry written again does. The
   * rows of one {@link #insert} must not share a key: PostgreSQL refuses a statement that updates a
   * row twice.
   */
  static <R> MultiRowInsert<R> replacing(
      String name, Table<?> table, List<Field<?>> columns, List<Field<?>> key) {
    if (key.isEmpty() || !columns.containsAll(key)) {
      throw new IllegalArgumentException(name + ": the key must be among the columns");
    }
    return new MultiRowInsert<>(name, table, columns, false, key);
  }

  /**
   * Inserts one row per item of {@code rows}, {@code values} giving each row's values in the order
   * of the columns; a statement per {@link #ROWS} rows. Returns how many rows were inserted.
   */
  int insert(PreparedQueries prepared, List<R> rows, Function<R, Object[]> values) {
    int inserted = 0;
    for (int from = 0; from < rows.size(); from += ROWS) {
      List<R> batch = rows.subList(from, Math.min(rows.size(), from + ROWS));
      PreparedQuery statement =
          prepared.get(name + "." + batch.size(), dsl -> onConflict(statement(dsl, batch.size())));
      bind(statement, batch, values);
      inserted += statement.update();
    }
    return inserted;
  }

  /**
   * Inserts one row per item of {@code rows} as {@link #insert} does, and returns the key ({@code
   * key}, the table's generated key) of each, in the order of {@code rows}. Not for an insert that
   * skips conflicting rows: a skipped row has no key.
   *
   * <p>The keys come back from {@code RETURNING}, whose order neither SQLite nor PostgreSQL
   * promises; the order in which a statement assigns them is the order of its rows (SQLite gives
   * each row the largest key + 1 as it inserts it, PostgreSQL each row the sequence's next value),
   * and the store's writer is alone in the table while it inserts (SQLite's one writer,
   * PostgreSQL's advisory lock). So the keys sorted are the keys of the rows in order. {@code
   * FinishRowsTest} checks it for every batch size around the statement's bound, both dialects.
   */
  long[] insertReturningKeys(
      PreparedQueries prepared,
      List<R> rows,
      Function<R, Object[]> values,
      TableField<?, Long> key) {
    if (ignoreConflicts || !conflictKey.isEmpty()) {
      throw new IllegalStateException(name + " skips or replaces conflicting rows");
    }
    long[] keys = new long[rows.size()];
    for (int from = 0; from < rows.size(); from += ROWS) {
      List<R> batch = rows.subList(from, Math.min(rows.size(), from + ROWS));
      PreparedQuery statement =
          prepared.insertReturningKey(
              name + ".returning." + batch.size(),
              dsl -> statement(dsl, batch.size()).returning(key));
      bind(statement, batch, values);
      long[] inserted = statement.insertedKeys();
      if (inserted.length != batch.size()) {
        throw new StoreException(
            name + " inserted " + inserted.length + " of " + batch.size() + " rows");
      }
      Arrays.sort(inserted);
      System.arraycopy(inserted, 0, keys, from, inserted.length);
    }
    return keys;
  }

  private void bind(PreparedQuery statement, List<R> batch, Function<R, Object[]> values) {
    for (int row = 0; row < batch.size(); row++) {
      Object[] rowValues = values.apply(batch.get(row));
      if (rowValues.length != columns.size()) {
        throw new IllegalArgumentException(
            rowValues.length + " values for the " + columns.size() + " columns of " + name);
      }
      for (int column = 0; column < rowValues.length; column++) {
        statement.bind(parameter(row, column), rowValues[column]);
      }
    }
  }

  /** The statement with what it does to a row that conflicts with a stored one. */
  private Query onConflict(InsertValuesStepN<?> insert) {
    if (ignoreConflicts) {
      return insert.onConflictDoNothing();
    }
    if (conflictKey.isEmpty()) {
      return insert;
    }
    Map<Field<?>, Field<?>> replaced = new LinkedHashMap<>();
    for (Field<?> column : columns) {
      if (!conflictKey.contains(column)) {
        replaced.put(column, DSL.excluded(column));
      }
    }
    return insert.onConflict(conflictKey).doUpdate().set(replaced);
  }

  /** The statement of {@code rows} rows, each value a parameter named by its row and column. */
  private InsertValuesStepN<?> statement(DSLContext dsl, int rows) {
    InsertValuesStepN<?> insert = dsl.insertInto(table).columns(columns);
    for (int row = 0; row < rows; row++) {
      List<Field<?>> parameters = new ArrayList<>(columns.size());
      for (int column = 0; column < columns.size(); column++) {
        parameters.add(DSL.param(parameter(row, column), columns.get(column).getType()));
      }
      insert = insert.values(parameters);
    }
    return insert;
  }

  private String parameter(int row, int column) {
    return parameters[row * columns.size() + column];
  }
}
