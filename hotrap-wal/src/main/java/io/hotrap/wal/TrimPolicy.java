package io.hotrap.wal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Decides when to trim the log and which sealed segments to rewrite: WAL-assisted tiering's
 * background KV trim (§3.2.1).
 *
 * <p>The log's amplification is λ = log bytes / memory-tier bytes. Once λ exceeds the trigger
 * λ_t, segments are rewritten, keeping only their live records, lowest live share first, until the
 * projected λ is at most the target λ_s. A rewrite is projected to shrink a segment to its live
 * share of its bytes. A segment whose dead records are fewer than {@value #MIN_RECLAIM_PERCENT}% is never
 * chosen: when the live records alone exceed λ_s times the tier (a tier larger than configured,
 * say) the target cannot be met, and without that floor every new dead record would buy another
 * rewrite of a nearly full segment.
 *
 * <p>Pure and immutable; safe for any number of threads.
 */
final class TrimPolicy {

  /** Least dead share worth a rewrite: at most 9 bytes written per byte reclaimed. */
  static final int MIN_RECLAIM_PERCENT = 10;

  /**
   * A sealed segment as the policy sees it.
   *
   * @param base its first sequence number, which orders ties oldest first
   * @param fileBytes its size on disk
   * @param present records in its file
   * @param live records of those still live
   */
  record Candidate(long base, long fileBytes, int present, int live) {
    double liveShare() {
      return present == 0 ? 0 : (double) live / present;
    }

    /** True if at least {@value #MIN_RECLAIM_PERCENT}% of its records are dead. */
    boolean worthRewriting() {
      return (present - live) * 100L >= (long) MIN_RECLAIM_PERCENT * present;
    }

    long projectedBytes() {
      return (long) Math.ceil(fileBytes * liveShare());
    }
  }

  private static final Comparator<Candidate> LOWEST_LIVE_SHARE_FIRST =
      Comparator.comparingDouble(Candidate::liveShare).thenComparingLong(Candidate::base);

  private final double triggerRatio;
  private final double targetRatio;

  TrimPolicy(double triggerRatio, double targetRatio) {
    if (!(targetRatio < triggerRatio)) {
      throw new IllegalArgumentException("target ratio " + targetRatio
          + " must be below trigger ratio " + triggerRatio);
    }
    this.triggerRatio = triggerRatio;
    this.targetRatio = targetRatio;
  }

  /** True if a log of {@code logBytes} over a tier of {@code memoryTierBytes} must be trimmed. */
  boolean triggered(long logBytes, long memoryTierBytes) {
    return logBytes > triggerRatio * memoryTierBytes;
  }

  /**
   * The segments to rewrite, in order; empty unless {@link #triggered}.
   *
   * @param sealed the sealed segments (any order)
   * @param logBytes every segment's bytes, the open one's included
   */
  List<Candidate> choose(List<Candidate> sealed, long logBytes, long memoryTierBytes) {
    List<Candidate> chosen = new ArrayList<>();
    if (!triggered(logBytes, memoryTierBytes)) {
      return chosen;
    }
    double target = targetRatio * memoryTierBytes;
    List<Candidate> ordered = new ArrayList<>(sealed);
    ordered.sort(LOWEST_LIVE_SHARE_FIRST);
    long projected = logBytes;
    for (Candidate candidate : ordered) {
      if (projected <= target || !candidate.worthRewriting()) {
        break; // sorted, so every later one reclaims even less
      }
      chosen.add(candidate);
      projected -= candidate.fileBytes() - candidate.projectedBytes();
    }
    return chosen;
  }
}
