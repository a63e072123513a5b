package io.turndiff.hooks.install;

import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The files one {@code turndiff hooks} command reads and writes, each the way its owner decides: a
 * workspace's settings through the workspace's boundary ({@link WorkspaceSettings}: the repository
 * chose those paths, and a link out of it is refused), the user's own (the settings in their home,
 * Codex's {@code config.toml}) through {@code io.turndiff.ownfiles} ({@link ConfigFiles}: a link
 * there is the user's own choice, such as a dotfiles checkout, and is written through, the link
 * kept).
 */
final class SettingsFiles implements AutoCloseable {

  private final Optional<WorkspaceSettings> workspace;

  private SettingsFiles(Optional<WorkspaceSettings> workspace) {
    this.workspace = workspace;
  }

  /** Only the user's files. */
  static SettingsFiles user() {
    return new SettingsFiles(Optional.empty());
  }

  /** The files of {@code workspace} (through its boundary) and the user's. */
  static SettingsFiles workspace(Path workspace) {
    return new SettingsFiles(Optional.of(WorkspaceSettings.open(workspace)));
  }

  /** The files of an install or uninstall in {@code scope}. */
  static SettingsFiles of(HookScope scope, Path workspace) {
    return scope == HookScope.WORKSPACE ? workspace(workspace) : user();
  }

  private Optional<WorkspaceSettings> inWorkspace(Path file) {
    return workspace.filter(settings -> settings.holds(file));
  }

  /** The file's bytes, or empty when there is none. */
  Optional<byte[]> read(Path file) {
    return inWorkspace(file)
        .map(settings -> settings.read(file))
        .orElseGet(() -> ConfigFiles.read(file));
  }

  /** The file a write of {@code file} replaces, when a symbolic link leads to another. */
  Optional<Path> linkedTarget(Path file) {
    Optional<WorkspaceSettings> settings = inWorkspace(file);
    if (settings.isPresent()) {
      return settings.get().linkedTarget(file);
    }
    Path target = ConfigFiles.writeTarget(file);
    return target.equals(file) ? Optional.empty() : Optional.of(target);
  }

  /**
   * Replaces {@code file} with {@code bytes} (its mode kept; a new one gets {@code modeIfNew});
   * returns the directories it made for it, outermost first.
   */
  List<Path> write(Path file, byte[] bytes, Set<PosixFilePermission> modeIfNew) {
    Optional<WorkspaceSettings> settings = inWorkspace(file);
    if (settings.isPresent()) {
      return settings.get().write(file, bytes, bits(modeIfNew));
    }
    Path target = ConfigFiles.writeTarget(file);
    List<Path> made = ConfigFiles.createDirectories(target.getParent());
    ConfigFiles.writeAtomically(target, bytes, modeIfNew);
    return made;
  }

  void delete(Path file) {
    inWorkspace(file)
        .ifPresentOrElse(settings -> settings.delete(file), () -> ConfigFiles.delete(file));
  }

  /** Removes those of {@code directories} (outermost first) that are empty, innermost first. */
  void removeEmptyDirectories(List<Path> directories) {
    if (directories.isEmpty()) {
      return;
    }
    inWorkspace(directories.getFirst())
        .ifPresentOrElse(
            settings -> settings.removeEmptyDirectories(directories),
            () -> ConfigFiles.removeEmptyDirectories(directories));
  }

  private static int bits(Set<PosixFilePermission> permissions) {
    int bits = 0;
    for (PosixFilePermission permission : permissions) {
      bits |= 0400 >> permission.ordinal();
    }
    return bits;
  }

  @Override
  public void close() {
    workspace.ifPresent(WorkspaceSettings::close);
  }
}
