"""One module per coefficient family, and the registry.

Each family module holds the public function, its exact core, its float twin for
resampling and its variance, side by side; the registry says the rest.
"""
