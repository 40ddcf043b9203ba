package io.hotrap.core;

import io.hotrap.cache.ImmutablePromotionCache;
import io.hotrap.cache.PromotionCache;
import java.util.List;

/**
 * Points inside promotion where tests stop a reader or the promoter to force an interleaving with
 * user writes deterministically. The default does nothing.
 */
interface PromotionHooks {

  PromotionHooks NONE = new PromotionHooks() { };

  /** A reader found {@code key} in the slow tier and is about to offer it to the promotion cache. */
  default void afterSlowRead(byte[] key) { }

  /** The checker of promotion by flush chose its candidates and is about to take the commit gate. */
  default void beforeFlushCommit(ImmutablePromotionCache immutable) { }

  /**
   * Promotion by compaction took the mutable cache's entries of a migrated range and is about to
   * take the commit gate (on the migrator thread).
   */
  default void beforeCompactionCommit(List<PromotionCache.Entry> taken) { }
}
