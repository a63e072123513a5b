package io.turndiff.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The other processes' commits to a PostgreSQL store, as PostgreSQL's {@code LISTEN}/{@code NOTIFY}
 * tells them: the counterpart of SQLite's {@code PRAGMA data_version} for {@link
 * Store#commitsByOthers()}.
 *
 * <p>The sending side: every write transaction that changed a row sends a notice on {@value
 * #CHANNEL} just before it commits ({@link PostgresqlConnection}), its payload the sending store's
 * {@link #sender} id. PostgreSQL delivers a notice only when its transaction commits, never for one
 * rolled back, so a notice is a commit. A process's own notices come back to it too: their payload
 * is its own id, and they are not counted.
 *
 * <p>The listening side, here: one connection of its own, in auto-commit (a notice is delivered
 * between transactions, and this one is never in one), opened at the first look, so that a CLI
 * command that never asks opens none, and closed when the asker stops asking ({@link #close}: the
 * service, when no panel's stream is open). Each look reads what arrived without waiting ({@link
 * PGConnection#getNotifications()} reads what the socket holds and returns) and adds the other
 * processes' notices to a count: the number that changes when someone else committed. When the
 * connection fails, the look says nothing and the next opens a new one, counting one more: what was
 * committed while nobody listened is not known, so it is taken as a change (a panel reloads once
 * for nothing rather than missing a turn).
 */
final class PostgresCommitNotices implements AutoCloseable {

  /** The channel every store on a database notifies and listens on. */
  static final String CHANNEL = "turndiff_commits";

  /** Opens a new connection to the store's database. */
  @FunctionalInterface
  interface Connect {
    Connection open() throws SQLException;
  }

  private final Connect connect;
  private final String sender;

  /** The listening connection; null until the first look, and after it failed. */
  private Connection listening;

  /** Other processes' notices seen, plus one per listening connection opened after a failure. */
  private long count;

  private boolean everListened;

  /**
   * @param connect a new connection to the store's database
   * @param sender the id this process's store sends as the payload of its own notices
   */
  PostgresCommitNotices(Connect connect, String sender) {
    this.connect = connect;
    this.sender = sender;
  }

  /**
   * The number of commits by other processes seen so far (empty when the database cannot be reached
   * now: the caller asks again later).
   */
  synchronized OptionalLong seen() {
    try {
      if (listening == null) {
        listening = listen();
        if (everListened) {
          count++;
        }
        everListened = true;
      }
      PGNotification[] arrived = listening.unwrap(PGConnection.class).getNotifications();
      if (arrived != null) {
        for (PGNotification notice : arrived) {
          if (!sender.equals(notice.getParameter())) {
            count++;
          }
        }
      }
      return OptionalLong.of(count);
    } catch (SQLException | RuntimeException e) {
      drop();
      return OptionalLong.empty();
    }
  }

  private Connection listen() throws SQLException {
    Connection connection = connect.open();
    try (Statement statement = connection.createStatement()) {
      connection.setAutoCommit(true);
      statement.execute("LISTEN " + CHANNEL);
      return connection;
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  private void drop() {
    if (listening != null) {
      try {
        listening.close();
      } catch (SQLException ignored) {
        // a broken connection: nothing more to release
      }
      listening = null;
    }
  }

  /**
   * Stops listening, as nobody asks for now: a listener that reads nothing makes the server keep
   * every notice for it. The next look listens again, from then on; whatever was committed
   * meanwhile is not counted, since whoever asks next takes its first number as where it starts.
   */
  @Override
  public synchronized void close() {
    drop();
    everListened = false;
  }
}
