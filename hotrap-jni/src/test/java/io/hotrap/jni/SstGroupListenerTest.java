package io.hotrap.jni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDBException;

@Timeout(120)
class SstGroupListenerTest {
  private static final int RECORDS = 10_000;

  @TempDir Path dir;

  private final MapBackend backend = new MapBackend();
  private final Set<Long> created = ConcurrentHashMap.newKeySet();
  private final LinkedBlockingQueue<Long> invalidated = new LinkedBlockingQueue<>();

  private static Set<Long> liveGroups(CachedDb db) throws RocksDBException {
    Set<Long> groups = new HashSet<>();
    for (LiveFileMetaData file : db.files()) {
      groups.add(SstFileGroups.ofFile(db.pathOf(file)));
    }
    return groups;
  }

  private static void readAll(CachedDb db, int firstRoundTwo) throws RocksDBException {
    for (int i = 0; i < RECORDS; i++) {
      int round = i >= firstRoundTwo ? 2 : 1;
      assertArrayEquals(CachedDb.value(i, round), db.get(i), "key " + i);
    }
  }

  /** Round 1 writes every key into one file, round 2 the upper half into a second one. */
  private static void loadTwoFiles(CachedDb db) throws RocksDBException {
    db.load(RECORDS, 1);
    for (int i = RECORDS / 2; i < RECORDS; i++) {
      db.db.put(CachedDb.key(i), CachedDb.value(i, 2));
    }
    db.flush();
  }

  @Test
  void aFilesGroupIsThePrefixOfTheCacheKeysOfItsBlocks() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    SstGroupListener listener = new SstGroupListener(created::add, invalidated::add);
    try (listener;
        FlashSecondaryCache cache =
            FlashSecondaryCache.builder(backend).capacity(128 * 1024).numShardBits(2).build();
        CachedDb db = CachedDb.open(dir, cache, listener)) {
      loadTwoFiles(db);

      readAll(db, RECORDS / 2);
      readAll(db, RECORDS / 2);

      Set<Long> live = liveGroups(db);
      assertEquals(2, live.size(), "two files, two groups");
      assertEquals(live, listener.groups());
      assertEquals(live, created);
      assertEquals(live, backend.groups, "the groups of the blocks RocksDB evicted");
      assertEquals(0, listener.untrackedFiles());
    }
  }

  @Test
  void aCompactionInvalidatesTheGroupsOfItsInputFiles() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    SstGroupListener listener =
        new SstGroupListener(
            created::add,
            group -> {
              backend.invalidateGroup(group);
              invalidated.add(group);
            });
    try (listener;
        FlashSecondaryCache cache =
            FlashSecondaryCache.builder(backend).capacity(128 * 1024).numShardBits(2).build();
        CachedDb db = CachedDb.open(dir, cache, listener)) {
      loadTwoFiles(db);
      readAll(db, RECORDS / 2);
      readAll(db, RECORDS / 2);
      Set<Long> before = liveGroups(db);

      db.db.compactRange();

      Set<Long> gone = new HashSet<>();
      while (gone.size() < before.size()) {
        Long group = invalidated.poll(30, TimeUnit.SECONDS);
        assertTrue(group != null, () -> "invalidated so far: " + gone + " of " + before);
        gone.add(group);
      }
      assertEquals(before, gone);
      Set<Long> after = liveGroups(db);
      assertEquals(1, after.size());
      assertFalse(before.containsAll(after), "the compaction's output is a new group");
      assertTrue(listener.groups().containsAll(after));
      assertTrue(created.containsAll(after));
      for (var key : backend.blocks.keySet()) {
        byte[] k = new byte[key.remaining()];
        key.duplicate().get(k);
        assertFalse(before.contains(SstFileGroups.ofKey(k)), "a block of a compacted file stayed");
      }

      readAll(db, RECORDS / 2);
      readAll(db, RECORDS / 2);
      assertTrue(backend.groups.containsAll(after), "blocks of the new file were inserted");
    }
  }

  @Test
  void aFileACompactionMovesToAnotherLevelKeepsItsGroup() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    SstGroupListener listener = new SstGroupListener(created::add, invalidated::add);
    try (listener;
        FlashSecondaryCache cache =
            FlashSecondaryCache.builder(backend).capacity(128 * 1024).numShardBits(2).build();
        CachedDb db = CachedDb.open(dir, cache, listener)) {
      db.load(RECORDS, 1);
      LiveFileMetaData before = db.files().get(0);
      long group = SstFileGroups.ofFile(db.pathOf(before));

      db.db.compactRange(); // one file, nothing below it: RocksDB moves it instead of rewriting it

      LiveFileMetaData after = db.files().get(0);
      assertEquals(before.fileName(), after.fileName(), "the same file");
      assertTrue(after.level() != before.level(), "moved from L" + before.level());
      assertTrue(invalidated.isEmpty(), "a moved file was invalidated: " + invalidated);
      assertEquals(Set.of(group), listener.groups());
      readAll(db, RECORDS);
    }
  }

  @Test
  void trackFindsTheFilesOfAReopenedDatabase() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    Set<Long> live;
    try (FlashSecondaryCache cache =
            FlashSecondaryCache.builder(backend).capacity(128 * 1024).build();
        CachedDb db = CachedDb.open(dir, cache)) {
      loadTwoFiles(db);
      live = liveGroups(db);
    }
    SstGroupListener listener = new SstGroupListener(created::add, invalidated::add);
    try (listener;
        FlashSecondaryCache cache =
            FlashSecondaryCache.builder(backend).capacity(128 * 1024).build();
        CachedDb db = CachedDb.open(dir, cache, listener)) {
      assertEquals(2, listener.track(db.db));
      assertEquals(live, listener.groups(), "a file's group survives reopening");
      assertEquals(0, listener.track(db.db));
    }
  }
}
