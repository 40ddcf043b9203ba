package io.hotrap.wal;

/**
 * How far an append has travelled when the call that asked for it returns.
 *
 * <p>Records reach the file in sequence order, so a level reached by one record is reached by every
 * record appended before it, by any thread.
 */
public enum Durability {
  /**
   * Queued in the log's memory only: lost if the process dies. A later call asking for more, a
   * {@link TierLog#flush}, or {@link TierLog#close} writes it.
   */
  BUFFERED,
  /** Handed to the operating system with one write: survives a process crash, not a power loss. */
  WRITTEN,
  /** Written and forced to the device (fdatasync): survives a power loss. */
  SYNCED
}
