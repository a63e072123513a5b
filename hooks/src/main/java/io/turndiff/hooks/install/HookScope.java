package io.turndiff.hooks.install;

import java.util.Locale;

/** Where {@code turndiff hooks install} puts the hooks: a workspace's settings, or the user's. */
public enum HookScope {
  WORKSPACE,
  USER;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
