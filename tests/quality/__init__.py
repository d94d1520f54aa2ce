"""The gold sets themselves and the aims measured on them: a test here checks that a gold set is well formed and
stays blind or independent, or holds a figure docs/quality.md reports (floors on the unseen sets, the glossary's
recall). Tests of the code's behaviour that merely read a development gold set stay in their area's folder."""
