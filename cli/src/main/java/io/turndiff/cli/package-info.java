/**
 * The turndiff command (picocli, the only package that uses it) and the product jar's entry point:
 * every command prints JSON or a patch on stdout and one line per error on stderr, with the
 * documented exit codes. Its commands are thin adapters: over the {@code Turndiff} facade, over
 * {@link io.turndiff.hooks.install} ({@code hooks}) and over {@link io.turndiff.service} ({@code
 * service}, {@code serve --daemon}). The files it touches itself are not workspaces (the demo
 * acting as the agent, the standard streams, the installed program {@code uninstall} removes): the
 * classes allowed to are named, once, in the {@code OWN_FILES} of {@code ArchitectureTest}.
 */
package io.turndiff.cli;
