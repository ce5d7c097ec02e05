// Tests for CacheStore.
