/**
 * The turndiff command (picocli, the only package that uses it) and the product jar's entry point:
 * every command prints JSON or a patch on stdout and one line per error on stderr, with the
 * documented exit codes. Its commands are thin adapters: over the {@code Turndiff} facade, over
 * {@link io.turndiff.hooks.install} ({@code hooks}) and over {@link io.turndiff.service} ({@code
 * service}, {@code serve --daemon}). It touches no file itself: the demo's edits, the agent's, go
 * through the boundary's write protocol; the installed program {@code uninstall} removes, the log
 * of {@code open}'s service and {@code export --patch}'s series through {@link
 * io.turndiff.ownfiles}.
 */
package io.turndiff.cli;
