package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.STORE_SETTING;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Settings kept with the store, by name ({@code turndiff config}). */
public final class StoreSettings {

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  StoreSettings(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  /**
   * The setting {@code name}'s value. Prepared once per connection, as every prompt asks whether
   * prompts are kept (docs/performance.md, "A begin's statements prepared").
   */
  public Optional<String> get(String name) {
    return prepared
        .get(
            "store_setting.get",
            q ->
                q.select(STORE_SETTING.VALUE)
                    .from(STORE_SETTING)
                    .where(STORE_SETTING.NAME.eq(DSL.param("name", String.class))))
        .bind("name", name)
        .firstText();
  }

  /** Every setting, by name. */
  public Map<String, String> all() {
    Map<String, String> settings = new TreeMap<>();
    dsl.selectFrom(STORE_SETTING).forEach(row -> settings.put(row.getName(), row.getValue()));
    return settings;
  }

  public void put(String name, String value) {
    dsl.insertInto(STORE_SETTING)
        .set(STORE_SETTING.NAME, name)
        .set(STORE_SETTING.VALUE, value)
        .onConflict(STORE_SETTING.NAME)
        .doUpdate()
        .set(STORE_SETTING.VALUE, value)
        .execute();
  }

  public void remove(String name) {
    dsl.deleteFrom(STORE_SETTING).where(STORE_SETTING.NAME.eq(name)).execute();
  }
}
