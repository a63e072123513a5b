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
    return diagnosticsType().flatMap(HotSpotOptions::of);
  }

  private static Optional<HotSpotOptions> of(Class<? extends PlatformManagedObject> diagnostics) {
    try {
      // null when the JVM has the type but not the bean
      Object bean = ManagementFactory.getPlatformMXBean(diagnostics);
      return bean == null
          ? Optional.empty()
          : Optional.of(
              new HotSpotOptions(
                  bean,
                  diagnostics.getMethod("getVMOption", String.class),
                  diagnostics.getMethod("setVMOption", String.class, String.class)));
    } catch (NoSuchMethodException | RuntimeException | LinkageError notHotSpot) {
      return Optional.empty();
    }
  }

  /**
   * Whether this runtime has the {@code jdk.management} module, where the diagnostic bean's type
   * lives. Without it (a release's runtime) there is no option to ask; with it, a JVM that is not
   * HotSpot may still have none ({@link #ofThisJvm} is empty on both).
   */
  static boolean runtimeHasDiagnostics() {
    return diagnosticsType().isPresent();
  }

  private static Optional<Class<? extends PlatformManagedObject>> diagnosticsType() {
    try {
      return Optional.of(
          Class.forName(DIAGNOSTICS, false, ClassLoader.getPlatformClassLoader())
              .asSubclass(PlatformManagedObject.class));
    } catch (ClassNotFoundException | ClassCastException | LinkageError noJdkManagement) {
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
    invoke(setOption, name, value);
  }

  private Object option(String name) {
    return invoke(getOption, name);
  }

  /** Calls the bean's {@code method}; what the JVM throws in it is an illegal argument here. */
  private Object invoke(Method method, Object... arguments) {
    try {
      return method.invoke(bean, arguments);
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
