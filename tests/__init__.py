"""The test suite, a package so that its helpers are imported one way from anywhere in the repository:
`from tests.support.server import ServerProcess` (tests, benches/, scripts/). conftest.py (here) holds the fixtures
every folder shares; gold/ the project's gold sets."""
