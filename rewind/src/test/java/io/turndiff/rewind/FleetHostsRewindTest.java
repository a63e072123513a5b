package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.PathInput;
import io.turndiff.model.RequestException;
import io.turndiff.model.TurnState;
import io.turndiff.review.HistoryEntry;
import io.turndiff.review.SessionListing;
import io.turndiff.store.HostId;
import io.turndiff.store.Store;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import io.turndiff.store.WorkspaceListing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two machines over one store (on both dialects): host-a and host-b, each with a workspace at the
 * same path. The "same path" is one directory here, which is what makes a rewind from the wrong
 * host dangerous: it would act on a tree the turn was never recorded in.
 */
class FleetHostsRewindTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store storeA;
  private Store storeB;
  private RewindHarness a;
  private RewindHarness b;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    StoreAddress address = TestStore.freshAddressIn(temp);
    storeA = TestStore.openAs("host-a", address);
    storeB = TestStore.openAs("host-b", address);
    a = new RewindHarness(workspace, storeA, "session-a");
    b = new RewindHarness(workspace, storeB, "session-b");
  }

  @AfterEach
  void close() {
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(storeA);
    a.close();
    b.close();
    storeA.close();
    storeB.close();
  }

  private StoredTurn turn(Store store, String id) {
    return store.read(tx -> tx.turns().byExternalId(id)).orElseThrow();
  }

  @Test
  void theSameRootOnTwoHostsIsTwoWorkspacesAndEachTurnIsInItsHostsRow() throws Exception {
    workspace.file("a.txt", "one\n").file("b.txt", "bee\n");
    String turnA =
        a.turn(List.of("a.txt"), () -> Files.writeString(workspace.resolve("a.txt"), "two\n"));
    String turnB =
        b.turn(List.of("b.txt"), () -> Files.writeString(workspace.resolve("b.txt"), "BEE\n"));
    String root = workspace.root().toRealPath().toString();
    List<StoredWorkspace> rows = storeB.read(tx -> tx.workspaces().everyHostAtRealRoot(root));
    assertEquals(
        List.of(Optional.of(new HostId("host-a")), Optional.of(new HostId("host-b"))),
        rows.stream().map(StoredWorkspace::host).toList());
    assertEquals(rows.get(0).id(), turn(storeB, turnA).workspaceId());
    assertEquals(rows.get(1).id(), turn(storeA, turnB).workspaceId());
    // the panel's list: one entry for the path, over both hosts' workspaces
    List<WorkspaceListing> listed = b.queries.workspaces();
    assertEquals(List.of(root), listed.stream().map(WorkspaceListing::rootReal).toList());
    assertEquals(2, listed.getFirst().sessions());
    assertEquals(2, listed.getFirst().turns());
    assertEquals(
        List.of("session-a", "session-b"),
        b.queries.sessions(workspace.root()).stream()
            .map(listing -> listing.session().externalId())
            .toList());
  }

  @Test
  void aRewindOfHostAsTurnFromHostBIsRefusedNamingHostAAndChangesNothing() throws Exception {
    workspace.file("a.txt", "one\n");
    String turnA =
        a.turn(List.of("a.txt"), () -> Files.writeString(workspace.resolve("a.txt"), "two\n"));
    Map<String, String> before = TreeContent.of(workspace.root());
    for (RewindRequest request :
        List.of(
            new RewindRequest(turnA, false, Optional.empty(), false, false),
            new RewindRequest(turnA, true, Optional.empty(), false, true),
            new RewindRequest(turnA, false, Optional.empty(), true, false))) {
      RequestException refused =
          assertThrows(RequestException.class, () -> b.rewind.rewind(request));
      assertEquals(RequestException.Problem.WORKSPACE, refused.problem(), refused.getMessage());
      assertTrue(
          refused.getMessage().contains("held by host host-a")
              && refused.getMessage().contains("(host-b)"),
          refused.getMessage());
    }
    assertEquals(before, TreeContent.of(workspace.root()), "nothing on disk changed");
    assertEquals(TurnState.FINISHED, turn(storeA, turnA).state());
    assertEquals(
        1,
        storeA.read(tx -> tx.turns().ofSession(turn(storeA, turnA).sessionId())).size(),
        "no rewind turn");
    // host-a itself rewinds it
    assertTrue(a.rewindTurn(turnA).complete());
    assertEquals("one\n", workspace.readText("a.txt"));
  }

  @Test
  void hostBCannotRecordInHostAsTurnButQueriesFromHostBReadHostAsTurns() throws Exception {
    workspace.file("a.txt", "one\n");
    String finished =
        a.turn(List.of("a.txt"), () -> Files.writeString(workspace.resolve("a.txt"), "two\n"));
    String open =
        a.capture.beginTurn(workspace.root(), Optional.of("session-a"), Optional.empty()).turn();
    RequestException snapshot =
        assertThrows(
            RequestException.class,
            () -> b.capture.snapshot(open, Optional.of("tool-1"), List.of("a.txt")));
    assertTrue(snapshot.getMessage().contains("held by host host-a"), snapshot.getMessage());
    RequestException joining =
        assertThrows(
            RequestException.class,
            () ->
                b.capture.beginTurn(workspace.root(), Optional.of("session-a"), Optional.empty()));
    assertEquals(RequestException.Problem.WORKSPACE, joining.problem(), joining.getMessage());
    assertTrue(joining.getMessage().contains("host host-a"), joining.getMessage());

    assertEquals(
        List.of(finished, open),
        b.queries.turns("session-a", 0, 10).turns().stream()
            .map(listed -> listed.listing().turn().externalId())
            .toList());
    assertEquals(
        List.of("session-a"),
        b.queries.sessions(workspace.root()).stream()
            .map(SessionListing::session)
            .map(session -> session.externalId())
            .toList());
    List<HistoryEntry> log = b.queries.log(workspace.root(), PathInput.text("a.txt"));
    assertEquals(List.of(finished), log.stream().map(e -> e.turn().externalId()).toList());
    assertTrue(b.queries.patch(finished, List.of()).contains("+two"));
  }
}
