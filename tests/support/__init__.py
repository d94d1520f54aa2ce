"""Helpers of the tests and the benchmarks, no tests: real servers, fake upstreams, hypothesis strategies, the
plain-Python reference twins of the kernels."""
