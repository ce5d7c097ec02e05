// Tests for UnifiedCache.
