"""The dialect corpora: the schema every corpus is written in (``schema``), the shipped corpus and the ones a user
imports (``importer``; ``data/`` holds the project's own, CC BY-SA 4.0), and sentence lookup and the glossary
over them (``dialect``)."""
