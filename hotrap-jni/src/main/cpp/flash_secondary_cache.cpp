// A RocksDB SecondaryCache whose lookups and inserts call a Java SecondaryCacheBackend, the LRU
// block cache built over it, and the JNI entry points of io.hotrap.jni.SecondaryCacheNative.
//
// Data path. The LRU cache (RocksDB's CacheWithSecondaryAdapter over an LRUCache) offers every
// block it evicts to Insert: the block is serialized with the helper's size and save callbacks and
// handed to backend.insert(key, bytes, group). A primary miss calls Lookup: backend.lookup(key)
// returns the saved bytes or null, and the helper's create callback rebuilds the block from them
// (uncompressed, source tier kVolatileTier, which is what RocksDB's block helpers accept). A hit
// says kept_in_sec_cache, so RocksDB promotes the block with the helper that has no secondary
// support and does not offer it back on its next eviction.
//
// Keys and groups. RocksDB's block cache key is 16 bytes; the first 8 (a native-endian uint64) are
// the same for every block of one SST file and the rest is xored with the block's offset. That
// uint64 is the block's group (never 0 for files with a stable key; 0 stands for "no group").
// fileGroup computes the same number for an SST file from its table properties, through RocksDB's
// own OffsetableCacheKey constructor, so an event listener can invalidate a deleted file's blocks.
//
// Threads and failures. RocksDB calls Insert and Lookup from the reading thread, which may be one
// of its own: such a thread is attached to the JVM as a daemon on first use and detached when it
// exits, unless the JVM is shutting down. That exception prevents a deadlock at exit: the JVM's
// exit() runs librocksdbjni's static destructors, which join RocksDB's threads, and a thread
// calling DetachCurrentThread after the JVM has exited blocks forever by design. A JVM shutdown
// hook (SecondaryCacheNative.vmExiting) raises the flag first; a JVM ended by Runtime.halt runs
// no hook, and may then hang at exit if a RocksDB thread attached here exits at the same time. Nothing may escape into RocksDB: a Java exception is cleared and counted, a C++ exception
// is caught and counted; either turns a lookup into a miss and an insert into a dropped insert.
// A thread that enters with a Java exception already pending (not ours to clear) gets a miss.
//
// Ownership. The adapter holds a JNI global reference on the backend, released by its destructor
// when the last std::shared_ptr goes (the Java FlashSecondaryCache's, or the block cache's, which a
// DB may keep after the Java object is closed). Java owns one heap std::shared_ptr<Cache> (the
// org.rocksdb.Cache handle, RocksJava's convention) and one heap std::shared_ptr<SecondaryCache>
// (for counters), and frees both in its dispose.
#include <jni.h>
#include <pthread.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "rocksdb_abi.h"

using hotrap::rdb::CacheItemHelper;
using hotrap::rdb::CacheTier;
using hotrap::rdb::CompressionType;
using hotrap::rdb::CreateContext;
using hotrap::rdb::RocksDbFunctions;
using hotrap::rdb::SecondaryCache;
using hotrap::rdb::SecondaryCacheResultHandle;
using hotrap::rdb::Slice;
using hotrap::rdb::Statistics;
using hotrap::rdb::Status;

namespace {

constexpr const char *kName = "HotrapFlashSecondaryCache";
constexpr jint kJniVersion = JNI_VERSION_1_8;
constexpr size_t kMaxValueBytes = 0x7fffffff;  // a Java array's limit

std::mutex resolve_lock;
bool resolved = false;  // under resolve_lock; once true, the globals below are read-only
std::string resolve_error;
RocksDbFunctions rocksdb;
JavaVM *vm = nullptr;
jclass backend_class = nullptr;  // global reference: keeps the method ids valid
jmethodID backend_lookup = nullptr;
jmethodID backend_insert = nullptr;
jmethodID backend_erase = nullptr;
pthread_key_t detach_key;
std::atomic<bool> vm_exiting{false};

void detach_at_exit(void *) {
  if (vm != nullptr && !vm_exiting.load(std::memory_order_acquire)) {
    vm->DetachCurrentThread();
  }
}

// The JNIEnv of the calling thread, attaching a RocksDB thread on first use; null if that fails.
JNIEnv *callback_env() {
  JNIEnv *env = nullptr;
  jint rc = vm->GetEnv(reinterpret_cast<void **>(&env), kJniVersion);
  if (rc == JNI_OK) {
    return env;
  }
  if (rc != JNI_EDETACHED) {
    return nullptr;
  }
  JavaVMAttachArgs args{kJniVersion, const_cast<char *>("rocksdb-secondary-cache"), nullptr};
  if (vm->AttachCurrentThreadAsDaemon(reinterpret_cast<void **>(&env), &args) != JNI_OK) {
    return nullptr;
  }
  // Any non-null value: the key's destructor then detaches the thread when it exits.
  pthread_setspecific(detach_key, reinterpret_cast<void *>(1));
  return env;
}

uint64_t group_of(const Slice &key) {
  uint64_t group = 0;
  if (key.size >= sizeof(group)) {
    std::memcpy(&group, key.data, sizeof(group));
  }
  return group;
}

jbyteArray to_java(JNIEnv *env, const char *data, size_t size) {
  jbyteArray array = env->NewByteArray(static_cast<jsize>(size));
  if (array != nullptr && size > 0) {
    env->SetByteArrayRegion(array, 0, static_cast<jsize>(size), reinterpret_cast<const jbyte *>(data));
  }
  return env->ExceptionCheck() ? nullptr : array;
}

struct Counters {
  std::atomic<uint64_t> inserts{0};         // blocks handed to the backend
  std::atomic<uint64_t> inserted_bytes{0};  // their bytes
  std::atomic<uint64_t> insert_errors{0};   // dropped: save failed, backend threw, no JVM
  std::atomic<uint64_t> lookups{0};         // Lookup calls with a secondary-compatible helper
  std::atomic<uint64_t> hits{0};            // ... served from the backend
  std::atomic<uint64_t> lookup_errors{0};   // ... turned into misses by a failure
  std::atomic<uint64_t> erases{0};
};

std::atomic<uint64_t> live_adapters{0};

void bump(std::atomic<uint64_t> &counter, uint64_t by = 1) {
  counter.fetch_add(by, std::memory_order_relaxed);
}

// A lookup result, complete when created: lookups are synchronous.
class ReadyHandle : public SecondaryCacheResultHandle {
 public:
  ReadyHandle(void *value, size_t charge) : value_(value), charge_(charge) {}
  bool IsReady() override { return true; }
  void Wait() override {}
  void *Value() override { return value_; }
  size_t Size() override { return charge_; }

 private:
  void *value_;
  size_t charge_;
};

class FlashSecondaryCache : public SecondaryCache {
 public:
  // Takes over `backend`, a global reference.
  explicit FlashSecondaryCache(jobject backend) : backend_(backend) { bump(live_adapters); }

  ~FlashSecondaryCache() override {
    JNIEnv *env = callback_env();
    if (env != nullptr) {
      env->DeleteGlobalRef(backend_);
    }
    live_adapters.fetch_sub(1, std::memory_order_relaxed);
  }

  const char *Name() const override { return kName; }

  std::string GetPrintableOptions() const override {
    return std::string("    name: ") + kName + "\n    backend: java\n";
  }

  Status Insert(const Slice &key, void *obj, const CacheItemHelper *helper, bool) override {
    try {
      if (helper == nullptr || helper->size_cb == nullptr || helper->saveto_cb == nullptr) {
        return Status::OK();
      }
      size_t size = helper->size_cb(obj);
      if (size > kMaxValueBytes) {
        bump(counters_.insert_errors);
        return Status::OK();
      }
      std::unique_ptr<char[]> saved(new char[size > 0 ? size : 1]);
      Status s = helper->saveto_cb(obj, 0, size, saved.get());
      if (!s.ok()) {
        bump(counters_.insert_errors);
        return Status::OK();
      }
      if (store(key, saved.get(), size)) {
        bump(counters_.inserts);
        bump(counters_.inserted_bytes, size);
      } else {
        bump(counters_.insert_errors);
      }
    } catch (...) {
      bump(counters_.insert_errors);
    }
    return Status::OK();
  }

  Status InsertSaved(const Slice &key, const Slice &saved, CompressionType type,
                     CacheTier source) override {
    try {
      if (type != CompressionType::kNoCompression || source != CacheTier::kVolatileTier) {
        return Status::NotSupported();
      }
      if (store(key, saved.data, saved.size)) {
        bump(counters_.inserts);
        bump(counters_.inserted_bytes, saved.size);
      } else {
        bump(counters_.insert_errors);
      }
    } catch (...) {
      bump(counters_.insert_errors);
    }
    return Status::OK();
  }

  std::unique_ptr<SecondaryCacheResultHandle> Lookup(const Slice &key, const CacheItemHelper *helper,
                                                     CreateContext *context, bool, bool,
                                                     Statistics *, bool &kept_in_sec_cache) override {
    kept_in_sec_cache = false;
    try {
      if (helper == nullptr || helper->create_cb == nullptr) {
        return nullptr;
      }
      bump(counters_.lookups);
      std::unique_ptr<char[]> bytes;
      size_t size = 0;
      if (!load(key, &bytes, &size)) {
        return nullptr;
      }
      void *value = nullptr;
      size_t charge = 0;
      Status s = helper->create_cb(Slice{bytes.get(), size}, CompressionType::kNoCompression,
                                   CacheTier::kVolatileTier, context, nullptr, &value, &charge);
      if (!s.ok() || value == nullptr) {
        bump(counters_.lookup_errors);
        return nullptr;
      }
      ReadyHandle *handle = new (std::nothrow) ReadyHandle(value, charge);
      if (handle == nullptr) {
        if (helper->del_cb != nullptr) {
          helper->del_cb(value, nullptr);
        }
        bump(counters_.lookup_errors);
        return nullptr;
      }
      bump(counters_.hits);
      kept_in_sec_cache = true;
      return std::unique_ptr<SecondaryCacheResultHandle>(handle);
    } catch (...) {
      bump(counters_.lookup_errors);
      return nullptr;
    }
  }

  bool SupportForceErase() const override { return false; }

  void Erase(const Slice &key) override {
    try {
      bump(counters_.erases);
      JNIEnv *env = usable_env();
      if (env == nullptr || env->PushLocalFrame(2) != 0) {
        clear(env);
        return;
      }
      jbyteArray jkey = to_java(env, key.data, key.size);
      if (jkey != nullptr) {
        env->CallVoidMethod(backend_, backend_erase, jkey);
      }
      clear(env);
      env->PopLocalFrame(nullptr);
    } catch (...) {
    }
  }

  void WaitAll(std::vector<SecondaryCacheResultHandle *>) override {}

  const Counters &counters() const { return counters_; }

 private:
  // The thread's JNIEnv, or null when there is none or it has an exception pending that is not
  // ours to clear.
  static JNIEnv *usable_env() {
    JNIEnv *env = callback_env();
    return env == nullptr || env->ExceptionCheck() ? nullptr : env;
  }

  // Clears the exception the backend threw; true if there was one.
  static bool clear(JNIEnv *env) {
    if (env != nullptr && env->ExceptionCheck()) {
      env->ExceptionClear();
      return true;
    }
    return false;
  }

  bool store(const Slice &key, const char *data, size_t size) {
    JNIEnv *env = usable_env();
    if (env == nullptr) {
      return false;
    }
    if (env->PushLocalFrame(4) != 0) {
      clear(env);
      return false;
    }
    jbyteArray jkey = to_java(env, key.data, key.size);
    jbyteArray jvalue = jkey == nullptr ? nullptr : to_java(env, data, size);
    if (jvalue != nullptr) {
      env->CallVoidMethod(backend_, backend_insert, jkey, jvalue,
                          static_cast<jlong>(group_of(key)));
    }
    bool ok = jvalue != nullptr && !clear(env);
    clear(env);
    env->PopLocalFrame(nullptr);
    return ok;
  }

  // True with the backend's bytes on a hit; false on a miss or a failure (counted).
  bool load(const Slice &key, std::unique_ptr<char[]> *bytes, size_t *size) {
    JNIEnv *env = usable_env();
    if (env == nullptr) {
      bump(counters_.lookup_errors);
      return false;
    }
    if (env->PushLocalFrame(4) != 0) {
      clear(env);
      bump(counters_.lookup_errors);
      return false;
    }
    bool hit = false;
    jbyteArray jkey = to_java(env, key.data, key.size);
    jobject result = jkey == nullptr ? nullptr : env->CallObjectMethod(backend_, backend_lookup, jkey);
    if (clear(env) || jkey == nullptr) {
      bump(counters_.lookup_errors);
    } else if (result != nullptr) {
      jbyteArray value = static_cast<jbyteArray>(result);
      jsize length = env->GetArrayLength(value);
      bytes->reset(new (std::nothrow) char[length > 0 ? length : 1]);
      if (*bytes == nullptr) {
        bump(counters_.lookup_errors);
      } else {
        env->GetByteArrayRegion(value, 0, length, reinterpret_cast<jbyte *>(bytes->get()));
        *size = static_cast<size_t>(length);
        hit = !clear(env);
      }
    }
    env->PopLocalFrame(nullptr);
    return hit;
  }

  jobject backend_;
  Counters counters_;
};

void throw_new(JNIEnv *env, const char *class_name, const std::string &message) {
  if (env->ExceptionCheck()) {
    return;
  }
  jclass cls = env->FindClass(class_name);
  if (cls != nullptr) {
    env->ThrowNew(cls, message.c_str());
  }
}

template <typename T>
T *from_handle(jlong handle) {
  return reinterpret_cast<T *>(static_cast<intptr_t>(handle));
}

template <typename T>
jlong to_handle(T *pointer) {
  return static_cast<jlong>(reinterpret_cast<intptr_t>(pointer));
}

// ---- layout probe ----

// Records which of its virtual functions RocksDB's compiled code reached, and with what.
class ProbeSecondaryCache : public SecondaryCache {
 public:
  std::string calls;

  const char *Name() const override { return "HotrapLayoutProbe"; }
  Status Insert(const Slice &key, void *obj, const CacheItemHelper *, bool force) override {
    record("Insert", key.size == 16 && obj == this && force);
    return Status(Status::kNotFound);
  }
  Status InsertSaved(const Slice &key, const Slice &saved, CompressionType type,
                     CacheTier source) override {
    record("InsertSaved", key.size == 16 && saved.size == 3 &&
                              type == CompressionType::kNoCompression &&
                              source == CacheTier::kNonVolatileBlockTier);
    return Status(Status::kInvalidArgument);
  }
  std::unique_ptr<SecondaryCacheResultHandle> Lookup(const Slice &key, const CacheItemHelper *,
                                                     CreateContext *, bool wait, bool advise_erase,
                                                     Statistics *, bool &kept) override {
    record("Lookup", key.size == 16 && wait && !advise_erase);
    kept = true;
    return std::unique_ptr<SecondaryCacheResultHandle>(new ReadyHandle(this, 42));
  }
  bool SupportForceErase() const override {
    const_cast<ProbeSecondaryCache *>(this)->record("SupportForceErase", true);
    return true;
  }
  void Erase(const Slice &key) override { record("Erase", key.size == 16); }
  void WaitAll(std::vector<SecondaryCacheResultHandle *> handles) override {
    record("WaitAll", handles.size() == 2);
  }
  Status SetCapacity(size_t capacity) override {
    record("SetCapacity", capacity == 4096);
    return Status::OK();
  }
  Status GetCapacity(size_t &capacity) override {
    record("GetCapacity", true);
    capacity = 8192;
    return Status::OK();
  }
  Status Deflate(size_t decrease) override {
    record("Deflate", decrease == 5);
    return Status::OK();
  }
  Status Inflate(size_t increase) override {
    record("Inflate", increase == 7);
    return Status::OK();
  }

 private:
  void record(const char *name, bool arguments_ok) {
    calls.append(name);
    calls.append(arguments_ok ? " " : "(bad arguments) ");
  }
};

// The memory image of a rocksdb::SecondaryCacheWrapper: RocksDB's vtable, the empty options
// vector, and the target.
struct WrapperImage {
  const void *vtable;
  void *registered_options[3];
  std::shared_ptr<SecondaryCache> target;
};
static_assert(offsetof(WrapperImage, target) == 0x20, "SecondaryCacheWrapper keeps target_ at 0x20");

// Calls each of RocksDB's SecondaryCacheWrapper methods on a wrapper around a probe, so RocksDB's
// own compiled virtual calls pick the slots; returns "" when every call reached the method of the
// same name with the arguments it was given, else what happened.
std::string probe_layout() {
  auto probe = std::make_shared<ProbeSecondaryCache>();
  WrapperImage wrapper{static_cast<const char *>(rocksdb.secondary_cache_wrapper_vtable) +
                           2 * sizeof(void *),
                       {nullptr, nullptr, nullptr},
                       probe};
  char key_bytes[16] = {0};
  Slice key{key_bytes, sizeof(key_bytes)};
  std::string problems;
  auto expect = [&](const char *what, bool ok) {
    if (!ok) {
      problems.append(what).append("; ");
    }
  };

  std::string id = rocksdb.customizable_get_id(probe.get());
  expect("Customizable::GetId did not return our Name()", id == "HotrapLayoutProbe");

  Status s = rocksdb.wrapper_insert(&wrapper, key, probe.get(), nullptr, true);
  expect("Insert's status lost", s.code() == Status::kNotFound);
  Slice saved{"abc", 3};
  s = rocksdb.wrapper_insert_saved(&wrapper, key, saved, CompressionType::kNoCompression,
                                   CacheTier::kNonVolatileBlockTier);
  expect("InsertSaved's status lost", s.code() == Status::kInvalidArgument);
  bool kept = false;
  std::unique_ptr<SecondaryCacheResultHandle> handle =
      rocksdb.wrapper_lookup(&wrapper, key, nullptr, nullptr, true, false, nullptr, kept);
  expect("Lookup's handle lost", handle != nullptr && kept && handle->Value() == probe.get() &&
                                     handle->Size() == 42);
  expect("SupportForceErase's result lost", rocksdb.wrapper_support_force_erase(&wrapper));
  rocksdb.wrapper_erase(&wrapper, key);
  rocksdb.wrapper_wait_all(&wrapper, std::vector<SecondaryCacheResultHandle *>{handle.get(), nullptr});
  s = rocksdb.wrapper_set_capacity(&wrapper, 4096);
  expect("SetCapacity's status lost", s.ok());
  size_t capacity = 0;
  s = rocksdb.wrapper_get_capacity(&wrapper, capacity);
  expect("GetCapacity's result lost", s.ok() && capacity == 8192);
  s = rocksdb.wrapper_deflate(&wrapper, 5);
  expect("Deflate's status lost", s.ok());
  s = rocksdb.wrapper_inflate(&wrapper, 7);
  expect("Inflate's status lost", s.ok());

  const std::string wanted =
      "Insert InsertSaved Lookup SupportForceErase Erase WaitAll SetCapacity GetCapacity Deflate "
      "Inflate ";
  if (probe->calls != wanted) {
    problems.append("RocksDB's calls reached: [").append(probe->calls).append("], expected [")
        .append(wanted).append("]");
  }
  return problems;
}

}  // namespace

extern "C" {

JNIEXPORT jstring JNICALL Java_io_hotrap_jni_SecondaryCacheNative_resolve(JNIEnv *env, jclass) {
  std::lock_guard<std::mutex> guard(resolve_lock);
  if (!resolved) {
    try {
      resolve_error = hotrap::rdb::resolve_rocksdb_functions(&rocksdb);
      if (resolve_error.empty() && env->GetJavaVM(&vm) != JNI_OK) {
        resolve_error = "GetJavaVM failed";
      }
      if (resolve_error.empty() && pthread_key_create(&detach_key, detach_at_exit) != 0) {
        resolve_error = "pthread_key_create failed";
      }
      if (resolve_error.empty()) {
        jclass local = env->FindClass("io/hotrap/jni/SecondaryCacheBackend");
        if (local != nullptr) {
          backend_class = static_cast<jclass>(env->NewGlobalRef(local));
          backend_lookup = env->GetMethodID(local, "lookup", "([B)[B");
          backend_insert = env->GetMethodID(local, "insert", "([B[BJ)V");
          backend_erase = env->GetMethodID(local, "erase", "([B)V");
        }
        if (env->ExceptionCheck() || backend_class == nullptr || backend_lookup == nullptr ||
            backend_insert == nullptr || backend_erase == nullptr) {
          env->ExceptionClear();
          resolve_error = "io.hotrap.jni.SecondaryCacheBackend or one of its methods not found";
        }
      }
    } catch (const std::exception &e) {
      resolve_error = std::string("resolving failed: ") + e.what();
    }
    resolved = true;
  }
  if (resolve_error.empty()) {
    return nullptr;
  }
  std::string printable = resolve_error;
  for (char &c : printable) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) {
      c = '?';
    }
  }
  return env->NewStringUTF(printable.c_str());
}

JNIEXPORT void JNICALL Java_io_hotrap_jni_SecondaryCacheNative_vmExiting(JNIEnv *, jclass) {
  vm_exiting.store(true, std::memory_order_release);
}

JNIEXPORT jstring JNICALL Java_io_hotrap_jni_SecondaryCacheNative_probeLayout(JNIEnv *env, jclass) {
  try {
    std::string problems = probe_layout();
    return problems.empty() ? nullptr : env->NewStringUTF(problems.c_str());
  } catch (const std::exception &e) {
    return env->NewStringUTF((std::string("probe threw ") + e.what()).c_str());
  }
}

JNIEXPORT jlongArray JNICALL Java_io_hotrap_jni_SecondaryCacheNative_create(
    JNIEnv *env, jclass, jobject backend, jlong capacity, jint num_shard_bits,
    jboolean strict_capacity_limit, jdouble high_pri_pool_ratio) {
  if (backend == nullptr) {
    throw_new(env, "java/lang/NullPointerException", "backend");
    return nullptr;
  }
  jobject global = env->NewGlobalRef(backend);
  if (global == nullptr) {
    throw_new(env, "java/lang/OutOfMemoryError", "a JNI global reference");
    return nullptr;
  }
  try {
    auto adapter = std::make_shared<FlashSecondaryCache>(global);
    global = nullptr;  // the adapter owns it now
    hotrap::rdb::LRUCacheOptions options;
    options.capacity = static_cast<size_t>(capacity);
    options.num_shard_bits = num_shard_bits;
    options.strict_capacity_limit = strict_capacity_limit == JNI_TRUE;
    options.high_pri_pool_ratio = high_pri_pool_ratio;
    options.secondary_cache = adapter;
    std::shared_ptr<hotrap::rdb::Cache> cache = rocksdb.make_shared_cache(&options);
    if (!cache) {
      throw_new(env, "java/lang/IllegalArgumentException",
                "RocksDB refused the LRU cache options (capacity " + std::to_string(capacity) +
                    ", num_shard_bits " + std::to_string(num_shard_bits) +
                    ", high_pri_pool_ratio " + std::to_string(high_pri_pool_ratio) + ")");
      return nullptr;
    }
    std::unique_ptr<std::shared_ptr<hotrap::rdb::Cache>> cache_handle(
        new std::shared_ptr<hotrap::rdb::Cache>(std::move(cache)));
    std::unique_ptr<std::shared_ptr<SecondaryCache>> adapter_handle(
        new std::shared_ptr<SecondaryCache>(std::move(adapter)));
    jlongArray result = env->NewLongArray(2);
    if (result == nullptr) {
      return nullptr;
    }
    jlong handles[2] = {to_handle(cache_handle.get()), to_handle(adapter_handle.get())};
    env->SetLongArrayRegion(result, 0, 2, handles);
    if (env->ExceptionCheck()) {
      return nullptr;
    }
    cache_handle.release();
    adapter_handle.release();
    return result;
  } catch (const std::exception &e) {
    if (global != nullptr) {
      env->DeleteGlobalRef(global);
    }
    throw_new(env, "java/lang/IllegalStateException",
              std::string("creating the secondary cache failed: ") + e.what());
    return nullptr;
  }
}

JNIEXPORT void JNICALL Java_io_hotrap_jni_SecondaryCacheNative_disposeCache(JNIEnv *, jclass,
                                                                           jlong handle) {
  delete from_handle<std::shared_ptr<hotrap::rdb::Cache>>(handle);
}

JNIEXPORT void JNICALL Java_io_hotrap_jni_SecondaryCacheNative_disposeAdapter(JNIEnv *, jclass,
                                                                             jlong handle) {
  delete from_handle<std::shared_ptr<SecondaryCache>>(handle);
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_SecondaryCacheNative_capacity(JNIEnv *, jclass,
                                                                        jlong cache_handle) {
  return static_cast<jlong>(
      rocksdb.cache_get_capacity(from_handle<std::shared_ptr<hotrap::rdb::Cache>>(cache_handle)));
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_SecondaryCacheNative_liveAdapters(JNIEnv *, jclass) {
  return static_cast<jlong>(live_adapters.load(std::memory_order_relaxed));
}

JNIEXPORT void JNICALL Java_io_hotrap_jni_SecondaryCacheNative_counters(JNIEnv *env, jclass,
                                                                       jlong adapter_handle,
                                                                       jlongArray out) {
  auto *adapter = static_cast<FlashSecondaryCache *>(
      from_handle<std::shared_ptr<SecondaryCache>>(adapter_handle)->get());
  const Counters &c = adapter->counters();
  jlong values[7] = {
      static_cast<jlong>(c.inserts.load(std::memory_order_relaxed)),
      static_cast<jlong>(c.inserted_bytes.load(std::memory_order_relaxed)),
      static_cast<jlong>(c.insert_errors.load(std::memory_order_relaxed)),
      static_cast<jlong>(c.lookups.load(std::memory_order_relaxed)),
      static_cast<jlong>(c.hits.load(std::memory_order_relaxed)),
      static_cast<jlong>(c.lookup_errors.load(std::memory_order_relaxed)),
      static_cast<jlong>(c.erases.load(std::memory_order_relaxed)),
  };
  if (out == nullptr || env->GetArrayLength(out) < 7) {
    throw_new(env, "java/lang/IllegalArgumentException", "counters need a long[7]");
    return;
  }
  env->SetLongArrayRegion(out, 0, 7, values);
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_SecondaryCacheNative_fileGroup(JNIEnv *env, jclass,
                                                                         jlong reader_handle) {
  if (reader_handle == 0) {
    throw_new(env, "java/lang/IllegalStateException", "the SST file reader is closed");
    return 0;
  }
  try {
    std::shared_ptr<const hotrap::rdb::TableProperties> properties =
        rocksdb.sst_table_properties(from_handle<void>(reader_handle));
    if (!properties) {
      return 0;
    }
    size_t length = 0;
    const char *data = rocksdb.table_properties_db_id(properties.get(), &length);
    std::string db_id(data, length);
    data = rocksdb.table_properties_db_session_id(properties.get(), &length);
    std::string session_id(data, length);
    uint64_t file_number = rocksdb.table_properties_orig_file_number(properties.get());
    // Without both, RocksDB keys the file's blocks by its current session and file number, which
    // the file does not record (BlockBasedTable::SetupBaseCacheKey): no stable group.
    if (session_id.empty() || file_number == 0) {
      return 0;
    }
    hotrap::rdb::OffsetableCacheKey base{0, 0};
    rocksdb.offsetable_cache_key(&base, db_id, session_id, file_number);
    return static_cast<jlong>(base.file_num_etc64);
  } catch (const std::exception &e) {
    throw_new(env, "java/lang/IllegalStateException",
              std::string("reading the table properties failed: ") + e.what());
    return 0;
  }
}

}  // extern "C"
