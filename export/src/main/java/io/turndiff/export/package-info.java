/**
 * A turn, or a stretch of turns, as git history: a commit on a branch of the workspace's own
 * repository, written without touching its index or work tree, or a patch series {@code git am}
 * takes. The commit's objects and ref are read and written through the workspace's boundary, only
 * inside a {@code .git} directory at the workspace's root; JGit formats and parses them, and never
 * opens a file itself.
 */
package io.turndiff.export;
