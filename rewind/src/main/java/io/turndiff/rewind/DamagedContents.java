package io.turndiff.rewind;

import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import java.util.Map;
import java.util.Optional;

/**
 * Which stored content a path's rewind needs reads back as other bytes than its hash names ({@code
 * Blobs.checkedContentsOf}), in the words its report gives: the path is left as {@code damaged}
 * rather than written with what the store holds now, wherever the contents are loaded (the plan, a
 * resumed run, the redo after a power loss).
 *
 * @param damaged what each damaged content's load found, by hash
 */
record DamagedContents(Map<Sha256, String> damaged) {

  DamagedContents {
    damaged = Map.copyOf(damaged);
  }

  boolean any() {
    return !damaged.isEmpty();
  }

  /**
   * Why a path whose rewind puts back {@code target} (or {@code merged}, the merge it wrote) from
   * the state the turns left ({@code expected}) is left, when one of those contents is damaged. The
   * expected state is read only to merge onto a file changed since; a path one of whose rows a
   * store changed is left whole, not put back from the other.
   */
  Optional<String> leave(Snapshot target, Optional<Snapshot> expected, Optional<Sha256> merged) {
    return in(target.storedContent())
        .map(what -> "its before-state's stored content " + what)
        .or(
            () ->
                in(expected.flatMap(Snapshot::storedContent))
                    .map(what -> "the stored content of the state the turns left " + what))
        .or(() -> in(merged).map(what -> "the stored content of its merge " + what))
        .map(DamagedContents::left);
  }

  /**
   * Why a path is left whose write reads back wrong: the {@code merged} content when the write was
   * a merge, else {@code target}'s; a redo or a resumed write needs only that one.
   */
  Optional<String> leaveWriteOf(Snapshot target, Optional<Sha256> merged) {
    Optional<String> why =
        merged.isPresent()
            ? in(merged).map(what -> "the stored content of its merge " + what)
            : in(target.storedContent()).map(what -> "its before-state's stored content " + what);
    return why.map(DamagedContents::left);
  }

  private static String left(String why) {
    return why + ": the store is damaged; the file is left as it is";
  }

  private Optional<String> in(Optional<Sha256> content) {
    return content.filter(damaged::containsKey).map(sha -> sha + " " + damaged.get(sha));
  }
}
