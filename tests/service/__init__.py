"""The service as a whole, across areas: the web layer (body reads, deadlines, slow clients, shutdown, worker GC),
`tahqiq serve` and the administration command line, settings, the package as users meet it, the docs, the layers
and the package's size limits."""
