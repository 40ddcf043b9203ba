package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An open that fails leaves nothing running; a creation that crashed half-way can be finished. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class OpenFailureTest {
  @TempDir Path dir;

  private static Set<String> storeThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
        .filter(n -> n.startsWith("ralt-") || n.startsWith("hotrap-")).collect(Collectors.toSet());
  }

  @Test
  void anOpenThatFailsInStartLeavesNoThreadAndTheStoreOpensAgain() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(key(1), value(1, 1, 100));
    }
    Set<String> before = storeThreads();
    SimpleMeterRegistry broken = new SimpleMeterRegistry();
    broken.config().meterFilter(new MeterFilter() {
      @Override
      public Meter.Id map(Meter.Id id) {
        if (id.getName().startsWith("hotrap.ralt")) {
          throw new IllegalStateException("meter rejected: " + id.getName());
        }
        return id;
      }
    });
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> HotRapDB.open(small(dir).meterRegistry(broken).build()));
    assertTrue(e.getMessage().startsWith("meter rejected"), e.getMessage());
    Set<String> left = storeThreads();
    left.removeAll(before);
    assertEquals(Set.of(), left, "threads left behind by the failed open");
    assertTrue(broken.getMeters().isEmpty(), "meters left registered: " + broken.getMeters());

    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      assertEquals(1, versionOf(db.get(key(1))));
      assertTrue(db.stats().raltAvailable(), "RALT reopened: " + db.stats());
    }
  }

  @Test
  void aCreationInterruptedBetweenTheMarkersIsFinishedByTheNextOpen() throws Exception {
    HotRapOptions o = small(dir).build();
    new StoreLayout(o.fastPath(), o.slowPath()).createOrVerify();
    // What a crash after the slow marker and before the fast one leaves.
    Files.delete(o.fastPath().resolve(StoreLayout.MARKER));
    try (HotRapDB db = HotRapDB.open(o)) {
      db.put(key(1), value(1, 1, 100));
    }
    try (HotRapDB db = HotRapDB.open(o)) {
      assertEquals(1, versionOf(db.get(key(1))));
    }
  }

  @Test
  void aSlowTierWithDataIsNeverAdoptedByANewFastDirectory() throws Exception {
    HotRapOptions o = small(dir).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      for (int i = 0; i < 20_000; i++) {
        db.put(key(i), value(i, 1, 1000));
      }
      db.awaitBackgroundWork();
      assertTrue(db.stats().slowSstBytes() > 0, db.stats().toString());
    }
    // The fast disk is lost: its directory is empty again.
    try (var files = Files.walk(o.fastPath())) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(o));
    assertTrue(e.getMessage().contains("belongs to the store"), e.getMessage());
  }
}
