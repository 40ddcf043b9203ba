package io.hotrap.bench.disk;

import com.sun.nio.file.ExtendedOpenOption;
import io.hotrap.bench.Args;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Measures how fast a directory's disk serves 4 KiB random reads and sequential reads, the two
 * figures that make a slow tier slow: RocksDB's point lookups on the slow tier are random block
 * reads, its compactions sequential ones.
 *
 * <p>The probe writes a test file of {@link Builder#fileBytes(long) fileBytes} into the
 * directory, then for {@link Builder#seconds(Duration) seconds} reads random 4 KiB blocks from
 * {@link Builder#threads(int) threads} threads at once (the queue depth), then for as long again
 * reads the file front to back in 1 MiB requests, wrapping around, and deletes the file. Reads
 * and writes use {@code O_DIRECT} ({@link ExtendedOpenOption#DIRECT}) with buffers aligned to
 * the file store's block size, so the page cache serves nothing. Where the file system rejects
 * {@code O_DIRECT} the probe falls back to buffered I/O and says so in
 * {@link Result#directIo()}: its figures then measure the page cache, not the disk.
 *
 * <p>Only the processes in a slow disk's blkio cgroup are throttled (see {@link SlowDisk}):
 * probe a throttled disk from a JVM started by {@code slowdisk.sh run}, or after
 * {@link SlowDisk#joinCgroup()}.
 *
 * <p>Immutable; {@link #measure(Path)} may run from several threads on different directories.
 */
public final class DiskProbe {
  /** Size of one random read, bytes, unless the file store's block size is larger. */
  public static final int RANDOM_READ_BYTES = 4096;
  /** Size of one sequential read and of one write of the test file, bytes. */
  public static final int SEQUENTIAL_READ_BYTES = 1 << 20;
  public static final long DEFAULT_FILE_BYTES = 256L << 20;
  public static final Duration DEFAULT_SECONDS = Duration.ofSeconds(5);
  public static final int DEFAULT_THREADS = 1;
  static final int MAX_THREADS = 1024;
  private static final int FALLBACK_ALIGNMENT = 4096;
  private static final double MIB = 1 << 20;
  /** File systems that accept O_DIRECT (tmpfs since Linux 6.6) but keep their data in RAM. */
  private static final Set<String> MEMORY_FILE_SYSTEMS = Set.of("tmpfs", "ramfs");
  private static final System.Logger LOG = System.getLogger(DiskProbe.class.getName());

  /**
   * What the probe measured. {@code directIo} is false when the file system rejected
   * {@code O_DIRECT} or buffered I/O was asked for: the page cache then served the reads.
   */
  public record Result(double randomReadIops, double sequentialReadMibPerSecond,
      boolean directIo) {}

  private final long fileBytes;
  private final Duration seconds;
  private final int threads;
  private final boolean preferDirectIo;

  private DiskProbe(Builder b) {
    this.fileBytes = b.fileBytes;
    this.seconds = b.seconds;
    this.threads = b.threads;
    this.preferDirectIo = b.preferDirectIo;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Probes the disk under {@code dir}, which must exist: writes the test file, measures, and
   * deletes the file even when the measurement fails.
   *
   * @throws UncheckedIOException when the test file cannot be written or read
   */
  public Result measure(Path dir) {
    int alignment = alignment(dir);
    int randomBytes = RANDOM_READ_BYTES % alignment == 0 ? RANDOM_READ_BYTES : alignment;
    long chunks = Math.max(1, fileBytes / SEQUENTIAL_READ_BYTES);
    long size = chunks * SEQUENTIAL_READ_BYTES;
    Path file = dir.resolve(".diskprobe-" + Long.toHexString(ThreadLocalRandom.current().nextLong())
        + ".tmp");
    try {
      boolean direct = preferDirectIo && writeTestFile(file, size, alignment, true);
      if (!direct) {
        Files.deleteIfExists(file);
        writeTestFile(file, size, alignment, false);
      }
      double iops = randomReads(file, size, randomBytes, alignment, direct);
      double mibPerSecond = sequentialReads(file, size, alignment, direct);
      return new Result(iops, mibPerSecond, direct);
    } catch (IOException e) {
      throw new UncheckedIOException("disk probe of " + dir + " failed", e);
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "could not delete the test file " + file, e);
      }
    }
  }

  /**
   * The command line of the probe: {@code --dir <d> [--seconds 5] [--file-mib 256]
   * [--threads 1] [--direct true]}. Prints what it measured and, when {@code --dir} is on a
   * slow disk, the disk's limits and whether this JVM is in its cgroup.
   *
   * @throws IllegalArgumentException on a bad command line ({@link Args.UsageException} for an
   *     unknown option), with a message that says what is wrong
   */
  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("disk-probe", argv, "dir", "seconds", "file-mib", "threads", "direct");
    String dirName = args.getString("dir", null);
    if (dirName == null) {
      throw new IllegalArgumentException("disk-probe: --dir is required");
    }
    Path dir = Path.of(dirName);
    double seconds = args.getDouble("seconds", DEFAULT_SECONDS.toSeconds());
    if (!(seconds > 0) || seconds > 86_400) {
      throw new IllegalArgumentException("disk-probe: --seconds must be in (0, 86400] but was "
          + seconds);
    }
    String direct = args.getString("direct", "true");
    if (!direct.equals("true") && !direct.equals("false")) {
      throw new IllegalArgumentException("disk-probe: --direct must be true or false but was "
          + direct);
    }
    long fileMib = args.getLong("file-mib", DEFAULT_FILE_BYTES >> 20);
    if (fileMib < 1 || fileMib > (1L << 30)) {
      throw new IllegalArgumentException("disk-probe: --file-mib must be in [1, 2^30] but was "
          + fileMib);
    }
    int threads = args.getInt("threads", DEFAULT_THREADS);
    DiskProbe probe;
    try {
      probe = builder()
          .seconds(Duration.ofNanos(Math.round(seconds * 1e9)))
          .fileBytes(fileMib << 20)
          .threads(threads)
          .preferDirectIo(Boolean.parseBoolean(direct))
          .build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("disk-probe: " + e.getMessage(), e);
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("disk-probe: --dir " + dir + " is not a directory");
    }
    String disk = SlowDisk.find(dir)
        .map(d -> d.describe() + (d.processInCgroup()
            ? ", this JVM is in " + d.cgroup() : ", this JVM is NOT in " + d.cgroup()
                + " (not throttled)"))
        .orElse("not on a slow disk made by slowdisk.sh");
    out.printf(Locale.ROOT, "disk probe of %s (%s)%n", dir.toAbsolutePath(), disk);
    out.printf(Locale.ROOT, "  test file %d MiB, %d thread(s), %.1f s per phase%n",
        probe.fileBytes >> 20, probe.threads, probe.seconds.toNanos() / 1e9);
    Result r = probe.measure(dir);
    out.printf(Locale.ROOT, "  random 4 KiB reads: %.0f IOPS%n", r.randomReadIops());
    out.printf(Locale.ROOT, "  sequential reads:   %.1f MiB/s%n", r.sequentialReadMibPerSecond());
    String fsType = fileSystemType(dir);
    if (!r.directIo()) {
      out.println("  direct I/O: NO, buffered I/O (the page cache may have served reads;"
          + " the figures do not measure the disk)");
    } else if (MEMORY_FILE_SYSTEMS.contains(fsType)) {
      out.println("  direct I/O: yes, but " + fsType + " lives in memory:"
          + " the figures do not measure a disk");
    } else {
      out.println("  direct I/O: yes (the page cache served nothing)");
    }
  }

  /** Runs {@link #run} on its own: {@code java -cp hotrap-bench.jar ...DiskProbe --dir d}. */
  public static void main(String[] args) {
    try {
      run(Arrays.asList(args), System.out);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
  }

  /**
   * Writes {@code size} bytes of random data and syncs them; with {@code direct}, through
   * {@code O_DIRECT}.
   *
   * @return false when {@code direct} was asked for and the file system rejected it
   */
  private static boolean writeTestFile(Path file, long size, int alignment, boolean direct)
      throws IOException {
    ByteBuffer buffer = aligned(SEQUENTIAL_READ_BYTES, alignment);
    byte[] random = new byte[SEQUENTIAL_READ_BYTES];
    new SplittableRandom().nextBytes(random);
    buffer.put(random);
    try (FileChannel ch = open(file, direct, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      for (long pos = 0; pos < size; pos += SEQUENTIAL_READ_BYTES) {
        buffer.clear();
        while (buffer.hasRemaining()) {
          ch.write(buffer, pos + buffer.position());
        }
      }
      ch.force(true);
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      if (!direct) {
        throw e;
      }
      LOG.log(System.Logger.Level.WARNING, "O_DIRECT rejected for " + file
          + ", probing with buffered I/O: " + e);
      return false;
    }
  }

  private double randomReads(Path file, long size, int readBytes, int alignment, boolean direct)
      throws IOException {
    long blocks = size / readBytes;
    long[] reads = new long[threads];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>(threads);
    long elapsed;
    try (FileChannel ch = open(file, direct, StandardOpenOption.READ)) {
      long[] deadline = new long[1];
      for (int t = 0; t < threads; t++) {
        int id = t;
        Thread w = new Thread(() -> {
          ByteBuffer buffer = aligned(readBytes, alignment);
          SplittableRandom rnd = new SplittableRandom(ThreadLocalRandom.current().nextLong());
          try {
            start.await();
            long n = 0;
            while (System.nanoTime() < deadline[0] && failure.get() == null) {
              readFully(ch, buffer, rnd.nextLong(blocks) * readBytes);
              n++;
            }
            reads[id] = n;
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "disk-probe-" + t);
        workers.add(w);
        w.start();
      }
      long begin = System.nanoTime();
      deadline[0] = begin + seconds.toNanos();
      // The latch publishes deadline[0] to the workers.
      start.countDown();
      joinAll(workers);
      elapsed = System.nanoTime() - begin;
    }
    rethrow(failure.get());
    return Arrays.stream(reads).sum() / (elapsed / 1e9);
  }

  private double sequentialReads(Path file, long size, int alignment, boolean direct)
      throws IOException {
    ByteBuffer buffer = aligned(SEQUENTIAL_READ_BYTES, alignment);
    long bytes = 0;
    long begin = System.nanoTime();
    long deadline = begin + seconds.toNanos();
    try (FileChannel ch = open(file, direct, StandardOpenOption.READ)) {
      long pos = 0;
      while (System.nanoTime() < deadline) {
        readFully(ch, buffer, pos);
        bytes += SEQUENTIAL_READ_BYTES;
        pos = (pos + SEQUENTIAL_READ_BYTES) % size;
      }
    }
    return bytes / MIB / ((System.nanoTime() - begin) / 1e9);
  }

  private static void readFully(FileChannel ch, ByteBuffer buffer, long position)
      throws IOException {
    buffer.clear();
    while (buffer.hasRemaining()) {
      if (ch.read(buffer, position + buffer.position()) < 0) {
        throw new IOException("unexpected end of the test file at " + position);
      }
    }
  }

  private static FileChannel open(Path file, boolean direct, OpenOption... options)
      throws IOException {
    List<OpenOption> all = new ArrayList<>(Arrays.asList(options));
    if (direct) {
      all.add(ExtendedOpenOption.DIRECT);
    }
    return FileChannel.open(file, all.toArray(new OpenOption[0]));
  }

  /** A direct buffer of {@code size} bytes whose address is a multiple of {@code alignment}. */
  static ByteBuffer aligned(int size, int alignment) {
    return ByteBuffer.allocateDirect(size + alignment).alignedSlice(alignment).limit(size)
        .slice();
  }

  /** The file store's block size, to which O_DIRECT aligns addresses, offsets and lengths. */
  static int alignment(Path dir) {
    try {
      long size = Files.getFileStore(dir).getBlockSize();
      if (size > 0 && size <= SEQUENTIAL_READ_BYTES && Long.bitCount(size) == 1) {
        return (int) size;
      }
    } catch (IOException | UnsupportedOperationException e) {
      // use the common page size below
    }
    return FALLBACK_ALIGNMENT;
  }

  private static String fileSystemType(Path dir) {
    try {
      return Files.getFileStore(dir).type();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static void joinAll(List<Thread> threads) {
    boolean interrupted = false;
    for (Thread t : threads) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void rethrow(Throwable t) throws IOException {
    if (t == null) {
      return;
    }
    if (t instanceof IOException e) {
      throw e;
    }
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IOException(t);
  }

  /** Settings of a probe; {@link #build()} checks them. */
  public static final class Builder {
    private long fileBytes = DEFAULT_FILE_BYTES;
    private Duration seconds = DEFAULT_SECONDS;
    private int threads = DEFAULT_THREADS;
    private boolean preferDirectIo = true;

    private Builder() {}

    /**
     * Size of the test file, rounded down to whole MiB; at least 1 MiB. Default 256 MiB: far
     * larger than any disk cache below the page cache would make the figures too good.
     */
    public Builder fileBytes(long bytes) {
      if (bytes < SEQUENTIAL_READ_BYTES) {
        throw new IllegalArgumentException("file size must be at least 1 MiB but was " + bytes
            + " bytes");
      }
      this.fileBytes = bytes;
      return this;
    }

    /** How long each of the two phases reads; default 5 s. */
    public Builder seconds(Duration duration) {
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("probe duration must be positive but was " + duration);
      }
      this.seconds = duration;
      return this;
    }

    /** Threads reading at once in the random phase, the queue depth; default 1. */
    public Builder threads(int threads) {
      if (threads < 1 || threads > MAX_THREADS) {
        throw new IllegalArgumentException("threads must be in [1, " + MAX_THREADS
            + "] but was " + threads);
      }
      this.threads = threads;
      return this;
    }

    /** Whether to use O_DIRECT where the file system allows it (default true). */
    public Builder preferDirectIo(boolean preferDirectIo) {
      this.preferDirectIo = preferDirectIo;
      return this;
    }

    public DiskProbe build() {
      return new DiskProbe(this);
    }
  }
}
