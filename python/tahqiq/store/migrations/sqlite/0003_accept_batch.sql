-- PostgreSQL's version 3 adds tahqiq_accept, which stores a batch of accepted submissions in one round trip.
-- SQLite runs in the serving process and needs no schema for it. Kept so both schemas share versions.
SELECT 1;
