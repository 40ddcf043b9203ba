package io.hotrap.jni;

import static io.hotrap.jni.FilteredDb.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers, movers and unrelated set churn against flushes and compactions that run all the time.
 * Each key has one thread that acts as both its writer (remove, then put) and its mover (register
 * the key's latest value), so its expected fate is known exactly: at the end, after one last full
 * compaction, a key whose latest value is registered is gone, and every other key holds its latest
 * value. Values come from a tiny alphabet, so a writer often stores the very bytes that were
 * registered before; only the removal keeps such a write.
 */
@Timeout(60)
class DemotionConcurrencyTest {
  private static final int WRITERS = 4;
  private static final int CHURNERS = 2;
  private static final int KEYS_PER_WRITER = 64;
  private static final int OPS_PER_WRITER = 20_000;
  private static final int MIN_COMPACTION_ROUNDS = 5;
  private static final String[] VALUES = {"v0", "v1", "v2"};

  @TempDir Path dir;

  @BeforeEach
  void requireNative() {
    NativeAssumptions.assumeNativeHooks();
  }

  /** The expected fate of one key, touched by its owning thread only. */
  private static final class KeyState {
    String latest; // null until first written
    boolean registered; // (key, hash(latest)) is in the set
  }

  private static String key(int writer, int k) {
    return "w" + writer + "-k" + k;
  }

  @Test
  void onlyRegisteredLatestVersionsAreDroppedWhileEverythingRunsAtOnce() throws Exception {
    KeyState[][] states = new KeyState[WRITERS][KEYS_PER_WRITER];
    AtomicBoolean writersDone = new AtomicBoolean();
    AtomicInteger compactionRounds = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + CHURNERS + 1);
    try (DemotionSet set = new DemotionSet();
        DemotionFilter filter = new DemotionFilter(set);
        FilteredDb db =
            FilteredDb.open(
                dir,
                filter,
                options ->
                    options.setWriteBufferSize(64 * 1024).setLevel0FileNumCompactionTrigger(2))) {
      Future<?> compactor =
          pool.submit(
              () -> {
                while (!writersDone.get()) {
                  db.flush();
                  db.compactRange();
                  compactionRounds.incrementAndGet();
                }
                return null;
              });
      List<Future<?>> churners = new ArrayList<>();
      for (int c = 0; c < CHURNERS; c++) {
        int seed = 100 + c;
        churners.add(
            pool.submit(
                () -> {
                  Random random = new Random(seed);
                  while (!writersDone.get()) {
                    byte[] noise = bytes("noise-" + seed + "-" + random.nextInt(5_000));
                    if (random.nextBoolean()) {
                      set.add(noise, random.nextLong());
                    } else {
                      set.remove(noise);
                    }
                  }
                  return null;
                }));
      }
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        for (int k = 0; k < KEYS_PER_WRITER; k++) {
          states[writer][k] = new KeyState();
        }
        writers.add(
            pool.submit(
                () -> {
                  Random random = new Random(writer);
                  for (int op = 0;
                      op < OPS_PER_WRITER || compactionRounds.get() < MIN_COMPACTION_ROUNDS;
                      op++) {
                    int k = random.nextInt(KEYS_PER_WRITER);
                    KeyState state = states[writer][k];
                    byte[] key = bytes(key(writer, k));
                    if (random.nextInt(3) > 0 || state.latest == null) {
                      String value = VALUES[random.nextInt(VALUES.length)];
                      set.remove(key); // the writer's side of the protocol: before the write
                      db.db.put(db.fast, key, bytes(value));
                      state.latest = value;
                      state.registered = false;
                    } else {
                      set.add(key, ValueHash.of(bytes(state.latest)));
                      state.registered = true;
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> writer : writers) {
        writer.get();
      }
      writersDone.set(true);
      compactor.get();
      for (Future<?> churner : churners) {
        churner.get();
      }

      db.compactRange();

      int registered = 0;
      for (int w = 0; w < WRITERS; w++) {
        for (int k = 0; k < KEYS_PER_WRITER; k++) {
          KeyState state = states[w][k];
          String actual = db.get(key(w, k));
          if (state.registered) {
            registered++;
            assertNull(actual, key(w, k) + " was registered with its latest value");
            assertTrue(set.contains(bytes(key(w, k)), ValueHash.of(bytes(state.latest))));
          } else {
            assertEquals(state.latest, actual, key(w, k));
          }
        }
      }
      assertTrue(compactionRounds.get() >= MIN_COMPACTION_ROUNDS);
      assertTrue(registered > 0, "some keys end registered");
      assertTrue(filter.recordsDropped() >= registered, "every registered key was dropped once");
      assertTrue(filter.recordsSeen() > filter.recordsDropped());
    } finally {
      pool.shutdownNow();
    }
  }
}
