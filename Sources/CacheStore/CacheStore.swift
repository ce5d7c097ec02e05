// The unified cache in SQLite: schema, transactional apply, provenance, export and import.
