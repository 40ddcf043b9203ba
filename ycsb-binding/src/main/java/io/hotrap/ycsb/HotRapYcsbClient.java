package io.hotrap.ycsb;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapIterator;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB's {@link DB} interface over a {@link HotRapDB}: run YCSB with
 * {@code -db io.hotrap.ycsb.HotRapYcsbClient} and the {@code hotrap.*} properties of
 * {@link HotRapProperties} ({@code hotrap.fast.dir}, {@code hotrap.slow.dir},
 * {@code hotrap.fast.budget} are required).
 *
 * <p><b>Data model.</b> A YCSB record is one store entry: the key is the UTF-8 bytes of YCSB's
 * key (the table name is ignored: YCSB uses a single table), the value is the record's field map in
 * {@link RecordCodec}'s layout. Scans run in unsigned byte order of the keys, which is YCSB's
 * string order for its ASCII keys.
 *
 * <p><b>Statuses.</b> {@code read} and {@code update} of an absent key return
 * {@link Status#NOT_FOUND}; {@code update} does not create a record (as in YCSB's other bindings:
 * {@code insert} creates). {@code delete} is blind and returns {@link Status#OK} whether or not
 * the key existed: checking would cost a read, which the store also counts as an access of the key
 * in RALT and so would skew what it considers hot. {@code scan} returns {@link Status#OK} with up
 * to {@code recordcount} records from {@code startkey}, fewer at the end of the key space. A
 * requested field that a record lacks is left out of the result. Any failure of the store or a
 * corrupt value is logged and returns {@link Status#ERROR}.
 *
 * <p><b>Concurrency.</b> YCSB calls each instance from one thread; all instances of a JVM share
 * one store ({@link SharedStore}). The store has no read-modify-write of its own, so
 * {@code update} is a {@code get}, a merge and a {@code put}. Unguarded, two updates of one key
 * would both read the old record and the later {@code put} would drop the fields of the earlier
 * (a lost update), and an update racing a {@code delete} could bring the record back. So
 * {@code update}, {@code insert} and {@code delete} of a key hold its stripe of
 * {@link KeyLocks} across their whole read-merge-write: writes of one key through this binding are
 * atomic and totally ordered. Reads and scans take no lock: they see each write whole, because a
 * record is always written by one {@code put}. The locks live in this JVM only; the store's own
 * directory lock keeps other processes out.
 */
public class HotRapYcsbClient extends DB {
  private static final Logger LOG = Logger.getLogger(HotRapYcsbClient.class.getName());

  private SharedStore store;

  @Override
  public void init() throws DBException {
    if (store != null) {
      throw new DBException("init() called twice on one client");
    }
    store = SharedStore.acquire(getProperties());
  }

  @Override
  public void cleanup() throws DBException {
    if (store != null) {
      SharedStore s = store;
      store = null;
      try {
        s.release();
      } catch (RuntimeException e) {
        throw new DBException("closing HotRapDB failed: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      byte[] record = db().get(keyBytes(key));
      if (record == null) {
        return Status.NOT_FOUND;
      }
      putAll(RecordCodec.decode(record, fields), result);
      return Status.OK;
    } catch (RuntimeException e) {
      return failed("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try (HotRapIterator it = db().newIterator(keyBytes(startkey), null)) {
      it.seek(keyBytes(startkey));
      for (int n = 0; n < recordcount && it.isValid(); n++, it.next()) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        putAll(RecordCodec.decode(it.value(), fields), row);
        result.add(row);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return failed("scan", startkey, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    byte[] k = keyBytes(key);
    ReentrantLock lock = store().locks().lockFor(k);
    lock.lock();
    try {
      byte[] record = db().get(k);
      if (record == null) {
        return Status.NOT_FOUND;
      }
      TreeMap<String, byte[]> fields = RecordCodec.decode(record);
      fields.putAll(toBytes(values));
      db().put(k, RecordCodec.encode(fields));
      return Status.OK;
    } catch (RuntimeException e) {
      return failed("update", key, e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    byte[] k = keyBytes(key);
    byte[] record = RecordCodec.encode(toBytes(values));
    ReentrantLock lock = store().locks().lockFor(k);
    lock.lock();
    try {
      db().put(k, record);
      return Status.OK;
    } catch (RuntimeException e) {
      return failed("insert", key, e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Status delete(String table, String key) {
    byte[] k = keyBytes(key);
    ReentrantLock lock = store().locks().lockFor(k);
    lock.lock();
    try {
      db().delete(k);
      return Status.OK;
    } catch (RuntimeException e) {
      return failed("delete", key, e);
    } finally {
      lock.unlock();
    }
  }

  private SharedStore store() {
    if (store == null) {
      throw new IllegalStateException("client is not initialized (init() not called, or cleanup() was)");
    }
    return store;
  }

  private HotRapDB db() {
    return store().db();
  }

  private static byte[] keyBytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  /** Drains YCSB's iterators (each can be read once) into a sorted map for {@link RecordCodec}. */
  private static TreeMap<String, byte[]> toBytes(Map<String, ByteIterator> values) {
    TreeMap<String, byte[]> out = new TreeMap<>();
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      out.put(e.getKey(), e.getValue().toArray());
    }
    return out;
  }

  private static void putAll(Map<String, byte[]> fields, Map<String, ByteIterator> result) {
    for (Map.Entry<String, byte[]> e : fields.entrySet()) {
      result.put(e.getKey(), new ByteArrayByteIterator(e.getValue()));
    }
  }

  private static Status failed(String op, String key, RuntimeException e) {
    LOG.log(Level.WARNING, op + " of key " + key + " failed", e);
    return Status.ERROR;
  }
}
