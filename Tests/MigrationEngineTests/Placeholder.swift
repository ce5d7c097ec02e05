// Tests for MigrationEngine.
