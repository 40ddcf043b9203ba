package io.hotrap.wal;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Simulates the log's size and trim cost for several target ratios λ_s, to choose the default in
 * {@link TierLogOptions}. Not a test; run with
 *
 * <pre>
 * mvn -q -pl hotrap-wal test-compile
 * java -cp hotrap-wal/target/classes:hotrap-wal/target/test-classes io.hotrap.wal.TrimThresholdSimulation
 * </pre>
 *
 * <p>Model: equal-sized records; the memory tier holds {@value #TIER} of them; each append of a new
 * record makes one other record dead once the tier is full. Which one dies follows one of two
 * shapes: uniformly at random among the live records (updates spread over the key space), or the
 * oldest live record half the time and a random one otherwise (an LSM tier, where the records
 * leaving L_m for the disk are mostly the oldest). Segments hold {@value #SEGMENT} records (a
 * 64 MiB segment against a 4 GiB tier, the paper's smaller setup); all-dead segments are deleted
 * free; once the log exceeds λ_t = 2.5 tiers, the real {@link TrimPolicy} picks the rewrites.
 * Reported per appended record: records rewritten by trims, trim rounds, and the log's mean and
 * peak size in tiers.
 */
public final class TrimThresholdSimulation {

  static final int TIER = 64_000;
  static final int SEGMENT = 1_000;
  static final int APPENDS = 40 * TIER;

  public static void main(String[] args) {
    System.out.println("deaths   lambda_s  rewritten/append  rounds/1k-appends  mean-log  peak-log");
    for (String shape : new String[] {"uniform", "oldest-tenth", "sticky-fifth"}) {
      for (double targetRatio : new double[] {1.25, 1.5, 1.75, 2.0, 2.25, 2.4}) {
        System.out.println(run(shape, targetRatio));
      }
    }
  }

  /** One record in five, chosen by a hash of its number, is ten times less likely to die. */
  private static boolean sticky(long seq) {
    return (seq * 0x9E3779B97F4A7C15L >>> 60) < 3;
  }

  static String run(String shape, double targetRatio) {
    TrimPolicy policy = new TrimPolicy(2.5, targetRatio);
    SplittableRandom random = new SplittableRandom(7);
    BitSet liveSeqs = new BitSet();
    long[] livePool = new long[TIER + 1];
    int[] poolIndex = new int[APPENDS + TIER + 1];
    int poolSize = 0;
    List<long[]> segments = new ArrayList<>(); // {base, present}
    long oldestCursor = 0;
    long rewritten = 0;
    long rounds = 0;
    double logSum = 0;
    long peak = 0;
    long logRecords = 0;
    for (long seq = 0; seq < APPENDS + TIER; seq++) {
      if (seq % SEGMENT == 0) {
        segments.add(new long[] {seq, 0});
      }
      segments.get(segments.size() - 1)[1]++;
      logRecords++;
      liveSeqs.set((int) seq);
      poolIndex[(int) seq] = poolSize;
      livePool[poolSize++] = seq;
      if (poolSize > TIER) {
        long victim;
        if (shape.equals("oldest-tenth") && random.nextInt(10) == 0) {
          victim = liveSeqs.nextSetBit((int) oldestCursor);
          oldestCursor = victim;
        } else {
          do {
            victim = livePool[random.nextInt(poolSize - 1)]; // never the one just appended
          } while (shape.equals("sticky-fifth") && sticky(victim) && random.nextInt(10) != 0);
        }
        liveSeqs.clear((int) victim);
        int at = poolIndex[(int) victim];
        long moved = livePool[--poolSize];
        livePool[at] = moved;
        poolIndex[(int) moved] = at;
      }
      if (seq % SEGMENT == SEGMENT - 1) {
        // seal: delete all-dead segments, then let the policy trim the sealed ones
        List<TrimPolicy.Candidate> sealed = new ArrayList<>();
        for (int i = segments.size() - 1; i >= 0; i--) {
          long[] s = segments.get(i);
          int live = liveSeqs.get((int) s[0], (int) s[0] + SEGMENT).cardinality();
          if (live == 0) {
            logRecords -= s[1];
            segments.remove(i);
          } else {
            sealed.add(new TrimPolicy.Candidate(s[0], s[1], (int) s[1], live));
          }
        }
        List<TrimPolicy.Candidate> chosen = policy.choose(sealed, logRecords, TIER);
        if (!chosen.isEmpty()) {
          rounds++;
        }
        for (TrimPolicy.Candidate c : chosen) {
          for (long[] s : segments) {
            if (s[0] == c.base()) {
              logRecords -= s[1] - c.live();
              s[1] = c.live();
              rewritten += c.live();
            }
          }
        }
      }
      if (seq >= TIER) {
        logSum += logRecords;
        peak = Math.max(peak, logRecords);
      }
    }
    return String.format(Locale.ROOT, "%-11s %5.2f  %16.3f  %17.2f  %8.2f  %8.2f", shape,
        targetRatio, (double) rewritten / APPENDS, rounds * 1000.0 / APPENDS,
        logSum / APPENDS / TIER, (double) peak / TIER);
  }
}
