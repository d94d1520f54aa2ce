-- Every process caches auth_state answers (agent status, token revocation) and must drop them as soon as either
-- changes, whoever changes it (a server, the CLI, another machine): the database announces each change.
CREATE OR REPLACE FUNCTION tahqiq_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tahqiq_auth', TG_TABLE_NAME);
    RETURN NULL;
END
$$;

CREATE TRIGGER agents_auth_changed
    AFTER UPDATE OF status OR DELETE ON agents
    FOR EACH STATEMENT EXECUTE FUNCTION tahqiq_auth_changed();

CREATE TRIGGER revoked_tokens_auth_changed
    AFTER INSERT OR UPDATE OR DELETE ON revoked_tokens
    FOR EACH STATEMENT EXECUTE FUNCTION tahqiq_auth_changed();
