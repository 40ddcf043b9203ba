package io.hotrap.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

/** Runs a body on several threads released at once, for tests of shared counters and marks. */
public final class Together {
  private Together() {}

  /**
   * Starts {@code threads} threads named {@code name-t}, releases them together into
   * {@code body.accept(t)} and returns when all have finished.
   */
  public static void run(int threads, String name, IntConsumer body) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int index = t;
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        body.accept(index);
      }, name + "-" + t);
      thread.start();
      started.add(thread);
    }
    start.countDown();
    for (Thread thread : started) {
      thread.join();
    }
  }
}
