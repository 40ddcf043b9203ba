package io.hotrap.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HotRapKeyValueStoreTest {
  static final long BUDGET = 1L << 20;

  @TempDir
  Path stateDir;
  @TempDir
  Path slowDir;

  private HotRapStoreSupplier supplier;
  private TestStoreContext context;
  private HotRapKeyValueStore store;

  @BeforeEach
  void open() {
    supplier = HotRapStores.keyValueStore("kv", slowDir, BUDGET);
    context = new TestStoreContext(stateDir, new TaskId(0, 3));
    store = openStore();
  }

  private HotRapKeyValueStore openStore() {
    HotRapKeyValueStore s = (HotRapKeyValueStore) supplier.get();
    s.init(context, s);
    return s;
  }

  @AfterEach
  void close() {
    store.close();
  }

  static Bytes key(String s) {
    return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] value(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static List<String> keys(KeyValueIterator<Bytes, byte[]> it) {
    List<String> out = new ArrayList<>();
    try (it) {
      while (it.hasNext()) {
        out.add(new String(it.next().key.get(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private void putAll(String... keys) {
    for (String k : keys) {
      store.put(key(k), value("v-" + k));
    }
  }

  @Test
  void directoriesMirrorTheTaskDirectoryOnBothDisks() {
    assertEquals(context.taskDir().resolve("kv"), store.fastPath());
    assertEquals(slowDir.resolve(TestStoreContext.APP).resolve("0_3").resolve("kv"), store.slowPath());
    assertTrue(Files.isDirectory(store.slowPath()));
    assertEquals(List.of(store), supplier.openStores());
    assertTrue(store.persistent());
    assertTrue(store.isOpen());
  }

  @Test
  void putGetDeleteAndPutIfAbsentFollowKafkasContract() {
    store.put(key("a"), value("1"));
    assertArrayEquals(value("1"), store.get(key("a")));
    assertArrayEquals(value("1"), store.putIfAbsent(key("a"), value("2")));
    assertArrayEquals(value("1"), store.get(key("a")));
    assertNull(store.putIfAbsent(key("b"), value("3")));
    assertArrayEquals(value("3"), store.get(key("b")));

    assertArrayEquals(value("1"), store.delete(key("a")));
    assertNull(store.get(key("a")));
    assertNull(store.delete(key("a")));

    store.put(key("b"), null);
    assertNull(store.get(key("b")));
    assertThrows(NullPointerException.class, () -> store.put(null, value("x")));
    assertThrows(NullPointerException.class, () -> store.get(null));
  }

  @Test
  void putAllWritesAndDeletesInOneBatch() {
    putAll("a", "b");
    store.putAll(List.of(KeyValue.pair(key("c"), value("3")), KeyValue.pair(key("a"), null),
        KeyValue.pair(key("d"), value("4"))));
    assertEquals(List.of("b", "c", "d"), keys(store.all()));
    assertThrows(NullPointerException.class,
        () -> store.putAll(List.of(KeyValue.pair(key("e"), value("5")), KeyValue.pair(null, value("6")))));
    assertNull(store.get(key("e")), "a batch with a bad entry writes nothing");
  }

  @Test
  void rangesIncludeBothEndsAndNullBoundsAreOpen() {
    putAll("a", "b", "bb", "c", "d");
    assertEquals(List.of("b", "bb", "c"), keys(store.range(key("b"), key("c"))));
    assertEquals(List.of("c", "bb", "b"), keys(store.reverseRange(key("b"), key("c"))));
    assertEquals(List.of("a", "b", "bb"), keys(store.range(null, key("bb"))));
    assertEquals(List.of("c", "d"), keys(store.range(key("bz"), null)));
    assertEquals(List.of("d", "c", "bb", "b", "a"), keys(store.reverseAll()));
    assertEquals(List.of("a", "b", "bb", "c", "d"), keys(store.all()));
    assertEquals(List.of("bb"), keys(store.range(key("bb"), key("bb"))));
  }

  @Test
  void aRangeFromAboveToIsEmpty() {
    putAll("a", "b", "c");
    assertEquals(List.of(), keys(store.range(key("c"), key("a"))));
    assertEquals(List.of(), keys(store.reverseRange(key("c"), key("a"))));
  }

  @Test
  void keysOrderAsUnsignedBytes() {
    store.put(Bytes.wrap(new byte[] {(byte) 0x80}), value("high"));
    store.put(Bytes.wrap(new byte[] {0x01}), value("low"));
    List<byte[]> seen = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
      it.forEachRemaining(kv -> seen.add(kv.key.get()));
    }
    assertArrayEquals(new byte[] {0x01}, seen.get(0));
    assertArrayEquals(new byte[] {(byte) 0x80}, seen.get(1));
  }

  @Test
  void reverseIterationCrossesChunkBoundariesInOrder() {
    int n = ReverseIterator.CHUNK * 3 + 17;
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String k = String.format("k%05d", i);
      store.put(key(k), value(Integer.toString(i)));
      expected.add(k);
    }
    List<String> descending = new ArrayList<>(expected);
    java.util.Collections.reverse(descending);
    assertEquals(descending, keys(store.reverseAll()));
    assertEquals(descending.subList(10, n - 5),
        keys(store.reverseRange(key(expected.get(5)), key(expected.get(n - 11)))));
    // Exactly one chunk, and a range of one chunk plus one record.
    assertEquals(descending.subList(n - ReverseIterator.CHUNK, n),
        keys(store.reverseRange(null, key(expected.get(ReverseIterator.CHUNK - 1)))));
    assertEquals(descending.subList(n - ReverseIterator.CHUNK - 1, n),
        keys(store.reverseRange(null, key(expected.get(ReverseIterator.CHUNK)))));
  }

  @Test
  void iteratorsReadTheSnapshotOfTheirCreation() {
    putAll("a", "b");
    try (KeyValueIterator<Bytes, byte[]> forward = store.all();
         KeyValueIterator<Bytes, byte[]> reverse = store.reverseAll()) {
      store.put(key("c"), value("3"));
      store.delete(key("a"));
      assertEquals(List.of("a", "b"), keys(forward));
      assertEquals(List.of("b", "a"), keys(reverse));
    }
  }

  @Test
  void peekNextKeyDoesNotAdvanceAndAnExhaustedIteratorSaysSo() {
    putAll("a");
    try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
      assertEquals(key("a"), it.peekNextKey());
      assertEquals(key("a"), it.next().key);
      assertFalse(it.hasNext());
      assertThrows(NoSuchElementException.class, it::next);
      assertThrows(NoSuchElementException.class, it::peekNextKey);
    }
  }

  @Test
  void prefixScanFindsExactlyTheKeysWithThePrefix() {
    putAll("ab", "abc", "abd", "ac", "b");
    store.put(Bytes.wrap(new byte[] {(byte) 0xFF, 1}), value("x"));
    store.put(Bytes.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF}), value("y"));
    assertEquals(List.of("ab", "abc", "abd"), keys(store.prefixScan("ab", new StringSerializer())));
    assertEquals(List.of(), keys(store.prefixScan("z", new StringSerializer())));
    try (KeyValueIterator<Bytes, byte[]> it =
        store.prefixScan(new byte[] {(byte) 0xFF}, (topic, p) -> p)) {
      assertEquals(Bytes.wrap(new byte[] {(byte) 0xFF, 1}), it.next().key);
      assertEquals(Bytes.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF}), it.next().key);
      assertFalse(it.hasNext());
    }
  }

  @Test
  void approximateNumEntriesCountsLiveKeys() {
    putAll("a", "b", "c");
    store.delete(key("b"));
    assertEquals(2, store.approximateNumEntries());
  }

  @Test
  void closingTheStoreClosesItsIteratorsAndLaterCallsFail() {
    putAll("a", "b");
    KeyValueIterator<Bytes, byte[]> forward = store.all();
    KeyValueIterator<Bytes, byte[]> reverse = store.reverseAll();
    assertEquals(2, store.openIteratorCount());
    store.close();
    assertEquals(0, store.openIteratorCount());
    assertFalse(store.isOpen());
    assertThrows(InvalidStateStoreException.class, forward::hasNext);
    assertThrows(InvalidStateStoreException.class, reverse::hasNext);
    assertThrows(InvalidStateStoreException.class, () -> store.get(key("a")));
    assertThrows(InvalidStateStoreException.class, () -> store.put(key("a"), value("1")));
    assertThrows(InvalidStateStoreException.class, store::all);
    assertEquals(List.of(), supplier.openStores());
    store.close();
    forward.close();
  }

  @Test
  void closedIteratorsAreForgotten() {
    putAll("a");
    keys(store.all());
    keys(store.reverseAll());
    keys(store.range(key("c"), key("a")));
    assertEquals(0, store.openIteratorCount());
  }

  @Test
  void dataAndPositionSurviveAReopen() {
    context.processing("input", 3, 41);
    store.put(key("a"), value("1"));
    context.processing("input", 3, 42);
    store.put(key("b"), value("2"));
    store.commit(Map.of());
    store.close();

    store = openStore();
    assertArrayEquals(value("1"), store.get(key("a")));
    assertArrayEquals(value("2"), store.get(key("b")));
    assertEquals(Position.emptyPosition().withComponent("input", 3, 42L), store.getPosition());
  }

  @Test
  void theSameInstanceReopensAfterClose() {
    putAll("a");
    store.close();
    store.init(context, store);
    assertArrayEquals(value("v-a"), store.get(key("a")));
    assertEquals(1, store.approximateNumEntries());
    assertThrows(IllegalStateException.class, () -> store.init(context, store));
  }

  @Test
  void restoreWritesEachBatchOfChangelogRecords() {
    store.put(key("gone"), value("old"));
    BatchingStateRestoreCallback restore = (BatchingStateRestoreCallback) context.restoreCallback;
    restore.restoreAll(List.of(
        KeyValue.pair(value("a"), value("1")),
        KeyValue.pair(value("b"), value("2")),
        KeyValue.pair(value("a"), value("3")),
        KeyValue.pair(value("gone"), null)));
    assertEquals(List.of("a", "b"), keys(store.all()));
    assertArrayEquals(value("3"), store.get(key("a")));
  }

  @Test
  void aWipedFastTierTakesItsOrphanedSlowTierWithIt() throws Exception {
    putAll("a");
    store.commit(Map.of());
    Path slow = store.slowPath();
    store.close();
    StoreDirectories.deleteRecursively(context.taskDir());
    context.taskDir().toFile().mkdirs();

    store = openStore();
    assertEquals(slow, store.slowPath());
    assertNull(store.get(key("a")), "a new store starts empty, to be restored from the changelog");
    store.put(key("b"), value("2"));
    assertArrayEquals(value("2"), store.get(key("b")));
  }

  @Test
  void aSlowDirectoryOfAnotherInstanceIsLeftAlone() throws Exception {
    Path owner = store.slowPath().resolve(StoreDirectories.OWNER_FILE);
    store.close();
    Files.writeString(owner, "/elsewhere/kv");
    StoreDirectories.deleteRecursively(context.taskDir());
    context.taskDir().toFile().mkdirs();

    HotRapKeyValueStore other = (HotRapKeyValueStore) supplier.get();
    ProcessorStateException e = assertThrows(ProcessorStateException.class, () -> other.init(context, other));
    assertTrue(e.getMessage().contains("/elsewhere/kv"), e.getMessage());
    assertTrue(Files.exists(owner));
    Files.writeString(owner, context.taskDir().resolve("kv").toString());
    store = openStore();
  }

  @Test
  void keyAndRangeQueriesAnswerAndOtherQueriesAreUnknown() {
    context.processing("input", 3, 7);
    putAll("a", "b", "c");
    QueryConfig config = new QueryConfig(true);

    QueryResult<byte[]> one = store.query(KeyQuery.withKey(key("b")), PositionBound.unbounded(), config);
    assertTrue(one.isSuccess());
    assertArrayEquals(value("v-b"), one.getResult());
    assertEquals(Position.emptyPosition().withComponent("input", 3, 7L), one.getPosition());
    assertFalse(one.getExecutionInfo().isEmpty());

    QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(
        RangeQuery.withRange(key("b"), key("c")), PositionBound.unbounded(), config);
    assertEquals(List.of("b", "c"), keys(range.getResult()));
    QueryResult<KeyValueIterator<Bytes, byte[]>> down = store.query(
        RangeQuery.<Bytes, byte[]>withNoBounds().withDescendingKeys(), PositionBound.unbounded(), config);
    assertEquals(List.of("c", "b", "a"), keys(down.getResult()));

    QueryResult<?> window = store.query(WindowKeyQuery.withKeyAndWindowStartRange(key("a"),
        java.time.Instant.EPOCH, java.time.Instant.EPOCH), PositionBound.unbounded(), config);
    assertEquals(FailureReason.UNKNOWN_QUERY_TYPE, window.getFailureReason());
  }

  @Test
  void aQueryAheadOfTheStoresPositionIsNotUpToBound() {
    context.processing("input", 3, 7);
    putAll("a");
    PositionBound ahead = PositionBound.at(Position.emptyPosition().withComponent("input", 3, 8L));
    QueryResult<byte[]> r = store.query(KeyQuery.withKey(key("a")), ahead, new QueryConfig(false));
    assertEquals(FailureReason.NOT_UP_TO_BOUND, r.getFailureReason());

    PositionBound reached = PositionBound.at(Position.fromMap(Map.of(
        "input", Map.of(3, 7L, 4, 100L))));
    assertTrue(store.query(KeyQuery.<Bytes, byte[]>withKey(key("a")), reached, new QueryConfig(false)).isSuccess(),
        "bounds on other partitions do not apply to this task");
  }

  @Test
  void badSupplierArgumentsFailFast() {
    assertThrows(NullPointerException.class, () -> HotRapStores.keyValueStore(null, slowDir, BUDGET));
    assertThrows(NullPointerException.class, () -> HotRapStores.keyValueStore("kv", null, BUDGET));
    assertThrows(IllegalArgumentException.class, () -> HotRapStores.keyValueStore("a/b", slowDir, BUDGET));
    assertThrows(IllegalArgumentException.class, () -> HotRapStores.keyValueStore("..", slowDir, BUDGET));
    assertThrows(IllegalArgumentException.class, () -> HotRapStores.keyValueStore("", slowDir, BUDGET));
    assertThrows(IllegalArgumentException.class, () -> HotRapStores.keyValueStore("kv", slowDir, 0));
    IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
        () -> HotRapStores.keyValueStore("kv", slowDir, 256 * 1024));
    assertTrue(small.getMessage().contains("262144"), small.getMessage());
  }

  @Test
  void badHotRapSettingsInTheStreamsConfigFailTheInit() {
    store.close();
    context.config(HotRapStores.METER_REGISTRY_CONFIG, "not a registry");
    HotRapKeyValueStore s = (HotRapKeyValueStore) supplier.get();
    assertThrows(org.apache.kafka.common.config.ConfigException.class, () -> s.init(context, s));
    context.config(HotRapStores.METER_REGISTRY_CONFIG, null);
    context.config(HotRapStores.FLUSH_INTERVAL_MS_CONFIG, "-1");
    assertThrows(org.apache.kafka.common.config.ConfigException.class, () -> s.init(context, s));
    context.config(HotRapStores.FLUSH_INTERVAL_MS_CONFIG, "0");
    store = openStore();
  }

  @Test
  void aMeterRegistryInTheConfigGetsTheStoresMeters() {
    store.close();
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    context.config(HotRapStores.METER_REGISTRY_CONFIG, registry);
    store = openStore();
    store.put(key("a"), value("1"));
    store.get(key("a"));
    assertEquals(1.0, registry.find("hotrap.gets").tag("tier", "fast").functionCounter().count());
    store.close();
    assertTrue(registry.find("hotrap.gets").meters().isEmpty(), "closing the store removes its meters");
    context.config(HotRapStores.METER_REGISTRY_CONFIG, null);
    store = openStore();
  }
}
