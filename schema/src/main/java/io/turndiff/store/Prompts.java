package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.TURN_PROMPT;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The prompts that made turns (migration V17): the text a runtime's prompt hook carried when the
 * turn began, at most {@value #MAX_CHARS} characters of it.
 *
 * <p>A prompt can hold secrets (a token pasted into a request), so whether a store keeps prompts at
 * all is its owner's choice, the setting {@value #SETTING}: {@code keep} or {@code none}. Unset, a
 * local store keeps them (its file and folder are the user's alone, modes 0600 and 0700) and a
 * shared PostgreSQL store keeps none, since everyone who can read the fleet's database could read
 * every user's prompts there.
 */
public final class Prompts {

  /** The store setting that says whether prompts are kept: {@code keep} or {@code none}. */
  public static final String SETTING = "prompts";

  /**
   * The most characters of a prompt kept. Prompts are for recognising a turn, not an archive of the
   * conversation: 16 Ki characters keep every typed request whole and cut a pasted log or file.
   */
  public static final int MAX_CHARS = 16_384;

  private final DSLContext dsl;
  private final PreparedQueries prepared;
  private final StoreSettings settings;

  Prompts(DSLContext dsl, PreparedQueries prepared, StoreSettings settings) {
    this.dsl = dsl;
    this.prepared = prepared;
    this.settings = settings;
  }

  /**
   * Whether this store keeps prompts: as its setting says, else when it is a local (SQLite) store.
   */
  public boolean kept() {
    return settings
        .get(SETTING)
        .map("keep"::equals)
        .orElse(dsl.dialect().family() == SQLDialect.SQLITE);
  }

  /** Sets whether the store keeps prompts from now on ({@code config --prompts}). */
  public void keep(boolean kept) {
    settings.put(SETTING, kept ? "keep" : "none");
  }

  /**
   * Records {@code prompt} as the turn's, cut to {@value #MAX_CHARS} characters (its last then an
   * ellipsis) and each NUL kept as {@code U+2400} ({@link StorableText}), unless the turn has one
   * already (a repeated prompt hook): the first is the turn's. The caller has checked {@link
   * #kept()}. Prepared once per connection, as every prompt of a store that keeps them runs it
   * (docs/performance.md, "A begin's statements prepared").
   */
  public void record(long turnId, String prompt) {
    prepared
        .get(
            "turn_prompt.record",
            q ->
                q.insertInto(TURN_PROMPT)
                    .set(TURN_PROMPT.TURN_ID, DSL.param("turn", Long.class))
                    .set(TURN_PROMPT.PROMPT, DSL.param("prompt", String.class))
                    .onConflict(TURN_PROMPT.TURN_ID)
                    .doNothing())
        .bind("turn", turnId)
        .bind("prompt", StorableText.of(cut(prompt, MAX_CHARS)))
        .update();
  }

  public Optional<String> of(long turnId) {
    return dsl.select(TURN_PROMPT.PROMPT)
        .from(TURN_PROMPT)
        .where(TURN_PROMPT.TURN_ID.eq(turnId))
        .fetchOptional(TURN_PROMPT.PROMPT);
  }

  /** The prompts of those of {@code turnIds} that have one, by turn row. */
  public Map<Long, String> of(Collection<Long> turnIds) {
    if (turnIds.isEmpty()) {
      return Map.of();
    }
    return dsl.select(TURN_PROMPT.TURN_ID, TURN_PROMPT.PROMPT)
        .from(TURN_PROMPT)
        .where(TURN_PROMPT.TURN_ID.in(turnIds))
        .fetchMap(TURN_PROMPT.TURN_ID, TURN_PROMPT.PROMPT);
  }

  /** Removes the prompts of {@code turnIds} (their turns are removed). */
  void remove(Collection<Long> turnIds) {
    dsl.deleteFrom(TURN_PROMPT).where(TURN_PROMPT.TURN_ID.in(turnIds)).execute();
  }

  /**
   * {@code text} cut to {@code max} characters, never inside a surrogate pair, its last an ellipsis
   * when cut.
   */
  public static String cut(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int end = max - 1;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end) + "\u2026";
  }
}
