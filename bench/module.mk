bench:
