package io.turndiff.hooks;

import java.util.Set;

/**
 * Reads one runtime's own hook payload, unchanged, into the {@link HookCall} it asks for
 * (docs/runtime-hooks.md, a table per runtime). Unknown events and tools are ignored, never
 * refused: runtimes add them with every release.
 */
interface HookMapper {

  /** The runtime's name in {@code /v1/hooks/RUNTIME} and in turndiff's session ids. */
  String runtime();

  /**
   * The fields (dotted paths) {@link #map} reads: only these are kept from a payload, every other
   * value is skipped unread (a {@code Write}'s content, a {@code tool_response}, a transcript).
   */
  Set<String> fields();

  /**
   * @throws io.turndiff.api.InvalidRequest naming the field when the payload is not one of this
   *     runtime's ({@code 400 bad_request})
   * @throws io.turndiff.model.RequestException naming the field when a directory or a path in it
   *     can never be valid ({@code 400 bad_input})
   */
  HookCall map(HookFields payload);
}
