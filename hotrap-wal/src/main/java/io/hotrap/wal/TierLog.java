package io.hotrap.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The durable log of a volatile memory tier, after WAL-assisted tiering (Chen et al., MEMSYS
 * 2020): it keeps every record the memory tier holds until the store says, with {@link #markDead},
 * that the record reached the disk tier or was dropped, and it stays near λ_t times the tier's size
 * by compressing sealed segments and trimming dead records out of them in the background (§3.2).
 *
 * <h2>Use</h2>
 *
 * <pre>{@code
 * try (TierLog log = TierLog.open(options, record -> memoryTier.apply(record))) {
 *   log.append(seq, key, value, Durability.SYNCED);   // value null logs a delete
 *   ...
 *   log.markDead(firstSeqOnDisk, lastSeqOnDisk);       // after a flush or compaction to disk
 * }
 * }</pre>
 *
 * <h2>Durability</h2>
 *
 * <p>Sequence numbers are the caller's and must increase strictly across calls; records reach the
 * file in that order. When {@code append(..., d)} or {@code flush(d)} returns, that call's records
 * and every record appended before it, by any thread, have reached {@code d}: {@link
 * Durability#BUFFERED} survives nothing yet, {@link Durability#WRITTEN} survives a crash of the
 * process, {@link Durability#SYNCED} a power loss. Concurrent callers share one write and one
 * force (group commit; see {@link GroupCommit}). A batch is written contiguously but is not
 * atomic: a crash may keep a prefix of it. {@link #close()} writes and syncs everything appended.
 * Callers that assign sequence numbers on several threads must queue in that order; the cheap way
 * is to append {@code BUFFERED} inside the section that assigns the number, and {@code flush}
 * outside it.
 *
 * <h2>Liveness</h2>
 *
 * <p>Each segment has a bitmap over its sequence numbers ({@link LiveBitmap}). {@link #markDead}
 * clears bits; a sealed segment whose bits are all clear is deleted; once the log exceeds λ_t
 * times {@link #memoryTierBytes}, sealed segments are rewritten with exactly their live records,
 * lowest live share first, until the log is projected below λ_s ({@link TrimPolicy}). The bitmaps
 * are saved ({@link LivenessFile}) by each background pass that follows new marks, and at close,
 * only for segments already forced; a crash loses at most the marks since the last save, so recovery
 * replays records that were dead (harmless for puts and deletes applied in order) but never omits
 * a live one.
 *
 * <h2>Recovery</h2>
 *
 * <p>{@link #open} replays the live records of every segment in sequence order, cuts a torn tail
 * off the newest segment, and stops a segment's replay at the first corrupt record, reporting both
 * in {@link #recoveryReport()}; see {@link Recovery}. New appends start a new segment. File
 * formats: {@link RecordFormat}, {@link RawSegmentWriter}, {@link PackedSegmentWriter}, {@link
 * LivenessFile}, names in {@link SegmentFiles}.
 *
 * <h2>Threads</h2>
 *
 * <p>Thread-safe. Two locks, taken in this order only: the group commit's lock (orders appends;
 * the leader releases it to write), then {@code state} (the segment map, bitmaps and counters;
 * held for bookkeeping only, never across file I/O). A single daemon thread owned by the log
 * does the background work; {@link #awaitBackgroundWork()} waits for it. Files are written by the
 * current group-commit leader (the open segment) and the background thread (packed segments, the
 * liveness file) and by no one else. After {@link #close()}, every method but {@code close},
 * {@link #stats()} and {@link #recoveryReport()} throws {@link IllegalStateException}.
 */
public final class TierLog implements AutoCloseable {

  private final TierLogOptions options;
  private final Path dir;
  private final FileChannel lockChannel;
  private final FileLock dirLock;
  private final TrimPolicy trimPolicy;
  private final RecoveryReport recoveryReport;
  private final GroupCommit commit;
  private final BackgroundWorker worker;
  private final AtomicBoolean closed = new AtomicBoolean();

  private final ReentrantLock state = new ReentrantLock();
  // Guarded by state.
  private final TreeMap<Long, Segment> segments;
  private Segment active;
  private long memoryTierBytes;
  private long totalBytes;
  private long appendedRecords;
  private long appendedBytes;
  private long writes;
  private long syncs;
  private long compressions;
  private long trims;
  private long trimRounds;
  private long trimmedBytes;
  private long deletedSegments;
  /** Bits were cleared since the bitmaps were last saved. */
  private boolean livenessDirty;
  /** Estimated bytes of records marked dead since the last background pass began. */
  private long deadBytesSincePass;

  // Touched by the group-commit leader only; GroupCommit's lock orders successive leaders.
  private RawSegmentWriter activeWriter;
  private int activeRecords;
  private final List<ByteBuffer> chunk = new ArrayList<>();
  private long[] chunkSeqs = new long[64];
  private int chunkCount;
  private long chunkBytes;

  private TierLog(TierLogOptions options, FileChannel lockChannel, FileLock dirLock,
      Recovery.Result recovered) {
    this.options = options;
    this.dir = options.directory();
    this.lockChannel = lockChannel;
    this.dirLock = dirLock;
    this.trimPolicy = new TrimPolicy(options.trimTriggerRatio(), options.trimTargetRatio());
    this.recoveryReport = recovered.report();
    this.segments = recovered.segments();
    this.memoryTierBytes = options.memoryTierBytes();
    for (Segment segment : segments.values()) {
      totalBytes += segment.fileBytes;
    }
    this.commit = new GroupCommit(this::writeBatch, recovered.lastSeq(),
        options.maxBufferedBytes());
    this.worker = new BackgroundWorker("hotrap-tier-log " + dir, this::backgroundPass);
  }

  /**
   * Opens the log in {@code options.directory()}, creating the directory if needed, and hands
   * every live record found there to {@code replay}, in sequence order, on the calling thread,
   * before it returns.
   *
   * @throws IllegalStateException if the configured codec cannot run on this platform
   * @throws IOException if the directory cannot be read or written, or another log holds it
   */
  public static TierLog open(TierLogOptions options, Consumer<LogRecord> replay)
      throws IOException {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(replay, "replay");
    options.codec().checkAvailable();
    Path dir = options.directory();
    Files.createDirectories(dir);
    FileChannel lockChannel = FileChannel.open(dir.resolve(SegmentFiles.LOCK),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    boolean success = false;
    try {
      FileLock dirLock;
      try {
        dirLock = lockChannel.tryLock();
      } catch (OverlappingFileLockException e) {
        dirLock = null;
      }
      if (dirLock == null) {
        throw new IOException("another tier log is open in " + dir);
      }
      TierLog log = new TierLog(options, lockChannel, dirLock, Recovery.run(dir, replay));
      log.worker.start();
      log.worker.request(); // pack what the previous run sealed, trim if over λ_t
      success = true;
      return log;
    } finally {
      if (!success) {
        lockChannel.close();
      }
    }
  }

  /**
   * Appends one record; {@code value} null logs a delete. Returns once the record, and everything
   * appended before it, has reached {@code durability}.
   *
   * @throws IllegalArgumentException if {@code seq} is negative or not above every earlier one, or
   *     the record is larger than 64 MiB
   * @throws IOException if writing fails; the log then refuses further appends until reopened
   */
  public void append(long seq, byte[] key, byte[] value, Durability durability)
      throws IOException {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(durability, "durability");
    checkOpen();
    commit.append(PendingAppend.of(new LogRecord(seq, key, value)), durability);
  }

  /**
   * Appends {@code records} (increasing sequence numbers, above every earlier one) in one write;
   * see {@link #append(long, byte[], byte[], Durability)}. An empty list only waits for {@code
   * durability}, like {@link #flush}.
   */
  public void append(List<LogRecord> records, Durability durability) throws IOException {
    Objects.requireNonNull(records, "records");
    Objects.requireNonNull(durability, "durability");
    checkOpen();
    if (records.isEmpty()) {
      commit.flush(durability);
    } else {
      commit.append(PendingAppend.of(records), durability);
    }
  }

  /** Returns once every record appended before the call has reached {@code durability}. */
  public void flush(Durability durability) throws IOException {
    Objects.requireNonNull(durability, "durability");
    checkOpen();
    commit.flush(durability);
  }

  /**
   * Marks dead the records with sequence numbers {@code fromSeq .. toSeqInclusive}: they reached the
   * disk tier or were dropped, so the log may forget them. The range may span segments, include
   * numbers already dead or never logged; numbers of records not yet appended are ignored (a later
   * append with such a number is live). Does no I/O; deletion and trim follow in the background.
   *
   * @throws IllegalArgumentException if {@code fromSeq > toSeqInclusive}
   */
  public void markDead(long fromSeq, long toSeqInclusive) {
    if (fromSeq > toSeqInclusive) {
      throw new IllegalArgumentException("fromSeq " + fromSeq + " is above toSeqInclusive "
          + toSeqInclusive);
    }
    checkOpen();
    boolean wake = false;
    state.lock();
    try {
      Long start = segments.floorKey(fromSeq);
      for (Segment segment : segments.subMap(start == null ? fromSeq : start, true,
          toSeqInclusive, true).values()) {
        int n = segment.live.markDead(fromSeq, toSeqInclusive);
        if (n > 0) {
          livenessDirty = true;
          deadBytesSincePass += n * (segment.recordBytes / Math.max(1, segment.present));
          wake |= segment.state != Segment.State.ACTIVE && segment.live.liveCount() == 0;
        }
      }
      // Like the paper's batched SN arrays: a trim pass only once enough has died to make a
      // segment worth rewriting, not on every call.
      wake |= deadBytesSincePass >= options.segmentBytes() * TrimPolicy.MIN_RECLAIM_PERCENT / 100
          && trimPolicy.triggered(totalBytes, memoryTierBytes);
    } finally {
      state.unlock();
    }
    if (wake) {
      worker.request();
    }
  }

  /** Changes the tier size λ is measured against (the tier grows and shrinks at run time). */
  public void setMemoryTierBytes(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("memoryTierBytes must be at least 1 but was " + bytes);
    }
    checkOpen();
    state.lock();
    try {
      memoryTierBytes = bytes;
    } finally {
      state.unlock();
    }
    worker.request();
  }

  /** Highest sequence number appended or recovered, or -1 if there is none. */
  public long lastSequence() {
    checkOpen();
    return commit.lastSeq();
  }

  /**
   * Waits until the background work asked for before the call (compression, deletion, trim) is
   * done.
   *
   * @throws IOException if background work failed since the last call
   */
  public void awaitBackgroundWork() throws IOException {
    checkOpen();
    worker.request(); // a pass after every change made so far, even one that did not ask
    worker.awaitIdle();
  }

  /** What open found and repaired. Works after close. */
  public RecoveryReport recoveryReport() {
    return recoveryReport;
  }

  /** A snapshot of sizes and counters. Works after close. */
  public TierLogStats stats() {
    state.lock();
    try {
      int packed = 0;
      long liveBytes = 0;
      long liveRecords = 0;
      long compressedBytes = 0;
      long compressedRecordBytes = 0;
      for (Segment segment : segments.values()) {
        liveBytes += segment.liveBytesEstimate();
        liveRecords += segment.live.liveCount();
        if (segment.state == Segment.State.PACKED) {
          packed++;
          if (segment.codec != Codec.NONE) {
            compressedBytes += segment.fileBytes;
            compressedRecordBytes += segment.recordBytes;
          }
        }
      }
      return new TierLogStats(segments.size(), packed, totalBytes, liveBytes, liveRecords,
          compressedBytes, compressedRecordBytes, memoryTierBytes, appendedRecords,
          appendedBytes, writes, syncs, compressions, trims, trimRounds, trimmedBytes,
          deletedSegments);
    } finally {
      state.unlock();
    }
  }

  /**
   * Writes and syncs everything appended, stops the background thread (after the segment it is
   * working on), saves the bitmaps and releases the directory. Idempotent.
   *
   * @throws IOException if the final write failed (what was synced before is intact)
   */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    IOException error = null;
    try {
      commit.close();
    } catch (IOException e) {
      error = e;
    }
    worker.close();
    try {
      if (activeWriter != null) {
        activeWriter.close();
      }
      if (error == null) {
        LivenessFile.save(dir, bitmapsOf(true));
      }
    } catch (IOException e) {
      error = error == null ? e : error;
    } finally {
      try {
        dirLock.release();
      } finally {
        lockChannel.close();
      }
    }
    if (error != null) {
      throw error;
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("tier log is closed");
    }
  }

  // ---- the write path: group-commit leader only ----

  private void writeBatch(List<PendingAppend> batch, boolean sync) throws IOException {
    for (PendingAppend append : batch) {
      int off = 0;
      for (int i = 0; i < append.seqs().length; i++) {
        long seq = append.seqs()[i];
        int size = append.sizes()[i];
        if (activeWriter != null && activeRecords + chunkCount > 0
            && (activeWriter.size() + chunkBytes + size > options.segmentBytes()
                || !active.live.accepts(seq, activeRecords + chunkCount))) {
          writeChunk();
          roll();
        }
        if (activeWriter == null) {
          startSegment(seq);
        }
        addToChunk(append.bytes(), off, size, seq);
        off += size;
      }
    }
    writeChunk();
    if (sync && activeWriter != null) {
      activeWriter.force();
      state.lock();
      try {
        syncs++;
      } finally {
        state.unlock();
      }
    }
  }

  private void addToChunk(byte[] bytes, int off, int size, long seq) {
    ByteBuffer last = chunk.isEmpty() ? null : chunk.get(chunk.size() - 1);
    if (last != null && last.array() == bytes && last.arrayOffset() + last.limit() == off) {
      last.limit(last.limit() + size); // the next record of the same call: one buffer
    } else {
      // Capacity to the array's end, so the next record of the same call can extend the limit.
      chunk.add(ByteBuffer.wrap(bytes, off, bytes.length - off).slice().limit(size));
    }
    if (chunkCount == chunkSeqs.length) {
      chunkSeqs = Arrays.copyOf(chunkSeqs, chunkCount * 2);
    }
    chunkSeqs[chunkCount++] = seq;
    chunkBytes += size;
  }

  private void writeChunk() throws IOException {
    if (chunkCount == 0) {
      return;
    }
    activeWriter.write(chunk.toArray(new ByteBuffer[0]));
    state.lock();
    try {
      for (int i = 0; i < chunkCount; i++) {
        active.live.addLive(chunkSeqs[i]);
      }
      active.present += chunkCount;
      active.recordBytes += chunkBytes;
      totalBytes += activeWriter.size() - active.fileBytes;
      active.fileBytes = activeWriter.size();
      appendedRecords += chunkCount;
      appendedBytes += chunkBytes;
      writes++;
    } finally {
      state.unlock();
    }
    activeRecords += chunkCount;
    chunk.clear();
    chunkCount = 0;
    chunkBytes = 0;
  }

  private void startSegment(long base) throws IOException {
    RawSegmentWriter writer = RawSegmentWriter.create(dir, base);
    Segment segment = new Segment(base, writer.file(), Segment.State.ACTIVE);
    segment.fileBytes = writer.size();
    state.lock();
    try {
      segments.put(base, segment);
      active = segment;
      totalBytes += segment.fileBytes;
    } finally {
      state.unlock();
    }
    activeWriter = writer;
    activeRecords = 0;
  }

  /** Seals the open segment; forced first, so only the newest segment can ever be torn. */
  private void roll() throws IOException {
    activeWriter.force();
    activeWriter.close();
    activeWriter = null;
    state.lock();
    try {
      active.state = Segment.State.SEALED_RAW;
      active = null;
    } finally {
      state.unlock();
    }
    worker.request();
  }

  // ---- background work: the worker thread only ----

  private void backgroundPass(BooleanSupplier stopping) throws IOException {
    state.lock();
    try {
      deadBytesSincePass = 0;
    } finally {
      state.unlock();
    }
    boolean changed = deleteDeadSegments();
    if (options.codec() != Codec.NONE) {
      Segment next;
      while (!stopping.getAsBoolean() && compressing() && (next = oldestSealedRaw()) != null) {
        rewrite(next, false);
        changed = true;
      }
    }
    changed |= trim(stopping);
    changed |= deleteDeadSegments();
    if (changed || takeLivenessDirty()) {
      LivenessFile.save(dir, bitmapsOf(false));
    }
  }

  private boolean deleteDeadSegments() throws IOException {
    List<Segment> doomed = new ArrayList<>();
    state.lock();
    try {
      for (Segment segment : segments.values()) {
        if (segment.state != Segment.State.ACTIVE && segment.live.liveCount() == 0) {
          doomed.add(segment);
        }
      }
      for (Segment segment : doomed) {
        segments.remove(segment.base());
        totalBytes -= segment.fileBytes;
        deletedSegments++;
      }
    } finally {
      state.unlock();
    }
    for (Segment segment : doomed) {
      Files.deleteIfExists(segment.file);
    }
    return !doomed.isEmpty();
  }

  /** Whether the log is large enough to compress ({@link TierLogOptions#compressAboveRatio()}). */
  private boolean compressing() {
    state.lock();
    try {
      return totalBytes > options.compressAboveRatio() * memoryTierBytes;
    } finally {
      state.unlock();
    }
  }

  private Segment oldestSealedRaw() {
    state.lock();
    try {
      for (Segment segment : segments.values()) {
        if (segment.state == Segment.State.SEALED_RAW && !segment.damaged) {
          return segment;
        }
      }
      return null;
    } finally {
      state.unlock();
    }
  }

  private boolean trim(BooleanSupplier stopping) throws IOException {
    List<TrimPolicy.Candidate> chosen;
    state.lock();
    try {
      List<TrimPolicy.Candidate> candidates = new ArrayList<>();
      for (Segment segment : segments.values()) {
        if (segment.state != Segment.State.ACTIVE && !segment.damaged
            && segment.live.liveCount() > 0) {
          candidates.add(segment.candidate());
        }
      }
      chosen = trimPolicy.choose(candidates, totalBytes, memoryTierBytes);
    } finally {
      state.unlock();
    }
    for (TrimPolicy.Candidate candidate : chosen) {
      if (stopping.getAsBoolean()) {
        break;
      }
      Segment segment;
      state.lock();
      try {
        segment = segments.get(candidate.base());
      } finally {
        state.unlock();
      }
      rewrite(segment, true);
    }
    if (!chosen.isEmpty()) {
      state.lock();
      try {
        trimRounds++;
      } finally {
        state.unlock();
      }
    }
    return !chosen.isEmpty();
  }

  /**
   * Rewrites a sealed segment as a packed one holding exactly the records live when it starts;
   * records marked dead meanwhile stay (their bits are clear, so a later pass drops them). If the
   * old file turns out damaged the rewrite is abandoned and the old file kept.
   */
  private void rewrite(Segment segment, boolean byTrim) throws IOException {
    LiveBitmap snapshot;
    Path source;
    long oldBytes;
    state.lock();
    try {
      snapshot = segment.live.copy();
      source = segment.file;
      oldBytes = segment.fileBytes;
    } finally {
      state.unlock();
    }
    Path target = SegmentFiles.packed(dir, segment.base());
    SegmentRewriter.Result result;
    try {
      result = SegmentRewriter.rewrite(source, segment.base(), snapshot, target, options.codec(),
          options.blockBytes());
    } catch (SegmentRewriter.DamagedSegmentException e) {
      state.lock();
      try {
        segment.damaged = true; // not retried: the file stays as it is for inspection
      } finally {
        state.unlock();
      }
      throw e;
    }
    int kept = result.records();
    long keptBytes = result.recordBytes();
    long newBytes = result.fileBytes();
    state.lock();
    try {
      segment.file = target;
      segment.state = Segment.State.PACKED;
      segment.codec = options.codec();
      segment.present = kept;
      segment.recordBytes = keptBytes;
      segment.fileBytes = newBytes;
      totalBytes += newBytes - oldBytes;
      if (byTrim) {
        trims++;
        trimmedBytes += oldBytes - newBytes;
      } else {
        compressions++;
      }
    } finally {
      state.unlock();
    }
    if (!source.equals(target)) {
      Files.deleteIfExists(source); // recovery prefers the packed file if this is lost
    }
  }

  private boolean takeLivenessDirty() {
    state.lock();
    try {
      boolean dirty = livenessDirty;
      livenessDirty = false;
      return dirty;
    } finally {
      state.unlock();
    }
  }

  /** Copies of the bitmaps of forced segments (the open one only at close, after its sync). */
  private List<LiveBitmap> bitmapsOf(boolean includeActive) {
    state.lock();
    try {
      List<LiveBitmap> bitmaps = new ArrayList<>();
      for (Map.Entry<Long, Segment> entry : segments.entrySet()) {
        Segment segment = entry.getValue();
        if (includeActive || segment.state != Segment.State.ACTIVE) {
          bitmaps.add(segment.live.copy());
        }
      }
      return bitmaps;
    } finally {
      state.unlock();
    }
  }
}
