package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background thread failing: an exception costs that task only; an {@link Error} stops
 * tracking, and then every call fails fast instead of waiting for a thread that no longer works.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerFailureTest {
  @TempDir Path dir;

  private Ralt open() {
    return Ralt.open(RaltOptions.builder().directory(dir).fastDiskBytes(64L << 20)
        .bufferBytes(64 * 1024).build());
  }

  private static byte[] key(int i) {
    return String.format("key%08d", i).getBytes();
  }

  @Test
  void anErrorInTheBackgroundThreadMakesCallsFailInsteadOfHanging() {
    AssertionError injected = new AssertionError("injected");
    Ralt ralt = open();
    ralt.beforeTask = task -> {
      if (task instanceof AccessBuffer) {
        throw injected;
      }
    };
    IllegalStateException failed = null;
    // Far more buffers than the hand-off queue holds: before the fix the producer blocked forever.
    for (int i = 0; i < 200_000 && failed == null; i++) {
      try {
        ralt.record(key(i), 100);
      } catch (IllegalStateException e) {
        failed = e;
      }
    }
    assertTrue(failed != null, "record kept accepting accesses after the thread died");
    assertSame(injected, failed.getCause());
    assertThrows(IllegalStateException.class, () -> ralt.isHot(key(1)));
    assertThrows(IllegalStateException.class, ralt::awaitQuiescence);
    ralt.close();
    ralt.close();
  }

  @Test
  void anExceptionInOneTaskLeavesTrackingRunning() {
    AtomicInteger failures = new AtomicInteger();
    try (Ralt ralt = open()) {
      ralt.beforeTask = task -> {
        if (task instanceof AccessBuffer && failures.getAndIncrement() < 5) {
          throw new UncheckedIOException(new IOException("injected"));
        }
      };
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 20_000; i++) {
          ralt.record(key(i % 2000), 100);
        }
      }
      ralt.awaitQuiescence();
      assertTrue(failures.get() > 5, "the hook saw " + failures.get() + " buffers");
      assertTrue(ralt.isHot(key(7)), "accesses after the failed tasks are tracked");
    }
  }
}
