package io.turndiff.model;

import java.util.Arrays;

/** The type of a file system object, as {@code lstat} or {@code fstat} reports it. */
public enum FileType {
  REGULAR("regular"),
  DIRECTORY("directory"),
  SYMLINK("symlink"),
  FIFO("fifo"),
  SOCKET("socket"),
  CHAR_DEVICE("char_device"),
  BLOCK_DEVICE("block_device"),
  UNKNOWN("unknown");

  private final String code;

  FileType(String code) {
    this.code = code;
  }

  /** The stored and printed name. */
  public String code() {
    return code;
  }

  public static FileType fromCode(String code) {
    return Arrays.stream(values())
        .filter(type -> type.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown file type: " + code));
  }
}
