package io.hotrap.kafka;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapException;
import io.hotrap.core.HotRapIterator;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import io.hotrap.core.HotRapWriteBatch;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One task's key-value store on a {@link HotRapDB} of its own (layout: {@link StoreDirectories}).
 *
 * <p><b>Semantics</b> are those of Kafka's RocksDB store: keys order as unsigned bytes;
 * {@code put(k, null)} deletes; {@code range(from, to)} includes both ends, a null bound is open, and
 * {@code from > to} yields an empty iterator and a warning; iterators read a snapshot taken when they
 * are created and must be closed, and closing the store closes those still open. A null key throws
 * {@link NullPointerException}; any call but {@link #close()} on a store that is not open throws
 * {@link InvalidStateStoreException}; a storage error throws {@link ProcessorStateException}.
 *
 * <p><b>Durability.</b> Every write goes to HotRapDB's write-ahead log before it returns, so it
 * survives a crash of the process. {@link #commit(Map)}, which Kafka calls at each commit before it
 * records the changelog offset the store holds, flushes the memtables to synced SST files, which
 * makes the writes survive a power loss too, and then records the store's {@link Position}.
 *
 * <p><b>Restore</b> from the changelog writes each batch Kafka hands over as one atomic
 * {@link HotRapWriteBatch}.
 *
 * <p><b>Threads.</b> Kafka's stream thread writes; interactive queries read from other threads at
 * the same time, which HotRapDB allows. The position is guarded by a lock: a query copies it before
 * it reads, and a writer advances it after it writes, so a query's reported position never claims a
 * write its result lacks.
 */
public final class HotRapKeyValueStore implements KeyValueStore<Bytes, byte[]> {
  private static final Logger LOG = Logger.getLogger(HotRapKeyValueStore.class.getName());
  /** How long {@link #approximateNumEntries()} reuses a count, which costs a scan of the keys. */
  static final long ENTRY_COUNT_MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final String name;
  private final Path slowBaseDir;
  private final OptionsTemplate template;
  private final HotRapStoreSupplier supplier;
  private final Set<StoreIterator> openIterators = ConcurrentHashMap.newKeySet();
  private final Object positionLock = new Object();

  private volatile boolean open;
  private volatile HotRapDB db;
  private StateStoreContext context;
  private StoreDirectories dirs;
  private PositionCheckpoint positionCheckpoint;
  private Position position = Position.emptyPosition();
  private long flushIntervalNanos;
  private long nextFlushNanos;
  private volatile boolean dirty;
  private volatile long entryCount = -1;
  private volatile long entryCountNanos;

  HotRapKeyValueStore(String name, Path slowBaseDir, OptionsTemplate template, HotRapStoreSupplier supplier) {
    this.name = name;
    this.slowBaseDir = slowBaseDir;
    this.template = template;
    this.supplier = supplier;
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * Opens the store's HotRapDB in the task's directories and registers the store for restoring.
   *
   * @throws IllegalStateException if the store is open already
   * @throws ConfigException if a {@code hotrap.*} setting of the Streams configuration is bad
   * @throws ProcessorStateException if the directories or the store cannot be opened
   */
  @Override
  public synchronized void init(StateStoreContext context, StateStore root) {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(root, "root");
    if (open) {
      throw new IllegalStateException("store " + name + " is already open");
    }
    Map<String, Object> configs = context.appConfigs();
    MeterRegistry registry = meterRegistry(configs);
    long flushIntervalMs = flushIntervalMs(configs);
    StoreDirectories directories = StoreDirectories.of(context, name, slowBaseDir);
    directories.prepare();
    HotRapOptions options = template.optionsFor(directories.fast(), directories.slow(), registry);
    PositionCheckpoint checkpoint =
        new PositionCheckpoint(context.stateDir().toPath().resolve(name + ".position"));
    HotRapDB opened;
    try {
      opened = HotRapDB.open(options);
    } catch (HotRapException | IllegalArgumentException | UncheckedIOException e) {
      throw new ProcessorStateException("cannot open store " + name + " of task " + context.taskId()
          + " at " + directories.fast() + " and " + directories.slow() + ": " + e.getMessage(), e);
    }
    boolean success = false;
    try {
      this.position = checkpoint.read();
      this.context = context;
      this.dirs = directories;
      this.positionCheckpoint = checkpoint;
      this.flushIntervalNanos = TimeUnit.MILLISECONDS.toNanos(flushIntervalMs);
      this.nextFlushNanos = System.nanoTime();
      // Kafka re-initialises the same instance when it revives a corrupted task.
      this.dirty = false;
      this.entryCount = -1;
      this.db = opened;
      this.open = true;
      context.register(root, (BatchingStateRestoreCallback) this::restoreAll);
      supplier.opened(this);
      success = true;
    } catch (RuntimeException e) {
      throw new ProcessorStateException("cannot initialise store " + name + ": " + e.getMessage(), e);
    } finally {
      if (!success) {
        open = false;
        opened.close();
      }
    }
  }

  private static MeterRegistry meterRegistry(Map<String, Object> configs) {
    Object value = configs.get(HotRapStores.METER_REGISTRY_CONFIG);
    if (value == null || value instanceof MeterRegistry) {
      return (MeterRegistry) value;
    }
    throw new ConfigException(HotRapStores.METER_REGISTRY_CONFIG, value,
        "must be an instance of " + MeterRegistry.class.getName());
  }

  private static long flushIntervalMs(Map<String, Object> configs) {
    Object value = configs.get(HotRapStores.FLUSH_INTERVAL_MS_CONFIG);
    if (value == null) {
      return 0;
    }
    long ms;
    try {
      ms = value instanceof Number ? ((Number) value).longValue() : Long.parseLong(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(HotRapStores.FLUSH_INTERVAL_MS_CONFIG, value, "must be a whole number of milliseconds");
    }
    if (ms < 0) {
      throw new ConfigException(HotRapStores.FLUSH_INTERVAL_MS_CONFIG, value, "must not be negative");
    }
    return ms;
  }

  // ---------------------------------------------------------------- writes

  @Override
  public void put(Bytes key, byte[] value) {
    Objects.requireNonNull(key, "key cannot be null");
    HotRapDB store = checkOpen();
    call(() -> {
      if (value == null) {
        store.delete(key.get());
      } else {
        store.put(key.get(), value);
      }
      return null;
    });
    written();
  }

  @Override
  public byte[] putIfAbsent(Bytes key, byte[] value) {
    Objects.requireNonNull(key, "key cannot be null");
    byte[] old = get(key);
    if (old == null) {
      put(key, value);
    }
    return old;
  }

  /** Writes all entries as one atomic batch; a null value deletes its key. */
  @Override
  public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
    Objects.requireNonNull(entries, "entries");
    HotRapWriteBatch batch = new HotRapWriteBatch();
    for (KeyValue<Bytes, byte[]> entry : entries) {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(entry.key, "key cannot be null");
      if (entry.value == null) {
        batch.delete(entry.key.get());
      } else {
        batch.put(entry.key.get(), entry.value);
      }
    }
    HotRapDB store = checkOpen();
    call(() -> {
      store.write(batch);
      return null;
    });
    written();
  }

  /** Deletes {@code key} and returns its value before, or null. */
  @Override
  public byte[] delete(Bytes key) {
    Objects.requireNonNull(key, "key cannot be null");
    byte[] old = get(key);
    if (old != null) {
      // The stream thread is the only writer, so the key cannot appear between the get and here.
      HotRapDB store = checkOpen();
      call(() -> {
        store.delete(key.get());
        return null;
      });
    }
    written();
    return old;
  }

  /** Advances the position to the record being processed, after its write (see the class comment). */
  private void written() {
    dirty = true;
    Optional<RecordMetadata> meta = context.recordMetadata();
    if (meta.isPresent() && meta.get().topic() != null) {
      synchronized (positionLock) {
        position.withComponent(meta.get().topic(), meta.get().partition(), meta.get().offset());
      }
    }
  }

  /** Writes one batch of changelog records atomically; a null value is a tombstone. */
  void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
    HotRapWriteBatch batch = new HotRapWriteBatch();
    for (KeyValue<byte[], byte[]> record : records) {
      if (record.value == null) {
        batch.delete(record.key);
      } else {
        batch.put(record.key, record.value);
      }
    }
    HotRapDB store = checkOpen();
    call(() -> {
      store.write(batch);
      return null;
    });
    dirty = true;
  }

  // ---------------------------------------------------------------- reads

  @Override
  public byte[] get(Bytes key) {
    Objects.requireNonNull(key, "key cannot be null");
    HotRapDB store = checkOpen();
    return call(() -> store.get(key.get()));
  }

  /** Keys in {@code [from, to]} ascending; a null bound is open. */
  @Override
  public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
    return range(from, to, true);
  }

  /** Keys in {@code [from, to]} descending; a null bound is open. */
  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
    return range(from, to, false);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return range(null, null, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return range(null, null, false);
  }

  /** Keys starting with the serialized prefix, ascending. */
  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
    Objects.requireNonNull(prefix, "prefix cannot be null");
    Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
    byte[] low = prefixKeySerializer.serialize(null, prefix);
    Objects.requireNonNull(low, "the serialized prefix");
    return iterator(low, KeyRanges.prefixEnd(low), true);
  }

  private KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean forward) {
    if (from != null && to != null && from.compareTo(to) > 0) {
      LOG.warning("Returning an empty iterator of store " + name + " for the invalid key range from > to."
          + " The range arguments may be in the wrong order, or the key serde may not preserve"
          + " ordering when its bytes are compared lexicographically (the built-in numeric serdes do"
          + " not, for negative numbers).");
      checkOpen();
      return new EmptyIterator();
    }
    return iterator(from == null ? null : from.get(), to == null ? null : KeyRanges.successor(to.get()), forward);
  }

  private KeyValueIterator<Bytes, byte[]> iterator(byte[] low, byte[] highExclusive, boolean forward) {
    HotRapDB store = checkOpen();
    StoreIterator it = call(() -> forward
        ? new ForwardIterator(this, store, low, highExclusive)
        : new ReverseIterator(this, store, low, highExclusive));
    openIterators.add(it);
    if (!open) {
      // close() ran after checkOpen(); it may have missed this iterator.
      it.close();
      throw closedException();
    }
    return it;
  }

  /**
   * The number of keys, counted by a scan of the keys at a snapshot and reused for up to 5 seconds:
   * HotRapDB keeps no key count, and RocksDB's estimate would need one per tier and still count
   * versions that migration has not dropped yet. Exact when fresh.
   */
  @Override
  public long approximateNumEntries() {
    HotRapDB store = checkOpen();
    long now = System.nanoTime();
    long cached = entryCount;
    if (cached >= 0 && now - entryCountNanos < ENTRY_COUNT_MAX_AGE_NANOS) {
      return cached;
    }
    long count = call(() -> {
      long n = 0;
      try (HotRapIterator it = store.newIterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          n++;
        }
      }
      return n;
    });
    entryCount = count;
    entryCountNanos = now;
    return count;
  }

  // ---------------------------------------------------------------- queries

  /**
   * Runs {@link KeyQuery} and {@link RangeQuery} (on serialized keys, as Kafka's stores do); any
   * other query answers {@link QueryResult#forUnknownQueryType}. A query whose bound this store's
   * position has not reached, for the task's partition, answers {@link QueryResult#notUpToBound}.
   * A {@code RangeQuery}'s iterator must be closed by the caller.
   */
  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(positionBound, "positionBound");
    Objects.requireNonNull(config, "config");
    long start = config.isCollectExecutionInfo() ? System.nanoTime() : 0;
    Position seen;
    synchronized (positionLock) {
      seen = position.copy();
    }
    QueryResult<R> result;
    int partition = context == null ? -1 : context.taskId().partition();
    if (!(query instanceof KeyQuery) && !(query instanceof RangeQuery)) {
      result = QueryResult.forUnknownQueryType(query, this);
    } else if (context == null || !reached(seen, positionBound, partition)) {
      result = QueryResult.notUpToBound(seen, positionBound, context == null ? null : partition);
    } else {
      result = run(query);
    }
    if (config.isCollectExecutionInfo()) {
      result.addExecutionInfo("Handled in " + getClass() + " in " + (System.nanoTime() - start) + "ns");
    }
    result.setPosition(seen);
    return result;
  }

  @SuppressWarnings("unchecked")
  private <R> QueryResult<R> run(Query<R> query) {
    try {
      if (query instanceof KeyQuery) {
        Bytes key = ((KeyQuery<Bytes, byte[]>) query).getKey();
        return (QueryResult<R>) QueryResult.forResult(get(key));
      }
      RangeQuery<Bytes, byte[]> range = (RangeQuery<Bytes, byte[]>) query;
      Bytes low = range.getLowerBound().orElse(null);
      Bytes high = range.getUpperBound().orElse(null);
      boolean descending = range.resultOrder() == ResultOrder.DESCENDING;
      KeyValueIterator<Bytes, byte[]> it = descending ? reverseRange(low, high) : range(low, high);
      return (QueryResult<R>) QueryResult.forResult(it);
    } catch (RuntimeException e) {
      return QueryResult.forFailure(FailureReason.STORE_EXCEPTION, "store " + name + " failed to execute "
          + query + ": " + e);
    }
  }

  /** Kafka's rule: for every topic the bound names with this task's partition, the store is there. */
  static boolean reached(Position seen, PositionBound bound, int partition) {
    if (bound.isUnbounded()) {
      return true;
    }
    Position required = bound.position();
    for (String topic : required.getTopics()) {
      Long needed = required.getPartitionPositions(topic).get(partition);
      if (needed != null) {
        Long have = seen.getPartitionPositions(topic).get(partition);
        if (have == null || have < needed) {
          return false;
        }
      }
    }
    return true;
  }

  /** The live position: the offsets of the input records whose writes the store holds. */
  @Override
  public Position getPosition() {
    return position;
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public boolean persistent() {
    return true;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  /**
   * Makes the writes so far survive a power loss: flushes HotRapDB's memtables to synced SST files,
   * then records the position. Kafka calls it at each commit, before it records the changelog
   * offsets the store holds (they are given here, and kept by Kafka's checkpoint file, since the
   * store does not {@linkplain #managesOffsets() manage offsets}).
   *
   * <p>Does nothing when nothing was written since the last flush, or when less than
   * {@value HotRapStores#FLUSH_INTERVAL_MS_CONFIG} has passed since it (0 by default). In that case
   * the writes since are durable against a process crash only (the write-ahead log is not synced),
   * and after a power loss the store may be behind the changelog offset Kafka recorded. Kafka's
   * exactly-once mode does not trust a store after an unclean stop anyway and restores it.
   */
  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    HotRapDB store = checkOpen();
    if (!dirty) {
      return;
    }
    long now = System.nanoTime();
    if (now - nextFlushNanos < 0) {
      return;
    }
    Position flushed;
    synchronized (positionLock) {
      flushed = position.copy();
    }
    dirty = false;
    call(() -> {
      store.flush();
      return null;
    });
    nextFlushNanos = now + flushIntervalNanos;
    positionCheckpoint.write(flushed);
  }

  /**
   * Same as {@link #commit(Map)}, for callers of the API before Kafka 4.3.
   *
   * @deprecated Kafka Streams calls {@link #commit(Map)}.
   */
  @Deprecated
  @Override
  public void flush() {
    commit(Map.of());
  }

  /** Closes the iterators still open, then HotRapDB (which syncs its log), and records the position. */
  @Override
  public void close() {
    HotRapDB store;
    synchronized (this) {
      if (!open) {
        return;
      }
      open = false;
      store = db;
    }
    supplier.closed(this);
    List<StoreIterator> leaked = List.copyOf(openIterators);
    if (!leaked.isEmpty()) {
      LOG.warning("closing " + leaked.size() + " open iterators of store " + name);
      for (StoreIterator it : leaked) {
        try {
          it.close();
        } catch (RuntimeException e) {
          LOG.log(Level.WARNING, "failed to close an iterator of store " + name, e);
        }
      }
    }
    store.close();
    Position last;
    synchronized (positionLock) {
      last = position.copy();
    }
    try {
      positionCheckpoint.write(last);
    } catch (UncheckedIOException e) {
      // The task directory may be gone already; the position is then restored as empty.
      LOG.log(Level.WARNING, "cannot record the position of store " + name + " at close", e);
    }
  }

  void forget(StoreIterator it) {
    openIterators.remove(it);
  }

  /** Iterators open now. */
  int openIteratorCount() {
    return openIterators.size();
  }

  // ---------------------------------------------------------------- for applications

  /** HotRapDB's statistics of this store: tier sizes, where gets were served, migration. */
  public HotRapStats stats() {
    return call(() -> checkOpen().stats());
  }

  /** The task the store belongs to. @throws InvalidStateStoreException if the store is not open */
  public TaskId taskId() {
    checkOpen();
    return context.taskId();
  }

  /** The store's directory on the fast disk. @throws InvalidStateStoreException if not open */
  public Path fastPath() {
    checkOpen();
    return dirs.fast();
  }

  /** The store's directory on the slow disk. @throws InvalidStateStoreException if not open */
  public Path slowPath() {
    checkOpen();
    return dirs.slow();
  }

  /** Waits for HotRapDB's background work (flushes, compactions, migrations); for tests and tools. */
  public void awaitBackgroundWork() {
    HotRapDB store = checkOpen();
    call(() -> {
      store.awaitBackgroundWork();
      return null;
    });
  }

  // ---------------------------------------------------------------- helpers

  private HotRapDB checkOpen() {
    if (!open) {
      throw closedException();
    }
    return db;
  }

  private InvalidStateStoreException closedException() {
    return new InvalidStateStoreException("Store " + name + " is currently closed.");
  }

  /** Runs a HotRapDB call, translating its errors into Kafka's. */
  private <T> T call(Supplier<T> action) {
    try {
      return action.get();
    } catch (HotRapException e) {
      throw new ProcessorStateException("store " + name + " failed: " + e.getMessage(), e);
    } catch (IllegalStateException e) {
      if (!open) {
        // HotRapDB was closed by close() on another thread during the call.
        throw closedException();
      }
      throw e;
    }
  }

  @Override
  public String toString() {
    return "HotRapKeyValueStore{name=" + name + (dirs == null ? "" : ", fast=" + dirs.fast() + ", slow=" + dirs.slow())
        + ", open=" + open + '}';
  }

  /** The iterator of an empty range. */
  private final class EmptyIterator extends StoreIterator {
    EmptyIterator() {
      super(HotRapKeyValueStore.this);
    }

    @Override
    boolean hasRecord() {
      return false;
    }

    @Override
    KeyValue<Bytes, byte[]> nextRecord() {
      throw new IllegalStateException("empty");
    }

    @Override
    Bytes nextKey() {
      throw new IllegalStateException("empty");
    }

    @Override
    void release() {
    }
  }
}
