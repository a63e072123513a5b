package io.turndiff.server;

import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * The JVM's own options ({@code -XX:}), read and, for the manageable ones, set while it runs,
 * through HotSpot's diagnostic MXBean. That bean lives in the {@code jdk.management} module, which
 * a release's runtime is linked without (dist/pom.xml, {@code release.modules}), so it is looked up
 * by name and this class loads on any runtime: there, and on a JVM that is not HotSpot, there are
 * no options to ask ({@link #ofThisJvm} is empty).
 */
final class HotSpotOptions {

  private static final String DIAGNOSTICS = "com.sun.management.HotSpotDiagnosticMXBean";

  private final Object bean;
  private final Method getOption;
  private final Method setOption;

  private HotSpotOptions(Object bean, Method getOption, Method setOption) {
    this.bean = bean;
    this.getOption = getOption;
    this.setOption = setOption;
  }

  /** This JVM's options, when it has HotSpot's diagnostic MXBean. */
  static Optional<HotSpotOptions> ofThisJvm() {
    try {
      Class<? extends PlatformManagedObject> diagnostics =
          Class.forName(DIAGNOSTICS, false, ClassLoader.getPlatformClassLoader())
              .asSubclass(PlatformManagedObject.class);
      return Optional.of(
          new HotSpotOptions(
              ManagementFactory.getPlatformMXBean(diagnostics),
              diagnostics.getMethod("getVMOption", String.class),
              diagnostics.getMethod("setVMOption", String.class, String.class)));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError noDiagnostics) {
      return Optional.empty();
    }
  }

  /** The value of the option {@code name}, as the JVM prints it. */
  String value(String name) {
    return String.valueOf(property(option(name), "getValue"));
  }

  /**
   * Whether the option {@code name} has its default value: nothing at the JVM's start set it (its
   * command line, {@code JAVA_TOOL_OPTIONS}, a flags file), nor anything since.
   */
  boolean isDefault(String name) {
    return String.valueOf(property(option(name), "getOrigin")).equals("DEFAULT");
  }

  /**
   * Sets the manageable option {@code name}.
   *
   * @throws IllegalArgumentException what the JVM says when it refuses the value, or when the
   *     option is not manageable
   */
  void set(String name, String value) {
    try {
      setOption.invoke(bean, name, value);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(String.valueOf(e.getCause().getMessage()), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(e.toString(), e);
    }
  }

  private Object option(String name) {
    try {
      return getOption.invoke(bean, name);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(String.valueOf(e.getCause().getMessage()), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(e.toString(), e);
    }
  }

  private static Object property(Object option, String getter) {
    try {
      return option.getClass().getMethod(getter).invoke(option);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(e.toString(), e);
    }
  }
}
