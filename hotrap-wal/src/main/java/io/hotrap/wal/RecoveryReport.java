package io.hotrap.wal;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link TierLog#open} found and did: how many records it replayed, and every place where
 * the files were not as written.
 *
 * <p>Immutable.
 *
 * @param segments segments kept after recovery
 * @param replayedRecords live records handed to the replay consumer
 * @param deadRecords records present in the files but marked dead before the restart, not replayed
 * @param truncatedBytes bytes cut off the newest segment as a torn tail
 * @param truncatedRecords records cut with it: a torn tail is by definition the one record whose
 *     write did not complete (zeros the file system left where it should be included), so 1 per
 *     torn tail
 * @param damages every torn tail, corrupt record and unreadable liveness file, in file order
 */
public record RecoveryReport(int segments, long replayedRecords, long deadRecords,
    long truncatedBytes, long truncatedRecords, List<Damage> damages) {

  public RecoveryReport {
    damages = List.copyOf(damages);
  }

  /** True if every file was intact. */
  public boolean clean() {
    return damages.isEmpty();
  }

  /** Damage found in one file. */
  public enum Kind {
    /**
     * The newest raw segment ended in a partial or unverifiable record; it was cut at {@code
     * offset}, dropping {@code bytes}. Expected after a crash during a write that was not synced.
     */
    TORN_TAIL,
    /**
     * A record (or a block, or a header) failed its checks with data after it. Replay of that
     * segment stopped at {@code offset}; the {@code bytes} from there to the end of the file were
     * not replayed. The file is left as it is (renamed to {@code *.damaged} if nothing in it was
     * readable) and replay went on with the next segment.
     */
    CORRUPT,
    /**
     * The saved bitmaps could not be read, so every record present counted as live (more is
     * replayed than needed, nothing less).
     */
    LIVENESS_LOST
  }

  /**
   * One damaged place.
   *
   * @param file the file
   * @param offset where valid data ends
   * @param kind what it was
   * @param bytes bytes dropped (torn tail) or not replayed (corruption)
   * @param reason what the check found
   */
  public record Damage(Path file, long offset, Kind kind, long bytes, String reason) {}
}
