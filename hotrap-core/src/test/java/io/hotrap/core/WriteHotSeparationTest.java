package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.raw;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-hot separation ({@link WriteHotSeparator}): hot keys' writes land in {@code fast-hot}, the
 * store reads as one, evictions move keys back, and membership survives a restart.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class WriteHotSeparationTest {
  static final int KEYS = 2000;
  static final int HOT = 20;
  static final int VALUE = 200;
  /** Records of the concurrency test that no reader reads: 1.4 MB, beyond its 1 MiB budget. */
  static final int COLD_TAIL = 6000;

  @TempDir Path dir;

  private HotRapOptions.Builder options() {
    // A real threshold (the default), a small window: 16 KiB is ~75 writes of this test's records.
    return small(dir).writeHotSeparation(true).writeHotWindowBytes(16 << 10);
  }

  /** A mutable setting of {@code fast} as RocksDB holds it now. */
  private static String fastSetting(HotRapDB db, String name) throws Exception {
    String all = db.rocks().getOptions(db.fastHandle()).build().toString();
    for (String kv : all.split(";")) {
      String[] p = kv.split("=", 2);
      if (p[0].trim().equals(name)) {
        return p[1].trim();
      }
    }
    throw new AssertionError(name + " not in " + all);
  }

  /** Writes every key once, then the hot keys {@code rounds} times interleaved with a few cold ones. */
  private static int[] load(HotRapDB db, int rounds) {
    int[] version = new int[KEYS];
    for (int i = 0; i < KEYS; i++) {
      db.put(key(i), value(i, 0, VALUE));
    }
    SplittableRandom r = new SplittableRandom(3);
    for (int round = 1; round <= rounds; round++) {
      for (int h = 0; h < HOT; h++) {
        db.put(key(h), value(h, ++version[h], VALUE));
      }
      int cold = HOT + r.nextInt(KEYS - HOT);
      db.put(key(cold), value(cold, ++version[cold], VALUE));
    }
    return version;
  }

  private static void assertNewest(HotRapDB db, int[] version) {
    for (int i = 0; i < KEYS; i++) {
      byte[] v = db.get(key(i));
      assertTrue(v != null, "key " + i + " missing");
      assertEquals(version[i], versionOf(v), "key " + i);
    }
    int seen = 0;
    try (HotRapIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        assertArrayEquals(key(seen), it.key());
        assertEquals(version[seen], versionOf(it.value()), "scan, key " + seen);
        seen++;
      }
    }
    assertEquals(KEYS, seen);
  }

  @Test
  void uniformWritesNeverHoldTheGateExclusiveForTheSeparator() throws Exception {
    // An exclusive hold waits for every write in flight and holds back new ones; an unskewed
    // window that leaves the empty index empty must not take one. A budget no write fills and no
    // reads: no migration or promotion commits either.
    HotRapOptions o = options().fastBudgetBytes(1L << 30).promotion(false).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      long holdsBefore = db.gate().exclusiveHolds();
      for (int i = 0; i < 40_000; i++) { // ~8 MB: ~500 windows of 16 KiB, 1 in 8 counted
        db.put(key(1_000_000 + i), value(i, 0, VALUE));
      }
      db.separator().awaitIdle();
      HotRapStats s = db.stats();
      assertFalse(s.writeSkewed(), s.toString());
      assertTrue(s.writeHotWindows() >= 40, "windows closed: " + s);
      assertTrue(s.writeSkewSkippedWrites() > 0, s.toString());
      assertEquals(0, db.gate().exclusiveHolds() - holdsBefore, s.toString());
    }
  }

  @Test
  void skewedWritesGoToFastHotAndGetsScansAndSnapshotsReadOneStore() throws Exception {
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    try (HotRapDB db = HotRapDB.open(options().meterRegistry(registry).build())) {
      int[] version = new int[KEYS];
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i, 0, VALUE));
      }
      HotRapSnapshot before = db.getSnapshot();
      int[] later = load(db, 60);
      // The windows are judged on the separator's thread, which a loaded machine may leave behind
      // the load: once it has caught up, the hot keys are members, and one more round of their
      // writes must go to fast-hot.
      db.separator().awaitIdle();
      for (int h = 0; h < HOT; h++) {
        db.put(key(h), value(h, ++later[h], VALUE));
      }
      for (int i = 0; i < KEYS; i++) {
        version[i] = later[i];
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertTrue(s.writeHotSeparation());
      assertTrue(s.writeSkewed(), "hot keys written 60 times each: variance " + s.writeSkewVariance());
      assertTrue(s.writeHotWrites() > 0, s.toString());
      assertEquals((double) s.writeHotWrites(),
          registry.get("hotrap.separation.writes").functionCounter().count());
      List<byte[][]> hot = raw(db, db.hotHandle());
      assertFalse(hot.isEmpty(), "nothing reached fast-hot");
      for (byte[][] kv : hot) {
        int k = Integer.parseInt(new String(kv[0], java.nio.charset.StandardCharsets.UTF_8).substring(3));
        assertTrue(db.separator().mayHold(kv[0]), "a key in fast-hot is a member (S1): " + k);
      }
      assertNewest(db, version);
      // The snapshot taken before the updates still reads version 0 everywhere, fast-hot included.
      for (int i = 0; i < HOT; i++) {
        assertEquals(0, versionOf(db.get(before, key(i))));
      }
      try (HotRapIterator it = db.newIterator(before)) {
        int n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          assertEquals(0, versionOf(it.value()));
          n++;
        }
        assertEquals(KEYS, n);
      }
      before.close();
      // A delete of a member reads as deleted in gets and scans; a batch mixes both routes.
      db.delete(key(0));
      HotRapWriteBatch batch = new HotRapWriteBatch().put(key(1), value(1, 1000, VALUE))
          .delete(key(2)).put(key(HOT + 5), value(HOT + 5, 1000, VALUE));
      db.write(batch);
      assertNull(db.get(key(0)));
      assertNull(db.get(key(2)));
      assertEquals(1000, versionOf(db.get(key(1))));
      assertEquals(1000, versionOf(db.get(key(HOT + 5))));
      try (HotRapIterator it = db.newIterator(key(0), key(3))) {
        it.seekToFirst();
        assertArrayEquals(key(1), it.key());
        it.next();
        assertFalse(it.isValid());
      }
      // Values survive a flush of all three column families.
      db.flush();
      assertNull(db.get(key(0)));
      assertEquals(1000, versionOf(db.get(key(1))));
    }
  }

  /**
   * A key the window saw once, between two hot keys, keeps them in separate ranges: it is not hot,
   * and neither are the keys the window did not see between it and them. Were it missing from the
   * window's keys, one range would span all the hot keys and route every key between them to
   * {@code fast-hot}, however few the index counts.
   */
  @Test
  void aKeySeenOnceBetweenHotKeysStaysOutOfTheIndex() throws Exception {
    try (HotRapDB db = HotRapDB.open(options().writeSkewThreshold(0).build())) {
      // One window of SkewDetector.MIN_WINDOW_RECORDS records (more than its 16 KiB): key 4j
      // twice and key 4j + 2 once, for j < 85, and key 342 once.
      int hot = 85;
      for (int j = 0; j < hot; j++) {
        db.put(key(4 * j), value(4 * j, 1, VALUE));
        db.put(key(4 * j + 2), value(4 * j + 2, 1, VALUE));
        db.put(key(4 * j), value(4 * j, 2, VALUE));
      }
      db.put(key(4 * hot + 2), value(4 * hot + 2, 1, VALUE));
      assertEquals(SkewDetector.MIN_WINDOW_RECORDS, 3 * hot + 1);
      db.separator().awaitIdle();
      assertEquals(1, db.separator().windows.sum());
      assertEquals(hot, db.separator().indexKeys());
      long hotWrites = db.stats().writeHotWrites();
      for (int j = 0; j < hot - 1; j++) {
        for (int between = 1; between <= 3; between++) {
          db.put(key(4 * j + between), value(4 * j + between, 3, VALUE));
        }
      }
      assertEquals(hotWrites, db.stats().writeHotWrites(), "keys between the hot keys went to fast-hot");
      assertEquals(0, db.stats().writeHotMembers());
      db.put(key(4), value(4, 3, VALUE));
      assertEquals(hotWrites + 1, db.stats().writeHotWrites(), "a hot key goes to fast-hot");
    }
  }

  /**
   * {@code fast-hot} counts against the budget, and migration moves only {@code fast}'s files. The
   * index bounds the hot keys by the window's mean record, so hot keys whose records are far larger
   * than the window's others outgrow {@code fast-hot}'s share; with {@code fast} holding nothing to
   * move, every write waited for room no one made until {@code maxWriteStall} let it through. The
   * migrator now has the separator give the members back to {@code fast}. The timeout (on a thread
   * of its own, as a stalled write does not end on an interrupt) only reports that hang.
   */
  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenFastHotOutgrowsItsShareAndFastHasNothingToMoveWritersStillGetRoom() throws Exception {
    HotRapOptions o = small(dir).fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10)
        .fastTargetFileBytes(64 << 10).writeHotSeparation(true).writeSkewThreshold(0)
        .writeHotWindowBytes(4 << 10).maxWriteStall(java.time.Duration.ofSeconds(60)).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      // One window of small records: keys 0..79 twice, then cold keys once until it closes.
      int hot = 80;
      int cold = SkewDetector.MIN_WINDOW_RECORDS - 2 * hot;
      for (int i = 0; i < hot; i++) {
        db.put(key(i), value(i, 1, 16));
        db.put(key(i), value(i, 2, 16));
      }
      for (int i = 0; i < cold; i++) {
        db.put(key(1000 + i), value(1000 + i, 1, 16));
      }
      db.separator().awaitIdle();
      assertEquals(hot, db.separator().indexKeys());
      // The hot keys again with 16 KiB values: 1.25 MiB for fast-hot, whose share is 256 KiB.
      for (int i = 0; i < hot; i++) {
        db.put(key(i), value(i, 3, 16 << 10));
      }
      db.flush();
      db.put(key(5000), value(5000, 1, 100)); // waited maxWriteStall for room before
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertEquals(0, s.writeStallTimeouts(), "a write waited maxWriteStall for room: " + s);
      assertTrue(db.separator().sheds.sum() > 0, s.toString());
      assertTrue(s.fastSstBytes() <= o.highWatermarkBytes(), s.toString());
      for (int i = 0; i < hot; i++) {
        assertEquals(3, versionOf(db.get(key(i))), "key " + i);
      }
      for (int i = 0; i < cold; i++) {
        assertEquals(1, versionOf(db.get(key(1000 + i))), "key " + (1000 + i));
      }
      assertEquals(1, versionOf(db.get(key(5000))));
    }
  }

  @Test
  void whenWritesTurnUniformTheMembersMoveBackToFast() throws Exception {
    // 64 KiB write buffers: a quarter of the budget holds 16 of them, room for the cold side's L0.
    try (HotRapDB db = HotRapDB.open(options().writeBufferBytes(64 << 10).build())) {
      int[] version = load(db, 60);
      db.awaitBackgroundWork();
      assertTrue(db.stats().writeHotMembers() > 0);
      assertTrue(db.separator().coldSideActive());
      int coldL0 = TierConfig.coldL0Trigger(db.options());
      assertTrue(coldL0 > TierConfig.FAST_L0_TRIGGER, "this store's budget has room for a larger L0: " + coldL0);
      assertEquals(String.valueOf(coldL0), fastSetting(db, "level0_file_num_compaction_trigger"),
          "skewed writes give fast the cold side's L0");
      assertEquals(String.valueOf(db.options().fastBudgetBytes() / 2), fastSetting(db, "max_bytes_for_level_base"));
      // Uniform writes of distinct keys: windows without repeats, so the index empties.
      for (int pass = 0; pass < 2; pass++) {
        for (int i = HOT; i < KEYS; i++) {
          db.put(key(i), value(i, ++version[i], VALUE));
        }
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertFalse(s.writeSkewed(), "distinct keys: variance " + s.writeSkewVariance());
      assertEquals(0, s.writeHotMembers(), s.toString());
      assertFalse(db.separator().coldSideActive());
      assertEquals(String.valueOf(TierConfig.FAST_L0_TRIGGER), fastSetting(db, "level0_file_num_compaction_trigger"),
          "uniform writes give fast its usual L0 back");
      assertTrue(s.writeHotEvictions() > 0);
      assertTrue(raw(db, db.hotHandle()).isEmpty(), "fast-hot still holds records after eviction");
      assertNewest(db, version);
      // Every former member's newest version is now in fast.
      for (int h = 0; h < HOT; h++) {
        byte[] v = db.rocks().get(db.fastHandle(), key(h));
        assertEquals(version[h], versionOf(v), "key " + h + " in fast");
      }
    }
  }

  @Test
  void anEvictionSkipsAKeyWrittenBetweenItsReadAndItsCommit() throws Exception {
    try (HotRapDB db = HotRapDB.open(options().build())) {
      int[] version = load(db, 60);
      db.awaitBackgroundWork();
      WriteHotSeparator separator = db.separator();
      int k = 0;
      assertTrue(separator.mayHold(key(k)), "hot key " + k + " should be a member after the load");
      long skippedBefore = separator.evictionsSkippedUpdated.sum();
      AtomicBoolean written = new AtomicBoolean();
      // The user write lands after the eviction read the member's old version and before it
      // commits; the key is still a member, so the write goes to fast-hot (S2).
      separator.beforeEvictionCommit = () -> {
        if (written.compareAndSet(false, true)) {
          db.put(key(k), value(k, ++version[k], VALUE));
        }
      };
      // A window without skew empties the index: every member is evicted.
      separator.apply(SkewDetector.Window.empty(Long.MAX_VALUE));
      separator.beforeEvictionCommit = () -> { };
      assertTrue(written.get(), "the eviction never reached its commit");
      assertTrue(separator.evictionsSkippedUpdated.sum() > skippedBefore,
          "the commit must skip the key written since its read");
      assertEquals(version[k], versionOf(db.get(key(k))), "the eviction overwrote a newer write");
      assertTrue(separator.mayHold(key(k)), "a skipped key stays a member until the next window");
      // The next eviction moves the newest version, not the one the first eviction read.
      separator.apply(SkewDetector.Window.empty(Long.MAX_VALUE));
      assertFalse(separator.mayHold(key(k)));
      assertEquals(version[k], versionOf(db.rocks().get(db.fastHandle(), key(k))), "key " + k + " in fast");
      assertNewest(db, version);
    }
  }

  @Test
  void membershipIsRebuiltAtOpenAndAStoreOpenedWithoutSeparationMovesFastHotBack() throws Exception {
    int[] version;
    try (HotRapDB db = HotRapDB.open(options().build())) {
      version = load(db, 60);
      db.awaitBackgroundWork();
      assertFalse(raw(db, db.hotHandle()).isEmpty());
    }
    try (HotRapDB db = HotRapDB.open(options().build())) {
      int members = db.stats().writeHotMembers();
      assertEquals(raw(db, db.hotHandle()).size(), members, "every key of fast-hot is a member");
      assertTrue(members > 0);
      // A member's next write goes to fast-hot (S2), whatever the new detector thinks yet.
      int hotKey = -1;
      for (int h = 0; h < HOT && hotKey < 0; h++) {
        if (db.separator().mayHold(key(h))) {
          hotKey = h;
        }
      }
      assertTrue(hotKey >= 0);
      db.put(key(hotKey), value(hotKey, ++version[hotKey], VALUE));
      assertEquals(version[hotKey], versionOf(db.rocks().get(db.hotHandle(), key(hotKey))));
      assertNewest(db, version);
    }
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      assertFalse(db.stats().writeHotSeparation());
      assertTrue(raw(db, db.hotHandle()).isEmpty(), "opened without separation, fast-hot must be empty");
      assertNewest(db, version);
    }
  }

  @Test
  void separationAndAMemoryTierAreRejectedTogether() throws Exception {
    Path memory = Files.createDirectories(dir.resolve("memory"));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> options().memoryTier(memory, 1 << 20).build());
    assertTrue(e.getMessage().contains("memory tier"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> options().writeHotShare(0.6));
    assertThrows(IllegalArgumentException.class, () -> options().writeSkewThreshold(-1));
    assertThrows(IllegalArgumentException.class, () -> options().hotBlockCacheShare(1.0));
  }

  /**
   * Writers whose hot set moves every phase (so keys join and leave fast-hot all the time), under
   * migration with a 1 MiB budget, and readers that check no key's version ever goes back.
   */
  @Test
  void concurrentWritersReadersAndEvictionsNeverShowAnOlderVersion() throws Exception {
    HotRapOptions o = TestStores.separated(small(dir)).fastBudgetBytes(1L << 20)
        .writeBufferBytes(64 << 10).fastTargetFileBytes(64 << 10).migrationBatchBytes(16 << 10)
        .hotnessCheck(false).hotBlockCacheShare(0.8).build();
    int writers = 3;
    int keysPerWriter = 600;
    int total = writers * keysPerWriter;
    // Per key: the last acknowledged op (version, negative for a delete) and the newest delete begun.
    AtomicIntegerArray acked = new AtomicIntegerArray(total);
    AtomicIntegerArray deleteBegun = new AtomicIntegerArray(total);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> failure = new AtomicReference<>();
    try (HotRapDB db = HotRapDB.open(o)) {
      for (int i = 0; i < total; i++) {
        db.put(key(i), value(i, 0, VALUE));
      }
      // Records nobody reads, more than the budget holds beside the others: migration has to demote
      // (the readers' keys are all read, so RALT may keep every one of them hot).
      for (int i = 0; i < COLD_TAIL; i++) {
        db.put(key(total + i), value(total + i, 0, VALUE));
      }
      CyclicBarrier start = new CyclicBarrier(writers + 2);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int base = w * keysPerWriter;
        long seed = w;
        threads.add(new Thread(() -> {
          SplittableRandom r = new SplittableRandom(seed);
          int[] version = new int[keysPerWriter];
          await(start);
          for (int phase = 0; phase < 12 && failure.get() == null; phase++) {
            int hotBase = (phase * 37) % (keysPerWriter - 10);
            for (int i = 0; i < 1500; i++) {
              int k = r.nextInt(4) == 0 ? r.nextInt(keysPerWriter) : hotBase + r.nextInt(10);
              int v = ++version[k];
              if (r.nextInt(50) == 0) {
                deleteBegun.set(base + k, v);
                db.delete(key(base + k));
                acked.set(base + k, -v);
              } else {
                db.put(key(base + k), value(base + k, v, VALUE));
                acked.set(base + k, v);
              }
            }
          }
        }));
      }
      for (int t = 0; t < 2; t++) {
        long seed = 100 + t;
        threads.add(new Thread(() -> {
          SplittableRandom r = new SplittableRandom(seed);
          int[] seen = new int[total];
          await(start);
          while (!stop.get() && failure.get() == null) {
            int k = r.nextInt(total);
            int before = acked.get(k);
            int floor = Math.abs(before);
            byte[] v = db.get(key(k));
            int got = v == null ? -1 : versionOf(v);
            // What was acknowledged before the get, or something newer: absent only if that was
            // a delete or a newer delete began before the get returned.
            if (v == null) {
              if (before > 0 && deleteBegun.get(k) <= floor) {
                failure.compareAndSet(null, "key " + k + " absent after version " + floor + " was acked");
              }
            } else if (got < floor) {
              failure.compareAndSet(null, "key " + k + " read version " + got + " after " + floor + " was acked");
            }
            if (v != null && got < seen[k]) {
              failure.compareAndSet(null, "key " + k + " went back from " + seen[k] + " to " + got);
            }
            if (v != null) {
              seen[k] = got;
            }
          }
        }));
      }
      for (Thread t : threads) {
        t.start();
      }
      for (int i = 0; i < writers; i++) {
        threads.get(i).join();
      }
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertNull(failure.get());
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertTrue(s.writeHotWrites() > 0, s.toString());
      assertTrue(s.writeHotEvictions() > 0, "the moving hot set evicted nothing: " + s);
      assertTrue(s.recordsDemoted() > 0, "no migration ran: " + s);
      for (int i = 0; i < COLD_TAIL; i++) {
        assertEquals(0, versionOf(db.get(key(total + i))), "cold key " + (total + i));
      }
      for (int k = 0; k < total; k++) {
        int a = acked.get(k);
        byte[] v = db.get(key(k));
        if (a < 0) {
          assertNull(v, "key " + k + " deleted last");
        } else {
          assertEquals(a, versionOf(v), "key " + k);
        }
      }
    }
  }

  private static void await(CyclicBarrier b) {
    try {
      b.await();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
