"""pytest configuration: hypothesis without deadlines (timing belongs in benchmarks/)."""

from hypothesis import settings

settings.register_profile("concord", deadline=None, print_blob=True)
settings.load_profile("concord")
