/**
 * The turndiff command (picocli, the only package that uses it) and the product jar's entry point:
 * every command prints JSON or a patch on stdout for a program, and on a terminal a human view
 * (tables, file stats, coloured patches, {@code undo}'s question: {@code Terminal}), and one line
 * per error on stderr, with the documented exit codes. A turn given by a person is resolved by
 * {@code TurnReference}, which, like the turn table, reads the store through the facade's {@code
 * store()} (a turn by id or by the beginning of one, a session's turns): review queries not moved
 * to {@code review} yet. Its commands are adapters: over the {@code Turndiff} facade, over {@link
 * io.turndiff.hooks.install} ({@code hooks}) and over {@link io.turndiff.service} ({@code service},
 * {@code serve --daemon}). It touches no file itself: the demo's edits, the agent's, go through the
 * boundary's write protocol; the installed program {@code uninstall} removes, the log of {@code
 * open}'s service and {@code export --patch}'s series through {@link io.turndiff.ownfiles}.
 */
package io.turndiff.cli;
