package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CommitGateTest {
  private static final byte[] K = "k".getBytes(StandardCharsets.UTF_8);

  @Test
  void aCommitWaitsForAWriterInsideTheGateAndThenSeesItsKey() throws Exception {
    CommitGate gate = new CommitGate(new StripedWriteCounters(16));
    UpdatedKeys updated = gate.registerMover();
    gate.enterWriter(); // the writer's RocksDB write happened; marking not yet
    AtomicBoolean sawKey = new AtomicBoolean();
    CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
      try {
        gate.commit(() -> sawKey.set(updated.contains(K)));
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    while (!gate.hasWaitingMover()) {
      Thread.onSpinWait();
    }
    assertFalse(commit.isDone(), "the commit must not run inside a writer's sequence");
    gate.markWritten(K);
    gate.exitWriter();
    commit.get(10, TimeUnit.SECONDS);
    assertTrue(sawKey.get(), "the commit sees the concurrent write completely");
  }

  @Test
  void markingBumpsTheStripeCounterAndReachesEveryRegisteredMover() {
    StripedWriteCounters counters = new StripedWriteCounters(16);
    CommitGate gate = new CommitGate(counters);
    UpdatedKeys a = gate.registerMover();
    UpdatedKeys b = gate.registerMover();
    long before = counters.counter(counters.stripeOf(K));
    gate.enterWriter();
    gate.markWritten(K);
    gate.exitWriter();
    assertTrue(counters.counter(counters.stripeOf(K)) == before + 1);
    assertTrue(a.contains(K) && b.contains(K));
    gate.unregisterMover(a);
    UpdatedKeys c = gate.registerMover();
    assertFalse(c.contains(K), "a mover registered later sees only later writes");
  }
}
