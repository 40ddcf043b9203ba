package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GroupCommitTest {

  /** Records each batch; can hold the first write until released. */
  private static final class RecordingWriter implements GroupCommit.Writer {
    final List<List<Long>> batches = new ArrayList<>();
    final List<Boolean> syncs = new ArrayList<>();
    final CountDownLatch firstWriteStarted = new CountDownLatch(1);
    final CountDownLatch releaseFirstWrite = new CountDownLatch(1);
    volatile boolean holdFirst;
    volatile IOException fail;

    @Override
    public void write(List<PendingAppend> batch, boolean sync) throws IOException {
      boolean first;
      synchronized (this) {
        first = batches.isEmpty();
        List<Long> seqs = new ArrayList<>();
        for (PendingAppend append : batch) {
          for (long seq : append.seqs()) {
            seqs.add(seq);
          }
        }
        batches.add(seqs);
        syncs.add(sync);
      }
      if (first && holdFirst) {
        firstWriteStarted.countDown();
        try {
          releaseFirstWrite.await();
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
      }
      if (fail != null) {
        throw fail;
      }
    }
  }

  private static PendingAppend append(long seq) {
    return PendingAppend.of(Records.record(seq, 10));
  }

  @Test
  void appendersQueuedDuringAWriteShareTheNextWriteAndForce() throws Exception {
    RecordingWriter writer = new RecordingWriter();
    writer.holdFirst = true;
    GroupCommit commit = new GroupCommit(writer, -1, 1 << 20);
    ExecutorService pool = Executors.newFixedThreadPool(9);
    try {
      Future<?> leader = pool.submit(() -> {
        commit.append(append(0), Durability.SYNCED);
        return null;
      });
      writer.firstWriteStarted.await();
      List<Future<?>> followers = new ArrayList<>();
      for (int i = 1; i <= 8; i++) {
        long seq = i;
        // One at a time, so sequence numbers queue in order.
        CountDownLatch queued = new CountDownLatch(1);
        followers.add(pool.submit(() -> {
          queued.countDown();
          commit.append(append(seq), Durability.SYNCED);
          return null;
        }));
        queued.await();
        while (commit.queued() < i) {
          Thread.onSpinWait();
        }
      }
      writer.releaseFirstWrite.countDown();
      leader.get();
      for (Future<?> follower : followers) {
        follower.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(List.of(List.of(0L), List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L)), writer.batches);
    assertEquals(List.of(true, true), writer.syncs);
  }

  @Test
  void bufferedAppendsWaitForTheNextFlush() throws IOException {
    RecordingWriter writer = new RecordingWriter();
    GroupCommit commit = new GroupCommit(writer, -1, 1 << 20);
    commit.append(append(1), Durability.BUFFERED);
    commit.append(append(2), Durability.BUFFERED);
    assertTrue(writer.batches.isEmpty());
    commit.flush(Durability.WRITTEN);
    assertEquals(List.of(List.of(1L, 2L)), writer.batches);
    assertEquals(List.of(false), writer.syncs);
    commit.flush(Durability.SYNCED); // written already: an empty batch that only forces
    assertEquals(List.of(List.of(1L, 2L), List.<Long>of()), writer.batches);
    assertEquals(List.of(false, true), writer.syncs);
    commit.flush(Durability.SYNCED);
    assertEquals(2, writer.batches.size());
  }

  @Test
  void bufferedAppendsBeyondTheLimitWriteThemselves() throws IOException {
    RecordingWriter writer = new RecordingWriter();
    GroupCommit commit = new GroupCommit(writer, -1, 0);
    commit.append(append(1), Durability.BUFFERED);
    assertEquals(List.of(List.of(1L)), writer.batches);
  }

  @Test
  void sequenceNumbersMustIncrease() throws IOException {
    GroupCommit commit = new GroupCommit(new RecordingWriter(), 10, 1 << 20);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> commit.append(append(10), Durability.WRITTEN));
    assertTrue(e.getMessage().contains("10"));
    commit.append(append(11), Durability.WRITTEN);
    assertEquals(11, commit.lastSeq());
  }

  @Test
  void aFailedWriteFailsEveryLaterCall() throws IOException {
    RecordingWriter writer = new RecordingWriter();
    IOException disk = new IOException("disk full");
    writer.fail = disk;
    GroupCommit commit = new GroupCommit(writer, -1, 1 << 20);
    IOException first = assertThrows(IOException.class,
        () -> commit.append(append(1), Durability.WRITTEN));
    assertSame(disk, first.getCause());
    writer.fail = null;
    IOException later = assertThrows(IOException.class,
        () -> commit.append(append(2), Durability.BUFFERED));
    assertSame(disk, later.getCause());
    assertThrows(IOException.class, () -> commit.flush(Durability.WRITTEN));
  }

  @Test
  void closeSyncsWhatIsQueuedAndRefusesMore() throws IOException {
    RecordingWriter writer = new RecordingWriter();
    GroupCommit commit = new GroupCommit(writer, -1, 1 << 20);
    commit.append(append(1), Durability.BUFFERED);
    commit.close();
    assertEquals(List.of(List.of(1L)), writer.batches);
    assertEquals(List.of(true), writer.syncs);
    assertThrows(IllegalStateException.class,
        () -> commit.append(append(2), Durability.BUFFERED));
    commit.close();
    assertEquals(1, writer.batches.size());
  }
}
