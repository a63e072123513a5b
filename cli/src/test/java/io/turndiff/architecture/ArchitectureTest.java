package io.turndiff.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
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

  /**
   * The only classes outside the boundary that touch files themselves, none of them a workspace's:
   * the store's own file (its creation and checks, its header, the migration lock, the record of
   * its last clean check), the copy of sqlite-jdbc's native library beside the jar, and a
   * PostgreSQL store's password file, this machine's host id ({@code /etc/machine-id} or the kept
   * {@code host-id}), the service's token file and the per-user daemon's run directory, discovery
   * file, locks, launcher and {@code /proc} reads, the hook calls the hook script kept in its spool
   * there while no service ran (read, then removed), the log of a service {@code turndiff open}
   * started, the demo acting as the agent on its demo workspace, the UTF-8 standard streams, and
   * the user's own runtime settings files {@code turndiff hooks} edits (a workspace's go through
   * the boundary), turndiff's own installed program and folders, which {@code turndiff uninstall}
   * removes, the real path of the jar it runs, and the patch series {@code turndiff export --patch}
   * writes where the user names.
   *
   * <p>This set is the one list of them: the README, {@code docs/architecture.md} and the packages'
   * {@code package-info} point here instead of repeating it, so a class added here says in this
   * comment what it touches and why. None of them writes a file whole by itself: each goes through
   * {@code io.turndiff.ownfiles} ({@link #ownFilesAreWrittenOneWay}).
   */
  static final Set<String> OWN_FILES =
      Set.of(
          "io.turndiff.store.StoreFile",
          "io.turndiff.store.StoreHeader",
          "io.turndiff.store.MigrationLock",
          "io.turndiff.store.PasswordFile",
          "io.turndiff.store.HostId",
          "io.turndiff.store.CleanCheck",
          "io.turndiff.store.SqliteLibraryCopy",
          "io.turndiff.service.TokenFile",
          "io.turndiff.cli.DetachedServe",
          "io.turndiff.cli.DemoWorkspace",
          "io.turndiff.cli.StandardStreams",
          "io.turndiff.service.ServiceFiles",
          "io.turndiff.service.Discovery",
          "io.turndiff.service.ServiceLock",
          "io.turndiff.service.HookSpool",
          "io.turndiff.service.ProcessStart",
          "io.turndiff.service.DaemonLauncher",
          "io.turndiff.hooks.install.ConfigFiles",
          "io.turndiff.cli.Installation",
          "io.turndiff.service.Program",
          "io.turndiff.cli.PatchSeriesFiles");

  private static final DescribedPredicate<JavaClass> OWN_FILE_CLASSES =
      DescribedPredicate.describe(
          "one of " + OWN_FILES,
          javaClass ->
              OWN_FILES.stream()
                  .anyMatch(
                      name ->
                          javaClass.getName().equals(name)
                              || javaClass.getName().startsWith(name + "$")));

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

  @ArchTest
  static final ArchRule onlyTheBoundaryTouchesFiles =
      noClasses()
          .that()
          .resideOutsideOfPackages("io.turndiff.boundary..", "io.turndiff.ownfiles..")
          .and(DescribedPredicate.not(OWN_FILE_CLASSES))
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
          .because("every file-system effect on a workspace goes through io.turndiff.boundary");

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
          .layer("cli")
          .definedBy("io.turndiff.cli..")
          .whereLayer("cli")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("server")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("hooks")
          .mayOnlyBeAccessedByLayers("server", "cli")
          .whereLayer("service")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("api")
          .mayOnlyBeAccessedByLayers("service", "hooks", "server", "cli")
          .whereLayer("rewind")
          .mayOnlyBeAccessedByLayers("api", "hooks", "server", "cli")
          .whereLayer("export")
          .mayOnlyBeAccessedByLayers("api", "hooks", "server", "cli")
          .whereLayer("review")
          .mayOnlyBeAccessedByLayers("export", "api", "hooks", "server", "cli")
          .whereLayer("capture")
          .mayOnlyBeAccessedByLayers("rewind", "export", "api", "hooks", "server", "cli")
          .whereLayer("store")
          .mayOnlyBeAccessedByLayers(
              "capture", "review", "rewind", "export", "api", "hooks", "server", "cli")
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
