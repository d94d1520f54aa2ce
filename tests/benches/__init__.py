"""The benchmark tools of benches/ measure what they report (A/B rounds, bound variants, the wrk script)."""
