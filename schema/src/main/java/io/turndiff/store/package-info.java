/**
 * The store: one SQLite file, its schema (the Flyway migrations) and every SQL statement of
 * turndiff (jOOQ DSL); write transactions begun IMMEDIATE, read transactions on connections of
 * their own; content-addressed, compressed blobs, chunked when too large to hold; and the checks a
 * store passes when it is opened. Its own file is the only one it touches (StoreFile, StoreHeader,
 * MigrationLock).
 *
 * <p>The tables, the migration rules, the transactions, the blob encoding and the snapshot row of
 * each kind of {@link io.turndiff.model.Snapshot} are described in {@code docs/store-layout.md} at
 * the repository's root.
 */
package io.turndiff.store;
