package io.hotrap.bench.report;

/**
 * Two references for a run's fast hit rate, computed by replaying the run's own operations, with
 * the same capacity as the distribution oracle ({@code oracle_hit_rate}): as many records as the
 * hot-set limit holds.
 *
 * <ul>
 *   <li>{@code belady_hit_rate} ({@link BeladyMin}): the best any placement can do on this very
 *       sequence, knowing the future; the physical limit of the run. It is usually well above the
 *       oracle, even for accesses drawn independently from a fixed distribution: the oracle's
 *       fixed hottest set is the best an online policy can do there (Aho, Denning and Ullman,
 *       "Principles of optimal page replacement", JACM 18(1), 1971), while MIN knows when each
 *       record comes back. It also follows phase changes and pays for every record's first
 *       access, which the oracle does not.
 *   <li>{@code lru_hit_rate} ({@link ExactLru}): an exact LRU, the simplest online policy.
 * </ul>
 *
 * <p>The sequence ({@link AccessSequence}) is every operation of the run phase in the order the
 * client threads issued it. Gets are the measured events; a write (insert or update) also puts
 * its record in the fast set, since it lands on the fast tier, but is neither a hit nor a miss.
 * The hit rate is taken over the final 10% of the run's gets (the harness's fast hit rate covers
 * the final 10% of the run's seconds, the same span at a steady rate), with everything before
 * warming the placement. Both are NaN, with the reason ({@link #unavailable}), when the run had no
 * get or its sequence was not kept whole: the harness keeps at most 50 million operations (200 MB)
 * and record ids up to {@link Integer#MAX_VALUE}, and reports NaN rather than replay a sample,
 * whose warm-up and window would differ from the run's. Replaying takes O(n log n) time (about a
 * second for 10 million operations) after the run, outside its measured time.
 *
 * @param belady Belady's MIN hit rate, NaN when unavailable
 * @param lru the LRU hit rate, NaN when unavailable
 * @param unavailableReason why the rates are NaN, or null when they were computed
 */
public record ReplayHitRates(double belady, double lru, String unavailableReason) {

  /** Replays {@code seq} with room for {@code capacityRecords} records. */
  public static ReplayHitRates of(AccessSequence seq, long capacityRecords) {
    if (seq.countedGets() == 0) {
      return unavailable("the run issued no get");
    }
    return new ReplayHitRates(seq.hitRate(BeladyMin.hits(seq, capacityRecords)),
        seq.hitRate(ExactLru.hits(seq, capacityRecords)), null);
  }

  /** NaN rates, for the reason given. */
  public static ReplayHitRates unavailable(String reason) {
    return new ReplayHitRates(Double.NaN, Double.NaN, reason);
  }
}
