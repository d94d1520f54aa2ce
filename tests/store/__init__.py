"""The store: the protocol on SQLite and PostgreSQL, the group-commit batcher, PostgreSQL indexes, several server
processes on one database, and durability across kill -9."""
