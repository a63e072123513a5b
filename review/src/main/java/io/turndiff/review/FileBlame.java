package io.turndiff.review;

import io.turndiff.model.WorkspacePath;
import java.util.List;

/**
 * Who last wrote each line of a file as it is now.
 *
 * @param workspaceRoot the workspace's real root, as stored
 * @param lines every line of the file now, first line first
 * @param turns the turns the path's history holds, oldest first (each line that a turn wrote names
 *     one of them)
 */
public record FileBlame(
    String workspaceRoot, WorkspacePath path, List<BlamedLine> lines, List<BlamedTurn> turns) {

  /**
   * One line of the file now.
   *
   * @param number 1-based
   * @param text the line without its newline
   */
  public record BlamedLine(int number, String text, LineOrigin origin) {}
}
