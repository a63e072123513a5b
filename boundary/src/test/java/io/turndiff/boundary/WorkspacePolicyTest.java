package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.RequestException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Which directories {@link WorkspacePolicy#admit} refuses for the file system they are on, with
 * each kind of handle: the type told by the root's own descriptor where the handle has one, by the
 * mount table where it does not. Every expectation comes from the kernel's own mount table or from
 * this test's list of what holds no project files, never from the policy's list.
 */
class WorkspacePolicyTest {

  /** The file systems that hold the kernel's and the processes' state, not a project's files. */
  private static final Set<String> PSEUDO =
      Set.of(
          "proc",
          "sysfs",
          "devtmpfs",
          "devpts",
          "cgroup",
          "cgroup2",
          "securityfs",
          "debugfs",
          "tracefs",
          "pstore",
          "bpf",
          "configfs",
          "fusectl",
          "efivarfs",
          "selinuxfs",
          "mqueue",
          "binfmt_misc",
          "hugetlbfs",
          "rpc_pipefs");

  /**
   * Where they are mounted on common systems; binfmt_misc is left out, being an automount point
   * that a look would mount.
   */
  private static final List<String> PSEUDO_MOUNT_POINTS =
      List.of(
          "/proc",
          "/sys",
          "/dev",
          "/dev/pts",
          "/dev/mqueue",
          "/dev/hugepages",
          "/sys/fs/cgroup",
          "/sys/fs/cgroup/unified",
          "/sys/fs/cgroup/memory",
          "/sys/kernel/security",
          "/sys/kernel/debug",
          "/sys/kernel/tracing",
          "/sys/kernel/config",
          "/sys/fs/pstore",
          "/sys/fs/bpf",
          "/sys/fs/fuse/connections",
          "/sys/fs/selinux",
          "/sys/firmware/efi/efivars");

  @TempDir Path temp;

  /**
   * Every pseudo file system mounted here at a known place (and readable by this user) is refused
   * by the name the mount table gives it: {@link FileSystemMagic}'s numbers checked against the
   * kernel this runs on.
   */
  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void eachPseudoFileSystemMountedHereIsRefusedByItsName(BoundaryKind kind) throws IOException {
    KindsInThisMode.mechanism(kind);
    Map<String, String> mounted = visibleMountTypes();
    List<String> checked = new ArrayList<>();
    for (String mountPoint : PSEUDO_MOUNT_POINTS) {
      String type = mounted.get(mountPoint);
      if (type == null || !PSEUDO.contains(type) || !Files.isReadable(Path.of(mountPoint))) {
        continue;
      }
      assertRefusedAs(type, Path.of(mountPoint), kind);
      checked.add(mountPoint);
    }
    assertTrue(checked.contains("/proc") && checked.contains("/sys"), "checked " + checked);
  }

  /**
   * Each pseudo file system this kernel lets root mount, mounted in the temp directory, is refused
   * by its name: devtmpfs, which reports tmpfs's number, too, away from {@code /dev}.
   */
  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void eachPseudoFileSystemMountedInATempDirectoryIsRefusedByItsName(BoundaryKind kind)
      throws IOException {
    KindsInThisMode.mechanism(kind);
    assumeTrue(TestWorkspace.isRoot(), "mounting needs root");
    List<String> checked = new ArrayList<>();
    for (String type : PSEUDO) {
      Path mountPoint = Files.createDirectory(temp.resolve(type));
      Optional<Mounted> mounted = Mounted.attempt(type, mountPoint);
      if (mounted.isEmpty()) {
        continue; // not in this kernel (selinuxfs, efivarfs), or needing options (cgroup v1)
      }
      try (Mounted ignored = mounted.get()) {
        assertRefusedAs(type, mountPoint, kind);
      }
      checked.add(type);
    }
    assumeTrue(checked.contains("proc"), "mounting is not permitted here");
  }

  /**
   * devtmpfs reports tmpfs's number: {@code /dev} is still refused, while a tmpfs beside it ({@code
   * /dev/shm}) and a directory on the disk are admitted.
   */
  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void devIsRefusedAsDevtmpfsWhileATmpfsAndADiskDirectoryAreAdmitted(BoundaryKind kind)
      throws IOException {
    KindsInThisMode.mechanism(kind);
    Map<String, String> mounted = visibleMountTypes();
    assumeTrue("devtmpfs".equals(mounted.get("/dev")), "/dev is not devtmpfs here");
    assertRefusedAs("devtmpfs", Path.of("/dev"), kind);
    assertAdmitted(temp, kind);
    if ("tmpfs".equals(mounted.get("/dev/shm"))) {
      assertAdmitted(Path.of("/dev/shm"), kind);
    }
  }

  /**
   * A memory file system of its own (a build directory in memory) is a workspace like any other.
   */
  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aRootOnAFreshTmpfsOrRamfsIsAdmitted(BoundaryKind kind) throws IOException {
    KindsInThisMode.mechanism(kind);
    assumeTrue(TestWorkspace.isRoot(), "mounting needs root");
    for (String type : List.of("tmpfs", "ramfs")) {
      Path mountPoint = Files.createDirectory(temp.resolve(type));
      try (Mounted ignored = Mounted.required(type, mountPoint)) {
        assertAdmitted(mountPoint, kind);
      }
    }
  }

  /**
   * Two file systems stacked at one mount point: the root is on the upper one, which the mount
   * table lists last. A root on proc mounted over a tmpfs is refused, and so is devtmpfs over a
   * tmpfs (the two report one number: the mount's ID tells them apart, outside the posix mode); a
   * tmpfs mounted over proc is admitted. (Reading the mount table for the first entry of the
   * directory, as the JDK's {@code FileStore} does, got all three wrong; the directory stream,
   * which has no descriptor to ask, still reads it so.)
   */
  @EachKernelHandle
  void theUpperOfTwoStackedMountsIsTheRootsFileSystem(BoundaryKind kind) throws IOException {
    KindsInThisMode.mechanism(kind);
    assumeTrue(TestWorkspace.isRoot(), "mounting needs root");
    // devtmpfs is told from tmpfs by the mount's ID, which the posix mode does not look up
    List<String> uppers =
        Portability.current().readsProc() ? List.of("proc", "devtmpfs") : List.of("proc");
    for (String upper : uppers) {
      Path mountPoint = Files.createDirectory(temp.resolve(upper + "-over-tmpfs"));
      try (Mounted lower = Mounted.required("tmpfs", mountPoint);
          Mounted top = Mounted.required(upper, mountPoint)) {
        assertRefusedAs(upper, mountPoint, kind);
      }
    }
    Path tmpfsOverProc = Files.createDirectory(temp.resolve("tmpfs-over-proc"));
    try (Mounted lower = Mounted.required("proc", tmpfsOverProc);
        Mounted top = Mounted.required("tmpfs", tmpfsOverProc)) {
      assertAdmitted(tmpfsOverProc, kind);
    }
  }

  private static void assertRefusedAs(String type, Path root, BoundaryKind kind) {
    try (WorkspaceBoundary opened = KindsInThisMode.open(root, kind)) {
      RequestException refused =
          assertThrows(
              RequestException.class,
              () -> WorkspacePolicy.anyDirectory().admit(opened),
              "" + root);
      assertEquals(RequestException.Problem.BAD_INPUT, refused.problem(), refused.getMessage());
      assertTrue(
          refused.getMessage().contains("pseudo file system '" + type + "'"),
          root + ": " + refused.getMessage());
    }
  }

  private static void assertAdmitted(Path root, BoundaryKind kind) {
    try (WorkspaceBoundary opened = KindsInThisMode.open(root, kind)) {
      WorkspacePolicy.anyDirectory().admit(opened);
    }
  }

  /** Each mount point's type as the mount table says it: the last entry, the one on top. */
  private static Map<String, String> visibleMountTypes() throws IOException {
    Map<String, String> types = new HashMap<>();
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.ISO_8859_1)) {
      String[] fields = line.split(" ");
      types.put(fields[1], fields[2]);
    }
    return types;
  }

  /** A file system mounted for one test, unmounted when closed. */
  private record Mounted(Path point) implements AutoCloseable {

    /** Mounts a {@code type} at {@code point}, or says the kernel would not. */
    static Optional<Mounted> attempt(String type, Path point) throws IOException {
      Process mount =
          new ProcessBuilder("mount", "-t", type, "turndiff-test", point.toString())
              .redirectErrorStream(true)
              .start();
      mount.getInputStream().transferTo(OutputStream.nullOutputStream());
      try {
        return mount.waitFor() == 0 ? Optional.of(new Mounted(point)) : Optional.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** Mounts a {@code type} at {@code point}, the test skipped where the kernel would not. */
    static Mounted required(String type, Path point) throws IOException {
      Optional<Mounted> mounted = attempt(type, point);
      assumeTrue(mounted.isPresent(), "mount -t " + type + " is not permitted here");
      return mounted.get();
    }

    @Override
    public void close() {
      // lazily: detached now even when busy, so the temp directory's removal never walks into it
      TestWorkspace.run("umount", "-l", point.toString());
    }
  }
}
