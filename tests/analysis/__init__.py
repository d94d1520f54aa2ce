"""Area C, Arabic analysis: NER, relations, morphology, word senses, dialect and glossary, corpus import, the analysis
routes and their worker pool, and the behaviour snapshot of every gold answer."""
