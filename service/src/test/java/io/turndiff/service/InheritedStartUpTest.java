package io.turndiff.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InheritedStartUpTest {

  @Test
  void aServiceTakesOverTheCacheAndTheNativeLibrariesButNotTheShortCommandsCompilersOrCollector() {
    List<String> command =
        List.of(
            "--enable-native-access=ALL-UNNAMED",
            "-XX:AOTCache=/opt/turndiff/lib/turndiff.aot",
            "-Xlog:aot=off",
            "-Xlog:cds=off",
            "-Dturndiff.sqlite.library=/opt/turndiff/lib/native",
            "-DZstdNativePath=/opt/turndiff/lib/native/libzstd-jni.so",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xmx48m",
            "-Djava.io.tmpdir=/tmp/x");

    assertEquals(
        List.of(
            "-XX:AOTCache=/opt/turndiff/lib/turndiff.aot",
            "-Xlog:aot=off",
            "-Xlog:cds=off",
            "-Dturndiff.sqlite.library=/opt/turndiff/lib/native",
            "-DZstdNativePath=/opt/turndiff/lib/native/libzstd-jni.so"),
        InheritedStartUp.of(command));
  }

  @Test
  void aServiceStartsFromItsOwnCacheWhenTheLauncherHasTrainedOneForThisJar(@TempDir Path lib)
      throws Exception {
    Path jar = Files.createFile(lib.resolve("turndiff.jar"));
    Path commands = Files.createFile(lib.resolve("turndiff.aot"));
    List<String> command = List.of("-XX:AOTCache=" + commands, "-XX:TieredStopAtLevel=1");
    assertEquals(List.of("-XX:AOTCache=" + commands), InheritedStartUp.of(command));

    Path service = Files.createFile(lib.resolve("turndiff-service.aot"));
    Files.setLastModifiedTime(jar, FileTime.fromMillis(2_000_000));
    Files.setLastModifiedTime(service, FileTime.fromMillis(1_000_000));
    // older than the jar: trained on an earlier one, which the JVM would refuse
    assertEquals(List.of("-XX:AOTCache=" + commands), InheritedStartUp.of(command));
    // trained on this jar, before the commands' cache (the first serve came before any command)
    Files.setLastModifiedTime(service, FileTime.fromMillis(2_000_000));
    Files.setLastModifiedTime(commands, FileTime.fromMillis(3_000_000));
    assertEquals(List.of("-XX:AOTCache=" + service), InheritedStartUp.of(command));
    // a cache of another name is not the launcher's: taken as it is
    Path other = Files.createFile(lib.resolve("other.jsa"));
    assertEquals(
        List.of("-XX:AOTCache=" + other), InheritedStartUp.of(List.of("-XX:AOTCache=" + other)));
  }

  @Test
  void aServiceTakesOverAClassDataArchiveAndNeverTrainsACache() {
    List<String> archived =
        List.of(
            "-XX:+AutoCreateSharedArchive",
            "-XX:SharedArchiveFile=/w/cli/target/turndiff.jsa",
            "-Xlog:cds+dynamic=off");
    assertEquals(archived, InheritedStartUp.of(archived));

    // the training's output: a service that wrote a cache at its end would race the launcher's
    assertEquals(
        List.of(),
        InheritedStartUp.of(
            List.of("-XX:AOTCacheOutput=/w/training/turndiff.aot", "-XX:AOTConfiguration=/w/c")));
  }

  @Test
  void aServiceIsGivenItsNativeHeapTrimAndItsHeapSizingWhichNoRunningJvmTakes() {
    // an option whose value only looks like a heap size sizes nothing
    List<String> options = InheritedStartUp.forTheService(Map.of("JDK_JAVA_OPTIONS", "-Dx=-Xmsx"));
    List<String> own =
        List.of("-XX:TrimNativeHeapInterval=15000", "-XX:InitialHeapSize=64m", "-XX:GCTimeRatio=4");
    assertEquals(own, options.subList(options.size() - own.size(), options.size()));
    assertEquals(InheritedStartUp.ofThisJvm(), options.subList(0, options.size() - own.size()));
  }

  /**
   * A heap size the user gives every JVM through the environment stands: beside a maximum below 64
   * MB or a minimum above it the JVM would refuse the service's initial heap, and not start.
   */
  @Test
  void aHeapSizeTheUserGivesEveryJvmStandsWithoutTheServicesInitialHeap() {
    for (Map<String, String> environment :
        List.of(
            Map.of("JAVA_TOOL_OPTIONS", "-Xmx32m"),
            Map.of("JDK_JAVA_OPTIONS", "-Dsome=thing -Xms512m"),
            Map.of("_JAVA_OPTIONS", "-XX:MaxHeapSize=48m"))) {
      List<String> options = InheritedStartUp.forTheService(environment);
      assertFalse(
          options.stream().anyMatch(option -> option.startsWith("-XX:InitialHeapSize=")),
          environment + ": " + options);
      assertEquals(
          List.of("-XX:TrimNativeHeapInterval=15000", "-XX:GCTimeRatio=4"),
          options.subList(options.size() - 2, options.size()),
          environment.toString());
    }
  }
}
