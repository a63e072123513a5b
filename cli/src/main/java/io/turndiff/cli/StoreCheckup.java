package io.turndiff.cli;

import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.store.Store;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoreCheck;
import io.turndiff.store.StoreException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code turndiff doctor}'s look at the store: that it opens, that every page of a SQLite store is
 * sound (the whole check, not the bounded one every command makes at open), that only its owner can
 * read it (prompts and file contents are in it), and whether it tracks the workspace.
 */
final class StoreCheckup {

  /**
   * How long the whole check may take: about a 2 GB store in the page cache on the README's 2-core
   * machine (0.52 s for 390 MB, measured in {@code IntegrityCheck}); a bigger or colder store is
   * said to be checked in part.
   */
  static final Duration WHOLE_CHECK_CAP = Duration.ofSeconds(10);

  private static final int OWNER_ONLY = 0600;

  /**
   * What the look found: its checks, and whether the store tracks the workspace (null: unknown).
   */
  record Found(List<Check> checks, Boolean tracked) {}

  private StoreCheckup() {}

  /**
   * Looks at the store {@code options} name; {@code tracks} tells, over the open store, whether it
   * tracks the workspace. No store is made where there is none.
   */
  static Found look(StoreOptions options, Function<Turndiff, Boolean> tracks) {
    Optional<Path> file =
        options.address() instanceof StoreAddress.SqliteFile sqlite
            ? Optional.of(sqlite.path())
            : Optional.empty();
    if (file.isPresent() && !OwnFile.of(file.get()).exists()) {
      return new Found(
          List.of(
              Check.ok(
                  "store",
                  "no store yet at "
                      + file.get()
                      + ": the first hook call or command that records makes it")),
          null);
    }
    List<Check> checks = new ArrayList<>();
    try (Turndiff turndiff = options.open()) {
      Store store = turndiff.store();
      checks.add(pages(store));
      file.ifPresent(path -> checks.add(modes(path)));
      return new Found(checks, tracks.apply(turndiff));
    } catch (StoreException e) {
      checks.add(
          Check.fail(
              "store",
              "cannot be used: " + e.getMessage(),
              "fix what the message names, or point --db / TURNDIFF_DB at the right store"));
      return new Found(checks, null);
    }
  }

  private static Check pages(Store store) {
    String name = store.address().display();
    StoreCheck checked = store.checkWhole(WHOLE_CHECK_CAP);
    if (checked.damage().isPresent()) {
      return Check.fail(
          "store",
          name + " is damaged: " + checked.damage().get(),
          "restore it from a backup, or save what it holds with `sqlite3 '"
              + name
              + "' .recover | sqlite3 recovered.db` and use that file (--db), or move it away to"
              + " start a new store");
    }
    if (!checked.applies()) {
      return Check.ok("store", name + " opens (its server checks its own pages)");
    }
    if (!checked.finished()) {
      return Check.warn(
          "store",
          name
              + " opens; the check of its pages stopped after "
              + WHOLE_CHECK_CAP.toSeconds()
              + " s with no damage found so far",
          "run `sqlite3 '" + name + "' 'PRAGMA quick_check'` when the machine is idle");
    }
    if (store.readOnly()) {
      return Check.warn(
          "store",
          name + " is sound but read-only here: nothing can be recorded",
          "make the store's file and folder writable by this user");
    }
    return Check.ok("store", name + ": every page checked, no damage");
  }

  /** The store's file: only its owner may read or write it, as turndiff makes it. */
  private static Check modes(Path file) {
    try {
      int mode = OwnFile.of(file).mode() & 0777;
      if ((mode & ~OWNER_ONLY) != 0) {
        return Check.fail(
            "store modes",
            file + " has mode " + Integer.toOctalString(mode) + ": others can read what it holds",
            "chmod 600 '" + file + "'");
      }
      return Check.ok("store modes", file + " has mode " + Integer.toOctalString(mode));
    } catch (IOException e) {
      return Check.skip("store modes", "cannot read the mode of " + file + ": " + e.getMessage());
    }
  }
}
