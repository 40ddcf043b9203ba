package io.hotrap.jni;

import static io.hotrap.jni.FilteredDb.bytes;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDBException;

@Timeout(60)
class DemotionFilterTest {
  private static final int KEYS = 200;

  @TempDir Path dir;

  @BeforeEach
  void requireNative() {
    NativeAssumptions.assumeNativeHooks();
  }

  private static String key(int i) {
    return String.format("key-%05d", i);
  }

  private static String value(int i) {
    return "value-" + i + "-" + "x".repeat(i % 50);
  }

  private static void register(DemotionSet set, String key, String value) {
    set.add(bytes(key), ValueHash.of(bytes(value)));
  }

  private static void writeAll(FilteredDb db) throws RocksDBException {
    for (int i = 0; i < KEYS; i++) {
      db.put(key(i), value(i));
    }
    db.flush();
  }

  /** Keys whose index is a multiple of 4 are the demoted ones in these tests. */
  private static boolean demoted(int i) {
    return i % 4 == 0;
  }

  private static void assertOnlyDemotedKeysGone(FilteredDb db) throws RocksDBException {
    for (int i = 0; i < KEYS; i++) {
      if (demoted(i)) {
        assertNull(db.get(key(i)), key(i));
      } else {
        assertEquals(value(i), db.get(key(i)), key(i));
      }
    }
  }

  @Test
  void compactRangeDropsExactlyTheRegisteredPairs() throws Exception {
    try (DemotionSet set = new DemotionSet();
        DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db = FilteredDb.open(dir, filter)) {
      writeAll(db);
      for (int i = 0; i < KEYS; i += 4) {
        register(set, key(i), value(i));
      }

      db.compactRange();

      assertOnlyDemotedKeysGone(db);
      assertEquals(KEYS / 4, filter.recordsDropped());
      assertEquals(KEYS, filter.recordsSeen());
    }
  }

  @Test
  void compactFilesToTheSameLevelDropsExactlyTheRegisteredPairs() throws Exception {
    try (DemotionSet set = new DemotionSet();
        DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db = FilteredDb.open(dir, filter)) {
      writeAll(db);
      db.compactRange(); // to the bottommost level, with nothing registered
      List<LiveFileMetaData> files = db.files();
      assertEquals(1, files.size());
      int level = files.get(0).level();
      for (int i = 0; i < KEYS; i += 4) {
        register(set, key(i), value(i));
      }
      long seenBefore = filter.recordsSeen();

      db.compactFiles(List.of(files.get(0).fileName()), level);

      assertOnlyDemotedKeysGone(db);
      assertEquals(KEYS / 4, filter.recordsDropped());
      assertEquals(KEYS, filter.recordsSeen() - seenBefore);
      List<LiveFileMetaData> after = db.files();
      assertEquals(1, after.size());
      assertEquals(level, after.get(0).level(), "the rewritten file stays on its level");
    }
  }

  @Test
  void aNewerValueOfARegisteredKeyIsKept() throws Exception {
    try (DemotionSet set = new DemotionSet();
        DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db = FilteredDb.open(dir, filter)) {
      db.put("k", "old");
      db.flush();
      register(set, "k", "old");
      db.put("k", "new");
      db.flush();

      db.compactRange();

      assertEquals("new", db.get("k"));
      assertEquals(0, filter.recordsDropped());
    }
  }

  @Test
  void theSameBytesWrittenAgainAfterRemoveAreKept() throws Exception {
    try (DemotionSet set = new DemotionSet();
        DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db = FilteredDb.open(dir, filter)) {
      db.put("kept", "v");
      db.put("dropped", "v");
      db.flush();
      register(set, "kept", "v");
      register(set, "dropped", "v");
      // A writer of "kept" removes the key before it writes: its new version survives.
      set.remove(bytes("kept"));
      db.put("kept", "v");
      // Without the removal the identical bytes would be dropped as the demoted version.
      db.put("dropped", "v");

      db.compactRange();

      assertEquals("v", db.get("kept"));
      assertNull(db.get("dropped"));
    }
  }

  @Test
  void everythingIsKeptAfterRemoveOrClear() throws Exception {
    try (DemotionSet set = new DemotionSet();
        DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db = FilteredDb.open(dir, filter)) {
      writeAll(db);
      for (int i = 0; i < KEYS; i++) {
        register(set, key(i), value(i));
      }
      for (int i = 0; i < KEYS / 2; i++) {
        set.remove(bytes(key(i)));
      }
      set.clear();

      db.compactRange();

      for (int i = 0; i < KEYS; i++) {
        assertEquals(value(i), db.get(key(i)));
      }
      assertEquals(0, filter.recordsDropped());
    }
  }

  @Test
  void theDefaultColumnFamilyWithoutTheFilterKeepsEverything() throws Exception {
    try (DemotionSet set = new DemotionSet();
        DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db = FilteredDb.open(dir, filter)) {
      db.db.put(bytes("k"), bytes("v"));
      register(set, "k", "v");

      db.db.compactRange();

      assertEquals("v", new String(db.db.get(bytes("k")), UTF_8));
      assertEquals(0, filter.recordsSeen());
    }
  }

  /**
   * The handle RocksJava receives is the C API's {@code rocksdb_compactionfilter_t*} used as a
   * {@code rocksdb::CompactionFilter*}. If the two addresses differed, RocksDB's virtual calls
   * through it would reach the wrong functions; here each of the three is seen to reach ours:
   * {@code Name()} (RocksDB logs it), {@code Filter()} (records are dropped), and the destructor
   * (run by {@code rocksdb_compactionfilter_destroy} on close, it frees our state).
   */
  @Test
  void theCApiFilterRoundTripsThroughRocksJavasHandle() throws Exception {
    long filtersBefore = NativeMethods.liveFilters();
    try (DemotionSet set = new DemotionSet()) {
      DemotionFilter filter = new DemotionFilter(set);
      assertEquals(filtersBefore + 1, NativeMethods.liveFilters());
      try (FilteredDb db = FilteredDb.open(dir, filter)) {
        db.put("k", "v");
        register(set, "k", "v");
        db.compactRange();
        assertNull(db.get("k"));
        assertEquals(1, filter.recordsDropped());
      }
      String log = Files.readString(dir.resolve("LOG"));
      List<String> filterLines =
          log.lines().filter(l -> l.contains("Options.compaction_filter:")).collect(Collectors.toList());
      assertTrue(
          filterLines.stream().anyMatch(l -> l.endsWith(": hotrap.DemotionFilter")),
          () -> "RocksDB logged " + filterLines);

      filter.close();

      assertEquals(filtersBefore, NativeMethods.liveFilters(), "the destructor callback ran");
      filter.close(); // idempotent
      assertThrows(IllegalStateException.class, filter::recordsSeen);
      assertThrows(IllegalStateException.class, filter::recordsDropped);
    }
  }

  @Test
  void aSetClosedBeforeItsFilterLeavesTheFilterKeepingEverything() throws Exception {
    long setsBefore = NativeMethods.liveSets();
    DemotionSet set = new DemotionSet();
    try (DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db = FilteredDb.open(dir, filter)) {
      db.put("k", "v");
      register(set, "k", "v");
      set.close();
      assertEquals(setsBefore + 1, NativeMethods.liveSets(), "the filter still holds the set");

      db.compactRange();

      assertEquals("v", db.get("k"));
      assertEquals(1, filter.recordsSeen());
      assertEquals(0, filter.recordsDropped());
    }
    assertEquals(setsBefore, NativeMethods.liveSets(), "the filter released the set");
  }

  @Test
  void aFilterCannotBeCreatedFromAClosedSet() {
    DemotionSet set = new DemotionSet();
    set.close();
    assertThrows(IllegalStateException.class, () -> new DemotionFilter(set));
    assertThrows(NullPointerException.class, () -> new DemotionFilter(null));
  }
}
