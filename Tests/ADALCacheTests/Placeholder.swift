// Tests for ADALCache.
