# Unit tests (GoogleTest) and the golden corpus.
check-unit:
check-corpus:
