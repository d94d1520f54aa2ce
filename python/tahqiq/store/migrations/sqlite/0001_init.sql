-- tahqiq schema, version 1 (SQLite). Times: REAL epoch seconds; JSON: TEXT; ids: TEXT.

CREATE TABLE agents (
    agent_id   TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    role_id    TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('active', 'suspended')),
    key_hash   TEXT NOT NULL UNIQUE,
    key_prefix TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE apps (
    app_id     TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    key_hash   TEXT NOT NULL UNIQUE,
    key_prefix TEXT NOT NULL,
    created_at REAL NOT NULL
);

CREATE TABLE signing_keys (
    kid             TEXT PRIMARY KEY,
    public_key      BLOB NOT NULL,
    private_key_enc BLOB NOT NULL,
    created_at      REAL NOT NULL,
    retired_at      REAL
);

CREATE TABLE revoked_tokens (
    jti        TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_at);

CREATE TABLE claims (
    claim_id   INTEGER PRIMARY KEY AUTOINCREMENT,
    text       TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('pending_evidence', 'ready_for_verdict', 'verdict_issued')),
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX claims_queue ON claims (status, created_at, claim_id);

-- rowid breaks ties between submissions accepted at the same `created_at` (first stored, first applied).
CREATE TABLE submissions (
    submission_id TEXT PRIMARY KEY,
    agent_id      TEXT NOT NULL,
    role_id       TEXT NOT NULL,
    work_type     TEXT NOT NULL,
    payload       TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('accepted', 'processed', 'rejected')),
    reason        TEXT,
    created_at    REAL NOT NULL,
    processed_at  REAL
);
CREATE INDEX submissions_queue ON submissions (status, created_at);

CREATE TABLE artifacts (
    artifact_id   INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id      INTEGER NOT NULL REFERENCES claims (claim_id),
    role_id       TEXT NOT NULL,
    agent_id      TEXT NOT NULL,
    submission_id TEXT NOT NULL REFERENCES submissions (submission_id),
    work_type     TEXT NOT NULL,
    content       TEXT NOT NULL,
    created_at    REAL NOT NULL
);
CREATE INDEX artifacts_claim_role ON artifacts (claim_id, role_id);
CREATE INDEX artifacts_submission ON artifacts (submission_id);

CREATE TABLE idempotency_keys (
    agent_id    TEXT NOT NULL,
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status      INTEGER NOT NULL,
    body        BLOB NOT NULL,
    created_at  REAL NOT NULL,
    PRIMARY KEY (agent_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- ends_at = window_start + window_s: lets prune() drop windows that are over whatever their length.
CREATE TABLE rate_windows (
    bucket       TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    count        INTEGER NOT NULL,
    ends_at      REAL NOT NULL,
    PRIMARY KEY (bucket, window_start)
) WITHOUT ROWID;
CREATE INDEX rate_windows_ends ON rate_windows (ends_at);
