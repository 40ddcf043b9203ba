package io.hotrap.ralt;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

/**
 * Chooses an eviction's two thresholds from a sample (HotRAP §3.2): the hot threshold, above which
 * records of total hot size {@code (1 − β)·hot-set limit} rank, and the keep threshold, above which
 * records of total physical size {@code (1 − β)·physical limit} rank. Records below the keep threshold
 * are dropped; the hot set is never larger than what is kept.
 *
 * <p>Sampling reads a fixed number of random blocks rather than every record, so planning costs the
 * same at any tracker size; with a few hundred blocks of ~150 records each, the quantile error is a
 * fraction of a percent. Records of one key that sit in several runs are sampled unmerged; a
 * record whose key is hot in a deeper run is left out, so that the fresh copies of hot keys in upper
 * levels do not count twice and squeeze the room Algorithm 1 leaves for unstable records.
 */
final class EvictionPlanner {
  record Plan(HotThreshold hot, HotThreshold keep) {}

  private EvictionPlanner() {}

  static Plan plan(Version v, Clock clock, long now, long hotTarget, long physicalTarget,
      int sampleBlocks, Random random) throws IOException {
    int totalBlocks = 0;
    for (Run r : v.runs) {
      for (Segment s : r.segments) {
        totalBlocks += s.blockCount();
      }
    }
    if (totalBlocks == 0) {
      return new Plan(HotThreshold.ALL, HotThreshold.ALL);
    }
    int[] picks = pickBlocks(totalBlocks, sampleBlocks, random);
    long decayNow = clock.decayAt(now);
    Sample sample = new Sample();
    AccessRecord rec = new AccessRecord();
    int global = 0;
    int p = 0;
    for (Run r : v.runs) {
      for (Segment s : r.segments) {
        int n = s.blockCount();
        while (p < picks.length && picks[p] < global + n) {
          byte[] block = s.readBlock(picks[p] - global);
          int pos = 8;
          int end = 8 + Segment.getInt(block, 0);
          while (pos < end) {
            pos += rec.decode(block, pos);
            sample.recordBytes += rec.encodedSize();
            if (hotInDeeperRun(v, r, rec)) {
              continue; // the deeper copy stands for the key; counting both would double it
            }
            boolean stable = rec.isStable(decayNow);
            sample.add(stable, clock.rank(rec, stable, decayNow), rec.hotSize(), rec.encodedSize());
          }
          p++;
        }
        global += n;
      }
    }
    if (sample.size == 0) {
      return new Plan(HotThreshold.ALL, HotThreshold.ALL);
    }
    // Scale the sample to the whole tracker by record bytes; the physical target is in file bytes.
    double scale = (double) v.recordBytes / sample.recordBytes;
    double recordShare = v.fileBytes == 0 ? 1 : (double) v.recordBytes / v.fileBytes;
    Integer[] order = sample.orderByRankDescending();
    HotThreshold hot = sample.threshold(order, sample.hot, hotTarget / scale);
    HotThreshold keep = sample.threshold(order, sample.physical, physicalTarget * recordShare / scale);
    return new Plan(hot.max(keep), keep);
  }

  private static boolean hotInDeeperRun(Version v, Run of, AccessRecord rec) {
    byte[] key = null;
    long hash = 0;
    for (Run d : v.runs) {
      if (d.level <= of.level) {
        continue;
      }
      if (key == null) {
        key = rec.keyCopy();
        hash = KeyHash.hash(key);
      }
      Segment s = d.find(key);
      if (s != null && s.mightBeHot(hash)) {
        return true;
      }
    }
    return false;
  }

  private static int[] pickBlocks(int total, int want, Random random) {
    if (want >= total) {
      int[] all = new int[total];
      for (int i = 0; i < total; i++) {
        all[i] = i;
      }
      return all;
    }
    int[] picks = new int[want];
    for (int i = 0; i < want; i++) {
      picks[i] = random.nextInt(total);
    }
    Arrays.sort(picks);
    return picks;
  }

  private static final class Sample {
    int size;
    boolean[] stable = new boolean[1024];
    double[] rank = new double[1024];
    long[] hot = new long[1024];
    long[] physical = new long[1024];
    /** Bytes of every record read, including those left out of the sample. */
    long recordBytes;

    void add(boolean s, double r, long h, int phys) {
      if (size == stable.length) {
        int n = size * 2;
        stable = Arrays.copyOf(stable, n);
        rank = Arrays.copyOf(rank, n);
        hot = Arrays.copyOf(hot, n);
        physical = Arrays.copyOf(physical, n);
      }
      stable[size] = s;
      rank[size] = r;
      hot[size] = h;
      physical[size] = phys;
      size++;
    }

    Integer[] orderByRankDescending() {
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> HotThreshold.compareRank(stable[b], rank[b], stable[a], rank[a]));
      return order;
    }

    /** The rank of the last sampled record that still fits {@code budget}, in sample units. */
    HotThreshold threshold(Integer[] order, long[] sizes, double budget) {
      double sum = 0;
      int last = -1;
      for (Integer i : order) {
        sum += sizes[i];
        if (sum > budget) {
          break;
        }
        last = i;
      }
      if (sum <= budget) {
        return HotThreshold.ALL;
      }
      if (last < 0) {
        return new HotThreshold(true, Double.POSITIVE_INFINITY);
      }
      return new HotThreshold(stable[last], rank[last]);
    }
  }
}
