package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot-set limit follows the size of the hotspot, as it grows and as it shrinks, within a quarter
 * of it once the hotspot is steady (the dynamic workload of HotRAP's Fig. 15); while the hotspot
 * widens, the room for unstable records is the paper's D_hs. With the paper's fixed room D_hs = 0.1·R_hs for
 * unstable records, a 1% hotspot got a limit of 1.5 times its bytes here (1.7 times in the bench's
 * {@code ralt-stages} at 16 and 128 MiB).
 */
class HotSetLimitFollowsHotspotTest {
  private static final int KEYS = 40_000;
  private static final int VALUE_BYTES = 1000;
  private static final long RECORD_BYTES = AccessStreams.KEY_BYTES + VALUE_BYTES;

  @TempDir Path dir;
  private long accesses;

  @Test
  void theLimitStaysWithinAQuarterOfTheHotspotAsItGrowsAndShrinks() {
    // R_hs = 2.1 MiB and D_hs = 215 KiB; the hotspots are 400, 1,600 and 800 records of 1 KiB.
    RaltOptions options = RaltOptions.builder().directory(dir).fastDiskBytes(3L << 20).build();
    byte[][] keys = AccessStreams.keys(KEYS);
    SplittableRandom random = new SplittableRandom(5);
    try (Ralt ralt = Ralt.open(options)) {
      long widestRoomWhileGrowing = 0;
      for (int hot : new int[] {KEYS / 100, KEYS / 25, KEYS / 50}) {
        for (int part = 0; part < 250; part++) {
          access(ralt, keys, random, hot, 1_000);
          if (hot == KEYS / 25) {
            RaltStats s = ralt.stats();
            long room = s.hotSetLimit() - s.stableHotBytes();
            widestRoomWhileGrowing = Math.max(widestRoomWhileGrowing,
                room - (long) (options.unstableShareOfStable() * s.stableHotBytes()));
          }
        }
        ralt.awaitQuiescence();
        int hotKeysHot = 0;
        for (int i = 0; i < hot; i++) {
          hotKeysHot += ralt.isHot(keys[i]) ? 1 : 0;
        }
        long hotspotBytes = hot * RECORD_BYTES;
        double ratio = (double) ralt.hotSetLimit() / hotspotBytes;
        String state = String.format("hotspot of %d records: limit %.2f× its bytes, %d of its keys"
            + " hot; %s", hot, ratio, hotKeysHot, ralt.stats());
        assertTrue(ratio >= 1.0 && ratio <= 1.25, state);
        assertTrue(hotKeysHot >= 0.97 * hot, state);
      }
      // While the hotspot widened from 1% to 4% the stable set grew, and the room went beyond the
      // share of a steady one towards the paper's D_hs (measured: 0.39·D_hs beyond; 0 without
      // the growth rule).
      assertTrue(widestRoomWhileGrowing >= options.maxUnstableHotBytes() / 4,
          "room beyond the share while growing " + widestRoomWhileGrowing + ", D_hs "
              + options.maxUnstableHotBytes());
    }
  }

  /**
   * {@code count} accesses, 95% to ids [0, hot), the rest uniform; each reported missed when RALT
   * did not have its key hot, as the store reports fast-tier misses.
   */
  private void access(Ralt ralt, byte[][] keys, SplittableRandom random, int hot, long count) {
    for (long i = 0; i < count; i++) {
      int id = random.nextDouble() < 0.95 ? random.nextInt(hot) : random.nextInt(KEYS);
      byte[] key = keys[id];
      ralt.record(key, VALUE_BYTES, !ralt.isHot(key));
      if (++accesses % 2_000 == 0) {
        ralt.flushIfBuffered(0.5);
      }
    }
  }
}
