package io.hotrap.core;

/**
 * Step 3 of a tier migration (DESIGN.md §7, HotRAP §3.3): while a key range of the fast tier is
 * being migrated, hot entries of the mutable promotion cache in that range that the fast tier does
 * not hold and that were not updated are written into the fast tier. Runs on the migrator thread
 * after the range's demotions committed, with the migration's {@link UpdatedKeys} still registered;
 * writes must go through {@link CommitGate#commit}. {@link Promoter} implements it; {@link #NONE} when
 * promotion is off.
 */
interface PromotionByCompaction {

  PromotionByCompaction NONE = (smallest, largest, updated) -> 0;

  /**
   * Promotes the range's hot cached entries.
   *
   * @return bytes promoted
   */
  long promote(byte[] smallestKey, byte[] largestKey, UpdatedKeys updated) throws Exception;

  /**
   * Told by a migration step, on the migrator thread, of a record it demotes that RALT tracks as
   * read recently but not hot: its next read, from the slow tier, is a return and may be cached
   * for promotion even if the slow tier never served it before.
   */
  default void demotedAfterAccess(byte[] key, int recordBytes) { }
}
