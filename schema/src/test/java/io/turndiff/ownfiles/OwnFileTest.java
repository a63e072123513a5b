package io.turndiff.ownfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What turndiff reads and writes of a file of its own, on real files: bounded reads, a missing file
 * as an empty result, lock files and new outputs made as their users rely on.
 */
class OwnFileTest {

  @TempDir Path directory;

  @Test
  void aReadIsBoundedAndAMissingFileIsEmpty() throws IOException {
    Path token = directory.resolve("token");
    Files.writeString(token, "abcdef\n");

    assertArrayEquals(
        "abcdef\n".getBytes(StandardCharsets.UTF_8), OwnFile.of(token).read(7).orElseThrow());
    IOException tooLong = assertThrows(IOException.class, () -> OwnFile.of(token).read(6));
    assertTrue(tooLong.getMessage().contains(token.toString()), tooLong.getMessage());
    assertEquals(Optional.empty(), OwnFile.of(directory.resolve("none")).readText(100));
  }

  @Test
  void textThatIsNotUtf8IsAnErrorNotAGuess() throws IOException {
    Path file = directory.resolve("id");
    Files.write(file, new byte[] {'a', (byte) 0xff, 'b'});

    assertThrows(CharacterCodingException.class, () -> OwnFile.of(file).readText(100));
  }

  @Test
  void lastLinesAreTheNewestOldestFirst() throws IOException {
    Path log = directory.resolve("hook.log");
    Files.writeString(log, "one\ntwo\nthree\n");

    assertEquals(List.of("two", "three"), OwnFile.of(log).lastLines(2));
    assertEquals(List.of(), OwnFile.of(directory.resolve("none.log")).lastLines(2));
  }

  @Test
  void anEmptyFileIsMadeWithItsModeOnceAndANewOutputNeverOverwrites() throws IOException {
    OwnFile log = OwnFile.of(directory.resolve("service.log"));

    assertTrue(log.createEmpty(AtomicFile.OWNER_ONLY));
    assertEquals("rw-------", PosixFilePermissions.toString(log.permissions()));
    assertFalse(log.createEmpty(AtomicFile.OWNER_ONLY), "made once");

    Path patch = directory.resolve("series.mbox");
    Files.writeString(patch, "the user's");
    assertThrows(
        FileAlreadyExistsException.class,
        () -> OwnFile.of(patch).createNew("ours".getBytes(StandardCharsets.UTF_8)));
    assertEquals("the user's", Files.readString(patch));
  }

  @Test
  void aLockFileIsMadeOwnerOnlyAndHeldUntilClosed() throws IOException {
    Path file = directory.resolve("store.migrate-lock");

    try (LockFile _ = LockFile.acquire(file)) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertFalse(LockFile.heldElsewhere(directory.resolve("other.lock")), "no file, no holder");
    }
    Optional<LockFile> again = LockFile.tryAcquire(file);
    again.ifPresent(LockFile::close);
    assertTrue(again.isPresent(), "free again once closed");
  }
}
