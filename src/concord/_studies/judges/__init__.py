"""The judge study: accuracy against gold, self-consistency, the study itself."""
