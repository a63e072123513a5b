/**
 * The agent runtimes' own settings as {@code turndiff hooks install} edits them: which hooks
 * turndiff adds for each runtime ({@link io.turndiff.hooks.install.HookRuntime}), a JSON settings file
 * merged as a tree with every other key kept ({@link io.turndiff.hooks.install.RuntimeSettings}),
 * Codex's trust entries ({@link io.turndiff.hooks.install.CodexTrust}) and the OpenCode plugin's
 * options ({@link io.turndiff.hooks.install.OpenCodePlugin}). Only text in, text out: the command line
 * reads and writes the files.
 */
package io.turndiff.hooks.install;
