"""Multi-label annotation: agreement on each label of label sets."""
