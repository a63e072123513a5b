package io.turndiff.store;

import java.util.Optional;

/**
 * What a whole check of the store's pages found ({@link Store#checkWhole}).
 *
 * @param applies false where the store's pages are not turndiff's to check (a PostgreSQL server
 *     checks its own)
 * @param finished false when the time cap stopped it before the last page
 * @param damage what SQLite found wrong, if anything
 */
public record StoreCheck(boolean applies, boolean finished, Optional<String> damage) {

  /** A store whose pages its database server checks. */
  public static final StoreCheck NOT_OURS = new StoreCheck(false, false, Optional.empty());
}
