package io.turndiff.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One kept-open HTTP/1.1 connection to the service's Unix domain socket, as a hook client holds it:
 * the JDK's HTTP client cannot speak over a socket file, so the bench writes the request and reads
 * the answer (its head, then {@code Content-Length} bytes) itself.
 */
final class SocketHttpClient implements AutoCloseable {

  private final SocketChannel channel;
  private final OutputStream out;
  private final InputStream in;

  SocketHttpClient(Path socket) throws IOException {
    channel = SocketChannel.open(StandardProtocolFamily.UNIX);
    channel.connect(UnixDomainSocketAddress.of(socket));
    out = Channels.newOutputStream(channel);
    // the head is read a byte at a time: from a buffer, not a system call each
    in = new BufferedInputStream(Channels.newInputStream(channel));
  }

  /** Sends the request and returns the answer's status, its body read and dropped. */
  int send(String method, String target, String body) throws IOException {
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    String head =
        method
            + " "
            + target
            + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + bytes.length
            + "\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
    String answer = readHead();
    int length = 0;
    for (String line : answer.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).strip());
      }
    }
    in.readNBytes(length);
    return Integer.parseInt(answer.substring(9, 12));
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the service closed the socket mid-answer");
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
