package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.STORE_SETTING;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jooq.DSLContext;

/** Settings kept with the store, by name ({@code turndiff config}). */
public final class StoreSettings {

  private final DSLContext dsl;

  StoreSettings(DSLContext dsl) {
    this.dsl = dsl;
  }

  public Optional<String> get(String name) {
    return dsl.select(STORE_SETTING.VALUE)
        .from(STORE_SETTING)
        .where(STORE_SETTING.NAME.eq(name))
        .fetchOptional(STORE_SETTING.VALUE);
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
