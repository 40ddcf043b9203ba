package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The memory tier ({@link MemoryTier}): paths, moves, recovery after a reopen and a wipe, bad input. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MemoryTierTest {
  static final long MEMORY = 1L << 20;

  @TempDir Path dir;

  private Path memory() throws Exception {
    return Files.createDirectories(dir.resolve("memory"));
  }

  private HotRapOptions options() throws Exception {
    return TestStores.small(dir).memoryTier(memory(), MEMORY).build();
  }

  /** Writes key i at {@code version}, or deletes it one time in seven; returns the model. */
  private static void writeRound(HotRapDB db, Map<Integer, Integer> model, int keys, int version) {
    for (int i = 0; i < keys; i++) {
      if ((i + version) % 7 == 0) {
        db.delete(key(i));
        model.remove(i);
      } else {
        db.put(key(i), value(i, version, 1000));
        model.put(i, version);
      }
    }
  }

  private static void assertHolds(HotRapDB db, Map<Integer, Integer> model, int keys) {
    for (int i = 0; i < keys; i++) {
      byte[] v = db.get(key(i));
      Integer expected = model.get(i);
      if (expected == null) {
        assertNull(v, "key " + i + " was deleted");
      } else {
        assertNotNull(v, "key " + i + " lost");
        assertEquals(expected, versionOf(v), "key " + i);
      }
    }
    TreeMap<String, Integer> scanned = new TreeMap<>();
    try (HotRapIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        scanned.put(TestStores.str(it.key()), versionOf(it.value()));
      }
    }
    TreeMap<String, Integer> expected = new TreeMap<>();
    model.forEach((k, v) -> expected.put(TestStores.str(key(k)), v));
    assertEquals(expected, scanned);
  }

  @Test
  void writesAreServedByTheMemoryTierAndDeletesHideOlderTiers() throws Exception {
    Map<Integer, Integer> model = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(options())) {
      writeRound(db, model, 300, 1);
      db.flush(); // round 1 now on the fast tier
      writeRound(db, model, 300, 2); // new versions and deletes in the memory tier only
      HotRapWriteBatch batch = new HotRapWriteBatch().put(key(1), value(1, 3, 100)).delete(key(2));
      db.write(batch);
      model.put(1, 3);
      model.remove(2);
      assertHolds(db, model, 300);
      HotRapStats s = db.stats();
      assertTrue(s.getsServedMemory() > 0);
      assertTrue(s.memoryTierBytes() > 0);
      assertTrue(s.tierLogBytes() > 0);
      assertEquals(1, s.memoryTierMoves());
    }
  }

  @Test
  void fullGenerationsMoveToTheFastTierAndTheirLogRecordsDie() throws Exception {
    Map<Integer, Integer> model = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(options())) {
      for (int round = 1; round <= 6; round++) {
        writeRound(db, model, 1000, round); // ~1 MB a round, twice what a generation holds
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertTrue(s.memoryTierMoves() >= 4, "moves: " + s.memoryTierMoves());
      assertTrue(s.memoryTierBytes() <= MEMORY * 5 / 4, "the tier outgrew its size: "
          + s.memoryTierBytes());
      assertTrue(db.memory().movedThrough() > 0);
      assertTrue(s.fastSstBytes() + s.slowSstBytes() > 0);
      db.memory().awaitLogWork();
      assertTrue(db.memory().logStats().liveRecords() < db.memory().logStats().appendedRecords(),
          "nothing in the log died: " + db.memory().logStats());
      assertHolds(db, model, 1000);
    }
  }

  @Test
  void reopenAndReopenAfterTheMemoryDirectoryWasWipedKeepEveryWrite() throws Exception {
    Map<Integer, Integer> model = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(options())) {
      for (int round = 1; round <= 3; round++) {
        writeRound(db, model, 800, round);
      }
    }
    try (HotRapDB db = HotRapDB.open(options())) {
      assertHolds(db, model, 800);
      writeRound(db, model, 800, 4);
    }
    TestStores.deleteContents(memory());
    try (HotRapDB db = HotRapDB.open(options())) {
      assertTrue(db.stats().memoryTierBytes() > 0, "the memory tier was not rebuilt");
      assertHolds(db, model, 800);
    }
  }

  /**
   * Liveness marks lost in a crash leave dead records in the log. If the replay applied them, an
   * old version would land in the memory tier above a newer one on disk, and a deleted key would
   * come back. Here the log is rolled back to a copy taken before the newer versions (a log whose
   * marks say every old record is live), and the store must still return the newer state.
   */
  @Test
  void replayedRecordsNeverShadowNewerVersionsOrDeletesOnDisk() throws Exception {
    Path logCopy = dir.resolve("log-copy");
    try (HotRapDB db = HotRapDB.open(options())) {
      db.put(key(1), value(1, 1, 100));
      db.put(key(2), value(2, 1, 100));
      db.memory().awaitLogWork();
      copyTree(db.options().fastPath().resolve(MemoryTier.LOG_DIR), logCopy);
      db.flush(); // version 1 of both keys moves to the fast tier
      db.put(key(1), value(1, 2, 100));
      db.delete(key(2));
      db.flush(); // version 2 and the delete move too
      db.migrator().migrateNow(Long.MAX_VALUE, true); // and down to the slow tier
    }
    Path log = dir.resolve("fast").resolve(MemoryTier.LOG_DIR);
    TestStores.deleteContents(log);
    Files.delete(log);
    copyTree(logCopy, log);
    Files.deleteIfExists(log.resolve("liveness")); // every record in the copy counts as live
    TestStores.deleteContents(memory());
    try (HotRapDB db = HotRapDB.open(options())) {
      assertEquals(2, versionOf(db.get(key(1))));
      assertNull(db.get(key(2)));
    }
  }

  /**
   * A delete written while an older generation is being moved lands in the newer generation, and
   * the older one's version of the key is ingested into the fast tier after the delete's
   * tombstones; a migration may then demote it to the slow tier above the delete's slow tombstone.
   * When the delete's own generation moves, the key must stay deleted in both tiers.
   */
  @Test
  void aDeleteRacingTheMoveOfAnOlderGenerationStaysDeletedAfterMigration() throws Exception {
    try (HotRapDB db = HotRapDB.open(options())) {
      db.put(key(1), value(1, 1, 100));
      db.put(key(2), value(2, 1, 100));
      db.memory().afterFreeze = () -> {
        db.memory().afterFreeze = null;
        db.delete(key(1)); // on the mover thread, between the freeze and the ingestion
      };
      db.flush(); // moves the generation holding version 1; the delete is in the new one
      assertNull(db.get(key(1)));
      db.migrator().migrateNow(Long.MAX_VALUE, true); // version 1 of key 1 may go to the slow tier
      assertNull(db.get(key(1)));
      db.flush(); // moves the generation holding the delete
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertNull(db.get(key(1)), "a deleted key came back from the slow tier");
      assertEquals(1, versionOf(db.get(key(2))));
    }
    TestStores.deleteContents(memory());
    try (HotRapDB db = HotRapDB.open(options())) {
      assertNull(db.get(key(1)));
      assertEquals(1, versionOf(db.get(key(2))));
    }
  }

  @Test
  void snapshotsAndIteratorsKeepTheirCutAcrossAMove() throws Exception {
    try (HotRapDB db = HotRapDB.open(options())) {
      for (int i = 0; i < 100; i++) {
        db.put(key(i), value(i, 1, 200));
      }
      try (HotRapSnapshot snap = db.getSnapshot(); HotRapIterator it = db.newIterator()) {
        for (int i = 0; i < 100; i++) {
          if (i % 2 == 0) {
            db.delete(key(i));
          } else {
            db.put(key(i), value(i, 2, 200));
          }
        }
        db.flush(); // moves the generation the snapshot and the iterator read
        for (int i = 0; i < 100; i++) {
          assertEquals(1, versionOf(db.get(snap, key(i))));
        }
        int n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          assertEquals(1, versionOf(it.value()));
          n++;
        }
        assertEquals(100, n);
        try (HotRapIterator at = db.newIterator(snap)) {
          n = 0;
          for (at.seekToFirst(); at.isValid(); at.next()) {
            assertEquals(1, versionOf(at.value()));
            n++;
          }
          assertEquals(100, n);
        }
      }
      for (int i = 0; i < 100; i++) {
        byte[] v = db.get(key(i));
        if (i % 2 == 0) {
          assertNull(v);
        } else {
          assertEquals(2, versionOf(v));
        }
      }
    }
  }

  @Test
  void aMissingMemoryDirectoryIsRejectedByName() {
    Path missing = dir.resolve("no-such-dir");
    HotRapOptions o = TestStores.small(dir).memoryTier(missing, MEMORY).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(o));
    assertTrue(e.getMessage().contains("does not exist") && e.getMessage().contains(missing.toString()),
        e.getMessage());
    assertTrue(!Files.exists(dir.resolve("fast")), "the store was created anyway");
  }

  @Test
  void anUnwritableMemoryDirectoryIsRejectedByName() throws Exception {
    Path ro = Files.createDirectories(dir.resolve("read-only"));
    ro.toFile().setWritable(false, false);
    if (Files.isWritable(ro)) {
      ro = Path.of("/proc/self"); // root writes anywhere it may; no one creates files here
    }
    HotRapOptions o = TestStores.small(dir).memoryTier(ro, MEMORY).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(o));
    assertTrue(e.getMessage().contains("not writable"), e.getMessage());
  }

  @Test
  void aMemoryTierSmallerThanTwoWriteBuffersIsRejected() throws Exception {
    HotRapOptions.Builder b = TestStores.small(dir).memoryTier(memory(), TestStores.WRITE_BUFFER);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
    assertTrue(e.getMessage().contains("smaller than two write buffers"), e.getMessage());
  }

  @Test
  void aStoreWithATierLogRefusesToOpenWithoutItsMemoryTier() throws Exception {
    try (HotRapDB db = HotRapDB.open(options())) {
      db.put(key(1), value(1, 1, 100));
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HotRapDB.open(TestStores.small(dir).build()));
    assertTrue(e.getMessage().contains("memoryTier"), e.getMessage());
    try (HotRapDB db = HotRapDB.open(options())) {
      assertArrayEquals(value(1, 1, 100), db.get(key(1)));
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (!p.getFileName().toString().equals("LOCK")) {
          Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
