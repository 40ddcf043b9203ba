package io.hotrap.jni;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.Status;

/**
 * SAS-Cache's compaction-aware prefetch (§IV-E; DESIGN §14): when a flush or a compaction writes
 * new SST files, the blocks of those files that hold recently read keys are read into the block
 * cache, so that a hot record whose block was rewritten is found in the cache (and, once the
 * block cache evicts it, in the secondary cache under it) instead of costing the next reader a
 * slow-disk read.
 *
 * <p>What is read. SAS-Cache reads every block of every new file through a secondary instance. On
 * a disk whose limit is I/O operations, not bytes, a whole small file costs one read, but every
 * block it brings in displaces a cached one, and most blocks of a compaction's output are cold. So
 * the hint here is SAS-Cache's "key range" one, taken from the reads themselves: the hinted keys,
 * e.g. those of the last reads ({@link RecentReads}), that fall within a new file's key range. For each such file
 * one {@link SstFileReader} opens it with the database's table settings (its block cache, hence
 * the same cache keys: RocksDB derives them from the file's own properties). A first pass scans
 * the file from the first hinted key, filling nothing, for the hinted keys it holds (a file of an
 * upper level spans many keys whose newest versions live elsewhere); a second pass seeks to each
 * of those, filling the block cache. Both read through a readahead buffer of {@code
 * readaheadBytes}, so a file costs one or a few large reads per pass, and only the blocks of
 * held keys are inserted ({@link Stats#keysFound()}).
 *
 * <p>A file moved to another level without being rewritten (a trivial move, listed as a
 * compaction's input and output) keeps its cache keys and is not read. Files a later compaction
 * deleted before their turn, and files with fewer than {@code minKeys} hinted keys, are skipped.
 *
 * <h2>Threads</h2>
 * RocksDB's listener callbacks only queue file paths (a bounded queue; a path that finds it full
 * is dropped and counted). One daemon thread, {@code hotrap-prefetch}, drains the queue in batches:
 * per batch one listing of the live files (their key ranges) and one snapshot of the hints. No
 * exception reaches RocksDB's threads. {@link #close()} stops the thread and waits for it; close
 * this listener before the database. {@link #awaitIdle()} waits until every queued file has been
 * handled. Thread-safe.
 */
public final class CompactionPrefetcher extends AbstractEventListener {
  private static final Logger LOG = Logger.getLogger(CompactionPrefetcher.class.getName());
  private static final int QUEUE_FILES = 4096;

  /** What the prefetcher did. */
  public record Stats(long filesQueued, long filesRead, long filesSkipped, long filesDropped,
      long keysSought, long keysFound, long failures) {}

  private final Options readerOptions;
  private final Supplier<byte[][]> hints;
  private final int minKeys;
  private final ReadOptions scan;
  private final ReadOptions fill;
  private final BlockingQueue<Path> queue = new ArrayBlockingQueue<>(QUEUE_FILES);
  private final Thread worker;
  private final Object idle = new Object();
  private long pending; // guarded by idle
  private volatile RocksDB db;
  private volatile boolean closing;
  private final LongAdder queued = new LongAdder();
  private final LongAdder read = new LongAdder();
  private final LongAdder skipped = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final LongAdder sought = new LongAdder();
  private final LongAdder found = new LongAdder();
  private final LongAdder failures = new LongAdder();

  /**
   * @param readerOptions options to open new files with: the database's table format config (its
   *     block cache) and its direct-read setting; the caller owns them and closes them after this
   *     listener
   * @param hints the hinted keys, distinct and in unsigned bytewise order, asked for once per
   *     batch of new files (e.g. {@link RecentReads#sortedDistinct(int)})
   * @param readaheadBytes the readahead of the prefetch reads, at least 4 KiB
   * @param minKeys the fewest hinted keys in a file's range that make it worth reading, at least 1
   */
  public CompactionPrefetcher(Options readerOptions, Supplier<byte[][]> hints, long readaheadBytes,
      int minKeys) {
    super(events(readerOptions, hints, readaheadBytes, minKeys));
    this.readerOptions = readerOptions;
    this.hints = hints;
    this.minKeys = minKeys;
    this.scan = new ReadOptions().setFillCache(false).setReadaheadSize(readaheadBytes);
    this.fill = new ReadOptions().setFillCache(true).setReadaheadSize(readaheadBytes);
    this.worker = new Thread(this::run, "hotrap-prefetch");
    worker.setDaemon(true);
    worker.start();
  }

  /** Checks the arguments before the native listener is created, so that a refusal leaks nothing. */
  private static EnabledEventCallback[] events(Options readerOptions, Supplier<byte[][]> hints,
      long readaheadBytes, int minKeys) {
    Objects.requireNonNull(readerOptions, "readerOptions");
    Objects.requireNonNull(hints, "hints");
    if (readaheadBytes < 4096) {
      throw new IllegalArgumentException(
          "readaheadBytes must be at least 4096, was " + readaheadBytes);
    }
    if (minKeys < 1) {
      throw new IllegalArgumentException("minKeys must be at least 1, was " + minKeys);
    }
    return new EnabledEventCallback[] {
      EnabledEventCallback.ON_FLUSH_COMPLETED, EnabledEventCallback.ON_COMPACTION_COMPLETED
    };
  }

  public Stats stats() {
    return new Stats(queued.sum(), read.sum(), skipped.sum(), dropped.sum(), sought.sum(),
        found.sum(), failures.sum());
  }

  @Override
  public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
    try {
      offer(db, List.of(info.getFilePath()));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "queueing a flushed file for prefetch failed", e);
    }
  }

  @Override
  public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
    try {
      Status status = info.status();
      if (status == null || status.getCode() == Status.Code.Ok) {
        List<String> inputs = info.inputFiles();
        // A trivially moved file is input and output; the files only the output lists are new.
        offer(db, SstGroupListener.consumedFiles(info.outputFiles(), inputs));
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "queueing a compaction's files for prefetch failed", e);
    }
  }

  private void offer(RocksDB db, List<String> files) {
    if (closing) {
      return;
    }
    this.db = db;
    for (String file : files) {
      synchronized (idle) {
        pending++;
      }
      if (queue.offer(Path.of(file))) {
        queued.increment();
      } else {
        dropped.increment();
        done(1);
      }
    }
  }

  private void done(int files) {
    synchronized (idle) {
      pending -= files;
      if (pending == 0) {
        idle.notifyAll();
      }
    }
  }

  /** Waits until every file queued so far has been read, skipped or dropped. */
  public void awaitIdle() throws InterruptedException {
    synchronized (idle) {
      while (pending > 0 && worker.isAlive()) {
        idle.wait(1000);
      }
    }
  }

  private void run() {
    List<Path> batch = new ArrayList<>();
    while (!closing) {
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        break;
      }
      queue.drainTo(batch);
      try {
        prefetch(batch);
      } catch (RuntimeException e) {
        failures.increment();
        LOG.log(Level.WARNING, "prefetch of " + batch.size() + " files failed", e);
      } finally {
        done(batch.size());
        batch.clear();
      }
    }
    synchronized (idle) {
      idle.notifyAll();
    }
  }

  private void prefetch(List<Path> files) {
    RocksDB database = db;
    if (database == null || closing) {
      skipped.add(files.size());
      return;
    }
    Map<Path, LiveFileMetaData> live = new HashMap<>();
    for (LiveFileMetaData meta : database.getLiveFilesMetaData()) {
      live.put(Path.of(meta.path(), meta.fileName()).normalize(), meta);
    }
    byte[][] hot = hints.get();
    for (Path file : files) {
      LiveFileMetaData meta = live.get(file.normalize());
      List<byte[]> keys = meta == null
          ? List.of() : RecentReads.within(hot, meta.smallestKey(), meta.largestKey());
      if (closing || keys.size() < minKeys) {
        skipped.increment();
        continue;
      }
      try {
        read(file, keys);
        read.increment();
      } catch (RocksDBException e) {
        // Most often a later compaction deleted the file after the listing.
        failures.increment();
        LOG.log(Level.FINE, "prefetch of " + file + " failed", e);
      }
    }
  }

  private void read(Path file, List<byte[]> keys) throws RocksDBException {
    try (SstFileReader reader = new SstFileReader(readerOptions)) {
      reader.open(file.toString());
      List<byte[]> held = new ArrayList<>();
      // Pass 1, nothing cached: which hinted keys the file holds. A file of an upper level spans
      // far more keys than it holds; seeking a key it lacks would cache its successor's block
      // (98% of the seeks on SAS-Cache's 90%-read Zipf mix).
      try (SstFileReaderIterator it = reader.newIterator(scan)) {
        int next = 0;
        for (it.seek(keys.get(0)); it.isValid() && next < keys.size(); it.next()) {
          byte[] key = it.key();
          while (next < keys.size() && Arrays.compareUnsigned(keys.get(next), key) < 0) {
            next++;
          }
          if (next < keys.size() && Arrays.equals(keys.get(next), key)) {
            held.add(key);
            next++;
          }
        }
        it.status();
      }
      // Pass 2: the blocks of the keys held, into the block cache.
      if (!held.isEmpty()) {
        try (SstFileReaderIterator it = reader.newIterator(fill)) {
          for (byte[] key : held) {
            it.seek(key);
            sought.increment();
            if (it.isValid() && Arrays.equals(it.key(), key)) {
              found.increment();
            }
          }
          it.status();
        }
      }
    }
  }

  /** Stops the prefetch thread, waits for it, and frees the native listener. */
  @Override
  public void close() {
    closing = true;
    worker.interrupt();
    boolean interrupted = false;
    while (worker.isAlive()) {
      try {
        worker.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    scan.close();
    fill.close();
    super.close();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
