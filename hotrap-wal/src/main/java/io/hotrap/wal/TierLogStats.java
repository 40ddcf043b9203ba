package io.hotrap.wal;

/**
 * A snapshot of a {@link TierLog}'s size and work, from {@link TierLog#stats()}. Counts of work
 * are since open.
 *
 * <p>Immutable.
 *
 * @param segments segment files, the open one included
 * @param packedSegments of those, packed (compressed or trimmed)
 * @param totalBytes bytes of every segment file: the numerator of λ
 * @param liveBytes estimate of the bytes live records take: each segment's bytes times its share
 *     of live records
 * @param liveRecords records not yet marked dead
 * @param compressedBytes bytes of the segments packed with a codec other than {@link Codec#NONE}
 * @param compressedRecordBytes bytes those segments' records take uncompressed
 * @param memoryTierBytes the tier size λ is measured against
 * @param appendedRecords records appended
 * @param appendedBytes their encoded bytes
 * @param writes writes to raw segments (a group commit writes once per segment it touches)
 * @param syncs forces asked for by {@link Durability#SYNCED} appends and flushes
 * @param compressions sealed segments packed
 * @param trims segments rewritten by trim
 * @param trimRounds passes in which trim rewrote at least one segment
 * @param trimmedBytes bytes trim reclaimed
 * @param deletedSegments segments deleted because all their records were dead
 */
public record TierLogStats(
    int segments,
    int packedSegments,
    long totalBytes,
    long liveBytes,
    long liveRecords,
    long compressedBytes,
    long compressedRecordBytes,
    long memoryTierBytes,
    long appendedRecords,
    long appendedBytes,
    long writes,
    long syncs,
    long compressions,
    long trims,
    long trimRounds,
    long trimmedBytes,
    long deletedSegments) {

  /** λ, the log's size over the memory tier's. */
  public double amplification() {
    return (double) totalBytes / memoryTierBytes;
  }

  /** Compressed over uncompressed bytes of the compressed segments, or 1 if there are none. */
  public double compressionRatio() {
    return compressedRecordBytes == 0 ? 1 : (double) compressedBytes / compressedRecordBytes;
  }
}
