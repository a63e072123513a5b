package io.turndiff.boundary;

import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.RequestedPath;
import io.turndiff.model.WorkspacePath;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Follows symlinks inside the workspace in user space, one component at a time over the boundary's
 * {@link Lookups#lstat} and {@link Lookups#readLink}, which never follow anything themselves.
 *
 * <p>It only computes a candidate: the symlink-free path a given path leads to. The caller then
 * opens that candidate with nothing followed, so a component swapped for a link after resolution
 * makes the open fail instead of leading elsewhere. Absolute link text is resolved lexically
 * against the root's real path and the root as given; anything else absolute, a {@code ..} past the
 * root, a mount crossing or a magic link is an escape, and nothing outside the workspace is ever
 * looked at.
 */
final class PathResolver {

  static final int MAX_LINK_HOPS = 40;

  private final Lookups access;
  private final List<List<byte[]>> rootNames;

  /**
   * @param rootNames the root's absolute names, as components (the real path first)
   */
  PathResolver(Lookups access, List<List<byte[]>> rootNames) {
    this.access = access;
    this.rootNames = rootNames;
  }

  /** A symlink met on the way, as it was seen. */
  record Link(WorkspacePath path, StatInfo stat, byte[] text) {}

  sealed interface Resolution {}

  /**
   * The symlink-free path the input leads to (it may not exist), and the input's own symlink when
   * its final component was one.
   */
  record Resolved(WorkspacePath path, Optional<Link> ownLink) implements Resolution {}

  /**
   * The input cannot exist: a directory on the way is missing, or a file is used as a directory;
   * with the input's own symlink when its final component was one (a dangling link into a missing
   * directory).
   */
  record Absent(WorkspacePath key, Optional<Link> ownLink) implements Resolution {}

  /** Resolution leaves the workspace. {@code link} is the link that leads out, when one does. */
  record Escapes(WorkspacePath key, Optional<Link> link, boolean ownLink, String detail)
      implements Resolution {}

  /** Too many links, or a link or directory that cannot be read. */
  record Unresolvable(WorkspacePath key, Optional<Link> link, String detail)
      implements Resolution {}

  /** A component changed into a link while it was being walked. */
  record Raced(WorkspacePath key) implements Resolution {}

  /** The input names the workspace root itself. */
  record Root() implements Resolution {}

  private record Part(byte[] name, boolean given) {}

  Resolution resolve(List<byte[]> input) {
    WorkspacePath lexicalKey = lexicalKey(input);
    Deque<Part> queue = new ArrayDeque<>();
    input.forEach(component -> queue.addLast(new Part(component, true)));
    List<byte[]> stack = new ArrayList<>();
    Optional<Link> ownLink = Optional.empty();
    Optional<Link> lastLink = Optional.empty();
    int hops = 0;
    while (!queue.isEmpty()) {
      Part part = queue.pollFirst();
      if (RequestedPath.isDot(part.name())) {
        continue;
      }
      if (RequestedPath.isDotDot(part.name())) {
        if (stack.isEmpty()) {
          boolean own = lastLink.isPresent() && lastLink.equals(ownLink);
          return new Escapes(
              own ? ownLink.get().path() : lexicalKey,
              lastLink,
              own,
              lastLink
                  .map(
                      link ->
                          "symlink "
                              + link.path()
                              + " -> "
                              + text(link)
                              + " leads above the workspace root")
                  .orElse("'..' leads above the workspace root"));
        }
        stack.removeLast();
        continue;
      }
      List<byte[]> candidateComponents = new ArrayList<>(stack);
      candidateComponents.add(part.name());
      WorkspacePath candidate = WorkspacePath.ofComponents(candidateComponents);
      Lookup lookup = access.lstat(candidate);
      switch (lookup) {
        case Lookup.Missing missing -> {
          return remainingIsEmpty(queue)
              ? new Resolved(candidate, ownLink)
              : new Absent(withRest(candidateComponents, queue), ownLink);
        }
        case Lookup.LinkInPath link -> {
          return new Raced(lexicalKey);
        }
        case Lookup.OtherMount mount -> {
          return new Escapes(
              lexicalKey, Optional.empty(), false, candidate + " is on another mount");
        }
        case Lookup.Failed failed -> {
          return new Unresolvable(lexicalKey, Optional.empty(), candidate + ": " + failed.detail());
        }
        case Lookup.Found found -> {
          FileType type = found.stat().type();
          if (type == FileType.SYMLINK) {
            if (++hops > MAX_LINK_HOPS) {
              return new Unresolvable(
                  ownLink.map(Link::path).orElse(lexicalKey),
                  ownLink,
                  "more than " + MAX_LINK_HOPS + " symlinks (a loop?) from " + candidate);
            }
            byte[] text = access.readLink(candidate);
            if (text == null) {
              return new Unresolvable(
                  lexicalKey, Optional.empty(), "cannot read symlink " + candidate);
            }
            Link link = new Link(candidate, found.stat(), text);
            boolean own = part.given() && queue.isEmpty() && ownLink.isEmpty();
            if (own) {
              ownLink = Optional.of(link);
            }
            lastLink = Optional.of(link);
            List<byte[]> target = RequestedPath.split(text);
            if (text[0] == '/') {
              // its ".." stay in the queue: the kernel applies each after the links before it,
              // never lexically
              Optional<List<byte[]>> inside =
                  relativeToRoot(
                      target.stream()
                          .filter(component -> !RequestedPath.isDot(component))
                          .toList());
              if (inside.isEmpty()) {
                return new Escapes(
                    own ? candidate : lexicalKey,
                    Optional.of(link),
                    own,
                    "symlink " + candidate + " -> " + text(link) + " points outside the workspace");
              }
              stack.clear();
              target = inside.get();
            }
            for (int i = target.size() - 1; i >= 0; i--) {
              queue.addFirst(new Part(target.get(i), false));
            }
            continue;
          }
          if (type != FileType.DIRECTORY && !remainingIsEmpty(queue)) {
            return new Absent(withRest(candidateComponents, queue), ownLink);
          }
          stack.add(part.name());
        }
      }
    }
    return stack.isEmpty() ? new Root() : new Resolved(WorkspacePath.ofComponents(stack), ownLink);
  }

  private static String text(Link link) {
    return LinkTarget.of(link.text()).display();
  }

  private static boolean remainingIsEmpty(Deque<Part> queue) {
    return queue.stream().allMatch(part -> RequestedPath.isDot(part.name()));
  }

  private Optional<List<byte[]>> relativeToRoot(List<byte[]> absolute) {
    for (List<byte[]> root : rootNames) {
      if (RequestedPath.startsWith(absolute, root)) {
        return Optional.of(new ArrayList<>(absolute.subList(root.size(), absolute.size())));
      }
    }
    return Optional.empty();
  }

  private static WorkspacePath withRest(List<byte[]> resolved, Deque<Part> rest) {
    List<byte[]> components = new ArrayList<>(resolved);
    rest.forEach(part -> components.add(part.name()));
    List<byte[]> normalized = RequestedPath.normalizeLexically(components);
    return normalized.isEmpty()
        ? WorkspacePath.ofComponents(resolved)
        : WorkspacePath.ofComponents(normalized);
  }

  private static WorkspacePath lexicalKey(List<byte[]> input) {
    // never empty: a path that names the root lexically is refused when it is parsed
    return WorkspacePath.ofComponents(RequestedPath.normalizeLexically(input));
  }
}
