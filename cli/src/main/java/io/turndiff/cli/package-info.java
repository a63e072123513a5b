/**
 * The turndiff command (picocli, the only package that uses it) and the product jar's entry point:
 * every command prints JSON or a patch on stdout for a program, and on a terminal a human view
 * (tables, file stats, coloured patches, {@code undo}'s question: {@code Terminal}), and one line
 * per error on stderr, with the documented exit codes. A turn given by a person is resolved by
 * {@code TurnReference}, which, like the turn table, reads the store through the facade's {@code
 * store()} (a turn by id or by the beginning of one, a session's turns): review queries not moved
 * to {@code review} yet. Its commands are adapters: over the {@code Turndiff} facade, over {@link
 * io.turndiff.hooks.install} ({@code hooks}) and over {@link io.turndiff.service} ({@code service},
 * {@code serve --daemon}). The files it touches itself are not workspaces (the demo acting as the
 * agent, the standard streams, the installed program {@code uninstall} removes): the classes
 * allowed to are named, once, in the {@code OWN_FILES} of {@code ArchitectureTest}.
 */
package io.turndiff.cli;
