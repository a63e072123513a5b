package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.fixtures.TestWorkspace;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.util.FS;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The names read from real indexes that real git wrote, in every format version, are exactly what
 * {@code git ls-files} lists; anything JGit cannot read completely is refused rather than misread.
 */
class GitIndexFileTest {

  @TempDir Path temp;

  /** JGit reads the bytes through /proc/self/fd (MemoryFile), which the posix mode never names. */
  @BeforeAll
  static void namedThroughProc() {
    assumeTrue(Portability.current().readsProc(), "the posix mode reads no git index");
  }

  private static String git(Path repository, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "git",
                "-C",
                repository.toString(),
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "-c",
                "init.defaultBranch=main"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), () -> String.join(" ", command) + ": " + output);
    return output;
  }

  /**
   * A repository with files in nested and ignored directories, odd names, a link and an executable.
   */
  private Path repository(String... initOptions) throws Exception {
    Path repository = Files.createTempDirectory(temp, "repo");
    List<String> init = new ArrayList<>(List.of("init", "-q"));
    init.addAll(List.of(initOptions));
    git(repository, init.toArray(String[]::new));
    TestWorkspace.run(
        "sh",
        "-c",
        "cd '"
            + repository
            + "' && mkdir -p bin dir/sub && echo '/bin' > .gitignore"
            + " && echo brew > bin/brew && echo a > a.txt && echo deep > dir/sub/deep.txt && echo x > 'sp ace'"
            + " && printf 'c' > \"$(printf 'caf\\303\\251.txt')\" && ln -s a.txt link && echo run > run.sh"
            + " && chmod +x run.sh && echo ignored > bin/cache.log");
    git(repository, "add", ".");
    git(repository, "add", "-f", "bin/brew");
    git(repository, "commit", "-qm", "first");
    return repository;
  }

  private static Set<String> lsFiles(Path repository, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("ls-files", "-z"));
    args.addAll(List.of(options));
    Set<String> names = new TreeSet<>();
    for (String name : git(repository, args.toArray(String[]::new)).split("\0")) {
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }

  private static Set<String> read(Path repository) throws IOException {
    Optional<List<byte[]>> names =
        GitIndexFile.names(Files.readAllBytes(repository.resolve(".git/index")));
    assertTrue(names.isPresent(), "an index git wrote is read");
    Set<String> read = new TreeSet<>();
    for (byte[] name : names.get()) {
      read.add(new String(name, StandardCharsets.UTF_8));
    }
    assertEquals(names.get().size(), read.size(), "each name once");
    return read;
  }

  private static Set<String> jgit(Path repository) throws IOException {
    DirCache index =
        DirCache.read(new File(repository.resolve(".git/index").toString()), FS.DETECTED);
    Set<String> names = new TreeSet<>();
    for (int i = 0; i < index.getEntryCount(); i++) {
      names.add(index.getEntry(i).getPathString());
    }
    return names;
  }

  @Test
  void version2IsReadAsGitAndJGitReadIt() throws Exception {
    Path repository = repository();
    Set<String> expected = lsFiles(repository);
    assertTrue(
        expected.containsAll(Set.of("bin/brew", "dir/sub/deep.txt", "café.txt", "sp ace", "link")),
        expected.toString());
    assertEquals(expected, read(repository));
    assertEquals(jgit(repository), read(repository));
  }

  @Test
  void version3WithExtendedFlagsIsRead() throws Exception {
    Path repository = repository();
    Files.writeString(repository.resolve("intended.txt"), "later\n");
    git(repository, "add", "-N", "intended.txt"); // intent-to-add: an extended flag, so version 3
    assertEquals(3, version(repository));
    assertTrue(lsFiles(repository).contains("intended.txt"));
    assertEquals(lsFiles(repository), read(repository));
    assertEquals(jgit(repository), read(repository));
  }

  @Test
  void version4WithCompressedNamesIsRead() throws Exception {
    Path repository = repository();
    git(repository, "update-index", "--index-version", "4");
    assertEquals(4, version(repository));
    assertEquals(lsFiles(repository), read(repository));
    assertEquals(jgit(repository), read(repository));
  }

  @Test
  void aSha256RepositorysIndexIsRefusedAsJGitCannotReadIt() throws Exception {
    Path repository = repository("--object-format=sha256");
    assertTrue(
        GitIndexFile.names(Files.readAllBytes(repository.resolve(".git/index"))).isEmpty(),
        "then the ignore rules alone decide, as for a workspace that is not a work tree");
  }

  @Test
  void aConflictsStagesNameThePathOnce() throws Exception {
    Path repository = repository();
    git(repository, "checkout", "-qb", "other");
    Files.writeString(repository.resolve("a.txt"), "other\n");
    git(repository, "commit", "-qam", "other");
    git(repository, "checkout", "-q", "main");
    Files.writeString(repository.resolve("a.txt"), "main\n");
    git(repository, "commit", "-qam", "main");
    Process merge =
        new ProcessBuilder(
                "git",
                "-C",
                repository.toString(),
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "merge",
                "-q",
                "other")
            .redirectErrorStream(true)
            .start();
    merge.getInputStream().readAllBytes();
    assertEquals(1, merge.waitFor(), "the merge conflicts");
    assertTrue(read(repository).contains("a.txt"));
    assertEquals(lsFiles(repository, "--deduplicate"), read(repository));
  }

  @Test
  void aSplitIndexOrBytesThatAreNotAnIndexAreRefused() throws Exception {
    Path repository = repository();
    byte[] index = Files.readAllBytes(repository.resolve(".git/index"));
    assertTrue(
        GitIndexFile.names(Arrays.copyOf(index, index.length - 1)).isEmpty(), "a truncated index");
    byte[] corrupt = index.clone();
    corrupt[12 + 40 + 20 + 1] ^= 0x01; // the first entry's name length
    assertTrue(GitIndexFile.names(corrupt).isEmpty(), "a name length that does not match its name");
    assertTrue(
        GitIndexFile.names("not an index at all".getBytes(StandardCharsets.UTF_8)).isEmpty());
    assertTrue(GitIndexFile.names(new byte[0]).isEmpty());

    git(repository, "update-index", "--split-index");
    assertTrue(
        GitIndexFile.names(Files.readAllBytes(repository.resolve(".git/index"))).isEmpty(),
        "a split index holds only part of the names: refused, not misread");
  }

  @Test
  void anIndexIsParsedWithoutACopyOnDiskNotEvenInTheTemporaryDirectory() throws Exception {
    Path repository = repository();
    Path noTemporaryDirectory = temp.resolve("no-such-directory");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + noTemporaryDirectory,
                "-cp",
                System.getProperty("java.class.path"),
                GitIndexNamesProcess.class.getName(),
                repository.resolve(".git/index").toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    String last =
        output
            .strip()
            .lines()
            .reduce((first, second) -> second)
            .orElse(""); // after the JVM's warning
    assertEquals(
        "names " + lsFiles(repository).size(),
        last,
        "the index's bytes reach JGit without a file in java.io.tmpdir (a kill -9 would leave it there)");
    assertFalse(Files.exists(noTemporaryDirectory));
  }

  private static int version(Path repository) throws IOException {
    byte[] index = Files.readAllBytes(repository.resolve(".git/index"));
    return index[7];
  }
}
