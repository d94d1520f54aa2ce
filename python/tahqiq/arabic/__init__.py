"""Arabic keys and clitics: the comparison forms and the clitic and affix strippers the areas share.

- :mod:`tahqiq.arabic.keys`: one named function per normalisation in use, each a fixed set of options of
  :func:`tahqiq.core.normalize` (``bare``, ``loose``, ``loose_unpunctuated``, ``loose_unpunctuated_ta_folded``,
  ``key``).
- :mod:`tahqiq.arabic.clitics`: the proclitic and suffix tables, once per distinct table, and the functions that
  strip them (the relation layer's proclitic, the NER article and stems, WSD's and the summaries' light stems).

Where two helpers differed, even by one letter or one length bound, they stay two functions here under names that
say what each folds or strips, so that every caller keeps its exact behaviour. The package imports
:mod:`tahqiq.core` only (import-linter, pyproject.toml).
"""
