package io.turndiff.server;

import javax.management.MBeanServerFactory;
import org.eclipse.jetty.util.MemoryUtils;

/**
 * Run in a JVM of its own by {@link JettyCacheLineTest}: {@code edge} opens, starts and stops the
 * service's {@link Edge} on a free loopback port, {@code jetty} only asks Jetty for its number;
 * either prints Jetty's references per cache line and how many MBean servers the JVM then has.
 */
public final class JettyCacheLineProbe {

  private JettyCacheLineProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("edge")) {
      Edge edge = Edge.open(ServiceOptions.builder("0123456789abcdef0123").port(0).build());
      edge.start(exchange -> {});
      edge.stop();
    }
    System.out.println(
        MemoryUtils.getReferencesPerCacheLine()
            + " "
            + MBeanServerFactory.findMBeanServer(null).size());
  }
}
