package io.turndiff.store;

import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * A PostgreSQL store's password file ({@code --db-password-file}): read only when its owner alone
 * may read it (mode 0600 or 0400), as {@code ~/.pgpass} is.
 */
final class PasswordFile {

  private static final Set<PosixFilePermission> OWNER_ONLY =
      EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

  /** More than any password: a file this long is not a password file. */
  private static final int BOUND = 64 * 1024;

  private PasswordFile() {}

  /**
   * The password in {@code file}: its first line.
   *
   * @throws IllegalArgumentException when it is not a regular file (a symlink is not followed),
   *     others may read it, it cannot be read, or its first line is empty; never with the password
   */
  static String read(Path file) {
    try {
      OwnFile password = OwnFile.of(file);
      PosixFileAttributes attributes =
          password.attributes().orElseThrow(() -> new NoSuchFileException(file.toString()));
      if (!attributes.isRegularFile()) {
        throw new IllegalArgumentException(
            "the password file " + file + " is not a regular file (a symlink is not followed)");
      }
      if (!OWNER_ONLY.containsAll(attributes.permissions())) {
        throw new IllegalArgumentException(
            "the password file "
                + file
                + " can be read by others (mode "
                + PosixFilePermissions.toString(attributes.permissions())
                + "): make it readable by its owner only (chmod 600 "
                + file
                + ")");
      }
      String content =
          password.readText(BOUND).orElseThrow(() -> new NoSuchFileException(file.toString()));
      int end = content.indexOf('\n');
      String first = end < 0 ? content : content.substring(0, end);
      if (first.endsWith("\r")) {
        first = first.substring(0, first.length() - 1);
      }
      if (first.isEmpty()) {
        throw new IllegalArgumentException("the password file " + file + " is empty");
      }
      return first;
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the password file " + file + ": " + e.getMessage(), e);
    }
  }
}
