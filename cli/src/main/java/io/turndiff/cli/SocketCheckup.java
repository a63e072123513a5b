package io.turndiff.cli;

import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.server.ServiceOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * {@code turndiff doctor}'s look at the service's Unix domain socket (docs/service.md), the way the
 * hook script reaches the service: its path short enough to be a socket's name, the file there
 * while the service runs, a socket, the user's, mode 0600, in the run directory (whose own mode and
 * owner {@link ServiceCheckup} checks first: a refused one skips this), and answering a health
 * request. Each failure says which way the hook calls go meanwhile and what to do.
 */
final class SocketCheckup {

  private static final String NAME = "socket";
  private static final String RESTART = "turndiff service stop && turndiff service start";

  private SocketCheckup() {}

  static Check of(ServiceSeen seen) throws IOException {
    Path socket = seen.files().socket();
    if (!ServiceOptions.socketPathFits(socket)) {
      return tooLong(socket);
    }
    if (seen.refused().isPresent()) {
      return Check.skip(NAME, "the run directory is refused (see service): nothing in it is used");
    }
    if (seen.status().isEmpty()) {
      return Check.skip(NAME, "the service is not running: no socket to check");
    }
    Optional<PosixFileAttributes> found = OwnFile.of(socket).attributes();
    if (found.isEmpty()) {
      return Check.warn(
          NAME,
          "the service runs but its socket "
              + socket
              + " is missing: the hook script falls back to TCP (it proves the service on its"
              + " port and sends the token)",
          "restart the service to make the socket again: " + RESTART);
    }
    Optional<String> wrong = wrongFile(socket, found.get());
    if (wrong.isPresent()) {
      return Check.fail(NAME, wrong.get(), "remove it, then restart the service: " + RESTART);
    }
    Optional<String> silent = SocketHealthRequest.ask(socket);
    if (silent.isPresent()) {
      return Check.fail(
          NAME,
          socket
              + " did not answer a health request: "
              + silent.get()
              + "; the hook script sends its calls there, and they are not delivered",
          "restart the service: " + RESTART);
    }
    return Check.ok(
        NAME,
        socket
            + " is rw-------, yours, in the run directory "
            + seen.files().runDirectory()
            + " (rwx------, yours), and answered a health request"
            + listening(seen.status().get(), socket));
  }

  /**
   * The kernel keeps at most 107 bytes of a socket's name; the service then listens on its port
   * only, and says so in its log, where nobody looks: here it is said.
   */
  private static Check tooLong(Path socket) {
    return Check.warn(
        NAME,
        "its path "
            + socket
            + " is "
            + socket.toString().getBytes(StandardCharsets.UTF_8).length
            + " bytes, longer than the 107 a socket's name may hold: the service serves its TCP"
            + " port only, and the hook script proves it there and sends the token",
        "set XDG_RUNTIME_DIR to a short directory of yours (or keep the store on a shorter"
            + " path), then restart the service: "
            + RESTART);
  }

  /**
   * What makes the file at the socket's name not the service's socket as it made it: not a socket,
   * not the user's, or opened beyond 0600. The peer's uid is still checked on every connection, but
   * a mode changed behind the service's back is a sign that someone meddled with the run directory.
   */
  private static Optional<String> wrongFile(Path socket, PosixFileAttributes attributes)
      throws IOException {
    if (!attributes.isOther() || attributes.isSymbolicLink()) {
      return Optional.of(
          socket
              + " is "
              + (attributes.isSymbolicLink() ? "a symbolic link" : "not a socket")
              + ": the hook script falls back to TCP");
    }
    if (!OwnFile.of(socket).ownedByThisUser()) {
      return Optional.of(
          socket
              + " is owned by "
              + attributes.owner().getName()
              + ", not you: the hook script does not use it and falls back to TCP");
    }
    if (!attributes.permissions().equals(AtomicFile.OWNER_ONLY)) {
      return Optional.of(
          socket
              + " is mode "
              + PosixFilePermissions.toString(attributes.permissions())
              + ", not rw-------: the service made it so, something opened it since (other users'"
              + " connections are still refused by their uid)");
    }
    return Optional.empty();
  }

  /** A note when the service's status names no socket, or another one, than the file checked. */
  private static String listening(WireServiceStatus status, Path socket) {
    String named = status.connections() == null ? null : status.connections().socket();
    return named == null || named.equals(socket.toString())
        ? ""
        : " (the service's status names " + named + ")";
  }
}
