package io.turndiff.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * The server's input, telling when it ended: the SDK's stdio transport reads it on a thread of its
 * own and says nothing when the client closes it, and the end of the input is the end of an MCP
 * stdio session (the runtime closes it when it quits), so the server waits for this.
 */
final class EndOfInput extends FilterInputStream {

  private final CountDownLatch ended = new CountDownLatch(1);

  EndOfInput(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    try {
      return ended(super.read());
    } catch (IOException failure) {
      ended.countDown();
      throw failure;
    }
  }

  @Override
  public int read(byte[] bytes, int offset, int length) throws IOException {
    try {
      return ended(super.read(bytes, offset, length));
    } catch (IOException failure) {
      ended.countDown();
      throw failure;
    }
  }

  @Override
  public void close() throws IOException {
    ended.countDown();
    super.close();
  }

  void awaitEnd() throws InterruptedException {
    ended.await();
  }

  private int ended(int read) {
    if (read < 0) {
      ended.countDown();
    }
    return read;
  }
}
