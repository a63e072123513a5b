package io.turndiff.cli;

import java.io.Console;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * Whether a command's output goes to a person at a terminal or to a program, and what a person's
 * terminal is given: colours, a pager, a question before a write.
 *
 * <p>Only the process's own standard streams can be a terminal: a command run with streams of its
 * own ({@link Main#run}, as the tests and the AOT training do) always writes for a program. The
 * process is at a terminal when its standard input and output both are one ({@link
 * Console#isTerminal}): so {@code turndiff turns | jq}, {@code $(turndiff turns)} and a runtime's
 * hook get JSON, as before there was a human view, and a question is only asked where it can be
 * answered.
 *
 * <p>The pager is chosen as git chooses its own: {@code $TURNDIFF_PAGER}, else {@code $PAGER}, else
 * {@code less} (where it is installed), run through {@code sh -c} with {@code LESS=FRX} unless
 * {@code LESS} is set (F: quit at once when the text fits one screen, R: show the colours, X: leave
 * the text on the screen); an empty pager or {@code cat} pages nothing. Colours follow the no-color
 * convention: none when {@code NO_COLOR} is set (to anything) or {@code TERM} is {@code dumb}.
 */
final class Terminal {

  /** Output for a program: no colour, no pager, no question. */
  static final Terminal NONE = new Terminal(false, false, Optional.empty(), Map.of(), null);

  private static final String RESET = "\u001b[m";

  /** The default pager: less, or where a minimal system has none, the text as it is. */
  private static final String LESS_IF_THERE =
      "if command -v less >/dev/null 2>&1; then exec less; else exec cat; fi";

  private final boolean interactive;
  private final boolean colour;
  private final Optional<String> pager;
  private final Map<String, String> environment;

  /**
   * For a client's terminal ({@link #ofClient}): how many bytes the command has written to its
   * output so far; null for the process's own terminal.
   */
  private final IntSupplier clientOutput;

  /** Where the client's pager starts, once a view went to it. */
  private Paging paging;

  private Terminal(
      boolean interactive,
      boolean colour,
      Optional<String> pager,
      Map<String, String> environment,
      IntSupplier clientOutput) {
    this.interactive = interactive;
    this.colour = colour;
    this.pager = pager;
    this.environment = environment;
    this.clientOutput = clientOutput;
  }

  /** The process's standard streams, with the choices {@code environment} makes. */
  static Terminal ofProcess(Map<String, String> environment) {
    Console console = System.console();
    if (console == null || !console.isTerminal()) {
      return NONE;
    }
    return chosen(environment, null);
  }

  /**
   * The terminal of a client the service runs a command for ({@link ServedCommands}): {@code
   * terminal} when the client's standard input and output both are one, with the choices its {@code
   * environment} makes. Nothing is started here: a view for the pager is written to the output like
   * any other, and {@link #paging()} tells the client to run the pager on it from the byte {@code
   * output} had counted when the view began.
   */
  static Terminal ofClient(Map<String, String> environment, boolean terminal, IntSupplier output) {
    return terminal ? chosen(environment, output) : NONE;
  }

  private static Terminal chosen(Map<String, String> environment, IntSupplier clientOutput) {
    boolean colour =
        !environment.containsKey("NO_COLOR") && !"dumb".equals(environment.get("TERM"));
    String chosen =
        Optional.ofNullable(environment.get("TURNDIFF_PAGER"))
            .or(() -> Optional.ofNullable(environment.get("PAGER")))
            .orElse(LESS_IF_THERE)
            .strip();
    Optional<String> pager =
        chosen.isEmpty() || chosen.equals("cat") ? Optional.empty() : Optional.of(chosen);
    return new Terminal(true, colour, pager, environment, clientOutput);
  }

  /** A view for the pager on a client's terminal: the pager's command and where its text starts. */
  record Paging(String command, int from) {}

  /** The view that went to a client's pager, if one did. */
  Optional<Paging> paging() {
    return Optional.ofNullable(paging);
  }

  /** Whether a person reads the output (and can answer a question). */
  boolean interactive() {
    return interactive;
  }

  /**
   * {@code text} in the colour {@code sgr} (an ANSI select-graphic-rendition code) when colours are
   * on.
   */
  String paint(String sgr, String text) {
    return colour && !text.isEmpty() ? "\u001b[" + sgr + "m" + text + RESET : text;
  }

  static final String BOLD = "1";
  static final String DIM = "2";
  static final String RED = "31";
  static final String GREEN = "32";
  static final String YELLOW = "33";
  static final String CYAN = "36";

  /**
   * Shows {@code text} through the pager, or on {@code out} when there is none or it cannot be
   * started. A pager the user quits before the end closes its input: the rest is dropped, as git
   * drops it.
   */
  void page(String text, PrintWriter out) {
    if (pager.isEmpty()) {
      out.print(text);
      out.flush();
      return;
    }
    out.flush();
    if (clientOutput != null) {
      // the client pipes it to the same command, with the same LESS and LV when it has none
      if (paging == null) {
        paging = new Paging(pager.get(), clientOutput.getAsInt());
      }
      out.print(text);
      out.flush();
      return;
    }
    ProcessBuilder builder =
        new ProcessBuilder(List.of("sh", "-c", pager.get()))
            .redirectOutput(ProcessBuilder.Redirect.INHERIT)
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    if (!environment.containsKey("LESS")) {
      builder.environment().put("LESS", "FRX");
    }
    if (!environment.containsKey("LV")) {
      builder.environment().put("LV", "-c");
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException noShell) {
      out.print(text);
      out.flush();
      return;
    }
    try (OutputStream input = process.getOutputStream()) {
      input.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException quit) {
      // the user quit the pager before the end
    }
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Asks {@code question} and reads the answer from the terminal: true for {@code y} or {@code
   * yes}; false for anything else, end of input, or when no person can answer.
   */
  boolean confirm(String question) {
    Console console = System.console();
    if (!interactive || console == null) {
      return false;
    }
    String answer = console.readLine("%s [y/N] ", question);
    return answer != null && List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT));
  }

  /**
   * {@code text} with its control characters shown as {@code ^X} (tab and newline kept), and the C1
   * controls (U+0080 to U+009F: U+009B is a one-character CSI on terminals that take 8-bit
   * controls) and the bidirectional formatting characters (embeddings, overrides, isolates, marks:
   * an override shows {@code invoice\u202Etxt.exe} as {@code invoiceexe.txt}) as {@code <U+XXXX>}:
   * a file's content or name must not move the cursor, set a title, change colours or reorder what
   * the terminal that shows it displays.
   */
  static String printable(String text) {
    StringBuilder shown = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String replaced = replacement(c);
      if (replaced != null && shown == null) {
        shown = new StringBuilder(text.length() + 8).append(text, 0, i);
      }
      if (shown != null) {
        if (replaced != null) {
          shown.append(replaced);
        } else {
          shown.append(c);
        }
      }
    }
    return shown == null ? text : shown.toString();
  }

  /** How {@code c} is shown when it cannot be shown as itself; null when it can. */
  private static String replacement(char c) {
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
      return "^" + (c == 0x7f ? '?' : (char) (c + '@'));
    }
    boolean c1 = c >= 0x80 && c <= 0x9f;
    boolean bidi =
        c == 0x061c
            || c == 0x200e
            || c == 0x200f
            || (c >= 0x202a && c <= 0x202e)
            || (c >= 0x2066 && c <= 0x2069);
    return c1 || bidi ? String.format(Locale.ROOT, "<U+%04X>", (int) c) : null;
  }
}
