package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.HOOK_SIGHTING;

import io.turndiff.model.RuntimeProcess;
import io.turndiff.store.jooq.tables.records.HookSightingRecord;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * What the hook calls showed of each runtime per directory (migration V26), kept so that a
 * restarted service still shows its last sightings ({@code hooks status}). The service holds them
 * in memory and writes the ones that changed every few seconds, in one transaction: a hook call
 * never waits for a commit of its own here.
 */
public final class HookSightingRows {

  private final DSLContext dsl;

  HookSightingRows(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** Writes each of {@code sightings}, replacing the row of its runtime and directory. */
  public void put(Collection<StoredHookSighting> sightings) {
    for (StoredHookSighting sighting : sightings) {
      HookSightingRecord row = dsl.newRecord(HOOK_SIGHTING);
      row.setRuntime(sighting.runtime());
      row.setDirectory(sighting.directory());
      row.setSession(sighting.session());
      row.setLastAt(sighting.lastAt().toEpochMilli());
      row.setLastEvent(sighting.lastEvent());
      row.setRuntimeVersion(sighting.runtimeVersion().orElse(null));
      row.setRuntimePid(sighting.process().map(RuntimeProcess::pid).orElse(null));
      row.setRuntimeStartTicks(sighting.process().map(RuntimeProcess::startTicks).orElse(null));
      row.setRuntimeBootId(sighting.process().flatMap(RuntimeProcess::bootId).orElse(null));
      row.setPromptAt(sighting.promptAt().map(Instant::toEpochMilli).orElse(null));
      row.setPromptBegun(sighting.promptBegun() ? 1L : 0L);
      row.setPromptToolCalls(sighting.promptToolCalls());
      row.setPromptEnded(sighting.promptEnded() ? 1L : 0L);
      row.setPromptRuntimeTurn(sighting.promptRuntimeTurn().orElse(null));
      row.setPromptTurn(sighting.promptTurn().orElse(null));
      row.setWarnedSince(sighting.warnedSince().map(Instant::toEpochMilli).orElse(null));
      row.setWarning(sighting.warning().orElse(null));
      dsl.insertInto(HOOK_SIGHTING)
          .set(row)
          .onConflict(HOOK_SIGHTING.RUNTIME, HOOK_SIGHTING.DIRECTORY)
          .doUpdate()
          .set(row)
          .execute();
    }
  }

  /** The {@code limit} sightings whose last call came last, the latest first. */
  public List<StoredHookSighting> latest(int limit) {
    return dsl.selectFrom(HOOK_SIGHTING)
        .orderBy(HOOK_SIGHTING.LAST_AT.desc(), HOOK_SIGHTING.RUNTIME, HOOK_SIGHTING.DIRECTORY)
        .limit(limit)
        .fetch(HookSightingRows::sighting);
  }

  private static StoredHookSighting sighting(HookSightingRecord row) {
    Optional<RuntimeProcess> process =
        row.getRuntimePid() == null
            ? Optional.empty()
            : Optional.of(
                new RuntimeProcess(
                    row.getRuntimePid(),
                    row.getRuntimeStartTicks(),
                    Optional.ofNullable(row.getRuntimeBootId())));
    return new StoredHookSighting(
        row.getRuntime(),
        row.getDirectory(),
        row.getSession(),
        Instant.ofEpochMilli(row.getLastAt()),
        row.getLastEvent(),
        Optional.ofNullable(row.getRuntimeVersion()),
        process,
        Optional.ofNullable(row.getPromptAt()).map(Instant::ofEpochMilli),
        row.getPromptBegun() == 1,
        row.getPromptToolCalls(),
        row.getPromptEnded() == 1,
        Optional.ofNullable(row.getPromptRuntimeTurn()),
        Optional.ofNullable(row.getPromptTurn()),
        Optional.ofNullable(row.getWarnedSince()).map(Instant::ofEpochMilli),
        Optional.ofNullable(row.getWarning()));
  }
}
