package io.hotrap.ralt;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RALT's merge engine: merges runs into one, level by level or all at once for an eviction
 * (HotRAP §3.2, §3.7). A k-way merge over the input runs folds the records of one key into one
 * ({@link AccessRecord#mergeNewer}: scores smoothed over the ticks between accesses, counters and
 * stable tags combined), marks each output record hot by the given threshold unless an older run
 * has it hot already (shadowed), and, in an eviction, drops what ranks below the keep threshold and
 * totals what it kept for auto-tuning ({@link HotSetTuner}).
 *
 * <p>Progress is published after every output file: the output so far plus what of each input lies
 * beyond the merge position replaces the inputs in the tracker's version, so input files the merge
 * has passed are let go at once and temporary disk space stays within a few files. Between output
 * files the host may write newly queued access buffers, so a long merge never holds up callers.
 *
 * <p>Runs on the tracker's background thread only.
 */
final class RunMerger {
  /** What a merge needs from its tracker. */
  interface Host {
    /** A fresh id for a run or segment file. */
    long nextFileId();

    /** Replaces runs in the published version (matched by id) and saves the manifest. */
    void replaceRuns(List<Run> removed, List<Run> added) throws IOException;

    /** Called after each output file; may write queued access buffers. */
    void betweenFiles() throws IOException;

    /** Whether the tracker is closing: the merge stops at the next file boundary. */
    boolean stopping();
  }

  /** What an eviction kept: the inputs of auto-tuning. */
  static final class EvictionTotals {
    long stableHotBytes;
    long keptHotBytes;
    long keptRecordBytes;
  }

  /** An eviction's keep threshold and the totals it fills. */
  record Eviction(HotThreshold keep, EvictionTotals totals) {}

  private final Clock clock;
  private final Path dir;
  private final RaltOptions options;
  private final IoStats io;
  private final Host host;

  RunMerger(Clock clock, Path dir, RaltOptions options, IoStats io, Host host) {
    this.clock = clock;
    this.dir = dir;
    this.options = options;
    this.io = io;
    this.host = host;
  }

  /**
   * Merges {@code inputs} into one run on {@code outputLevel}, publishing progress after every output
   * file and letting go of input files the merge has passed. Records of one key fold into one; each
   * output record is marked hot by {@code hot}, unless a run in {@code olderRuns} has it hot already.
   * An eviction also drops what ranks below its keep threshold.
   *
   * @return true if the merge ran to the end, false if it stopped early because the tracker closes
   */
  boolean merge(List<Run> inputs, int outputLevel, Run[] olderRuns, HotThreshold hot,
      Eviction eviction, long now) throws IOException {
    long decayNow = clock.decayAt(now);
    int k = inputs.size();
    RunCursor[] cursors = new RunCursor[k];
    for (int i = 0; i < k; i++) {
      cursors[i] = new RunCursor(inputs.get(i));
      cursors[i].seekToFirst();
    }
    java.util.PriorityQueue<RunCursor> heap = new java.util.PriorityQueue<>(Math.max(1, k),
        (a, b) -> a.current.compareKey(b.current));
    for (RunCursor c : cursors) {
      if (c.isValid()) {
        heap.add(c);
      }
    }
    long outputRunId = host.nextFileId();
    Map<Long, Run> published = new HashMap<>();
    for (Run r : inputs) {
      published.put(r.id, r);
    }
    Run[] publishedOutput = {null};
    SegmentSink sink = new SegmentSink(dir, options, io, host::nextFileId) {
      @Override
      void onFileFinished(Segment s, byte[] lastKey) throws IOException {
        // Publish: the output so far, plus whatever of each input lies beyond the merge position.
        List<Run> removed = new ArrayList<>(published.values());
        List<Run> added = new ArrayList<>();
        Run out = new Run(outputRunId, outputLevel, segments);
        added.add(out);
        for (Run r : inputs) {
          Run was = published.get(r.id);
          List<Segment> rest = new ArrayList<>();
          for (Segment seg : was.segments) {
            if (java.util.Arrays.compareUnsigned(seg.lastKey, lastKey) > 0) {
              rest.add(seg);
            }
          }
          Run now = rest.size() == was.segments.length ? was : new Run(was.id, was.level, rest);
          published.put(r.id, now);
          if (!rest.isEmpty()) {
            added.add(now);
          }
        }
        if (publishedOutput[0] != null) {
          removed.add(publishedOutput[0]);
        }
        publishedOutput[0] = out;
        host.replaceRuns(removed, added);
      }
    };
    AccessRecord acc = new AccessRecord();
    List<AccessRecord> same = new ArrayList<>();
    boolean ok = false;
    boolean complete = true;
    try {
      while (!heap.isEmpty()) {
        same.clear();
        RunCursor first = heap.poll();
        same.add(snapshot(first.current));
        advance(first, heap);
        while (!heap.isEmpty() && heap.peek().current.compareKey(same.get(0)) == 0) {
          RunCursor c = heap.poll();
          same.add(snapshot(c.current));
          advance(c, heap);
        }
        fold(same, acc);
        boolean stable = acc.isStable(decayNow);
        double rank = clock.rank(acc, stable, decayNow);
        if (eviction != null) {
          if (!eviction.keep().admits(stable, rank)) {
            continue;
          }
        }
        acc.shadowed = hotInAny(olderRuns, acc);
        acc.hot = !acc.shadowed && hot.admits(stable, rank);
        acc.stableHot = acc.hot && stable;
        if (eviction != null) {
          EvictionTotals t = eviction.totals();
          if (stable) {
            t.stableHotBytes += acc.hotSize();
          }
          t.keptHotBytes += acc.hotSize();
          t.keptRecordBytes += acc.encodedSize();
        }
        boolean fileDone = sink.add(acc);
        if (fileDone) {
          host.betweenFiles();
          if (host.stopping()) {
            complete = heap.isEmpty();
            break;
          }
        }
      }
      if (complete) {
        sink.finishFile();
        // Publish the final shape: the output replaces every input.
        List<Run> removed = new ArrayList<>(published.values());
        if (publishedOutput[0] != null) {
          removed.add(publishedOutput[0]);
        }
        List<Run> added = sink.segments.isEmpty()
            ? List.of() : List.of(new Run(outputRunId, outputLevel, sink.segments));
        host.replaceRuns(removed, added);
      }
      ok = true;
    } finally {
      if (!ok) {
        sink.abort();
      }
      sink.releaseAll();
    }
    return complete;
  }

  private static AccessRecord snapshot(AccessRecord r) {
    AccessRecord c = new AccessRecord();
    c.copyFrom(r);
    return c;
  }

  private static void advance(RunCursor c, java.util.PriorityQueue<RunCursor> heap) {
    c.next();
    if (c.isValid()) {
      heap.add(c);
    }
  }

  /** Folds records of one key, oldest first, into {@code acc}. */
  private void fold(List<AccessRecord> same, AccessRecord acc) {
    if (same.size() > 1) {
      same.sort((a, b) -> Long.compare(a.time, b.time));
    }
    acc.copyFrom(same.get(0));
    for (int i = 1; i < same.size(); i++) {
      acc.mergeNewer(same.get(i), clock);
    }
  }

  /** Whether a run of {@code runs} has {@code r}'s key hot (Bloom filters only). */
  static boolean hotInAny(Run[] runs, AccessRecord r) {
    if (runs.length == 0) {
      return false;
    }
    byte[] key = r.keyCopy();
    long h = KeyHash.hash(key);
    for (Run run : runs) {
      Segment s = run.find(key);
      if (s != null && s.mightBeHot(h)) {
        return true;
      }
    }
    return false;
  }
}
