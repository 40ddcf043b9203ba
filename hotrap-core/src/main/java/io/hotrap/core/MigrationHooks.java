package io.hotrap.core;

/**
 * Points inside a migration where tests stop the migrator to force an interleaving with user
 * writes deterministically. Every method runs on the migrator thread; the default does nothing.
 */
interface MigrationHooks {

  MigrationHooks NONE = new MigrationHooks() { };

  /** The migrator registered its updated-key set and took its snapshot of the fast tier. */
  default void afterSnapshot(byte[] smallestKey, byte[] largestKey) { }

  /** A demotion batch is about to take the commit gate. */
  default void beforeCommit(int batchIndex) { }

  /** A demotion batch was written and the commit gate released. */
  default void afterCommit(int batchIndex) { }

  /**
   * On the native path, the step's demotions are committed and registered, and the file is about
   * to be compacted so that the filter drops them.
   */
  default void beforeNativeCompaction(byte[] smallestKey, byte[] largestKey) { }

  /**
   * Wholly demoted files are about to leave the fast tier: automatic compactions of the fast tier
   * are off, and the checks that make the drop safe have not run yet.
   */
  default void beforeFileDrop() { }
}
