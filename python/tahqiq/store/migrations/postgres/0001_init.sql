-- tahqiq schema, version 1 (PostgreSQL). Times: double precision epoch seconds; JSON: text; ids: text.

CREATE TABLE agents (
    agent_id   text PRIMARY KEY,
    name       text NOT NULL,
    role_id    text NOT NULL,
    status     text NOT NULL CHECK (status IN ('active', 'suspended')),
    key_hash   text NOT NULL UNIQUE,
    key_prefix text NOT NULL,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL
);

CREATE TABLE apps (
    app_id     text PRIMARY KEY,
    name       text NOT NULL,
    key_hash   text NOT NULL UNIQUE,
    key_prefix text NOT NULL,
    created_at double precision NOT NULL
);

CREATE TABLE signing_keys (
    kid             text PRIMARY KEY,
    public_key      bytea NOT NULL,
    private_key_enc bytea NOT NULL,
    created_at      double precision NOT NULL,
    retired_at      double precision
);

CREATE TABLE revoked_tokens (
    jti        text PRIMARY KEY,
    expires_at double precision NOT NULL
);
CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_at);

CREATE TABLE claims (
    claim_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    text       text NOT NULL,
    status     text NOT NULL CHECK (status IN ('pending_evidence', 'ready_for_verdict', 'verdict_issued')),
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL
);
CREATE INDEX claims_queue ON claims (status, created_at, claim_id);

-- seq breaks ties between submissions accepted at the same `created_at` (first stored, first applied).
CREATE TABLE submissions (
    submission_id text PRIMARY KEY,
    seq           bigint GENERATED ALWAYS AS IDENTITY,
    agent_id      text NOT NULL,
    role_id       text NOT NULL,
    work_type     text NOT NULL,
    payload       text NOT NULL,
    status        text NOT NULL CHECK (status IN ('accepted', 'processed', 'rejected')),
    reason        text,
    created_at    double precision NOT NULL,
    processed_at  double precision
);
CREATE INDEX submissions_status_created ON submissions (status, created_at);
CREATE INDEX submissions_queue ON submissions (created_at, seq) WHERE status = 'accepted';

CREATE TABLE artifacts (
    artifact_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    claim_id      bigint NOT NULL REFERENCES claims (claim_id),
    role_id       text NOT NULL,
    agent_id      text NOT NULL,
    submission_id text NOT NULL REFERENCES submissions (submission_id),
    work_type     text NOT NULL,
    content       text NOT NULL,
    created_at    double precision NOT NULL
);
CREATE INDEX artifacts_claim_role ON artifacts (claim_id, role_id);
CREATE INDEX artifacts_submission ON artifacts (submission_id);

CREATE TABLE idempotency_keys (
    agent_id    text NOT NULL,
    key         text NOT NULL,
    fingerprint text NOT NULL,
    status      integer NOT NULL,
    body        bytea NOT NULL,
    created_at  double precision NOT NULL,
    PRIMARY KEY (agent_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- ends_at = window_start + window_s: lets prune() drop windows that are over whatever their length.
CREATE TABLE rate_windows (
    bucket       text NOT NULL,
    window_start bigint NOT NULL,
    count        integer NOT NULL,
    ends_at      double precision NOT NULL,
    PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_windows_ends ON rate_windows (ends_at);
