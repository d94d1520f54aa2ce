"""Arabic named-entity recognition: the 21 Wojood types, nested (outermost first) and flat (docs/design/ner.md).

Everything is compared in one key form, ``tahqiq.arabic.keys.key``, over the tokens of ``tahqiq.core.scan``; a
span always covers whole scanned tokens. The package, in the order a text goes through it:

- ``lexicon``: every list compiled once (``data/*.txt``, which the project writes, and the gazetteers of installed
  packages); ``cues``: the word lists the rules read (``data/cues.txt``).
- ``layers``: the rules, one named function per rule, run in order (``layers.LAYERS``) over a ``reading.Reading``.
  Layer 1 finds what the lists know (gazetteer longest match with clitics stripped, person names, nisbas, numbers,
  websites); layer 2 builds on it: numeric entities, heads and their complements (``complement``), then names,
  events, products, places, languages and dates read off those (``dates``, ``words``).
- ``resolve``: crossing spans dropped (longer and earlier layers first), numbers inside numeric entities and
  anything inside a person's name dropped; depth is the number of enclosing spans.
- ``tagger``: the learned boundary layer for PERS, OCC and FAC over the rules; ``recognizer``: all of it together.
"""

from tahqiq.analysis.ner.cues import TYPES
from tahqiq.analysis.ner.recognizer import Entity, Recognizer, default_recognizer, recognize, sizes, tag

__all__ = ["TYPES", "Entity", "Recognizer", "default_recognizer", "recognize", "sizes", "tag"]
