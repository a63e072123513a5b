/**
 * The turndiff command (picocli, the only package that uses it) and the product jar's entry point:
 * every command prints JSON or a patch on stdout and one line per error on stderr, with the
 * documented exit codes. The files it touches itself are not workspaces: the service's token file
 * (TokenFile), the demo acting as the agent (DemoWorkspace) and the standard streams
 * (StandardStreams).
 */
package io.turndiff.cli;
