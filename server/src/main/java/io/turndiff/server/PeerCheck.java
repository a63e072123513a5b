package io.turndiff.server;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.attribute.UserPrincipal;
import java.util.concurrent.atomic.AtomicLong;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.eclipse.jetty.io.Connection;

/**
 * Lets onto the Unix domain socket only processes of the service's own user: as each connection
 * opens, before the service reads a byte of it, the kernel's record of the peer ({@code
 * SO_PEERCRED}: the user the connecting process ran as when it connected) must be {@code owner}; a
 * connection of anyone else's is closed and counted. The socket's file mode (0600, in a 0700
 * directory) already keeps other users out; this holds even where the mode does not (root, or a
 * mode changed behind the service's back). Whatever cannot be checked is refused: it fails closed.
 */
final class PeerCheck implements Connection.Listener {

  private final UserPrincipal owner;
  private final AtomicLong refused = new AtomicLong();

  PeerCheck(UserPrincipal owner) {
    this.owner = owner;
  }

  @Override
  public void onOpened(Connection connection) {
    if (!ownersPeer(connection.getEndPoint().getTransport())) {
      refused.incrementAndGet();
      connection.getEndPoint().close();
    }
  }

  private boolean ownersPeer(Object transport) {
    if (!(transport instanceof SocketChannel channel)) {
      return false;
    }
    try {
      UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
      return owner.equals(peer.user());
    } catch (IOException | UnsupportedOperationException unknown) {
      return false;
    }
  }

  /** The connections closed because their peer was another user. */
  long refused() {
    return refused.get();
  }
}
