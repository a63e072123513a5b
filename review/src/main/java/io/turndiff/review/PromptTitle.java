package io.turndiff.review;

import io.turndiff.store.Prompts;

/**
 * The line that names a turn whose prompt the store kept, where git puts a commit's subject: the
 * prompt's first line that is not blank, its surrounding spaces removed, cut to {@value #MAX_CHARS}
 * characters (the last then an ellipsis). It is the prompt's text as typed: a view that shows it
 * escapes it for its medium (a terminal's control characters, the panel's HTML).
 */
public final class PromptTitle {

  /** The most characters of a title: a line of a list, not the prompt. */
  public static final int MAX_CHARS = 200;

  private PromptTitle() {}

  public static String of(String prompt) {
    String first =
        prompt.lines().map(String::strip).filter(line -> !line.isEmpty()).findFirst().orElse("");
    return Prompts.cut(first, MAX_CHARS);
  }
}
