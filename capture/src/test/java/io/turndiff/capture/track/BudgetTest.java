package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.ScannedEntry;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.WorkspacePath;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a scan's budget admits and what it leaves out, over constructed scan entries. */
class BudgetTest {

  private static ScannedEntry file(String path, long size) {
    return new ScannedEntry(
        WorkspacePath.of(path), FileType.REGULAR, size, 1, 1, 1, 0644, 1, Optional.empty(), false);
  }

  private static ScannedEntry link(String path) {
    return new ScannedEntry(
        WorkspacePath.of(path),
        FileType.SYMLINK,
        9_999,
        1,
        1,
        1,
        0777,
        1,
        Optional.of(LinkTarget.of(new byte[] {'x'})),
        false);
  }

  @Test
  void theFirstFileOverTheCountSpendsTheBudgetAndLeavesItsDirectoryAndEveryLaterDirectoryOut() {
    Budget budget = new Budget(new TrackingOptions(2, 1 << 20));
    assertTrue(budget.admitsDirectory(WorkspacePath.of("a")));
    assertTrue(budget.admit(file("a/1", 10)));
    assertTrue(budget.admit(file("a/2", 10)));
    assertFalse(budget.spent());
    assertFalse(budget.admit(file("a/3", 10)), "a third file is over two");
    assertTrue(budget.spent());
    assertFalse(
        budget.admit(file("a/4", 0)), "once spent, nothing more is admitted, however small");
    assertFalse(budget.admitsDirectory(WorkspacePath.of("b")));
    assertEquals(List.of(WorkspacePath.of("a"), WorkspacePath.of("b")), budget.leftOut());
    assertEquals(2, budget.files());
    assertEquals(20, budget.bytes());
  }

  @Test
  void bytesCountRegularFilesOnlyAndAFileAtTheRootLeavesItselfOut() {
    Budget budget = new Budget(new TrackingOptions(100, 100));
    assertTrue(budget.admit(file("a/1", 60)));
    assertTrue(budget.admit(link("a/link")), "a link's size is not content");
    assertTrue(budget.admit(file("a/2", 40)), "exactly at the byte budget fits");
    assertFalse(budget.admit(file("top", 1)));
    assertEquals(
        List.of(WorkspacePath.of("top")),
        budget.leftOut(),
        "a file at the root has no directory to name");
    assertEquals(3, budget.files());
    assertEquals(100, budget.bytes());
  }

  @Test
  void aBudgetNeverSpentLeavesNothingOut() {
    Budget budget = new Budget(TrackingOptions.DEFAULTS);
    assertTrue(budget.admitsDirectory(WorkspacePath.of("a")));
    assertTrue(budget.admit(file("a/1", 1)));
    assertFalse(budget.spent());
    assertEquals(List.of(), budget.leftOut());
  }
}
