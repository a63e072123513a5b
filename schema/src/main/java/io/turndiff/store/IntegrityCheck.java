package io.turndiff.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sqlite.ProgressHandler;

/**
 * SQLite's {@code PRAGMA quick_check} (every page and b-tree of the file, without comparing indexes
 * to their tables), stopped when it runs past its budget.
 *
 * <p>Its cost grows with the store: about 7,000 SQLite steps (1 ms) for a 0.6 MB store and 9.2
 * million steps (0.52 s with the file in the page cache, 8 s without) for a 390 MB one, measured on
 * the 2-core VM of the README's figures. Every command opens the store, so the check is bounded: by
 * {@link #STEP_BUDGET} steps (about 180 ms there, enough to check stores up to about 120 MB whole),
 * which does not depend on how busy the machine is, and by a time cap for a slow disk. On a bigger
 * store the check stops unfinished, and damage it did not reach is reported when a statement meets
 * it, with the same message.
 */
final class IntegrityCheck {

  static final long STEP_BUDGET = 3_000_000;
  static final Duration TIME_CAP = Duration.ofSeconds(1);

  /** SQLite calls the handler every this many steps: often enough to stop on time. */
  private static final int STEPS_BETWEEN_CALLS = 100;

  private static final int LINES_REPORTED = 3;

  /**
   * @param damage what SQLite found wrong, if anything; {@code finished} is false when the budget
   *     ran out
   */
  record Result(Optional<String> damage, boolean finished) {}

  private IntegrityCheck() {}

  /**
   * @param timeCap how long SQLite may spend on the check at most; no check at all when zero
   */
  static Result run(StoreConnection connection, Duration timeCap) {
    return run(connection, timeCap, STEP_BUDGET);
  }

  /**
   * The check within {@code timeCap} and {@code stepBudget} SQLite steps: the open's bounded check
   * above, or {@code turndiff doctor}'s whole one ({@link Store#checkWhole}).
   */
  static Result run(StoreConnection connection, Duration timeCap, long stepBudget) {
    if (!timeCap.isPositive()) {
      return new Result(Optional.empty(), false);
    }
    List<String> lines = new ArrayList<>();
    try {
      // the cap counts SQLite's own time from its first step, not the JVM's class loading before it
      ProgressHandler.setHandler(
          connection.jdbc(),
          STEPS_BETWEEN_CALLS,
          new ProgressHandler() {
            private long calls;
            private long deadline;

            @Override
            protected int progress() {
              long now = System.nanoTime();
              if (calls++ == 0) {
                deadline = now + timeCap.toNanos();
              }
              return calls * STEPS_BETWEEN_CALLS > stepBudget || now - deadline > 0 ? 1 : 0;
            }
          });
      try (Statement statement = connection.jdbc().createStatement();
          // a pragma, not a query: jOOQ has no DSL for it
          ResultSet rows = statement.executeQuery("PRAGMA quick_check")) {
        while (rows.next()) {
          rows.getString(1)
              .lines()
              .filter(line -> !line.startsWith("*** in database")) // which schema: always the one
              .forEach(lines::add);
        }
        return lines.equals(List.of("ok"))
            ? new Result(Optional.empty(), true)
            : new Result(Optional.of("PRAGMA quick_check found: " + summary(lines)), true);
      } finally {
        ProgressHandler.clearHandler(connection.jdbc());
      }
    } catch (SQLException e) {
      if (StoreFailures.isInterrupt(e)) {
        return new Result(Optional.empty(), false);
      }
      if (StoreFailures.isDamage(e)) {
        String says =
            "SQLite says: " + StoreFailures.sqliteCause(e).orElseThrow().getResultCode().message;
        return new Result(
            Optional.of(
                lines.isEmpty()
                    ? says
                    : "PRAGMA quick_check found: " + summary(lines) + "; then " + says),
            true);
      }
      throw new StoreException("cannot check the store: " + e.getMessage(), e);
    }
  }

  private static String summary(List<String> lines) {
    return String.join("; ", lines.subList(0, Math.min(LINES_REPORTED, lines.size())))
        + (lines.size() > LINES_REPORTED ? "; …" : "");
  }
}
