package io.hotrap.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HotRapYcsbClientTest {
  private static final String TABLE = "usertable";

  @TempDir Path dir;
  private final List<HotRapYcsbClient> clients = new ArrayList<>();
  private HotRapYcsbClient client;

  @BeforeEach
  void open() throws DBException {
    client = newClient();
  }

  @AfterEach
  void close() throws DBException {
    for (HotRapYcsbClient c : clients) {
      c.cleanup();
    }
    assertEquals(0, SharedStore.references());
  }

  private Properties properties() {
    Properties p = new Properties();
    p.setProperty("hotrap.fast.dir", dir.resolve("fast").toString());
    p.setProperty("hotrap.slow.dir", dir.resolve("slow").toString());
    p.setProperty("hotrap.fast.budget", "8M");
    return p;
  }

  private HotRapYcsbClient newClient() throws DBException {
    return newClient(properties());
  }

  private HotRapYcsbClient newClient(Properties p) throws DBException {
    HotRapYcsbClient c = new HotRapYcsbClient();
    c.setProperties(p);
    c.init();
    clients.add(c);
    return c;
  }

  private static Map<String, ByteIterator> values(String... nameValue) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      m.put(nameValue[i], nameValue[i + 1]);
    }
    return StringByteIterator.getByteIteratorMap(m);
  }

  private static Map<String, String> strings(Map<String, ByteIterator> result) {
    return new TreeMap<>(StringByteIterator.getStringMap(result));
  }

  private Map<String, String> read(HotRapYcsbClient c, String key, Set<String> fields) {
    Map<String, ByteIterator> result = new HashMap<>();
    assertEquals(Status.OK, c.read(TABLE, key, fields, result));
    return strings(result);
  }

  @Test
  void insertThenReadReturnsEveryField() {
    assertEquals(Status.OK, client.insert(TABLE, "user1", values("field0", "a", "field1", "b")));
    assertEquals(Map.of("field0", "a", "field1", "b"), read(client, "user1", null));
  }

  @Test
  void readOfAbsentKeyIsNotFound() {
    Map<String, ByteIterator> result = new HashMap<>();
    assertEquals(Status.NOT_FOUND, client.read(TABLE, "user404", null, result));
    assertTrue(result.isEmpty());
  }

  @Test
  void readHonoursTheRequestedFieldSubset() {
    client.insert(TABLE, "user1", values("field0", "a", "field1", "b", "field2", "c"));
    assertEquals(Map.of("field0", "a", "field2", "c"), read(client, "user1", Set.of("field0", "field2")));
    assertEquals(Map.of("field1", "b"), read(client, "user1", Set.of("field1", "field9")));
    assertEquals(Map.of(), read(client, "user1", Set.of()));
  }

  @Test
  void updateMergesFieldsIntoTheStoredRecord() {
    client.insert(TABLE, "user1", values("field0", "a", "field1", "b"));
    assertEquals(Status.OK, client.update(TABLE, "user1", values("field1", "B", "field2", "C")));
    assertEquals(Map.of("field0", "a", "field1", "B", "field2", "C"), read(client, "user1", null));
  }

  @Test
  void updateOfAbsentKeyIsNotFoundAndCreatesNothing() {
    assertEquals(Status.NOT_FOUND, client.update(TABLE, "user404", values("field0", "a")));
    assertEquals(Status.NOT_FOUND, client.read(TABLE, "user404", null, new HashMap<>()));
  }

  @Test
  void insertReplacesTheWholeRecord() {
    client.insert(TABLE, "user1", values("field0", "a", "field1", "b"));
    client.insert(TABLE, "user1", values("field2", "c"));
    assertEquals(Map.of("field2", "c"), read(client, "user1", null));
  }

  @Test
  void deleteRemovesTheRecordAndIsBlind() {
    client.insert(TABLE, "user1", values("field0", "a"));
    assertEquals(Status.OK, client.delete(TABLE, "user1"));
    assertEquals(Status.NOT_FOUND, client.read(TABLE, "user1", null, new HashMap<>()));
    assertEquals(Status.NOT_FOUND, client.update(TABLE, "user1", values("field0", "b")));
    assertEquals(Status.OK, client.delete(TABLE, "user1"));
  }

  @Test
  void scanReturnsUpToCountRecordsFromStartKeyInKeyOrder() {
    for (int i = 9; i >= 0; i--) {
      client.insert(TABLE, "user" + i, values("field0", "v" + i, "field1", "w" + i));
    }
    client.delete(TABLE, "user5");
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, client.scan(TABLE, "user3", 4, null, rows));
    List<Map<String, String>> read = rows(rows);
    assertEquals(Map.of("field0", "v3", "field1", "w3"), read.get(0));
    assertEquals(List.of("v3", "v4", "v6", "v7"), field0(read));

    rows.clear();
    assertEquals(Status.OK, client.scan(TABLE, "user35", 100, null, rows));
    assertEquals(List.of("v4", "v6", "v7", "v8", "v9"), field0(rows(rows)), "a start key between records");
  }

  @Test
  void scanHonoursFieldsAndStopsAtTheEnd() {
    for (int i = 0; i < 5; i++) {
      client.insert(TABLE, "user" + i, values("field0", "v" + i, "field1", "w" + i));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, client.scan(TABLE, "user2", 100, Set.of("field1"), rows));
    assertEquals(3, rows.size());
    for (int i = 0; i < 3; i++) {
      assertEquals(Map.of("field1", "w" + (i + 2)), strings(rows.get(i)));
    }
    rows.clear();
    assertEquals(Status.OK, client.scan(TABLE, "zzz", 10, null, rows));
    assertTrue(rows.isEmpty());
  }

  /** Each row as strings; YCSB's iterators can be read only once. */
  private static List<Map<String, String>> rows(List<HashMap<String, ByteIterator>> rows) {
    List<Map<String, String>> out = new ArrayList<>();
    for (HashMap<String, ByteIterator> row : rows) {
      out.add(strings(row));
    }
    return out;
  }

  private static List<String> field0(List<Map<String, String>> rows) {
    List<String> out = new ArrayList<>();
    for (Map<String, String> row : rows) {
      out.add(row.get("field0"));
    }
    return out;
  }

  @Test
  void concurrentUpdatesOfOneKeyKeepEveryField() throws Exception {
    int threads = 4;
    int rounds = 300;
    Map<String, String> initial = new HashMap<>();
    for (int t = 0; t < threads; t++) {
      initial.put("field" + t, "init");
    }
    client.insert(TABLE, "hot", StringByteIterator.getByteIteratorMap(initial));
    List<HotRapYcsbClient> perThread = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      perThread.add(newClient());
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      done.add(pool.submit(() -> {
        start.await();
        for (int r = 0; r < rounds; r++) {
          // Each thread owns one field and also adds one of its own per round: a lost update
          // shows as a stale owned field or a missing added one.
          Status s = perThread.get(id).update(TABLE, "hot",
              values("field" + id, "t" + id + "r" + r, "t" + id + "-" + r, "x"));
          assertEquals(Status.OK, s);
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    Map<String, String> record = read(client, "hot", null);
    assertEquals(threads + threads * rounds, record.size());
    for (int t = 0; t < threads; t++) {
      assertEquals("t" + t + "r" + (rounds - 1), record.get("field" + t));
      for (int r = 0; r < rounds; r++) {
        assertEquals("x", record.get("t" + t + "-" + r));
      }
    }
  }

  @Test
  void clientsShareOneStoreThatTheLastCleanupCloses() throws DBException {
    HotRapYcsbClient second = newClient();
    assertEquals(2, SharedStore.references());
    client.insert(TABLE, "user1", values("field0", "a"));
    clients.remove(client);
    client.cleanup();
    assertEquals(1, SharedStore.references());
    assertEquals(Map.of("field0", "a"), read(second, "user1", null));
    clients.remove(second);
    second.cleanup();
    assertEquals(0, SharedStore.references());

    HotRapYcsbClient reopened = newClient();
    assertEquals(Map.of("field0", "a"), read(reopened, "user1", null));
  }

  @Test
  void clientWithOtherSettingsIsRefusedWhileTheStoreIsOpen() {
    Properties other = properties();
    other.setProperty("hotrap.fast.budget", "16M");
    DBException e = assertThrows(DBException.class, () -> newClient(other));
    assertTrue(e.getMessage().startsWith("HotRapDB is already open in this JVM"), e.getMessage());
    assertEquals(1, SharedStore.references());
  }

  @Test
  void invalidPropertyFailsInitNamingIt() throws DBException {
    clients.remove(client);
    client.cleanup();
    Properties bad = properties();
    bad.setProperty("hotrap.fast.budget", "lots");
    HotRapYcsbClient c = new HotRapYcsbClient();
    c.setProperties(bad);
    DBException e = assertThrows(DBException.class, c::init);
    assertTrue(e.getMessage().startsWith("hotrap.fast.budget=lots"), e.getMessage());
    assertEquals(0, SharedStore.references());
  }
}
