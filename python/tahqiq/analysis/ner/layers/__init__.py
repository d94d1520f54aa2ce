"""The NER's rule layers, run in order over one `Reading` (``LAYERS``).

Each layer is a function ``layer(lexicon, reading) -> None`` that adds spans to the reading (``reading.add``), or
widens, narrows or drops the spans earlier layers found. The order matters: later layers build on what earlier
ones found (a head's complement on the listed names, a name after a title on the heads). Crossing spans are left
for ``resolve``; a span's rank says which wins.
"""

from __future__ import annotations

from collections.abc import Callable

from tahqiq.analysis.ner.layers import events, heads, languages, listed, numeric, persons, places, products
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading

Layer = Callable[[Lexicon, Reading], None]

LAYERS: tuple[Layer, ...] = (
    # layer 1: what the lists know, and numbers
    listed.websites,
    listed.listed_names,
    listed.currencies_with_nisba,
    numeric.numbers_and_dates,
    languages.languages,
    # layer 2: heads and what completes them, then the rules that read names off them
    heads.headed_names,
    heads.member_bodies,
    heads.deputies,
    heads.resolutions,
    heads.heads_read_as_names,
    heads.bodies_of_organisations,
    products.quoted_names,
    products.maker_and_model,
    products.model_letters,
    products.maker_and_unlisted_model,
    products.models,
    events.event_and_law_names,
    events.event_tails,
    events.editions,
    events.host_cities,
    events.races_and_wars,
    places.natural_places,
    places.regions_by_cities,
    places.towns_capitals_states,
    persons.unlisted_titles,
    persons.names_before_titles,
    persons.posts_for_affairs,
    persons.names_after_titles,
    persons.sibling_names,
    persons.everyday_names_need_evidence,
    places.places_hold_no_names,
)
