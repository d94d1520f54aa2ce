"""Area C, Arabic text analysis: the dialect corpus and glossary, morphology, and the lexicon routes.

Language data loads from files (shipped in `data/`, or imported by `tahqiq corpus import`) into memory and into
`tahqiq.core.Lexicon` indexes at start-up; nothing here knows HTTP.
"""
