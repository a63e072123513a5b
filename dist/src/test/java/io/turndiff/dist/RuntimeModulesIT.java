package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release's Java runtime holds every module the product jar needs, but those the few classes
 * below need, which no command reaches: jdeps, run on the release's jar, names each class that
 * refers to a module the runtime lacks, and that must be exactly these (a new library, or a new use
 * of one, that needs another module fails here, naming the class and the module).
 */
class RuntimeModulesIT {

  /** Classes (and their nested classes) that need a module the release leaves out, and why. */
  private static final Map<String, String> LEFT_OUT =
      Map.of(
          "com.fasterxml.jackson.databind.ext.Java7SupportImpl",
          "java.desktop: Jackson's support of java.beans annotations, which it does without when"
              + " the module is missing",
          "org.postgresql.geometric.PGpoint",
          "java.desktop: PgJDBC's conversion of a point to java.awt.Point",
          "org.jooq.tools.reflect.Compile",
          "java.compiler: jOOQ's compiler of Java source at run time",
          "tools.jackson.databind.ext.beans.JavaBeansAnnotationsImpl",
          "java.desktop: Jackson 3's support of java.beans annotations (the MCP SDK's JSON), which"
              + " it does without when the module is missing",
          "org.eclipse.jetty.util.preventers.AWTLeakPreventer",
          "java.desktop: Jetty's leak preventer for web application containers, which the service"
              + " never installs",
          "org.eclipse.jetty.util.preventers.AppContextLeakPreventer",
          "java.desktop: Jetty's leak preventer for web application containers, which the service"
              + " never installs");

  /** {@code a.b.C -> x.y.Z module} lines of {@code jdeps -verbose:class}. */
  private static final Pattern DEPENDENCY =
      Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+(\\S+)\\s*$", Pattern.MULTILINE);

  @TempDir Path temp;

  @Test
  void onlyTheNamedClassesNeedAModuleTheRuntimeLacks() throws Exception {
    Path release = Release.unpack(temp);
    Set<String> runtime = new TreeSet<>(modules(release));
    assertTrue(runtime.containsAll(Release.modules()), runtime.toString());

    String jdeps =
        CommandRun.ofProcess(
                new ProcessBuilder(
                    Release.jdk().resolve("bin/jdeps").toString(),
                    "--ignore-missing-deps",
                    "--multi-release",
                    "25",
                    "-verbose:class",
                    release.resolve("lib/turndiff.jar").toString()))
            .expect(0)
            .out();
    Map<String, Set<String>> missing = new TreeMap<>();
    Matcher line = DEPENDENCY.matcher(jdeps);
    while (line.find()) {
      String module = line.group(3);
      if (module.startsWith("java.") || module.startsWith("jdk.")) {
        if (!runtime.contains(module)) {
          missing.computeIfAbsent(line.group(1), name -> new TreeSet<>()).add(module);
        }
      }
    }
    Set<String> outsideTheList = new TreeSet<>();
    Set<String> listedAndSeen = new TreeSet<>();
    for (String name : missing.keySet()) {
      String top = name.replaceFirst("\\$.*$", "");
      String listed =
          LEFT_OUT.keySet().stream()
              .filter(prefix -> top.equals(prefix) || top.startsWith(prefix))
              .findFirst()
              .orElse(null);
      if (listed == null) {
        outsideTheList.add(name + " needs " + missing.get(name));
      } else {
        listedAndSeen.add(listed);
      }
    }
    assertEquals(Set.of(), outsideTheList, "classes that need a module the release leaves out");
    assertEquals(LEFT_OUT.keySet(), listedAndSeen, "a class listed here no longer needs one");
  }

  /** The modules the runtime holds, as its {@code release} file names them. */
  private static List<String> modules(Path release) throws Exception {
    String line =
        Files.readAllLines(release.resolve("runtime/release")).stream()
            .filter(entry -> entry.startsWith("MODULES="))
            .findFirst()
            .orElseThrow();
    return List.of(line.substring("MODULES=".length()).replace("\"", "").split(" "));
  }
}
