/*
 * JNI entry points of io.hotrap.jni.NativeMethods and the demotion filter's callbacks.
 *
 * Two kinds of entry point, two rules:
 *  - Called by Java: check every argument (a zero handle, a null or short array) and every
 *    allocation, and report failure as a pending Java exception, never as a crash.
 *  - Called by RocksDB on its compaction threads (filter_decide, filter_name, filter_destroyed):
 *    never touch the JVM, never fail; on anything unexpected keep the record.
 *
 * Ownership (one owner each):
 *  - demotion_set: the Java DemotionSet, through NativeMethods.setClose; each filter state holds an
 *    extra reference (demotion_set.h).
 *  - rocksdb_compactionfilter_t: the Java DemotionFilter, through NativeMethods.filterDestroy, which
 *    calls rocksdb_compactionfilter_destroy.
 *  - filter_state: the compaction filter; RocksDB's destructor of the filter calls filter_destroyed.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demotion_set.h"
#include "rocksdb_capi.h"
#include "value_hash.h"

#define FILTER_NAME "hotrap.DemotionFilter"
#define INLINE_KEY_BYTES 256

typedef struct filter_state {
  demotion_set *set; /* one reference, released when RocksDB destroys the filter */
  uint64_t seen;     /* atomic */
  uint64_t dropped;  /* atomic */
} filter_state;

static pthread_mutex_t resolve_lock = PTHREAD_MUTEX_INITIALIZER;
static rocksdb_capi capi;
static int capi_ready; /* written once under resolve_lock, read with acquire */
static char capi_error[1024];
static long live_filters; /* atomic */

/* ---- helpers ---- */

static void throw_new(JNIEnv *env, const char *class_name, const char *message) {
  if ((*env)->ExceptionCheck(env)) {
    return;
  }
  jclass cls = (*env)->FindClass(env, class_name);
  if (cls != NULL) {
    (*env)->ThrowNew(env, cls, message);
  }
}

/* A Java byte[] copied into native memory; small keys stay on the stack. */
typedef struct bytes {
  unsigned char *data;
  size_t len;
  unsigned char inline_buf[INLINE_KEY_BYTES];
} bytes;

/* 0 on success, else -1 with a Java exception pending. */
static int bytes_copy(JNIEnv *env, jbyteArray array, bytes *out) {
  out->data = out->inline_buf;
  out->len = 0;
  if (array == NULL) {
    throw_new(env, "java/lang/NullPointerException", "key");
    return -1;
  }
  jsize len = (*env)->GetArrayLength(env, array);
  if (len < 0) {
    throw_new(env, "java/lang/IllegalArgumentException", "negative array length");
    return -1;
  }
  if ((size_t)len > sizeof(out->inline_buf)) {
    out->data = malloc((size_t)len);
    if (out->data == NULL) {
      out->data = out->inline_buf;
      throw_new(env, "java/lang/OutOfMemoryError", "native memory for a key");
      return -1;
    }
  }
  out->len = (size_t)len;
  if (len > 0) {
    (*env)->GetByteArrayRegion(env, array, 0, len, (jbyte *)out->data);
    if ((*env)->ExceptionCheck(env)) {
      return -1;
    }
  }
  return 0;
}

static void bytes_free(bytes *b) {
  if (b->data != b->inline_buf) {
    free(b->data);
  }
  b->data = b->inline_buf;
}

static demotion_set *set_from(JNIEnv *env, jlong handle) {
  if (handle == 0) {
    throw_new(env, "java/lang/IllegalStateException", "demotion set is closed");
    return NULL;
  }
  return (demotion_set *)(intptr_t)handle;
}

/* ---- library ---- */

JNIEXPORT jstring JNICALL Java_io_hotrap_jni_NativeMethods_resolve(JNIEnv *env, jclass cls) {
  (void)cls;
  jstring result = NULL;
  pthread_mutex_lock(&resolve_lock);
  if (!__atomic_load_n(&capi_ready, __ATOMIC_ACQUIRE)) {
    rocksdb_capi api;
    memset(&api, 0, sizeof(api));
    const char *error = rocksdb_capi_resolve(&api, capi_error, sizeof(capi_error));
    if (error == NULL) {
      capi = api;
      __atomic_store_n(&capi_ready, 1, __ATOMIC_RELEASE);
    } else {
      /* NewStringUTF wants modified UTF-8; a path may hold any bytes. */
      for (char *c = capi_error; *c != '\0'; c++) {
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7E) {
          *c = '?';
        }
      }
      result = (*env)->NewStringUTF(env, capi_error);
    }
  }
  pthread_mutex_unlock(&resolve_lock);
  return result;
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_valueHash(JNIEnv *env, jclass cls,
                                                                   jbyteArray value, jint offset,
                                                                   jint length) {
  (void)cls;
  if (value == NULL) {
    throw_new(env, "java/lang/NullPointerException", "value");
    return 0;
  }
  jsize array_len = (*env)->GetArrayLength(env, value);
  if (offset < 0 || length < 0 || offset > array_len - length) {
    throw_new(env, "java/lang/IndexOutOfBoundsException", "offset or length outside the array");
    return 0;
  }
  if (length == 0) {
    return (jlong)hotrap_xxh64(NULL, 0, 0);
  }
  unsigned char *copy = malloc((size_t)length);
  if (copy == NULL) {
    throw_new(env, "java/lang/OutOfMemoryError", "native memory for a value");
    return 0;
  }
  (*env)->GetByteArrayRegion(env, value, offset, length, (jbyte *)copy);
  uint64_t h = (*env)->ExceptionCheck(env) ? 0 : hotrap_xxh64(copy, (size_t)length, 0);
  free(copy);
  return (jlong)h;
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_liveSets(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (jlong)demotion_set_live_count();
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_liveFilters(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (jlong)__atomic_load_n(&live_filters, __ATOMIC_RELAXED);
}

/* ---- demotion set ---- */

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_setCreate(JNIEnv *env, jclass cls) {
  (void)cls;
  demotion_set *set = demotion_set_create();
  if (set == NULL) {
    throw_new(env, "java/lang/OutOfMemoryError", "native memory for a demotion set");
    return 0;
  }
  return (jlong)(intptr_t)set;
}

JNIEXPORT void JNICALL Java_io_hotrap_jni_NativeMethods_setClose(JNIEnv *env, jclass cls,
                                                                 jlong handle) {
  (void)env;
  (void)cls;
  if (handle != 0) {
    demotion_set_close((demotion_set *)(intptr_t)handle);
  }
}

JNIEXPORT jboolean JNICALL Java_io_hotrap_jni_NativeMethods_setAdd(JNIEnv *env, jclass cls,
                                                                   jlong handle, jbyteArray key,
                                                                   jlong value_hash) {
  (void)cls;
  demotion_set *set = set_from(env, handle);
  bytes k;
  if (set == NULL || bytes_copy(env, key, &k) != 0) {
    return JNI_FALSE;
  }
  int added = demotion_set_add(set, k.data, k.len, (uint64_t)value_hash);
  bytes_free(&k);
  if (added < 0) {
    throw_new(env, "java/lang/OutOfMemoryError", "native memory for a demotion set entry");
    return JNI_FALSE;
  }
  return added ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jint JNICALL Java_io_hotrap_jni_NativeMethods_setRemove(JNIEnv *env, jclass cls,
                                                                  jlong handle, jbyteArray key) {
  (void)cls;
  demotion_set *set = set_from(env, handle);
  bytes k;
  if (set == NULL || bytes_copy(env, key, &k) != 0) {
    return 0;
  }
  size_t removed = demotion_set_remove(set, k.data, k.len);
  bytes_free(&k);
  return removed > INT32_MAX ? INT32_MAX : (jint)removed;
}

JNIEXPORT jboolean JNICALL Java_io_hotrap_jni_NativeMethods_setContains(JNIEnv *env, jclass cls,
                                                                        jlong handle, jbyteArray key,
                                                                        jlong value_hash) {
  (void)cls;
  demotion_set *set = set_from(env, handle);
  bytes k;
  if (set == NULL || bytes_copy(env, key, &k) != 0) {
    return JNI_FALSE;
  }
  int found = demotion_set_contains(set, k.data, k.len, (uint64_t)value_hash);
  bytes_free(&k);
  return found ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_setSize(JNIEnv *env, jclass cls,
                                                                 jlong handle) {
  (void)cls;
  demotion_set *set = set_from(env, handle);
  return set == NULL ? 0 : (jlong)demotion_set_size(set);
}

JNIEXPORT void JNICALL Java_io_hotrap_jni_NativeMethods_setClear(JNIEnv *env, jclass cls,
                                                                 jlong handle) {
  (void)cls;
  demotion_set *set = set_from(env, handle);
  if (set != NULL) {
    demotion_set_clear(set);
  }
}

/* ---- the compaction filter (called by RocksDB) ---- */

static unsigned char filter_decide(void *state, int level, const char *key, size_t key_length,
                                   const char *existing_value, size_t value_length, char **new_value,
                                   size_t *new_value_length, unsigned char *value_changed) {
  (void)level;
  (void)new_value;
  (void)new_value_length;
  (void)value_changed; /* left at 0: the value is never changed */
  filter_state *s = state;
  if (s == NULL) {
    return 0;
  }
  __atomic_add_fetch(&s->seen, 1, __ATOMIC_RELAXED);
  if (!demotion_set_matches(s->set, key, key_length, existing_value, value_length)) {
    return 0;
  }
  __atomic_add_fetch(&s->dropped, 1, __ATOMIC_RELAXED);
  return 1;
}

static const char *filter_name(void *state) {
  (void)state;
  return FILTER_NAME;
}

/* RocksDB's ~rocksdb_compactionfilter_t calls this, whichever way the filter is deleted. */
static void filter_destroyed(void *state) {
  filter_state *s = state;
  if (s == NULL) {
    return;
  }
  demotion_set_release(s->set);
  free(s);
  __atomic_sub_fetch(&live_filters, 1, __ATOMIC_RELAXED);
}

/* ---- the compaction filter (called by Java) ---- */

/*
 * Creates a filter reading the set; returns the rocksdb_compactionfilter_t* (also a
 * rocksdb::CompactionFilter*, see rocksdb_capi.h) and stores the filter state's address, which
 * the counters read, into state_out[0].
 */
JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_filterCreate(JNIEnv *env, jclass cls,
                                                                      jlong set_handle,
                                                                      jlongArray state_out) {
  (void)cls;
  if (!__atomic_load_n(&capi_ready, __ATOMIC_ACQUIRE)) {
    throw_new(env, "java/lang/IllegalStateException", "RocksDB's C API is not resolved");
    return 0;
  }
  demotion_set *set = set_from(env, set_handle);
  if (set == NULL) {
    return 0;
  }
  if (state_out == NULL || (*env)->GetArrayLength(env, state_out) < 1) {
    throw_new(env, "java/lang/IllegalArgumentException", "state_out must hold one element");
    return 0;
  }
  filter_state *s = calloc(1, sizeof(*s));
  if (s == NULL) {
    throw_new(env, "java/lang/OutOfMemoryError", "native memory for a filter state");
    return 0;
  }
  demotion_set_retain(set);
  s->set = set;
  __atomic_add_fetch(&live_filters, 1, __ATOMIC_RELAXED);
  /* Allocated with C++ new inside RocksDB: if that failed it would throw through this frame and end
     the process, as any allocation failure inside RocksDB does. */
  rocksdb_compactionfilter_t *filter =
      capi.compactionfilter_create(s, filter_destroyed, filter_decide, filter_name);
  if (filter == NULL) {
    filter_destroyed(s);
    throw_new(env, "java/lang/OutOfMemoryError", "rocksdb_compactionfilter_create failed");
    return 0;
  }
  jlong state_handle = (jlong)(intptr_t)s;
  (*env)->SetLongArrayRegion(env, state_out, 0, 1, &state_handle);
  return (jlong)(intptr_t)filter;
}

JNIEXPORT void JNICALL Java_io_hotrap_jni_NativeMethods_filterDestroy(JNIEnv *env, jclass cls,
                                                                      jlong filter_handle) {
  (void)env;
  (void)cls;
  if (filter_handle != 0 && __atomic_load_n(&capi_ready, __ATOMIC_ACQUIRE)) {
    capi.compactionfilter_destroy((rocksdb_compactionfilter_t *)(intptr_t)filter_handle);
  }
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_filterSeen(JNIEnv *env, jclass cls,
                                                                    jlong state_handle) {
  (void)env;
  (void)cls;
  filter_state *s = (filter_state *)(intptr_t)state_handle;
  return s == NULL ? 0 : (jlong)__atomic_load_n(&s->seen, __ATOMIC_RELAXED);
}

JNIEXPORT jlong JNICALL Java_io_hotrap_jni_NativeMethods_filterDropped(JNIEnv *env, jclass cls,
                                                                       jlong state_handle) {
  (void)env;
  (void)cls;
  filter_state *s = (filter_state *)(intptr_t)state_handle;
  return s == NULL ? 0 : (jlong)__atomic_load_n(&s->dropped, __ATOMIC_RELAXED);
}
