package io.hotrap.core;

/**
 * The points inside migration and promotion where tests stop a mover to force an interleaving with
 * user writes deterministically. A package-private seam of {@link HotRapDB#open(HotRapOptions,
 * StoreHooks)}, kept out of the user's options; {@link #NONE} does nothing.
 */
record StoreHooks(MigrationHooks migration, PromotionHooks promotion) {
  static final StoreHooks NONE = new StoreHooks(MigrationHooks.NONE, PromotionHooks.NONE);

  static StoreHooks migration(MigrationHooks hooks) {
    return new StoreHooks(hooks, PromotionHooks.NONE);
  }

  static StoreHooks promotion(PromotionHooks hooks) {
    return new StoreHooks(MigrationHooks.NONE, hooks);
  }
}
