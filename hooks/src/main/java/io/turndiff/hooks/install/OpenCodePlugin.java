package io.turndiff.hooks.install;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;

/**
 * The OpenCode plugin as install writes it: the shipped source ({@code
 * integrations/opencode/turndiff.ts}) with its one {@code INSTALL} line set to the install's
 * options, {@code {"turndiffHome": …, "root": "git", "track": "auto"}} (docs/runtime-hooks.md, "The
 * OpenCode plugin").
 */
public final class OpenCodePlugin {

  /** The line of the shipped plugin that install fills. */
  public static final String INSTALL_LINE = "const INSTALL = /* turndiff-install */ {};";

  /** What marks a file as turndiff's plugin, configured or not. */
  public static final String MARK = "/* turndiff-install */";

  private OpenCodePlugin() {}

  /**
   * {@code source} with its install line set: {@code home} holds the {@code turndiff} launcher the
   * plugin starts the service with.
   */
  public static String configured(String source, String home, boolean gitRoot, boolean autoTrack) {
    if (!source.contains(INSTALL_LINE)) {
      throw new IllegalStateException("the OpenCode plugin has no line " + INSTALL_LINE);
    }
    ObjectNode options = JsonNodeFactory.instance.objectNode();
    options.put("turndiffHome", home);
    if (gitRoot) {
      options.put("root", "git");
    }
    if (autoTrack) {
      options.put("track", "auto");
    }
    return source.replace(
        INSTALL_LINE, INSTALL_LINE.replace("{};", Json.write(options, false) + ";"));
  }
}
