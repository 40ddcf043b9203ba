package io.hotrap.ralt;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Byte counters of one tracker's files: read, written, and on disk right now; plus the largest
 * excess of disk bytes over the physical limit seen at any write. Thread-safe.
 */
final class IoStats {
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong bytesWritten = new AtomicLong();
  final AtomicLong diskBytes = new AtomicLong();
  final AtomicLong maxOvershoot = new AtomicLong();
  private final LongSupplier physicalLimit;

  IoStats(LongSupplier physicalLimit) {
    this.physicalLimit = physicalLimit;
  }

  void wrote(long bytes) {
    bytesWritten.addAndGet(bytes);
    long onDisk = diskBytes.addAndGet(bytes);
    long over = onDisk - physicalLimit.getAsLong();
    if (over > 0) {
      maxOvershoot.accumulateAndGet(over, Math::max);
    }
  }

  void read(long bytes) {
    bytesRead.addAndGet(bytes);
  }

  void deleted(long bytes) {
    diskBytes.addAndGet(-bytes);
  }

  void found(long bytes) {
    diskBytes.addAndGet(bytes);
  }
}
