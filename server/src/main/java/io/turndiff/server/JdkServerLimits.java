package io.turndiff.server;

/**
 * The limits the JDK's HTTP server ({@code sun.net.httpserver.ServerConfig}) puts on connections.
 * It reads them from system properties once, when its first server is created in the JVM, so they
 * are set right before that; a later service in the same JVM runs with the first one's.
 *
 * <p>Without them a client that opens connections and trickles bytes holds a descriptor and a
 * thread each, forever (no deadline by default), until the process runs out of descriptors and
 * every call fails. There is no response deadline ({@code maxRspTime}): it would count the work too
 * (tracking a large tree takes minutes), and only a client that passed the token gets more than a
 * few bytes back.
 */
final class JdkServerLimits {

  /**
   * A connection that has sent a full request and waits for the next, at most this long (seconds).
   */
  private static final int IDLE_SECONDS = 30;

  /** How often the JDK looks for idle and silent connections to close (milliseconds). */
  private static final int CLOCK_TICK_MILLIS = 1000;

  private static final int MAX_HEADERS = 64;

  /**
   * What the JDK reads of a body nobody read before it answers, to keep the connection (the rest
   * closes it).
   */
  private static final int DRAIN_BYTES = 64 << 10;

  private JdkServerLimits() {}

  static void install(ServiceOptions options) {
    // from a request's first byte until its body is read: a trickled header or body is cut off, and
    // a connection that sends nothing is closed after the same time
    System.setProperty(
        "sun.net.httpserver.maxReqTime", Long.toString(options.requestDeadline().toSeconds()));
    System.setProperty("sun.net.httpserver.idleInterval", Integer.toString(IDLE_SECONDS));
    System.setProperty("sun.net.httpserver.clockTick", Integer.toString(CLOCK_TICK_MILLIS));
    System.setProperty("jdk.httpserver.maxConnections", Integer.toString(options.maxConnections()));
    System.setProperty(
        "sun.net.httpserver.maxIdleConnections",
        Integer.toString(Math.min(options.maxConnections(), 200)));
    System.setProperty("sun.net.httpserver.maxReqHeaders", Integer.toString(MAX_HEADERS));
    System.setProperty(
        "sun.net.httpserver.maxReqHeaderSize", Integer.toString(options.maxHeaderBytes()));
    System.setProperty("sun.net.httpserver.drainAmount", Integer.toString(DRAIN_BYTES));
  }
}
