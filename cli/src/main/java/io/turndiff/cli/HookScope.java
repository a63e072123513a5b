package io.turndiff.cli;

import java.util.Locale;

/** Where {@code turndiff hooks install} puts the hooks: a workspace's settings, or the user's. */
enum HookScope {
  WORKSPACE,
  USER;

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
