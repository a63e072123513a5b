package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the {@link Observer} decides a path's state <em>is</em>, one row per case: the kind of
 * snapshot, whether it exists, the reason it was not captured and the detail that goes with it,
 * what stat said, the hashes and the link text it still knows. Every way a state ends up metadata
 * only that a real file system can show is here (as root, a file cannot be made unreadable, so
 * {@code unreadable} is met through a link loop and a symlinked parent); both boundary
 * implementations answer alike. Ends with the canary, as every read test does.
 */
class ObserverTest {

  private static final int LIMIT = 10;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private final List<WorkspaceBoundary> opened = new ArrayList<>();
  private final List<Observation> seen = new ArrayList<>();

  @AfterEach
  void canary() {
    opened.forEach(WorkspaceBoundary::close);
    if (workspace != null) {
      workspace.assertOutsideUnchanged();
      for (Observation observation : seen) {
        observation
            .content()
            .ifPresent(bytes -> workspace.canary().assertNotIn("observed content", bytes));
        workspace.canary().assertNotIn("a snapshot", observation.snapshot().toString());
      }
    }
  }

  private WorkspaceBoundary open(BoundaryKind kind, boolean fullHash) {
    WorkspaceBoundary boundary =
        WorkspaceBoundary.open(
            workspace.root(),
            BoundaryOptions.builder()
                .mechanism(KindsInThisMode.mechanism(kind))
                .sizeLimit(LIMIT)
                .fullHash(fullHash)
                .build());
    opened.add(boundary);
    return boundary;
  }

  private void plant() {
    workspace =
        TestWorkspace.in(temp)
            .file("small.txt", "hello\n")
            .file("big.bin", "x".repeat(100))
            .file("one.txt", "one\n")
            .fifo("pipe")
            .file("dir/f.txt", "f\n")
            .symlink("alias.txt", "dir/f.txt")
            .symlink("inlink", "dir")
            .symlink("out", "../outside/secret.txt")
            .symlink("up", "../outside/dir")
            .symlink("loop", "loop");
    workspace.hardlink("two.txt", workspace.resolve("one.txt"));
  }

  /** One row per case: what was asked, then each observation's kind, path, presence and facts. */
  private static final String EXPECTED =
      """
      small.txt      RegularFile small.txt PRESENT type=regular size=6 sha256 content=6
      big.bin hashed MetadataOnly big.bin PRESENT type=regular size=100 reason=too_large sha256 (100 bytes is over the size limit of 10)
      big.bin sample MetadataOnly big.bin PRESENT type=regular size=100 reason=too_large sampled (100 bytes is over the size limit of 10; fingerprinted by sampling 16 blocks)
      two.txt        MetadataOnly two.txt PRESENT type=regular size=4 reason=hardlinked (the inode has 2 links; another may be outside the workspace)
      pipe           MetadataOnly pipe PRESENT type=fifo size=0 reason=special_file (a FIFO is never read)
      missing        Absent dir/none.txt ABSENT
      alias.txt      Symlink alias.txt PRESENT type=symlink size=9 link=dir/f.txt + RegularFile dir/f.txt PRESENT type=regular size=2 sha256 content=2 via=alias.txt
      inlink         Symlink inlink PRESENT type=symlink size=3 link=dir
      inlink/f.txt   RegularFile dir/f.txt PRESENT type=regular size=2 sha256 content=2 via=inlink/f.txt
      out            MetadataOnly out PRESENT type=symlink size=21 reason=escapes_workspace link=../outside/secret.txt (symlink out -> ../outside/secret.txt leads above the workspace root)
      up             Symlink up PRESENT type=symlink size=14 link=../outside/dir
      up/secret.txt  MetadataOnly up/secret.txt UNKNOWN reason=escapes_workspace (symlink up -> ../outside/dir leads above the workspace root)
      loop           MetadataOnly loop PRESENT type=symlink size=4 reason=unreadable link=loop (more than 40 symlinks (a loop?) from loop)
      secret (abs)   MetadataOnly <outside>/secret.txt PRESENT type=regular reason=outside_workspace (outside the workspace root <root>)
      none (abs)     MetadataOnly <outside>/none ABSENT reason=outside_workspace (outside the workspace root <root>)
      exact dir      Directory dir PRESENT type=directory reason=directory (a directory)
      exact alias    Symlink alias.txt PRESENT type=symlink size=9 link=dir/f.txt
      exact out      MetadataOnly out PRESENT type=symlink size=21 reason=escapes_workspace link=../outside/secret.txt (symlink out -> ../outside/secret.txt leads above the workspace root)
      exact up       Symlink up PRESENT type=symlink size=14 link=../outside/dir
      exact loop     MetadataOnly loop PRESENT type=symlink size=4 reason=unreadable link=loop (more than 40 symlinks (a loop?) from loop)
      exact big.bin  MetadataOnly big.bin PRESENT type=regular size=100 reason=too_large sampled (100 bytes is over the size limit of 10; fingerprinted by sampling 16 blocks)
      exact inlink/f Absent inlink/f.txt ABSENT
      exact missing  Absent none/none.txt ABSENT
      """;

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void eachStateIsTheKindItsCaseDecides(BoundaryKind kind) throws Exception {
    plant();
    WorkspaceBoundary hashing = open(kind, true);
    WorkspaceBoundary sampling = open(kind, false);
    String outside = workspace.outside().toString();
    String root = workspace.root().toRealPath().toString();

    List<String> rows = new ArrayList<>();
    rows.add("small.txt      " + observe(hashing, "small.txt"));
    rows.add("big.bin hashed " + observe(hashing, "big.bin"));
    rows.add("big.bin sample " + observe(sampling, "big.bin"));
    rows.add("two.txt        " + observe(hashing, "two.txt"));
    rows.add("pipe           " + observe(hashing, "pipe"));
    rows.add("missing        " + observe(hashing, "dir/none.txt"));
    rows.add("alias.txt      " + observe(hashing, "alias.txt"));
    rows.add("inlink         " + observe(hashing, "inlink"));
    rows.add("inlink/f.txt   " + observe(hashing, "inlink/f.txt"));
    rows.add("out            " + observe(hashing, "out"));
    rows.add("up             " + observe(hashing, "up"));
    rows.add("up/secret.txt  " + observe(hashing, "up/secret.txt"));
    rows.add("loop           " + observe(hashing, "loop"));
    rows.add("secret (abs)   " + observe(hashing, workspace.secret().toString()));
    rows.add("none (abs)     " + observe(hashing, outside + "/none"));
    rows.add("exact dir      " + exact(hashing, "dir"));
    rows.add("exact alias    " + exact(hashing, "alias.txt"));
    rows.add("exact out      " + exact(hashing, "out"));
    rows.add("exact up       " + exact(hashing, "up"));
    rows.add("exact loop     " + exact(hashing, "loop"));
    rows.add("exact big.bin  " + exact(sampling, "big.bin"));
    rows.add("exact inlink/f " + exact(hashing, "inlink/f.txt"));
    rows.add("exact missing  " + exact(hashing, "none/none.txt"));
    String table =
        rows.stream()
            .map(row -> row.replace(root, "<root>").replace(outside, "<outside>"))
            .collect(Collectors.joining("\n", "", "\n"));

    assertEquals(EXPECTED, table);
  }

  private String observe(WorkspaceBoundary boundary, String path) {
    List<Observation> observations = boundary.observe(path);
    seen.addAll(observations);
    return observations.stream().map(ObserverTest::describe).collect(Collectors.joining(" + "));
  }

  private String exact(WorkspaceBoundary boundary, String path) {
    Observation observation = boundary.observeExact(WorkspacePath.of(path));
    seen.add(observation);
    return describe(observation);
  }

  /** The facts of one observation that the observer decides, in one line. */
  private static String describe(Observation observation) {
    Snapshot state = observation.snapshot();
    StringBuilder line =
        new StringBuilder(state.getClass().getSimpleName())
            .append(' ')
            .append(state.path().display())
            .append(' ')
            .append(state.presence());
    state.type().map(FileType::code).ifPresent(type -> line.append(" type=").append(type));
    // a directory's size and that of a file outside depend on the file system and the canary
    state
        .metadata()
        .filter(stat -> stat.type() != FileType.DIRECTORY && !state.path().isOutside())
        .ifPresent(stat -> line.append(" size=").append(stat.size()));
    state.reason().ifPresent(reason -> line.append(" reason=").append(reason.code()));
    state.sha256().ifPresent(hash -> line.append(" sha256"));
    state.sampledSha256().ifPresent(hash -> line.append(" sampled"));
    state
        .linkTarget()
        .map(LinkTarget::display)
        .ifPresent(text -> line.append(" link=").append(text));
    observation.content().ifPresent(content -> line.append(" content=").append(content.length));
    observation.via().ifPresent(via -> line.append(" via=").append(via.display()));
    if (!state.reasonDetail().isEmpty()) {
      line.append(" (").append(state.reasonDetail()).append(')');
    }
    return line.toString();
  }
}
