package io.turndiff.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

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
  void aServiceIsGivenItsNativeHeapTrimWhichNoRunningJvmTakes() {
    List<String> options = InheritedStartUp.forTheService();
    assertEquals("-XX:TrimNativeHeapInterval=15000", options.getLast());
    assertEquals(InheritedStartUp.ofThisJvm(), options.subList(0, options.size() - 1));
  }
}
