"""The Rust kernels (`tahqiq.core`: normalize, scan, canonical JSON and fingerprint, Lexicon, GlossaryIndex) against
their plain-Python twins in tests/support/, and the shared modules built directly on them (`tahqiq.arabic` keys and
clitics, `tahqiq.json_body`)."""
