package io.hotrap.core;

import io.hotrap.ralt.HotKeyIterator;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltOptions;
import io.hotrap.ralt.RaltStats;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The store's view of RALT: records accesses and answers hotness questions, and degrades instead of
 * failing (DESIGN.md §11). If RALT cannot be opened, or any call throws, the tracker switches itself
 * off: accesses are no longer recorded, every record counts as cold, reads and writes go on, and the
 * failure is logged once and visible in {@link #available()} and {@link #failures()}.
 *
 * <p>Thread-safe as far as {@link Ralt} is; the switch-off is a volatile flag.
 */
final class AccessTracker implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(AccessTracker.class.getName());

  private final Ralt ralt;
  private final LongAdder failures = new LongAdder();
  private volatile boolean available;
  private volatile String unavailableReason;

  private AccessTracker(Ralt ralt, String reason) {
    this.ralt = ralt;
    this.available = ralt != null;
    this.unavailableReason = reason;
  }

  static AccessTracker open(RaltOptions options) {
    try {
      java.nio.file.Files.createDirectories(options.directory());
      return new AccessTracker(Ralt.open(options), null);
    } catch (java.io.IOException | RuntimeException | Error e) {
      if (e instanceof VirtualMachineError) {
        throw (VirtualMachineError) e;
      }
      LOG.log(Level.WARNING, "RALT could not be opened in " + options.directory()
          + "; the store runs without access tracking (every record counts as cold)", e);
      AccessTracker t = new AccessTracker(null, e.toString());
      t.failures.increment();
      return t;
    }
  }

  /** Whether accesses are tracked. */
  boolean available() {
    return available;
  }

  /** Why tracking is off, or null. */
  String unavailableReason() {
    return unavailableReason;
  }

  long failures() {
    return failures.sum();
  }

  void record(byte[] key, int valueLength) {
    if (!available) {
      return;
    }
    try {
      ralt.record(key, valueLength);
    } catch (RuntimeException e) {
      fail("record", e);
    }
  }

  boolean isHot(byte[] key) {
    if (!available) {
      return false;
    }
    try {
      return ralt.isHot(key);
    } catch (RuntimeException e) {
      fail("isHot", e);
      return false;
    }
  }

  /** Hot and stable (seen repeatedly), the test promotion applies; false when RALT is unavailable. */
  boolean isStableHot(byte[] key) {
    if (!available) {
      return false;
    }
    try {
      return ralt.isStableHot(key);
    } catch (RuntimeException e) {
      fail("isStableHot", e);
      return false;
    }
  }

  long hotSizeInRange(byte[] lowInclusive, byte[] highInclusive) {
    if (!available) {
      return 0;
    }
    try {
      return ralt.hotSizeInRange(lowInclusive, highInclusive);
    } catch (RuntimeException e) {
      fail("hotSizeInRange", e);
      return 0;
    }
  }

  /** Hot keys of the range, or null when tracking is off. */
  HotKeyIterator hotKeys(byte[] lowInclusive, byte[] highInclusive) {
    if (!available) {
      return null;
    }
    try {
      return ralt.hotKeys(lowInclusive, highInclusive);
    } catch (RuntimeException e) {
      fail("hotKeys", e);
      return null;
    }
  }

  /** RALT's hot-set limit, or 0 when tracking is off. */
  long hotSetLimit() {
    if (!available) {
      return 0;
    }
    try {
      return ralt.hotSetLimit();
    } catch (RuntimeException e) {
      fail("hotSetLimit", e);
      return 0;
    }
  }

  /** Hot bytes of RALT's hot set, or 0 when tracking is off. */
  long hotSetBytes() {
    if (!available) {
      return 0;
    }
    try {
      return ralt.hotSetBytes();
    } catch (RuntimeException e) {
      fail("hotSetBytes", e);
      return 0;
    }
  }

  /** RALT's statistics, or null when tracking is off. */
  RaltStats stats() {
    if (!available) {
      return null;
    }
    try {
      return ralt.stats();
    } catch (RuntimeException e) {
      fail("stats", e);
      return null;
    }
  }

  void awaitQuiescence() {
    if (!available) {
      return;
    }
    try {
      ralt.awaitQuiescence();
    } catch (RuntimeException e) {
      fail("awaitQuiescence", e);
    }
  }

  /** {@code Ralt.flushIfBuffered}: recent accesses made visible once they fill that share. */
  void flushIfBuffered(double minBufferShare) {
    if (!available) {
      return;
    }
    try {
      ralt.flushIfBuffered(minBufferShare);
    } catch (RuntimeException e) {
      fail("flushIfBuffered", e);
    }
  }

  /** Switches tracking off after a failure of {@code operation}. */
  void fail(String operation, RuntimeException e) {
    failures.increment();
    if (available) {
      available = false;
      unavailableReason = operation + ": " + e;
      LOG.log(Level.WARNING, "RALT failed in " + operation
          + "; access tracking is off until the store is reopened", e);
    }
  }

  @Override
  public void close() {
    available = false;
    unavailableReason = "closed";
    if (ralt != null) {
      try {
        ralt.close();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "RALT failed to close", e);
      }
    }
  }
}
