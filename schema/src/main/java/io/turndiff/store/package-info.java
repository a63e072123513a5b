/**
 * The store, in one of two databases: one SQLite file on this machine, or one PostgreSQL database a
 * fleet of machines shares (a {@code jdbc:postgresql:} URL). The same code serves both, over a
 * {@code Database} of each dialect ({@code Sqlite}, {@code Postgresql}), which owns what differs:
 * the connections' set-up, how a write takes the lock (SQLite's {@code BEGIN IMMEDIATE}; one
 * PostgreSQL advisory lock, so that writers on every machine take turns), the checks when the store
 * is opened (a SQLite file's header and {@code quick_check}), the migrations ({@code db/migration};
 * {@code db/postgresql}) and durable commits. Here are the schema (the Flyway migrations) and every
 * SQL statement of turndiff (jOOQ DSL); reads run in read transactions on connections of their own;
 * blobs are content-addressed, compressed, and chunked when too large to hold.
 *
 * <p>The only files it touches are its own (a SQLite store's file and checks, a PostgreSQL store's
 * password file, this machine's host id, sqlite-jdbc's library copy), each through {@link
 * io.turndiff.ownfiles}, which writes a file whole one way ({@link
 * io.turndiff.ownfiles.AtomicFile}).
 *
 * <p>The tables, the migration rules, the transactions, the blob encoding and the snapshot row of
 * each kind of {@link io.turndiff.model.Snapshot} are described in {@code docs/store-layout.md} at
 * the repository's root.
 */
package io.turndiff.store;
