package io.hotrap.core;

import io.hotrap.ralt.HotKeyIterator;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltOptions;
import io.hotrap.ralt.RaltStats;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The store's view of RALT: records accesses and answers hotness questions, and degrades instead of
 * failing (DESIGN.md §11). If RALT cannot be opened, or a call fails (RALT's own failure, such as
 * its background thread dying, surfaces as an exception of the next call), the tracker switches
 * itself off: accesses are no longer recorded, every record counts as cold, reads and writes go on,
 * and the failure is logged once and visible in {@link #available()} and {@link #failures()}. A
 * single access record RALT rejects is skipped, not a reason to switch off.
 *
 * <p>Thread-safe as far as {@link Ralt} is; the switch-off is a volatile flag.
 */
final class AccessTracker implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(AccessTracker.class.getName());

  private final Ralt ralt;
  private final LongAdder failures = new LongAdder();
  private final LongAdder rejectedTotal = new LongAdder();
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

  /**
   * Logs one access; {@code missedFast} when the fast tier (memory tier, fast column families,
   * promotion cache) could not serve it, which paces RALT's counters ({@link Ralt#record(byte[],
   * int, boolean)}). A record RALT rejects as malformed (an {@link IllegalArgumentException}) is
   * skipped and counted in {@link #rejectedRecords()}; tracking stays on: one bad record must not
   * cost the store its tracking.
   */
  void record(byte[] key, int valueLength, boolean missedFast) {
    if (!available) {
      return;
    }
    try {
      ralt.record(key, valueLength, missedFast);
    } catch (IllegalArgumentException e) {
      if (rejectedTotal.sum() == 0) {
        LOG.log(Level.WARNING, "RALT rejected an access record; such records are skipped", e);
      }
      rejectedTotal.increment();
    } catch (RuntimeException e) {
      fail("record", e);
    }
  }

  /** Access records RALT rejected as malformed since open. */
  long rejectedRecords() {
    return rejectedTotal.sum();
  }

  boolean isHot(byte[] key) {
    return call("isHot", false, () -> ralt.isHot(key));
  }

  /** Hot and stable (seen repeatedly), the test promotion applies; false when RALT is unavailable. */
  boolean isStableHot(byte[] key) {
    return call("isStableHot", false, () -> ralt.isStableHot(key));
  }

  long hotSizeInRange(byte[] lowInclusive, byte[] highInclusive) {
    return call("hotSizeInRange", 0L, () -> ralt.hotSizeInRange(lowInclusive, highInclusive));
  }

  /** Hot keys of the range, or null when tracking is off. */
  HotKeyIterator hotKeys(byte[] lowInclusive, byte[] highInclusive) {
    return call("hotKeys", null, () -> ralt.hotKeys(lowInclusive, highInclusive));
  }

  /** Every tracked key of the range, hot or not, or null when tracking is off. */
  HotKeyIterator trackedKeys(byte[] lowInclusive, byte[] highInclusive) {
    return call("trackedKeys", null, () -> ralt.trackedKeys(lowInclusive, highInclusive));
  }

  /** RALT's hot-set limit, or 0 when tracking is off. */
  long hotSetLimit() {
    return call("hotSetLimit", 0L, () -> ralt.hotSetLimit());
  }

  /** Hot bytes of RALT's hot set, or 0 when tracking is off. */
  long hotSetBytes() {
    return call("hotSetBytes", 0L, () -> ralt.hotSetBytes());
  }

  /** RALT's statistics, or null when tracking is off. */
  RaltStats stats() {
    return call("stats", null, () -> ralt.stats());
  }

  void awaitQuiescence() {
    call("awaitQuiescence", null, () -> {
      ralt.awaitQuiescence();
      return null;
    });
  }

  /** {@code Ralt.flushIfBuffered}: recent accesses made visible once they fill that share. */
  void flushIfBuffered(double minBufferShare) {
    call("flushIfBuffered", false, () -> ralt.flushIfBuffered(minBufferShare));
  }

  /**
   * Runs one RALT call, or answers {@code whenOff} when tracking is off or the call fails (which
   * switches tracking off). Callers pass lambdas, not bound method references: {@code ralt} is
   * null when RALT could not be opened.
   */
  private <T> T call(String operation, T whenOff, Supplier<T> call) {
    if (!available) {
      return whenOff;
    }
    try {
      return call.get();
    } catch (RuntimeException e) {
      fail(operation, e);
      return whenOff;
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
