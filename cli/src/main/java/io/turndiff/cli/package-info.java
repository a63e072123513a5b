/**
 * The turndiff command (picocli, the only package that uses it) and the product jar's entry point:
 * every command prints JSON or a patch on stdout and one line per error on stderr, with the
 * documented exit codes. The files it touches itself are not workspaces (the service's files, the
 * hooks' settings, the demo acting as the agent, the standard streams): the classes allowed to are
 * named, once, in the {@code OWN_FILES} of {@code ArchitectureTest}.
 */
package io.turndiff.cli;
