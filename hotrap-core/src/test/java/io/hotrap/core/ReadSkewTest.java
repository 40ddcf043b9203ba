package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-skew detector ({@link SkewDetector#forReads}) and what the store does with it: uniform
 * gets idle RALT and promotion, skewed gets are tracked, and skew that begins is seen within an
 * eighth of a window. Seeded streams; the thresholds sit many standard deviations from what these
 * streams produce (uniform: 1 with hundreds of expected colliding pairs; hotspot-5%: 18).
 */
class ReadSkewTest {
  @TempDir Path dir;

  private static byte[] k(long i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  /** Reads of a hotspot: share {@code hot} of {@code keys} keys gets 95% of the reads. */
  private static long hotspot(SplittableRandom r, long keys, double hot) {
    long hotKeys = Math.max(1, (long) (keys * hot));
    return r.nextDouble() < 0.95 ? r.nextLong(hotKeys) : hotKeys + r.nextLong(keys - hotKeys);
  }

  @Test
  void uniformReadsScoreNearOneAndTurnTrackingOffAfterOneFullWindow() {
    long keys = 200_000;
    List<SkewDetector.Window> closed = new ArrayList<>();
    SkewDetector d = SkewDetector.forReads(() -> keys, closed::add);
    assertTrue(d.skewed(), "reads count as skewed until a window shows otherwise");
    long window = SkewDetector.readWindow(keys);
    assertEquals(Math.max(SkewDetector.MIN_READ_WINDOW, (long) (16 * Math.sqrt(keys))), window);
    SplittableRandom r = new SplittableRandom(3);
    for (long i = 0; i < window - 1; i++) {
      d.record(k(r.nextLong(keys)), 1);
    }
    assertTrue(closed.isEmpty());
    assertTrue(d.skewed());
    d.record(k(r.nextLong(keys)), 1);
    assertEquals(1, closed.size());
    assertFalse(d.skewed());
    double c = closed.get(0).variance;
    assertTrue(c > 0.5 && c < 1.6, "concentration " + c);
    // Nine more windows: none is called skewed (not even early, from a partial window).
    for (long i = 0; i < 9 * window; i++) {
      d.record(k(r.nextLong(keys)), 1);
      assertFalse(d.skewed(), "uniform called skewed after " + i + " reads");
    }
    assertEquals(10, closed.size());
  }

  @Test
  void hotspotAndZipfReadsAreSkewedAndSkewThatBeginsIsSeenWithinAnEighthOfAWindow() {
    long keys = 1_000_000;
    List<SkewDetector.Window> closed = new ArrayList<>();
    SkewDetector d = SkewDetector.forReads(() -> keys, closed::add);
    long window = SkewDetector.readWindow(keys);
    SplittableRandom r = new SplittableRandom(5);
    for (long i = 0; i < window; i++) {
      d.record(k(r.nextLong(keys)), 1);
    }
    assertFalse(d.skewed());
    long reads = 0;
    while (!d.skewed()) {
      d.record(k(hotspot(r, keys, 0.05)), 1);
      reads++;
      assertTrue(reads <= window / 8, "hotspot-5% not seen after " + reads + " reads");
    }
    SkewDetector.Window early = closed.get(closed.size() - 1);
    assertTrue(early.skewed && early.records == window / 8, "closed at " + early.records);
    // Full hotspot windows: about 0.95^2 / 0.05 = 18.
    for (long i = 0; i < 2 * window; i++) {
      d.record(k(hotspot(r, keys, 0.05)), 1);
    }
    double c = closed.get(closed.size() - 1).variance;
    assertTrue(c > 12 && c < 26, "hotspot-5% concentration " + c);
    assertTrue(d.skewed());
    // A hot share of half the keys is 0.95^2 / 0.5 + 0.05^2 / 0.5 = 1.8: below the off threshold.
    for (long i = 0; i < 2 * window; i++) {
      d.record(k(hotspot(r, keys, 0.5)), 1);
    }
    assertFalse(d.skewed(), "concentration " + closed.get(closed.size() - 1).variance);
  }

  @Test
  void readWindowsKeepNoKeysAndFollowTheKeyCount() {
    long[] keys = {1_000};
    List<SkewDetector.Window> closed = new ArrayList<>();
    SkewDetector d = SkewDetector.forReads(() -> keys[0], closed::add);
    assertEquals(SkewDetector.MIN_READ_WINDOW, d.windowBytes());
    for (int i = 0; i < SkewDetector.MIN_READ_WINDOW; i++) {
      d.record(k(i % 1_000), 1);
    }
    assertEquals(1, closed.size());
    assertThrows(IllegalStateException.class, () -> closed.get(0).counts());
    assertEquals(1, closed.get(0).count(k(0)) > 0 ? 1 : 0);
    keys[0] = 4_000_000;
    for (int i = 0; i < SkewDetector.MIN_READ_WINDOW; i++) {
      d.record(k(i), 1);
    }
    assertEquals(2, closed.size());
    assertEquals(16 * 2_000, d.windowBytes(), "the window opened after the key count grew");
  }

  @Test
  void aStoreIdlesRaltAndPromotionWhileGetsAreUniformAndTracksThemAgainWhenSkewReturns()
      throws Exception {
    int n = 4_000;
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HotRapDB db = HotRapDB.open(TestStores.small(dir).meterRegistry(registry).build())) {
      for (int i = 0; i < n; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      db.flush();
      SplittableRandom r = new SplittableRandom(11);
      int window = SkewDetector.MIN_READ_WINDOW;
      for (int i = 0; i < window; i++) {
        assertNotNull(db.get(key(r.nextInt(n))));
      }
      HotRapStats s = db.stats();
      assertFalse(s.readsSkewed(), "uniform gets: concentration " + s.readConcentration());
      // The read that closed the window is the first the window's decision applies to.
      assertEquals(1, s.untrackedReads());
      db.tracker().awaitQuiescence();
      long accesses = db.tracker().stats().accesses();
      for (int i = 0; i < 3 * window; i++) {
        assertNotNull(db.get(key(r.nextInt(n))));
      }
      db.tracker().awaitQuiescence();
      assertEquals(accesses, db.tracker().stats().accesses(), "RALT saw uniform gets");
      assertEquals(3L * window + 1, db.stats().untrackedReads());
      assertTrue(db.stats().readConcentration() < SkewDetector.READ_OFF_CONCENTRATION);
      assertEquals(0.0, registry.get("hotrap.reads.skewed").gauge().value());
      assertEquals(3.0 * window + 1, registry.get("hotrap.gets.untracked").functionCounter().count());
      // 40 hot keys of 4,000: concentration about 90, seen within an eighth of a window.
      for (int i = 0; i < window / 8; i++) {
        assertNotNull(db.get(key(r.nextInt(40))));
      }
      s = db.stats();
      assertTrue(s.readsSkewed(), "hot gets: concentration " + s.readConcentration());
      long untracked = s.untrackedReads();
      assertTrue(untracked < 3L * window + 1 + window / 8, "untracked " + untracked);
      db.tracker().awaitQuiescence();
      long before = db.tracker().stats().accesses();
      for (int i = 0; i < 100; i++) {
        assertNotNull(db.get(key(r.nextInt(40))));
      }
      db.tracker().awaitQuiescence();
      assertEquals(before + 100, db.tracker().stats().accesses());
      assertEquals(untracked, db.stats().untrackedReads());
      assertEquals(1.0, registry.get("hotrap.reads.skewed").gauge().value());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"detection off", "hotness check off"})
  void withoutDetectionEveryGetIsTracked(String how) throws Exception {
    HotRapOptions.Builder options = how.equals("detection off")
        ? TestStores.small(dir).readSkewDetection(false)
        : TestStores.small(dir).hotnessCheck(false);
    try (HotRapDB db = HotRapDB.open(options.build())) {
      for (int i = 0; i < 1_000; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      SplittableRandom r = new SplittableRandom(13);
      for (int i = 0; i < 3 * SkewDetector.MIN_READ_WINDOW; i++) {
        assertNotNull(db.get(key(r.nextInt(1_000))));
      }
      HotRapStats s = db.stats();
      assertTrue(s.readsSkewed());
      assertEquals(0, s.untrackedReads());
      assertEquals(0, s.readSkewWindows());
      db.tracker().awaitQuiescence();
      assertEquals(3L * SkewDetector.MIN_READ_WINDOW, db.tracker().stats().accesses());
    }
  }
}
