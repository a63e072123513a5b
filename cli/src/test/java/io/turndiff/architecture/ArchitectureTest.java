package io.turndiff.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.List;
import java.util.Set;

/**
 * The module map as rules over the product's classes (every module the product jar holds; the bench
 * jar and the test fixtures are not product code). Maven keeps the modules' dependencies one way;
 * these rules keep the packages inside them so, and keep each library and each file-system effect
 * where its module's promise says.
 */
@AnalyzeClasses(
    packages = "io.turndiff",
    importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureTest.ProductCode.class})
class ArchitectureTest {

  /**
   * Leaves out jOOQ's generated classes (they reference each other by design) and the test
   * fixtures.
   */
  static final class ProductCode implements ImportOption {
    @Override
    public boolean includes(Location location) {
      return !location.contains("/io/turndiff/store/jooq/")
          && !location.contains("/io/turndiff/fixtures/");
    }
  }

  @ArchTest
  static void everyProductModuleIsAnalysed(JavaClasses classes) {
    for (String name :
        List.of(
            "io.turndiff.model.Snapshot",
            "io.turndiff.boundary.WorkspaceBoundary",
            "io.turndiff.diff.GitPatchWriter",
            "io.turndiff.store.Store",
            "io.turndiff.capture.CaptureService",
            "io.turndiff.capture.workspace.WorkspaceHandles",
            "io.turndiff.capture.record.ChangeRecorder",
            "io.turndiff.capture.track.Tracker",
            "io.turndiff.review.ReviewQueries",
            "io.turndiff.rewind.RewindService",
            "io.turndiff.export.TurnExport",
            "io.turndiff.api.Turndiff",
            "io.turndiff.hooks.RuntimeHooks",
            "io.turndiff.hooks.install.HookRuntime",
            "io.turndiff.service.ServiceFiles",
            "io.turndiff.server.HttpService",
            "io.turndiff.mcp.TurndiffMcpServer",
            "io.turndiff.cli.Main")) {
      assertTrue(classes.contain(name), name + " is analysed");
    }
    assertTrue(
        classes.stream()
            .noneMatch(
                javaClass ->
                    javaClass.getPackageName().startsWith("io.turndiff.store.jooq")
                        || javaClass.getPackageName().startsWith("io.turndiff.fixtures")),
        "generated code and fixtures are not");
  }

  @ArchTest
  static final ArchRule noCyclesBetweenPackages =
      slices().matching("io.turndiff.(**)").should().beFreeOfCycles();

  /**
   * Two packages touch files: {@code io.turndiff.boundary}, every workspace's, and {@code
   * io.turndiff.ownfiles}, turndiff's own (its {@code package-info} says which files those are and
   * why each is not a workspace's). Every other class reaches a file through one of them.
   */
  @ArchTest
  static final ArchRule onlyTheBoundaryTouchesFiles =
      noClasses()
          .that()
          .resideOutsideOfPackages("io.turndiff.boundary..", "io.turndiff.ownfiles..")
          .should()
          .dependOnClassesThat()
          .belongToAnyOf(
              Files.class,
              FileChannel.class,
              SecureDirectoryStream.class,
              RandomAccessFile.class,
              FileInputStream.class,
              FileOutputStream.class)
          .orShould()
          .dependOnClassesThat()
          .resideInAPackage("java.lang.foreign..")
          .orShould()
          .callMethod(Path.class, "toRealPath", LinkOption[].class)
          .because(
              "every file-system effect goes through io.turndiff.boundary (a workspace's) or io.turndiff.ownfiles (turndiff's own)");

  /**
   * The steps of writing a file whole under a temporary name and putting it in place: making the
   * temporary file, syncing it, renaming or linking it to its name.
   */
  private static final DescribedPredicate<JavaMethodCall> STEPS_OF_A_WHOLE_WRITE =
      DescribedPredicate.describe(
          "Files.createTempFile, Files.move, Files.createLink or FileChannel.force",
          call ->
              (call.getTargetOwner().isEquivalentTo(Files.class)
                      && Set.of("createTempFile", "move", "createLink").contains(call.getName()))
                  || (call.getTargetOwner().isAssignableTo(FileChannel.class)
                      && call.getName().equals("force")));

  /**
   * Turndiff's own files (the store's, the service's, the hooks', this machine's id) are written
   * one way, {@code io.turndiff.ownfiles.AtomicFile}, and a workspace's through the boundary's
   * write protocol: no other class makes its own temporary file, sync or rename, so none can skip a
   * step of it.
   */
  @ArchTest
  static final ArchRule ownFilesAreWrittenOneWay =
      noClasses()
          .that()
          .resideOutsideOfPackages("io.turndiff.boundary..", "io.turndiff.ownfiles..")
          .should()
          .callMethodWhere(STEPS_OF_A_WHOLE_WRITE)
          .because(
              "a file of turndiff's own is written whole by io.turndiff.ownfiles.AtomicFile, a workspace's through the boundary");

  @ArchTest
  static final ArchRule rewindUsesOnlyWhatCaptureOffersIt =
      noClasses()
          .that()
          .resideInAnyPackage("io.turndiff.rewind..", "io.turndiff.export..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.turndiff.capture", "io.turndiff.capture.track..")
          .because(
              "a rewind (and an export) reaches workspaces through capture.workspace and records through capture.record only");

  @ArchTest
  static final ArchRule captureSubPackagesNeverTurnBackToCapture =
      noClasses()
          .that()
          .resideInAnyPackage(
              "io.turndiff.capture.track..",
              "io.turndiff.capture.workspace..",
              "io.turndiff.capture.record..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.turndiff.capture")
          .because("the capture service is built on them, not they on it");

  @ArchTest
  static final ArchRule modulesDependOneWay =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("model")
          .definedBy("io.turndiff.model..")
          .layer("boundary")
          .definedBy("io.turndiff.boundary..")
          .layer("diff")
          .definedBy("io.turndiff.diff..")
          .layer("ownfiles")
          .definedBy("io.turndiff.ownfiles..")
          .layer("store")
          .definedBy("io.turndiff.store..")
          .layer("capture")
          .definedBy("io.turndiff.capture..")
          .layer("review")
          .definedBy("io.turndiff.review..")
          .layer("rewind")
          .definedBy("io.turndiff.rewind..")
          .layer("export")
          .definedBy("io.turndiff.export..")
          .layer("api")
          .definedBy("io.turndiff.api..")
          .layer("service")
          .definedBy("io.turndiff.service..")
          .layer("hooks")
          .definedBy("io.turndiff.hooks..")
          .layer("server")
          .definedBy("io.turndiff.server..")
          .layer("mcp")
          .definedBy("io.turndiff.mcp..")
          .layer("cli")
          .definedBy("io.turndiff.cli..")
          .whereLayer("cli")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("server")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("mcp")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("hooks")
          .mayOnlyBeAccessedByLayers("server", "cli")
          .whereLayer("service")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("api")
          .mayOnlyBeAccessedByLayers("service", "hooks", "server", "mcp", "cli")
          .whereLayer("rewind")
          .mayOnlyBeAccessedByLayers("api", "hooks", "server", "mcp", "cli")
          .whereLayer("export")
          .mayOnlyBeAccessedByLayers("api", "hooks", "server", "cli")
          .whereLayer("review")
          .mayOnlyBeAccessedByLayers("export", "api", "hooks", "server", "mcp", "cli")
          .whereLayer("capture")
          .mayOnlyBeAccessedByLayers("rewind", "export", "api", "hooks", "server", "cli")
          .whereLayer("store")
          .mayOnlyBeAccessedByLayers(
              "capture", "review", "rewind", "export", "api", "hooks", "server", "mcp", "cli")
          .whereLayer("ownfiles")
          .mayOnlyBeAccessedByLayers(
              "store", "capture", "review", "rewind", "export", "api", "service", "hooks", "server",
              "cli")
          .whereLayer("diff")
          .mayOnlyBeAccessedByLayers(
              "capture", "review", "rewind", "export", "api", "hooks", "server", "cli")
          .whereLayer("boundary")
          .mayOnlyBeAccessedByLayers("capture", "rewind", "export", "api", "hooks", "server", "cli")
          .whereLayer("model")
          .mayOnlyBeAccessedByLayers(
              "boundary",
              "diff",
              "store",
              "capture",
              "review",
              "rewind",
              "export",
              "api",
              "service",
              "hooks",
              "server",
              "mcp",
              "cli");

  @ArchTest
  static final ArchRule sqlOnlyInTheStore =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.turndiff.store..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.jooq..", "org.flywaydb..", "java.sql..", "org.sqlite..", "org.postgresql..")
          .because("all SQL lives in the store classes");

  @ArchTest
  static final ArchRule jacksonOnlyAtTheEdges =
      noClasses()
          .that()
          .resideOutsideOfPackages(
              "io.turndiff.api..", "io.turndiff.hooks..", "io.turndiff.server..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.fasterxml.jackson..")
          .because(
              "JSON is written and read in io.turndiff.api, the HTTP service and the hooks (a runtime's payloads, its JSON or TOML settings)");

  @ArchTest
  static final ArchRule picocliOnlyInTheCommandLine =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.turndiff.cli..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("picocli..");

  @ArchTest
  static final ArchRule theMcpSdkOnlyInTheMcpServer =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.turndiff.mcp..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.modelcontextprotocol..", "tools.jackson..", "reactor..")
          .because(
              "the MCP SDK (and the Jackson 3 and Reactor it brings) is the MCP server's alone");

  @ArchTest
  static final ArchRule jettyOnlyAtTheServicesEdge =
      noClasses()
          .that()
          .doNotHaveFullyQualifiedName("io.turndiff.server.Exchange")
          .and()
          .doNotHaveFullyQualifiedName("io.turndiff.server.Edge")
          .and()
          .doNotHaveFullyQualifiedName("io.turndiff.server.JsonErrorHandler")
          .and()
          .doNotHaveFullyQualifiedName("io.turndiff.server.ConnectionGuard")
          .and()
          .doNotHaveFullyQualifiedName("io.turndiff.server.PeerCheck")
          .and()
          .doNotHaveFullyQualifiedName("io.turndiff.server.Edge$1")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.eclipse.jetty..")
          .because(
              "the server underneath is a plug: the gates and endpoints see a request only through"
                  + " Exchange; Edge builds the server, its guards watch connections");

  @ArchTest
  static final ArchRule onlyExchangeKnowsJettysRequestAndResponse =
      noClasses()
          .that()
          .doNotHaveFullyQualifiedName("io.turndiff.server.Exchange")
          .and()
          .doNotHaveFullyQualifiedName("io.turndiff.server.Edge$1")
          .and()
          .doNotHaveFullyQualifiedName("io.turndiff.server.JsonErrorHandler")
          .should()
          .dependOnClassesThat()
          .haveFullyQualifiedName("org.eclipse.jetty.server.Response")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("org.eclipse.jetty.server.Request")
          .because("the endpoints are written over Exchange, the one place that knows them");

  @ArchTest
  static final ArchRule nothingDependsOnJmh =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.openjdk.jmh..")
          .because("the benchmarks live in the bench jar");

  @ArchTest
  static final ArchRule theModelIsValuesOnly =
      classes()
          .that()
          .resideInAPackage("io.turndiff.model..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("io.turndiff.model..", "java..")
          .because("the model depends on no other turndiff package and no library");
}
