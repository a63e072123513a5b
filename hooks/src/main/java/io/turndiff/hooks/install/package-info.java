/**
 * {@code turndiff hooks install|uninstall|status}: the agent runtimes' own settings as turndiff
 * edits them (docs/runtime-hooks.md, "hooks install, uninstall, status"). Which hooks turndiff adds
 * for each runtime ({@link io.turndiff.hooks.install.HookRuntime}), a JSON settings file merged as
 * a tree with every other key kept ({@link io.turndiff.hooks.install.RuntimeSettings}), Codex's
 * trust entries ({@link io.turndiff.hooks.install.CodexTrust}) and the OpenCode plugin ({@link
 * io.turndiff.hooks.install.OpenCodePlugin}); the installer ({@link
 * io.turndiff.hooks.install.HookInstaller}) and the ledger of what it changed ({@link
 * io.turndiff.hooks.install.HookLedger}), what status finds ({@link
 * io.turndiff.hooks.install.HookInstallations}) and where a runtime runs a workspace's hooks
 * ({@link io.turndiff.hooks.install.HookLoading}). A workspace's settings are read and written
 * through its boundary; the user's own through {@code io.turndiff.ownfiles} ({@code ConfigFiles}).
 * The command line's {@code hooks} and {@code uninstall} are thin adapters over it.
 */
package io.turndiff.hooks.install;
