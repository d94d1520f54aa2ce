-- Nothing reads artifacts by submission_id: the index only cost every artifact an insert. (PostgreSQL's version 4
-- also drops the artifacts' foreign keys; here they stay, since dropping one means rebuilding the table, and a
-- check costs SQLite a lookup in a page it has just written.)
DROP INDEX IF EXISTS artifacts_submission;
