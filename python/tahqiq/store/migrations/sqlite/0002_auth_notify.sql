-- PostgreSQL's version 2 announces auth changes with NOTIFY. SQLite readers need no schema for it: they watch
-- `PRAGMA data_version`, which moves whenever another connection commits. Kept so both schemas share versions.
SELECT 1;
