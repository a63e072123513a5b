package io.turndiff.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The five kinds of state: each refuses, when it is built, a combination of facts that cannot be
 * true, and every rule ({@code captured}, {@code compareState}, {@code fingerprint}) is decided by
 * the kind.
 */
class SnapshotTest {

  private static final WorkspacePath PATH = WorkspacePath.of("src/a.txt");
  private static final WorkspacePath OUTSIDE = WorkspacePath.outside(bytes("/etc/passwd"));
  private static final BoundaryKind BOUNDARY = BoundaryKind.OPENAT2;
  private static final Instant AT = Instant.EPOCH;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Sha256 sha(String text) {
    return Sha256.of(bytes(text));
  }

  private static FileMetadata stat(FileType type, long size, int mode) {
    return new FileMetadata(type, size, 1_000L, mode, 42, 1);
  }

  private static Snapshot absent() {
    return Snapshot.absent(PATH, BOUNDARY, AT);
  }

  private static Snapshot file(String text, int mode) {
    return Snapshot.regularFile(
        PATH, BOUNDARY, stat(FileType.REGULAR, text.length(), mode), sha(text), AT);
  }

  private static Snapshot link(String target) {
    return Snapshot.symlink(
        PATH, BOUNDARY, stat(FileType.SYMLINK, target.length(), 0777), LinkTarget.of(target), AT);
  }

  private static Snapshot directory(int mode) {
    return Snapshot.notCaptured(
        PATH,
        BOUNDARY,
        stat(FileType.DIRECTORY, 4096, mode),
        new NotCaptured(Reason.DIRECTORY, "a directory"),
        AT);
  }

  private static Snapshot unreadable() {
    return Snapshot.unknown(
        PATH, BOUNDARY, new NotCaptured(Reason.UNREADABLE, "Permission denied"), AT);
  }

  private static Snapshot tooLarge(String text) {
    return Snapshot.MetadataOnly.of(
            PATH,
            BOUNDARY,
            stat(FileType.REGULAR, text.length(), 0644),
            new NotCaptured(Reason.TOO_LARGE, "over the limit"),
            AT)
        .withContentHash(sha(text));
  }

  private static Snapshot sampled(long size, String sample) {
    return Snapshot.sampled(
        PATH, BOUNDARY, stat(FileType.REGULAR, size, 0644), sha(sample), "sampled", AT);
  }

  private static Snapshot hardlinked(int mode) {
    return Snapshot.notCaptured(
        PATH,
        BOUNDARY,
        stat(FileType.REGULAR, 3, mode),
        new NotCaptured(Reason.HARDLINKED, "2 links"),
        AT);
  }

  private static Snapshot escape(String target) {
    return Snapshot.MetadataOnly.of(
            PATH,
            BOUNDARY,
            stat(FileType.SYMLINK, target.length(), 0777),
            new NotCaptured(Reason.ESCAPES_WORKSPACE, "points outside"),
            AT)
        .withLinkTarget(LinkTarget.of(target));
  }

  private static Snapshot fifo() {
    return Snapshot.notCaptured(
        PATH,
        BOUNDARY,
        stat(FileType.FIFO, 0, 0644),
        new NotCaptured(Reason.SPECIAL_FILE, "a FIFO"),
        AT);
  }

  private static Snapshot outside(Presence presence) {
    NotCaptured why = new NotCaptured(Reason.OUTSIDE_WORKSPACE, "outside the workspace root");
    return switch (presence) {
      case PRESENT ->
          Snapshot.notCaptured(OUTSIDE, BOUNDARY, stat(FileType.REGULAR, 9, 0644), why, AT);
      case ABSENT -> Snapshot.knownAbsent(OUTSIDE, BOUNDARY, why, AT);
      case UNKNOWN -> Snapshot.unknown(OUTSIDE, BOUNDARY, why, AT);
    };
  }

  // ---- the kinds

  @Test
  void theFactoriesBuildTheOneKindEachStateIs() {
    assertInstanceOf(Snapshot.Absent.class, absent());
    assertInstanceOf(Snapshot.RegularFile.class, file("a\n", 0644));
    assertInstanceOf(Snapshot.Symlink.class, link("b"));
    assertInstanceOf(
        Snapshot.Directory.class, directory(0755), "reason 'directory' is the directory kind");
    assertInstanceOf(Snapshot.MetadataOnly.class, unreadable());
    assertInstanceOf(Snapshot.MetadataOnly.class, sampled(10, "x"));
  }

  @Test
  void aStateNotCapturedIsMadeOfWhatWasSeenAndWhyItWasNot() {
    NotCaptured why = new NotCaptured(Reason.HARDLINKED, "2 links");
    FileMetadata seen = stat(FileType.REGULAR, 3, 0644);

    Snapshot present = Snapshot.notCaptured(PATH, BOUNDARY, seen, why, AT);
    assertEquals(Presence.PRESENT, present.presence());
    assertEquals(Optional.of(seen), present.metadata());
    assertEquals(Optional.of(Reason.HARDLINKED), present.reason());
    assertEquals("2 links", present.reasonDetail());
    assertEquals(Optional.empty(), present.sha256());

    Snapshot unknown = Snapshot.unknown(PATH, BOUNDARY, why, AT);
    assertEquals(Presence.UNKNOWN, unknown.presence());
    assertEquals(Optional.empty(), unknown.metadata());
    assertEquals(Optional.of(Reason.HARDLINKED), unknown.reason());

    Snapshot gone =
        Snapshot.knownAbsent(
            OUTSIDE, BOUNDARY, new NotCaptured(Reason.OUTSIDE_WORKSPACE, "outside"), AT);
    assertEquals(Presence.ABSENT, gone.presence());
    assertFalse(gone.captured(), "an absence outside the workspace is never restored");

    Snapshot.MetadataOnly hashed =
        Snapshot.MetadataOnly.of(PATH, BOUNDARY, seen, why, AT).withContentHash(sha("abc"));
    assertEquals(Optional.of(sha("abc")), hashed.sha256());
    assertEquals(Optional.of(Reason.HARDLINKED), hashed.reason(), "a wither keeps the reason");
    Snapshot.MetadataOnly linked =
        Snapshot.MetadataOnly.of(PATH, BOUNDARY, stat(FileType.SYMLINK, 1, 0777), why, AT)
            .withLinkTarget(LinkTarget.of("x"));
    assertEquals(Optional.of(LinkTarget.of("x")), linked.linkTarget());
    NullPointerException noReason =
        assertThrows(NullPointerException.class, () -> new NotCaptured(null, ""));
    assertEquals("a state that was not captured has the reason why", noReason.getMessage());
  }

  @Test
  void onlyAbsencesStoredFilesAndLinkTextsAreCapturedAndOnlyTheOthersHaveAReason() {
    for (Snapshot captured : List.of(absent(), file("a\n", 0644), link("b"))) {
      assertTrue(captured.captured(), captured.toString());
      assertEquals(Optional.empty(), captured.reason(), captured.toString());
      assertEquals("", captured.reasonDetail(), captured.toString());
      assertEquals(Containment.INSIDE, captured.containment(), captured.toString());
    }
    for (Snapshot uncaptured :
        List.of(
            directory(0755),
            unreadable(),
            tooLarge("big"),
            sampled(10, "x"),
            hardlinked(0644),
            escape("../out"),
            fifo(),
            outside(Presence.PRESENT))) {
      assertFalse(uncaptured.captured(), uncaptured.toString());
      assertTrue(uncaptured.reason().isPresent(), uncaptured.toString());
    }
    assertEquals(Containment.ESCAPED, escape("../out").containment());
    assertTrue(escape("../out").leadsOutside());
    assertTrue(outside(Presence.ABSENT).leadsOutside());
  }

  @Test
  void theAccessorsAnswerForEveryKind() {
    Snapshot file = file("a\n", 0644);
    assertEquals(Presence.PRESENT, file.presence());
    assertEquals(Optional.of(sha("a\n")), file.sha256());
    assertEquals(
        Optional.of(sha("a\n")), file.storedContent(), "a captured file's content is stored");
    assertEquals(Optional.of(FileType.REGULAR), file.type());

    Snapshot tooLarge = tooLarge("big");
    assertEquals(Optional.of(sha("big")), tooLarge.sha256(), "hashed while streaming");
    assertEquals(Optional.empty(), tooLarge.storedContent(), "but not stored");

    Snapshot link = link("b");
    assertEquals(Optional.of(LinkTarget.of("b")), link.linkTarget());
    assertEquals(Optional.empty(), link.sha256());

    Snapshot absent = absent();
    assertEquals(Presence.ABSENT, absent.presence());
    assertFalse(absent.exists());
    assertEquals(Optional.empty(), absent.metadata());

    Snapshot directory = directory(0755);
    assertEquals(Optional.of(Reason.DIRECTORY), directory.reason());
    assertEquals("a directory", directory.reasonDetail());
    assertTrue(directory.isDirectory());
    assertFalse(escape("../d").isDirectory());

    assertEquals(Presence.UNKNOWN, unreadable().presence());
    assertEquals(Optional.of(sha("x")), sampled(10, "x").sampledSha256());
  }

  @Test
  void theFingerprintIsTheStatOrWhatIsKnownOfThePresence() {
    assertEquals("absent", absent().fingerprint());
    assertEquals("unknown", unreadable().fingerprint());
    assertEquals("absent", outside(Presence.ABSENT).fingerprint());
    assertEquals("regular:2:1000:0644", file("a\n", 0644).fingerprint());
    assertEquals("symlink:1:1000:0777", link("b").fingerprint());
    assertEquals("directory:4096:1000:0755", directory(0755).fingerprint());
    assertEquals(
        "regular:10:1000:0644:inode=42:sampled=" + sha("x").hex(),
        sampled(10, "x").fingerprint(),
        "a sampled file is marked, with its inode");
  }

  // ---- what cannot be built

  private static void refused(
      Class<? extends RuntimeException> type, String expected, Supplier<Snapshot> build) {
    RuntimeException refusal = assertThrows(type, build::get);
    assertTrue(
        refusal.getMessage() != null && refusal.getMessage().contains(expected),
        "expected a refusal saying \"" + expected + "\", got: " + refusal.getMessage());
  }

  @Test
  void aCapturedStateIsOfAPathInsideTheWorkspace() {
    refused(
        IllegalArgumentException.class,
        "a known absence is of a path inside the workspace, never of /etc/passwd",
        () -> Snapshot.absent(OUTSIDE, BOUNDARY, AT));
    refused(
        IllegalArgumentException.class,
        "a stored regular file is of a path inside the workspace",
        () ->
            Snapshot.regularFile(OUTSIDE, BOUNDARY, stat(FileType.REGULAR, 1, 0644), sha("x"), AT));
    refused(
        IllegalArgumentException.class,
        "a symlink's text is of a path inside the workspace",
        () ->
            Snapshot.symlink(
                OUTSIDE, BOUNDARY, stat(FileType.SYMLINK, 1, 0777), LinkTarget.of("x"), AT));
  }

  @Test
  void aCapturedFileHasItsContentAndTheStatOfARegularFile() {
    refused(
        NullPointerException.class,
        "a stored regular file has its content's hash",
        () -> Snapshot.regularFile(PATH, BOUNDARY, stat(FileType.REGULAR, 1, 0644), null, AT));
    refused(
        IllegalArgumentException.class,
        "a stored regular file needs the stat of a regular, but stat says symlink",
        () -> Snapshot.regularFile(PATH, BOUNDARY, stat(FileType.SYMLINK, 1, 0777), sha("x"), AT));
    refused(
        NullPointerException.class,
        "a stored regular file holds what stat said",
        () -> Snapshot.regularFile(PATH, BOUNDARY, null, sha("x"), AT));
  }

  @Test
  void aCapturedSymlinkHasItsTextAndTheStatOfASymlink() {
    refused(
        NullPointerException.class,
        "a symlink's state has its text",
        () -> Snapshot.symlink(PATH, BOUNDARY, stat(FileType.SYMLINK, 1, 0777), null, AT));
    refused(
        IllegalArgumentException.class,
        "a symlink's text needs the stat of a symlink, but stat says regular",
        () ->
            Snapshot.symlink(
                PATH, BOUNDARY, stat(FileType.REGULAR, 1, 0644), LinkTarget.of("x"), AT));
  }

  @Test
  void aDirectoryIsPresentWithTheStatOfADirectoryAndNothingElse() {
    refused(
        IllegalArgumentException.class,
        "a directory a snapshot named is a Directory, not metadata only",
        () -> Snapshot.unknown(PATH, BOUNDARY, new NotCaptured(Reason.DIRECTORY, ""), AT));
    refused(
        IllegalArgumentException.class,
        "a directory a snapshot named is a Directory, not metadata only",
        () ->
            Snapshot.MetadataOnly.of(
                    PATH,
                    BOUNDARY,
                    stat(FileType.DIRECTORY, 1, 0755),
                    new NotCaptured(Reason.DIRECTORY, ""),
                    AT)
                .withContentHash(sha("x")));
    refused(
        IllegalArgumentException.class,
        "a directory needs the stat of a directory, but stat says regular",
        () ->
            Snapshot.notCaptured(
                PATH,
                BOUNDARY,
                stat(FileType.REGULAR, 1, 0644),
                new NotCaptured(Reason.DIRECTORY, ""),
                AT));
    refused(
        IllegalArgumentException.class,
        "a directory is of a path inside the workspace",
        () -> new Snapshot.Directory(OUTSIDE, BOUNDARY, stat(FileType.DIRECTORY, 1, 0755), "", AT));
    refused(
        IllegalArgumentException.class,
        "is a Directory, not metadata only",
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                Presence.PRESENT,
                Optional.of(stat(FileType.DIRECTORY, 1, 0755)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Reason.DIRECTORY,
                "",
                AT));
  }

  @Test
  void aPresentStateHoldsItsStatAndOnlyAPresentOneDoes() {
    refused(
        IllegalArgumentException.class,
        "a present state holds what stat said",
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                Presence.PRESENT,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Reason.UNREADABLE,
                "",
                AT));
    refused(
        IllegalArgumentException.class,
        "not of a state whose presence is UNKNOWN",
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                Presence.UNKNOWN,
                Optional.of(stat(FileType.REGULAR, 1, 0644)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Reason.UNREADABLE,
                "",
                AT));
    refused(
        IllegalArgumentException.class,
        "not of a state whose presence is ABSENT",
        () ->
            new Snapshot.MetadataOnly(
                OUTSIDE,
                BOUNDARY,
                Presence.ABSENT,
                Optional.of(stat(FileType.REGULAR, 1, 0644)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Reason.OUTSIDE_WORKSPACE,
                "",
                AT));
  }

  @Test
  void aHashIsOfARegularFileAndALinkTextOfASymlink() {
    refused(
        IllegalArgumentException.class,
        "a content hash is the hash of a regular file, not of symlink",
        () ->
            Snapshot.MetadataOnly.of(
                    PATH,
                    BOUNDARY,
                    stat(FileType.SYMLINK, 1, 0777),
                    new NotCaptured(Reason.UNREADABLE, ""),
                    AT)
                .withContentHash(sha("x")));
    refused(
        IllegalArgumentException.class,
        "a content hash is the hash of a regular file, not of a state without stat",
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                Presence.UNKNOWN,
                Optional.empty(),
                Optional.of(sha("x")),
                Optional.empty(),
                Optional.empty(),
                Reason.UNREADABLE,
                "",
                AT));
    refused(
        IllegalArgumentException.class,
        "a link's text is the text of a symlink, not of regular",
        () ->
            Snapshot.MetadataOnly.of(
                    PATH,
                    BOUNDARY,
                    stat(FileType.REGULAR, 1, 0644),
                    new NotCaptured(Reason.UNREADABLE, ""),
                    AT)
                .withLinkTarget(LinkTarget.of("x")));
  }

  @Test
  void aSampledFingerprintStandsInOnlyForTheHashOfARegularFileOverTheLimit() {
    String expected =
        "a sampled fingerprint stands in for the content hash of a present regular file over the "
            + "size limit (reason too_large)";
    refused(
        IllegalArgumentException.class,
        expected,
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                Presence.PRESENT,
                Optional.of(stat(FileType.REGULAR, 1, 0644)),
                Optional.empty(),
                Optional.of(sha("s")),
                Optional.empty(),
                Reason.UNREADABLE,
                "",
                AT));
    refused(
        IllegalArgumentException.class,
        expected,
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                Presence.PRESENT,
                Optional.of(stat(FileType.REGULAR, 1, 0644)),
                Optional.of(sha("x")),
                Optional.of(sha("s")),
                Optional.empty(),
                Reason.TOO_LARGE,
                "",
                AT));
    refused(
        IllegalArgumentException.class,
        expected,
        () -> Snapshot.sampled(PATH, BOUNDARY, stat(FileType.FIFO, 1, 0644), sha("s"), "", AT));
  }

  @Test
  void reasonOutsideWorkspaceIsForAPathOutsideAndOnlyForOne() {
    refused(
        IllegalArgumentException.class,
        "a path outside the workspace, and only such a path, is recorded with "
            + "reason outside_workspace: /etc/passwd (unreadable)",
        () -> Snapshot.unknown(OUTSIDE, BOUNDARY, new NotCaptured(Reason.UNREADABLE, ""), AT));
    refused(
        IllegalArgumentException.class,
        "src/a.txt (outside_workspace)",
        () -> Snapshot.unknown(PATH, BOUNDARY, new NotCaptured(Reason.OUTSIDE_WORKSPACE, ""), AT));
  }

  @Test
  void everyPartOfAMetadataOnlyStateIsGiven() {
    refused(
        NullPointerException.class,
        "a metadata-only state has the reason why",
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                Presence.UNKNOWN,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                null,
                "",
                AT));
    refused(
        NullPointerException.class,
        "presence",
        () ->
            new Snapshot.MetadataOnly(
                PATH,
                BOUNDARY,
                null,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Reason.UNREADABLE,
                "",
                AT));
    refused(NullPointerException.class, "takenAt", () -> Snapshot.absent(PATH, BOUNDARY, null));
  }

  // ---- how two states compare

  static Stream<Arguments> comparisons() {
    return Stream.of(
        // captured states of one kind compare on what they are
        Arguments.of("absent, absent", absent(), absent(), StateComparison.SAME),
        Arguments.of(
            "same content and mode", file("a\n", 0644), file("a\n", 0644), StateComparison.SAME),
        Arguments.of(
            "other content", file("a\n", 0644), file("b\n", 0644), StateComparison.DIFFERENT),
        Arguments.of("other mode", file("a\n", 0644), file("a\n", 0755), StateComparison.DIFFERENT),
        Arguments.of("same link text", link("t"), link("t"), StateComparison.SAME),
        Arguments.of("other link text", link("t"), link("u"), StateComparison.DIFFERENT),
        // captured states of different kinds differ in existence or type
        Arguments.of("absent, file", absent(), file("a\n", 0644), StateComparison.DIFFERENT),
        Arguments.of("file, link", file("a\n", 0644), link("t"), StateComparison.DIFFERENT),
        Arguments.of("link, absent", link("t"), absent(), StateComparison.DIFFERENT),
        // a directory is compared on its mode alone
        Arguments.of(
            "directory, same mode", directory(0755), directory(0755), StateComparison.SAME),
        Arguments.of(
            "directory, other mode", directory(0755), directory(0700), StateComparison.DIFFERENT),
        Arguments.of(
            "directory, file", directory(0755), file("a\n", 0644), StateComparison.DIFFERENT),
        Arguments.of("directory, absent", directory(0755), absent(), StateComparison.DIFFERENT),
        // an uncaptured state equals nothing, not even another uncaptured state, nor itself
        Arguments.of("unreadable, unreadable", unreadable(), unreadable(), StateComparison.UNKNOWN),
        Arguments.of("file, unreadable", file("a\n", 0644), unreadable(), StateComparison.UNKNOWN),
        Arguments.of("absent, unreadable", absent(), unreadable(), StateComparison.UNKNOWN),
        Arguments.of(
            "too large, same hash", tooLarge("big"), tooLarge("big"), StateComparison.UNKNOWN),
        Arguments.of(
            "sampled, same sample", sampled(10, "x"), sampled(10, "x"), StateComparison.UNKNOWN),
        Arguments.of(
            "hardlinked, same stat", hardlinked(0644), hardlinked(0644), StateComparison.UNKNOWN),
        Arguments.of("fifo, fifo", fifo(), fifo(), StateComparison.UNKNOWN),
        Arguments.of("escape, same text", escape("../o"), escape("../o"), StateComparison.UNKNOWN),
        Arguments.of(
            "outside, outside",
            outside(Presence.PRESENT),
            outside(Presence.PRESENT),
            StateComparison.UNKNOWN),
        Arguments.of(
            "file, hardlinked of same stat",
            file("abc", 0644),
            hardlinked(0644),
            StateComparison.UNKNOWN),
        // ... unless what is known proves a difference
        Arguments.of(
            "too large, other hash", tooLarge("big"), tooLarge("bag"), StateComparison.DIFFERENT),
        Arguments.of(
            "sampled, other sample", sampled(10, "x"), sampled(10, "y"), StateComparison.DIFFERENT),
        Arguments.of(
            "sampled, other size", sampled(10, "x"), sampled(11, "x"), StateComparison.DIFFERENT),
        Arguments.of(
            "hardlinked, other mode",
            hardlinked(0644),
            hardlinked(0600),
            StateComparison.DIFFERENT),
        Arguments.of(
            "escape, other text", escape("../o"), escape("../p"), StateComparison.DIFFERENT),
        Arguments.of("absent, sampled", absent(), sampled(10, "x"), StateComparison.DIFFERENT),
        Arguments.of("file, fifo", file("a\n", 0644), fifo(), StateComparison.DIFFERENT),
        Arguments.of(
            "file, too large of other size",
            file("a\n", 0644),
            tooLarge("big"),
            StateComparison.DIFFERENT),
        Arguments.of("link, escape", link("t"), escape("../o"), StateComparison.DIFFERENT));
  }

  @ParameterizedTest(name = "{0}: {3}")
  @MethodSource("comparisons")
  void twoStatesCompareTheSameWhicheverComesFirst(
      String name, Snapshot one, Snapshot other, StateComparison expected) {
    assertEquals(expected, one.compareState(other), name);
    assertEquals(expected, other.compareState(one), name + ", the other way round");
    assertEquals(expected == StateComparison.SAME, one.sameStateAs(other), name);
  }

  @Test
  void anUncapturedStateIsNotEvenTheSameAsItself() {
    for (Snapshot uncaptured :
        List.of(
            unreadable(),
            tooLarge("big"),
            sampled(10, "x"),
            hardlinked(0644),
            fifo(),
            escape("../o"),
            outside(Presence.ABSENT))) {
      assertEquals(
          StateComparison.UNKNOWN, uncaptured.compareState(uncaptured), uncaptured.toString());
    }
  }
}
