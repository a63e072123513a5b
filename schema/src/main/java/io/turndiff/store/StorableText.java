package io.turndiff.store;

/**
 * Free text from outside (a runtime's prompt, its session and turn ids) as both dialects keep it:
 * each NUL written as {@code U+2400}, the symbol for one.
 *
 * <p>PostgreSQL's {@code text} cannot hold a NUL: an insert of one fails ("invalid byte sequence
 * for encoding UTF8: 0x00"), though a JSON string may carry one (escaped) and a pasted binary
 * brings some. SQLite would keep it; the symbol goes in both, so a value reads the same from either
 * store, and a reviewer sees where a NUL was. The mapping is idempotent (a storable value is
 * unchanged by it), so a value may be made storable where it enters memory and again where it is
 * read back from a store an older version wrote: whoever compares a value in memory with one read
 * back from the store must compare the storable forms. Two values that differ only in a NUL against
 * a {@code U+2400} become one.
 */
public final class StorableText {

  private static final char NUL = '\0';

  /** The symbol for a NUL, U+2400. */
  private static final char SYMBOL_FOR_NUL = '\u2400';

  private StorableText() {}

  /** {@code text} with each NUL as {@code U+2400}. */
  public static String of(String text) {
    return text.replace(NUL, SYMBOL_FOR_NUL);
  }
}
