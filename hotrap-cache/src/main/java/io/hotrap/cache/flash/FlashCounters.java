package io.hotrap.cache.flash;

import java.util.concurrent.atomic.LongAdder;

/**
 * The event counters of one cache, shared by its tiers and read by {@link FlashCache#stats()} and
 * {@link FlashCacheMetrics}. Counts start at zero on every open.
 */
final class FlashCounters {
  final LongAdder dramHits = new LongAdder();
  final LongAdder flashHits = new LongAdder();
  final LongAdder misses = new LongAdder();
  final LongAdder bypassedLookups = new LongAdder();
  final LongAdder corruptMisses = new LongAdder();
  final LongAdder flashBytesWritten = new LongAdder();
  final LongAdder flashItemsAdmitted = new LongAdder();
  final LongAdder flashBytesAdmitted = new LongAdder();
  final LongAdder reinsertions = new LongAdder();
  final LongAdder reinsertedBytes = new LongAdder();
  final LongAdder regionEvictions = new LongAdder();
  final LongAdder evictions = new LongAdder();
  final LongAdder droppedInserts = new LongAdder();
  final LongAdder groupInvalidations = new LongAdder();
  final LongAdder purgedItems = new LongAdder();
  final LongAdder ioErrors = new LongAdder();
  volatile long restoredItems;
  volatile long rejectedCheckpoints;
}
