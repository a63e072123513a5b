package io.turndiff.boundary;

import java.util.List;

/** A directory's names with their {@code lstat}, or why the directory could not be listed. */
sealed interface DirectoryListing {

  /** One name: its stat (null when {@code lstat} failed) and, for a symlink, its text. */
  record Entry(byte[] name, StatInfo stat, byte[] linkText) {}

  record Listed(List<Entry> entries) implements DirectoryListing {}

  record NotListed(Lookup why) implements DirectoryListing {}
}
